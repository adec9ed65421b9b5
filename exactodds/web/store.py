"""The tracker's SQLite store: every tracked shoe and every event, so nothing is lost.

Three tables: ``meta`` (the schema version), ``shoes`` (one row per shoe
tracked, with its table name and settings as JSON; a finished shoe is kept
for the record when "new shoe" starts the next one) and ``events`` (what was
dealt, in order).  A shoe's state is replayed from its events, so a browser
reload or a server restart resumes exactly where the table was.

>>> store = Store(":memory:")
>>> shoe_id = store.create("Table 1", TableSettings(decks=6))
>>> store.append(shoe_id, [Event("card", "K")])
>>> [event.cards for event in store.shoe(shoe_id).events]
['K']
>>> store.undo(shoe_id), store.shoe(shoe_id).events
(True, ())
>>> store.shoe(99)
Traceback (most recent call last):
...
exactodds.web.store.UnknownShoeError: No tracked shoe has id 99; GET /api/shoes lists them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from exactodds.errors import ExactOddsError
from exactodds.web.tracker import Event, TableSettings

__all__ = ["MAX_EVENTS", "MAX_NAME", "MAX_SHOES", "Store", "StoredShoe", "UnknownShoeError"]

SCHEMA_VERSION = 1
#: The most shoes kept open at once (finished ones do not count).
MAX_SHOES = 100
#: The most events one shoe records (16 decks of cards, burns and round ends).
MAX_EVENTS = 4000
#: The longest table name.
MAX_NAME = 60

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS shoes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    follows INTEGER REFERENCES shoes(id)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    shoe_id INTEGER NOT NULL REFERENCES shoes(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    cards TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_shoe ON events (shoe_id, id);
"""


class UnknownShoeError(ExactOddsError):
    """A shoe id that names no tracked shoe."""


class StoreLimitError(ExactOddsError):
    """A request that would grow the store past its limits."""


@dataclass(frozen=True)
class StoredShoe:
    """A tracked shoe as stored: its id, table name, settings and events."""

    id: int
    name: str
    settings: TableSettings
    events: tuple[Event, ...]
    started_at: str
    finished_at: str | None

    def summary(self) -> dict[str, object]:
        """JSON-ready data for the list of shoes."""
        return {
            "id": self.id,
            "name": self.name,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "events": len(self.events),
        }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """Tracked shoes in one SQLite file (``":memory:"`` for a throwaway store).

    One connection, used by one thread at a time: the web app calls the store
    from a thread pool, and a lock keeps every call one transaction.
    """

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(self.path, check_same_thread=False)
        with self._lock, self._connection as connection:
            connection.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                connection.execute("PRAGMA journal_mode = WAL")
            connection.executescript(_SCHEMA)
            connection.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._connection.close()

    def shoes(self, finished: bool = False) -> list[dict[str, object]]:
        """The open shoes (with *finished*, every shoe), oldest first, as :meth:`StoredShoe.summary`.

        Read from the rows alone, so a shoe whose settings no longer read (say, after an
        upgrade renamed a bet) still shows in the list and can be deleted.
        """
        with self._lock:
            rows = self._connection.execute(
                "SELECT shoes.id, name, started_at, finished_at, COUNT(events.id) FROM shoes "
                "LEFT JOIN events ON events.shoe_id = shoes.id"
                + ("" if finished else " WHERE finished_at IS NULL")
                + " GROUP BY shoes.id ORDER BY shoes.id"
            ).fetchall()
        return [
            {
                "id": row[0],
                "name": row[1],
                "started_at": row[2],
                "finished_at": row[3],
                "events": row[4],
            }
            for row in rows
        ]

    def shoe(self, shoe_id: int) -> StoredShoe:
        """One shoe by id."""
        with self._lock:
            return self._load(shoe_id)

    def _load(self, shoe_id: int) -> StoredShoe:
        row = self._connection.execute(
            "SELECT id, name, settings, started_at, finished_at FROM shoes WHERE id = ?",
            (shoe_id,),
        ).fetchone()
        if row is None:
            raise UnknownShoeError(f"No tracked shoe has id {shoe_id}; GET /api/shoes lists them.")
        events = self._connection.execute(
            "SELECT kind, cards FROM events WHERE shoe_id = ? ORDER BY id", (shoe_id,)
        ).fetchall()
        return StoredShoe(
            id=row[0],
            name=row[1],
            settings=TableSettings.from_data(json.loads(row[2])),
            events=tuple(Event(kind, cards) for kind, cards in events),
            started_at=row[3],
            finished_at=row[4],
        )

    def create(self, name: str, settings: TableSettings, follows: int | None = None) -> int:
        """Start tracking a new shoe at table *name*; its id."""
        name = name.strip()
        if not name or len(name) > MAX_NAME:
            raise StoreLimitError(
                f"Table name {name[: MAX_NAME + 1]!r} is not valid; use 1 to {MAX_NAME} characters."
            )
        with self._lock, self._connection as connection:
            (open_shoes,) = connection.execute(
                "SELECT COUNT(*) FROM shoes WHERE finished_at IS NULL"
            ).fetchone()
            if open_shoes >= MAX_SHOES:
                raise StoreLimitError(
                    f"{open_shoes} shoes are open already; finish or delete one first (at most "
                    f"{MAX_SHOES})."
                )
            cursor = connection.execute(
                "INSERT INTO shoes (name, settings, started_at, follows) VALUES (?, ?, ?, ?)",
                (name, json.dumps(settings.as_dict()), _now(), follows),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def append(
        self,
        shoe_id: int,
        events: Iterable[Event],
        check: Callable[[StoredShoe, Sequence[Event]], None] | None = None,
    ) -> None:
        """Record *events* after the shoe's others.

        *check* (the shoe as stored, the new events) runs under the same lock as the write, so
        two taps at once cannot both pass it and together record a card the shoe does not hold.
        """
        events = list(events)
        with self._lock, self._connection as connection:
            shoe = self._load(shoe_id)
            if check is not None:
                check(shoe, events)
            if shoe.finished_at is not None:
                raise StoreLimitError(
                    f"Shoe {shoe_id} is finished; record cards on the shoe that follows it."
                )
            if len(shoe.events) + len(events) > MAX_EVENTS:
                raise StoreLimitError(
                    f"Shoe {shoe_id} has {len(shoe.events)} events; a shoe records at most "
                    f"{MAX_EVENTS}."
                )
            stamp = _now()
            connection.executemany(
                "INSERT INTO events (shoe_id, kind, cards, recorded_at) VALUES (?, ?, ?, ?)",
                [(shoe_id, event.kind, event.cards, stamp) for event in events],
            )

    def undo(self, shoe_id: int) -> bool:
        """Forget the shoe's last event; False when it had none."""
        with self._lock, self._connection as connection:
            self._load(shoe_id)
            row = connection.execute(
                "SELECT MAX(id) FROM events WHERE shoe_id = ?", (shoe_id,)
            ).fetchone()
            if row[0] is None:
                return False
            connection.execute("DELETE FROM events WHERE id = ?", (row[0],))
            return True

    def update(self, shoe_id: int, settings: TableSettings) -> None:
        """Change a shoe's settings (the bets and pays; the shoe itself stays)."""
        with self._lock, self._connection as connection:
            self._load(shoe_id)
            connection.execute(
                "UPDATE shoes SET settings = ? WHERE id = ?",
                (json.dumps(settings.as_dict()), shoe_id),
            )

    def finish(self, shoe_id: int) -> int:
        """Finish a shoe and start the next one at the same table, same settings; its id."""
        shoe = self.shoe(shoe_id)
        if shoe.finished_at is not None:
            raise StoreLimitError(f"Shoe {shoe_id} is finished already.")
        with self._lock, self._connection as connection:
            connection.execute("UPDATE shoes SET finished_at = ? WHERE id = ?", (_now(), shoe_id))
        return self.create(shoe.name, shoe.settings, follows=shoe_id)

    def delete(self, shoe_id: int) -> None:
        """Forget a shoe and its events (whether or not its settings still read)."""
        with self._lock, self._connection as connection:
            if (
                connection.execute("SELECT 1 FROM shoes WHERE id = ?", (shoe_id,)).fetchone()
                is None
            ):
                raise UnknownShoeError(
                    f"No tracked shoe has id {shoe_id}; GET /api/shoes lists them."
                )
            connection.execute("DELETE FROM events WHERE shoe_id = ?", (shoe_id,))
            connection.execute("UPDATE shoes SET follows = NULL WHERE follows = ?", (shoe_id,))
            connection.execute("DELETE FROM shoes WHERE id = ?", (shoe_id,))
