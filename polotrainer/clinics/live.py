"""On PostgreSQL, the clinics' watchers wake on LISTEN/NOTIFY instead of reading every session's
version every CLINIC_POLL_MS (clinics/stream.py). No new service: the database the processes
share already carries the news.

Each change is told in the transaction that makes it (`changed()`: PostgreSQL delivers the
notification when, and only if, that transaction commits): a control or a round's time running
out ("state": the version moved), a phone joining or answering ("count": the projector's
counts). Each server process holds one listening connection (`Hub`, psycopg 3's async
notifications) and wakes the watcher of the session named. A watcher still reads the session
every CLINIC_LISTEN_CHECK_MS in case a notification was lost, and at the moment a round's time
runs out; while the listening connection is down it polls as on SQLite, and when it is back
every watcher reads once (what changed meanwhile).

SQLite has no notifications: there `changed()` does nothing and the watchers poll.
"""

import asyncio
import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import connection

if TYPE_CHECKING:
    from polotrainer.clinics.stream import Watch

log = logging.getLogger(__name__)

CHANNEL = "polotrainer_clinics"
STATE = "state"
COUNT = "count"


def enabled() -> bool:
    """Whether watchers listen (PostgreSQL, CLINIC_LISTEN on) rather than poll."""
    engine = settings.DATABASES["default"]["ENGINE"]
    return bool(settings.CLINIC_LISTEN) and engine.endswith("postgresql")


def changed(session_id: int, what: str = STATE) -> None:
    """Tell every process's watchers that the session changed, when this transaction commits."""
    if enabled():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{session_id}:{what}"])


def _conninfo() -> str:
    import psycopg.conninfo

    db = settings.DATABASES["default"]
    params = {
        "dbname": db.get("NAME"),
        "user": db.get("USER"),
        "password": db.get("PASSWORD"),
        "host": db.get("HOST"),
        "port": db.get("PORT"),
    }
    given = db.get("OPTIONS") or {}
    options = {k: v for k, v in given.items() if k in {"sslmode", "sslrootcert"}}
    chosen = {k: str(v) for k, v in [*params.items(), *options.items()] if v}
    return str(psycopg.conninfo.make_conninfo("", **chosen))


class Hub:
    """This process's listening connection, and the watchers it wakes."""

    def __init__(self) -> None:
        self.live = False
        self.task: asyncio.Task[None] | None = None

    def start(self, watches: "dict[int, Watch]") -> None:
        """Listen from now on, in the running loop (once per process, restarted if it ended)."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(watches))

    async def _run(self, watches: "dict[int, Watch]") -> None:
        import psycopg

        conninfo = _conninfo()
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.live = True
                    self._wake_all(watches)  # what changed before we listened
                    async for note in conn.notifies():
                        session, _, what = note.payload.partition(":")
                        watch = watches.get(int(session)) if session.isdigit() else None
                        if watch is not None:
                            watch.wake(urgent=what != COUNT)
            except (psycopg.Error, OSError):
                log.warning("clinics: the listening connection failed; polling meanwhile")
            finally:
                self.live = False
                self._wake_all(watches)  # back to polling at once
            await asyncio.sleep(1)

    @staticmethod
    def _wake_all(watches: "dict[int, Watch]") -> None:
        for watch in list(watches.values()):
            watch.wake(urgent=True)


HUB = Hub()
