"""The tracker's SQLite store: every tracked shoe and every event, one source of truth.

Five tables: ``meta`` (the schema version), ``shoes`` (one row per shoe, with its table name, the
game it deals and its settings as canonical JSON; a finished shoe is kept, read-only, when "new shoe" starts the
next one), ``events`` (what was dealt, in order, each hand card with its place), ``undone``
(the events undone since the last new one, most recent last, for redo) and ``requests`` (the
idempotency keys of the writes already done, each with a fingerprint of its route and body, so
a re-sent tap counts once and a key reused for another request is refused).

Every write is one ``BEGIN IMMEDIATE`` transaction that reads the shoe again, checks the new
events against it (the rank limits, the places, the drawing rules) and writes, so two taps at
once, or two ``exactodds serve`` processes on one file, can never together deal a card the shoe
does not hold; a writer that finds the file busy waits (``busy_timeout``) rather than fail.  A
file that is not the tracker's is refused before anything is written to it.

>>> store = Store(":memory:")
>>> shoe = store.create("Table 1", TableSettings(decks=6))
>>> [event.cards for event in store.append(shoe.id, [Event("card", "K")]).events]
['K']
>>> store.undo(shoe.id).events
()
>>> [event.cards for event in store.redo(shoe.id).events]
['K']
>>> store.shoe(99)
Traceback (most recent call last):
...
exactodds.web.store.UnknownShoeError: No tracked shoe has id 99; GET /api/shoes lists them.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from exactodds.errors import ExactOddsError
from exactodds.inputs import MAX_DECKS
from exactodds.web.tracker import Event, TableSettings, table_state

__all__ = [
    "EXPORT_FORMAT",
    "MAX_EVENTS",
    "MAX_NAME",
    "MAX_SHOES",
    "ForeignDatabaseError",
    "KeyReusedError",
    "NothingToRedoError",
    "ShoeFinishedError",
    "Store",
    "StoreBusyError",
    "StoreFullError",
    "StoreLimitError",
    "StoredShoe",
    "UnknownShoeError",
    "check_database_file",
]

SCHEMA_VERSION = 4
#: ``PRAGMA application_id`` of a tracker file ("EXOD"), so another program's file is told apart.
APPLICATION_ID = 0x45584F44
#: The most shoes kept open at once (finished ones do not count).
MAX_SHOES = 100
#: The most events one shoe records: every card of the most decks and a round's end for each
#: card, with room to spare (cards, burns and round ends).
MAX_EVENTS = 2 * 52 * MAX_DECKS
#: The longest table name.
MAX_NAME = 60
#: How long a write waits for another writer (another thread or ``serve`` process), in ms.
BUSY_TIMEOUT_MS = 30_000
_TABLES = frozenset({"meta", "shoes", "events", "undone", "requests"})
#: The ``format`` of a shoe exported as JSON (:meth:`StoredShoe.to_dict`).
EXPORT_FORMAT = "exactodds-tracker-shoe"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS shoes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    game TEXT NOT NULL DEFAULT 'baccarat',
    started_at TEXT NOT NULL,
    finished_at TEXT,
    follows INTEGER REFERENCES shoes(id)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    shoe_id INTEGER NOT NULL REFERENCES shoes(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    cards TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    recorded_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_shoe ON events (shoe_id, id);
CREATE TABLE IF NOT EXISTS undone (
    id INTEGER PRIMARY KEY,
    shoe_id INTEGER NOT NULL REFERENCES shoes(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    cards TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS requests (
    shoe_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    done_at TEXT NOT NULL,
    fingerprint TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (shoe_id, key)
);
"""


class UnknownShoeError(ExactOddsError):
    """A shoe id that names no tracked shoe (answered with 404)."""


class StoreLimitError(ExactOddsError):
    """A request that would grow the store past its limits."""


class ShoeFinishedError(ExactOddsError):
    """A change asked of a finished shoe, which is read-only until reopened (409)."""


class StoreBusyError(ExactOddsError):
    """The database stayed locked by another writer past the busy timeout (503)."""


class StoreFullError(ExactOddsError):
    """The database's disk (or its size limit) is full: nothing was stored (answered with 409).

    Not a 5xx: the server is not at fault and a blind retry cannot help; the one who runs it
    can (free space, then send the tap again).
    """


class KeyReusedError(ExactOddsError):
    """An idempotency key sent again with another route or body (answered with 409)."""


class NothingToRedoError(ExactOddsError):
    """A redo with no undone event to bring back (answered with 409)."""


class ForeignDatabaseError(ExactOddsError):
    """A database file that is not the tracker's: refused, and left as it was."""


@dataclass(frozen=True)
class StoredShoe:
    """A tracked shoe as stored: its id, table name, settings and events."""

    id: int
    name: str
    settings: TableSettings
    events: tuple[Event, ...]
    started_at: str
    finished_at: str | None
    follows: int | None = None
    undone: tuple[Event, ...] = ()

    def summary(self) -> dict[str, object]:
        """JSON-ready data for the shoe's view (``undone``: what redo brings back, last first)."""
        return {
            "id": self.id,
            "name": self.name,
            "game": self.settings.game,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "events": len(self.events),
            "follows": self.follows,
            "undone": [event.to_dict() for event in reversed(self.undone)],
        }

    def to_dict(self) -> dict[str, Any]:
        """The shoe exported as JSON: its settings, every event in order and every round.

        >>> shoe = Store(":memory:").create("T", TableSettings(decks=1), events=[Event("card", "K")])
        >>> data = shoe.to_dict()
        >>> data["format"], data["events"], data["rounds"]
        ('exactodds-tracker-shoe', [{'kind': 'card', 'cards': 'K'}], [])
        """
        state = table_state(self.settings, self.events)
        return {
            "format": EXPORT_FORMAT,
            "version": 1,
            "name": self.name,
            "settings": self.settings.to_dict(),
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "events": [event.to_dict() for event in self.events],
            "rounds": [one.to_dict() for one in state.rounds],
        }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def check_database_file(path: Path) -> None:
    """Refuse a file that exists and is not a tracker database, without writing to it.

    It is opened read-only; an empty file, or one whose tables are all the tracker's, passes.
    """
    if not path.exists() or path.stat().st_size == 0:
        return
    shown = str(path)
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
            (application,) = connection.execute("PRAGMA application_id").fetchone()
            tables = {
                row[0]
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        connection.close()
    except sqlite3.Error:
        raise ForeignDatabaseError(
            f"The file {shown!r} is not an SQLite database; choose another --db."
        ) from None
    if application not in (0, APPLICATION_ID) or not tables <= _TABLES or "shoes" not in tables:
        listed = ", ".join(sorted(tables)[:5]) or "no tables"
        raise ForeignDatabaseError(
            f"The database {shown!r} is not the tracker's (it holds {listed}); it was left "
            "unchanged: choose another --db."
        )


class Store:
    """Tracked shoes in one SQLite file (``":memory:"`` for a throwaway store).

    Each thread has its own connection to a file; ``":memory:"`` has one connection behind a
    lock.  *read_settings* turns a shoe's stored settings back into objects; it is called once
    per distinct settings text, not on every read.
    """

    def __init__(
        self,
        path: str | Path,
        read_settings: Callable[[Mapping[str, Any]], TableSettings] | None = None,
        *,
        max_pages: int | None = None,
    ) -> None:
        self.path = str(path)
        self._max_pages = max_pages  # SQLite's max_page_count: a size limit (tests: a full disk)
        self._memory = self.path == ":memory:"
        if not self._memory:
            check_database_file(Path(path))
        self._read_settings = read_settings or _plain_settings
        self._settings: dict[str, TableSettings] = {}
        self._local = threading.local()
        self._lock: AbstractContextManager[Any] = (
            threading.RLock() if self._memory else nullcontext()
        )
        # Writers of this process take turns here, so SQLite's busy handler (which sleeps and
        # retries) is met only across processes; readers never wait (WAL).
        self._writers = threading.Lock()
        self._shared = self._open() if self._memory else None
        with self._write() as connection:
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
            _migrate(connection)

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000
        )
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA foreign_keys = ON")
        if self._max_pages is not None:
            connection.execute(f"PRAGMA max_page_count = {int(self._max_pages)}")
        if not self._memory:
            connection.execute("PRAGMA journal_mode = WAL")
            # In WAL mode, NORMAL loses no committed write when a process dies (kill -9), only
            # possibly the last ones on a power cut; FULL would fsync on every tap.
            connection.execute("PRAGMA synchronous = NORMAL")
        return connection

    def _connection(self) -> sqlite3.Connection:
        if self._shared is not None:
            return self._shared
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = self._open()
        return connection

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            connection = self._connection()
            try:
                connection.execute(begin)
            except sqlite3.OperationalError:
                raise StoreBusyError(
                    "The tracker's database stayed busy with another writer; try again."
                ) from None
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException as error:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                if isinstance(error, sqlite3.OperationalError) and _is_full(error):
                    raise StoreFullError(
                        "The tracker's database is full (its disk has no room left), so nothing "
                        "was stored; free some space and send it again."
                    ) from None
                raise

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._writers, self._transaction("BEGIN IMMEDIATE") as connection:
            yield connection

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._transaction("BEGIN")

    def close(self) -> None:
        """Close this thread's connection (and the shared one of a memory store)."""
        with self._lock:
            self._connection().close()

    def shoes(self, finished: bool = False) -> list[dict[str, object]]:
        """The open shoes (with *finished*, every shoe), oldest first, as :meth:`StoredShoe.summary`.

        Read from the rows alone, so a shoe whose settings no longer read (say, after an
        upgrade renamed a bet) still shows in the list and can be deleted.
        """
        with self._read() as connection:
            rows = connection.execute(
                "SELECT shoes.id, name, game, started_at, finished_at, COUNT(events.id), follows "
                "FROM shoes LEFT JOIN events ON events.shoe_id = shoes.id"
                + ("" if finished else " WHERE finished_at IS NULL")
                + " GROUP BY shoes.id ORDER BY shoes.id"
            ).fetchall()
        keys = ("id", "name", "game", "started_at", "finished_at", "events", "follows")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def shoe(self, shoe_id: int) -> StoredShoe:
        """One shoe by id."""
        with self._read() as connection:
            return self._load(connection, shoe_id)

    def _settings_of(self, text: str) -> TableSettings:
        settings = self._settings.get(text)
        if settings is None:
            settings = self._read_settings(json.loads(text))
            if len(self._settings) > 512:
                self._settings.clear()
            self._settings[text] = settings
        return settings

    def _load(self, connection: sqlite3.Connection, shoe_id: int) -> StoredShoe:
        row = connection.execute(
            "SELECT id, name, settings, started_at, finished_at, follows FROM shoes WHERE id = ?",
            (shoe_id,),
        ).fetchone()
        if row is None:
            raise UnknownShoeError(f"No tracked shoe has id {shoe_id}; GET /api/shoes lists them.")
        events = connection.execute(
            "SELECT kind, cards, position FROM events WHERE shoe_id = ? ORDER BY id", (shoe_id,)
        ).fetchall()
        undone = connection.execute(
            "SELECT kind, cards, position FROM undone WHERE shoe_id = ? ORDER BY id", (shoe_id,)
        ).fetchall()
        return StoredShoe(
            id=row[0],
            name=row[1],
            settings=self._settings_of(row[2]),
            events=tuple(_event(kind, cards, position) for kind, cards, position in events),
            started_at=row[3],
            finished_at=row[4],
            follows=row[5],
            undone=tuple(_event(kind, cards, position) for kind, cards, position in undone),
        )

    def create(
        self,
        name: str,
        settings: TableSettings,
        follows: int | None = None,
        events: Sequence[Event] = (),
        key: str | None = None,
        fingerprint: str = "",
    ) -> StoredShoe:
        """Start tracking a new shoe at table *name* (with *events* already dealt, for imports).

        *follows* is the shoe it follows at the table, finished in the same transaction.
        """
        name = _checked_name(name)
        if len(events) > MAX_EVENTS:
            raise StoreLimitError(f"The shoe has {len(events):,} events; at most {MAX_EVENTS}.")
        with self._write() as connection:
            (open_shoes,) = connection.execute(
                "SELECT COUNT(*) FROM shoes WHERE finished_at IS NULL"
            ).fetchone()
            if open_shoes >= MAX_SHOES:
                raise StoreLimitError(
                    f"{open_shoes} shoes are open already; finish or delete one first (at most "
                    f"{MAX_SHOES})."
                )
            if follows is not None:
                _require_open(self._load(connection, follows))
                connection.execute(
                    "UPDATE shoes SET finished_at = ? WHERE id = ?", (_now(), follows)
                )
                _remember(connection, key, follows, fingerprint)
            cursor = connection.execute(
                "INSERT INTO shoes (name, settings, game, started_at, follows) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, _settings_text(settings), settings.game, _now(), follows),
            )
            assert cursor.lastrowid is not None
            _insert(connection, cursor.lastrowid, events)
            return self._load(connection, cursor.lastrowid)

    def _begin(
        self, connection: sqlite3.Connection, shoe_id: int, key: str | None, fingerprint: str
    ) -> tuple[StoredShoe, bool]:
        """The shoe a write changes, and whether *key* says this write was done already.

        A write done before (the same *key* and *fingerprint*) is answered with the shoe as it
        is; another write needs the shoe open (not finished).
        """
        shoe = self._load(connection, shoe_id)
        if key is not None and _seen(connection, shoe_id, key, fingerprint):
            return shoe, True
        _require_open(shoe)
        return shoe, False

    def append(
        self,
        shoe_id: int,
        events: Sequence[Event],
        check: Callable[[StoredShoe, Sequence[Event]], Sequence[Event]] | None = None,
        key: str | None = None,
        fingerprint: str = "",
    ) -> StoredShoe:
        """Record *events* after the shoe's others; the shoe as stored after them.

        *check* (the shoe as stored, the new events) runs inside the write transaction and
        returns the events to store (it may fill in their places) or raises. A *key* already
        used with the same *fingerprint* (the request's route and body) makes this a no-op: a
        re-sent tap is stored once; with another fingerprint it is refused. New events clear
        what redo could bring back.
        """
        with self._write() as connection:
            shoe, done = self._begin(connection, shoe_id, key, fingerprint)
            if done:
                return shoe
            if len(shoe.events) + len(events) > MAX_EVENTS:
                raise StoreLimitError(
                    f"Shoe {shoe_id} has {len(shoe.events)} events; a shoe records at most "
                    f"{MAX_EVENTS}."
                )
            if check is not None:
                events = check(shoe, events)
            _insert(connection, shoe_id, events)
            connection.execute("DELETE FROM undone WHERE shoe_id = ?", (shoe_id,))
            _remember(connection, key, shoe_id, fingerprint)
            return dataclasses.replace(shoe, events=(*shoe.events, *events), undone=())

    def undo(self, shoe_id: int, key: str | None = None, fingerprint: str = "") -> StoredShoe:
        """Forget the shoe's last event (if it has one), kept for redo; the shoe as stored after."""
        with self._write() as connection:
            shoe, done = self._begin(connection, shoe_id, key, fingerprint)
            if done:
                return shoe
            last = connection.execute(
                "SELECT id, kind, cards, position FROM events WHERE shoe_id = ? "
                "ORDER BY id DESC LIMIT 1",
                (shoe_id,),
            ).fetchone()
            if last is not None:
                connection.execute(
                    "INSERT INTO undone (shoe_id, kind, cards, position) VALUES (?, ?, ?, ?)",
                    (shoe_id, *last[1:]),
                )
                connection.execute("DELETE FROM events WHERE id = ?", (last[0],))
            _remember(connection, key, shoe_id, fingerprint)
            return self._load(connection, shoe_id)

    def redo(
        self,
        shoe_id: int,
        check: Callable[[StoredShoe, Sequence[Event]], Sequence[Event]] | None = None,
        key: str | None = None,
        fingerprint: str = "",
    ) -> StoredShoe:
        """Record again the event undone last (checked by *check*, as :meth:`append` does)."""
        with self._write() as connection:
            shoe, done = self._begin(connection, shoe_id, key, fingerprint)
            if done:
                return shoe
            row = connection.execute(
                "SELECT id, kind, cards, position FROM undone WHERE shoe_id = ? "
                "ORDER BY id DESC LIMIT 1",
                (shoe_id,),
            ).fetchone()
            if row is None:
                raise NothingToRedoError(
                    f"Shoe {shoe_id} has nothing to redo: no event was undone since the last "
                    "one recorded."
                )
            events: Sequence[Event] = [_event(row[1], row[2], row[3])]
            if check is not None:
                events = check(shoe, events)
            connection.execute("DELETE FROM undone WHERE id = ?", (row[0],))
            _insert(connection, shoe_id, events)
            _remember(connection, key, shoe_id, fingerprint)
            return self._load(connection, shoe_id)

    def update(self, shoe_id: int, change: Callable[[StoredShoe], TableSettings]) -> StoredShoe:
        """Change a shoe's settings to ``change(shoe)``, read and checked inside the transaction."""
        with self._write() as connection:
            shoe = self._load(connection, shoe_id)
            _require_open(shoe)
            settings = change(shoe)
            connection.execute(
                "UPDATE shoes SET settings = ?, game = ? WHERE id = ?",
                (_settings_text(settings), settings.game, shoe_id),
            )
            return self._load(connection, shoe_id)

    def finish(self, shoe_id: int, key: str | None = None, fingerprint: str = "") -> StoredShoe:
        """Finish a shoe and start the next one at the same table, same settings.

        With a *key* already used, the shoe that followed it then is the answer again.
        """
        shoe = self.shoe(shoe_id)
        if key is not None:
            with self._read() as connection:
                row = None
                if _seen(connection, shoe_id, key, fingerprint):
                    row = connection.execute(
                        "SELECT shoes.id FROM requests JOIN shoes ON shoes.follows = "
                        "requests.shoe_id WHERE requests.key = ? AND requests.shoe_id = ?",
                        (key, shoe_id),
                    ).fetchone()
                if row is not None:
                    return self._load(connection, row[0])
        return self.create(
            shoe.name, shoe.settings, follows=shoe_id, key=key, fingerprint=fingerprint
        )

    def reopen(self, shoe_id: int) -> StoredShoe:
        """Make a finished shoe open (and changeable) again.

        A table has one open shoe: the shoes before and after this one at its table (linked
        by "new shoe") that are open are finished in the same transaction (kept, read-only,
        and reopenable in turn).
        """
        with self._write() as connection:
            shoe = self._load(connection, shoe_id)
            if shoe.finished_at is None:
                return shoe
            others = _table_chain(connection, shoe_id) - {shoe_id}
            stamp = _now()
            for other in sorted(others):
                connection.execute(
                    "UPDATE shoes SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                    (stamp, other),
                )
            (open_shoes,) = connection.execute(
                "SELECT COUNT(*) FROM shoes WHERE finished_at IS NULL"
            ).fetchone()
            if open_shoes >= MAX_SHOES:
                raise StoreLimitError(
                    f"{open_shoes} shoes are open already; finish or delete one first."
                )
            connection.execute("UPDATE shoes SET finished_at = NULL WHERE id = ?", (shoe_id,))
            return self._load(connection, shoe_id)

    def delete(self, shoe_id: int) -> None:
        """Forget a shoe and its events (whether or not its settings still read)."""
        with self._write() as connection:
            if (
                connection.execute("SELECT 1 FROM shoes WHERE id = ?", (shoe_id,)).fetchone()
                is None
            ):
                raise UnknownShoeError(
                    f"No tracked shoe has id {shoe_id}; GET /api/shoes lists them."
                )
            connection.execute("DELETE FROM events WHERE shoe_id = ?", (shoe_id,))
            connection.execute("DELETE FROM requests WHERE shoe_id = ?", (shoe_id,))
            connection.execute("DELETE FROM undone WHERE shoe_id = ?", (shoe_id,))
            connection.execute("UPDATE shoes SET follows = NULL WHERE follows = ?", (shoe_id,))
            connection.execute("DELETE FROM shoes WHERE id = ?", (shoe_id,))


@functools.lru_cache(maxsize=8192)
def _event(kind: str, cards: str, position: int) -> Event:
    """An event read back (events are few kinds of few cards, so each is parsed once)."""
    return Event(kind, cards, position)


def _plain_settings(data: Mapping[str, Any]) -> TableSettings:
    from exactodds.web.inputs import table_settings

    return table_settings(data)


def _settings_text(settings: TableSettings) -> str:
    return json.dumps(settings.to_dict(), sort_keys=True)


def _checked_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise StoreLimitError(
            f"Table name {name[: MAX_NAME + 1]!r} is not valid; use 1 to {MAX_NAME} printable "
            "characters."
        )
    return name


def _require_open(shoe: StoredShoe) -> None:
    if shoe.finished_at is not None:
        raise ShoeFinishedError(
            f"Shoe {shoe.id} is finished, so it is read-only; reopen it (POST "
            f"/api/shoes/{shoe.id}/reopen) to change it."
        )


def _insert(connection: sqlite3.Connection, shoe_id: int, events: Sequence[Event]) -> None:
    stamp = _now()
    connection.executemany(
        "INSERT INTO events (shoe_id, kind, cards, position, recorded_at) VALUES (?, ?, ?, ?, ?)",
        [(shoe_id, event.kind, event.cards, event.position, stamp) for event in events],
    )


def _seen(connection: sqlite3.Connection, shoe_id: int, key: str, fingerprint: str) -> bool:
    """Whether *key* was used on the shoe already; refused if it was for another request.

    A key stored before fingerprints were kept (an empty one) matches any request.
    """
    found = connection.execute(
        "SELECT fingerprint FROM requests WHERE shoe_id = ? AND key = ?", (shoe_id, key)
    ).fetchone()
    if found is None:
        return False
    if found[0] and fingerprint and found[0] != fingerprint:
        raise KeyReusedError(
            f"Key {key!r} was sent before with another request (another route or body), so "
            "this one was not done; send a new key with each new request."
        )
    return True


def _remember(
    connection: sqlite3.Connection, key: str | None, shoe_id: int, fingerprint: str = ""
) -> None:
    if key is not None:
        connection.execute(
            "INSERT OR REPLACE INTO requests (key, shoe_id, done_at, fingerprint) "
            "VALUES (?, ?, ?, ?)",
            (key, shoe_id, _now(), fingerprint),
        )


def _table_chain(connection: sqlite3.Connection, shoe_id: int) -> set[int]:
    """The shoes linked to *shoe_id* by "new shoe" (those it follows, and those following it)."""
    chain, waiting = {shoe_id}, [shoe_id]
    while waiting:
        current = waiting.pop()
        linked = connection.execute(
            "SELECT id FROM shoes WHERE follows = ? UNION "
            "SELECT follows FROM shoes WHERE id = ? AND follows IS NOT NULL",
            (current, current),
        ).fetchall()
        for (other,) in linked:
            if other not in chain:
                chain.add(other)
                waiting.append(other)
    return chain


def _is_full(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite said the database or its disk is full (SQLITE_FULL)."""
    return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "full" in str(error)


def _migrate(connection: sqlite3.Connection) -> None:
    """Bring a version 1 to 3 file (no places, keys, fingerprints or games) to this schema, in
    place: every shoe such a file holds deals baccarat, the column's default."""
    games = {row[1] for row in connection.execute("PRAGMA table_info(shoes)")}
    if "game" not in games:
        connection.execute("ALTER TABLE shoes ADD COLUMN game TEXT NOT NULL DEFAULT 'baccarat'")
    columns = {row[1] for row in connection.execute("PRAGMA table_info(events)")}
    if "position" not in columns:
        connection.execute("ALTER TABLE events ADD COLUMN position INTEGER NOT NULL DEFAULT 0")
    keyed = {row[1] for row in connection.execute("PRAGMA table_info(requests)")}
    if "fingerprint" not in keyed:
        connection.execute("ALTER TABLE requests ADD COLUMN fingerprint TEXT NOT NULL DEFAULT ''")
    connection.execute(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (str(SCHEMA_VERSION),),
    )
