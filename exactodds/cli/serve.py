"""``exactodds serve``: the live shoe tracker and the JSON API, on this computer."""

from __future__ import annotations

import secrets
import socket
import sqlite3
from pathlib import Path
from typing import Any

import click

from exactodds.bets.bet import Bet
from exactodds.cli.app import signals_request_stop
from exactodds.errors import ExactOddsError, import_extra
from exactodds.interface import GAMES

#: Hosts that only this computer can reach.
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def default_database() -> Path:
    """Where shoes are kept without ``--db``: the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("exactodds", appauthor=False)) / "tracker.sqlite3"


def database_path(database: Path | None) -> Path:
    """The ``--db`` file, in a folder that exists (the default folder is created, a named one
    must exist: a typo is refused, not made into folders)."""
    if database is None:
        path = default_database()
        path.parent.mkdir(parents=True, exist_ok=True)
        return path
    if not database.name or database.is_dir():
        raise click.UsageError(
            f"--db {str(database)!r} names no file; give a file such as tracker.sqlite3."
        )
    folder = database.parent if str(database.parent) else Path(".")
    if not folder.is_dir():
        raise click.UsageError(
            f"Cannot keep shoes in {str(database)!r}: the folder {str(folder)!r} does not exist; "
            "create it first, or choose another --db."
        )
    return database


def _open_app(
    path: Path, custom: list[Bet], hosts: tuple[str, ...], token: str | None, game: str
) -> Any:
    """The app on *path*; a file that cannot be the tracker's (foreign, corrupt, not SQLite,
    unreadable, full) is a runtime failure: exit 1, one sentence."""
    from exactodds.web.app import create_app

    try:
        return create_app(path, custom, hosts=hosts, token=token, game=game)
    except ExactOddsError as error:  # ForeignDatabaseError, StoreFullError
        raise click.ClickException(str(error)) from None
    except (OSError, sqlite3.Error) as error:
        raise click.ClickException(
            f"Cannot open the database {str(path)!r} ({error}); choose another --db."
        ) from None


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to *host*:*port*, or a one-sentence error."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise click.UsageError(
            f"Host {host!r} is not an address of this computer; use 127.0.0.1 (the default)."
        ) from None
    family, kind, protocol, _, address = infos[0]
    listener = socket.socket(family, kind, protocol)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as error:
        listener.close()
        raise click.ClickException(
            f"Cannot listen on {host}:{port} ({error.strerror}); choose another --port."
        ) from None
    listener.listen(128)
    return listener


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. The default reaches this computer only; any other (0.0.0.0: "
    "every network interface) makes every API request need the token printed at start-up, "
    "and other computers are answered only for the names given with --allow-host.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0 picks a free one).",
)
@click.option(
    "--db",
    "database",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file that keeps the tracked shoes (default: tracker.sqlite3 in your user "
    "data folder). Created when missing, in a folder that exists.",
)
@click.option(
    "--allow-host",
    "allowed_hosts",
    metavar="NAME",
    multiple=True,
    help="Another name or address the tracker answers to (say, this computer's LAN address). "
    "Requests then need the token printed at start-up. May be repeated.",
)
@click.option(
    "--game",
    type=click.Choice(GAMES),
    default="baccarat",
    show_default=True,
    help="The game the page starts new tables with: baccarat, or dragon-tiger (one card to the "
    "Dragon, one to the Tiger; docs/serve.md). Each table keeps its own game; the API's "
    '"game" setting chooses it per table.',
)
@click.option(
    "--bet-file",
    "bet_files",
    metavar="FILE",
    multiple=True,
    help="A TOML file of your own bets (see examples/bets/) for the page and the API to offer. "
    "May be repeated.",
)
def serve(
    host: str,
    port: int,
    database: Path | None,
    allowed_hosts: tuple[str, ...],
    game: str,
    bet_files: tuple[str, ...],
) -> None:
    """Serve the live shoe tracker page and the JSON API.

    It listens on 127.0.0.1, so only this computer can reach it, unless --host
    says otherwise. Open the address it prints in a browser: record each card
    as it is dealt, and every chosen bet's exact EV and edge update at once. Shoes are kept in SQLite,
    so a reload or a restart resumes them. The API (POST /api/odds, /api/eor,
    /api/batch; /api/shoes/...) takes the command line's options as JSON and
    answers with the commands' JSON; its schema is at /openapi.json and /docs.
    Only the tracker's own page may change a shoe: requests from other sites,
    for other host names, or not sent as JSON are refused. With --allow-host,
    or a --host that other computers can reach, every API request and
    /openapi.json need the token printed at start-up: in an X-Exactodds-Token
    header, or, on a GET only, as ?token= in the address (the printed address
    carries it); the page and /docs need none. Ctrl-C or SIGTERM stops it:
    "Stopped.", exit 0.

    \b
    Examples:
      exactodds serve                                  # http://127.0.0.1:8000
      exactodds serve --port 8080 --db ~/baccarat.sqlite3
      exactodds serve --bet-file examples/bets/six_bonus.toml
      exactodds serve --game dragon-tiger              # new tables deal Dragon Tiger
      exactodds serve --host 0.0.0.0 --allow-host 192.168.1.20
      curl -s http://127.0.0.1:8000/api/odds -H 'Content-Type: application/json' \\
           -d '{"decks": 6, "bets": "tie"}'
    """
    uvicorn = import_extra("uvicorn, starlette, platformdirs", "The tracker", "web")
    from exactodds.bets.catalogue import available_bets
    from exactodds.bets.custom import load_custom_bets

    custom: list[Bet] = []
    for bet_file in bet_files:
        custom.extend(
            load_custom_bets(bet_file, [*available_bets(), *(bet.name for bet in custom)])
        )
    path = database_path(database)
    open_to_others = host not in LOOPBACK or bool(allowed_hosts)
    token = secrets.token_urlsafe(18) if open_to_others else None
    hosts = (host, *allowed_hosts) if host not in ("0.0.0.0", "::") else allowed_hosts
    app = _open_app(path, custom, hosts, token, game)
    listener = _listen(host, port)
    # The app answers 503 itself past 100 requests in flight (a JSON sentence, as every error).
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))

    def stop(_number: int) -> None:  # Ctrl-C or SIGTERM: finish the requests, then leave
        server.should_exit = True

    with signals_request_stop(stop):
        _say_where(host, listener.getsockname()[1], hosts, token, path)
        server.run(sockets=[listener])
    click.echo("Stopped.", err=True)


def _say_where(
    host: str, bound: int, hosts: tuple[str, ...], token: str | None, path: Path
) -> None:
    """The address to open (with the token when others can reach it) and the database, on stderr."""
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Serving the exactodds tracker on http://{shown}:{bound}/", err=True)
    if token is None:
        click.echo(
            "Only this computer can reach it (use --host 0.0.0.0 --allow-host ADDRESS to open "
            "it to your network).",
            err=True,
        )
    else:
        names = ", ".join(hosts) or "no name but this computer's (add --allow-host ADDRESS)"
        click.echo(f"Other computers can reach it as {names}, with this token:", err=True)
        for name in hosts or ("127.0.0.1",):
            shown_name = f"[{name}]" if ":" in name else name
            click.echo(f"  http://{shown_name}:{bound}/?token={token}", err=True)
    click.echo(f"Shoes are kept in {path}. Press Ctrl+C to stop.", err=True)
