"""Live updates: every page watching a match hears of each accepted action within a second.

A write announces the match's new ``seq`` inside its transaction (PostgreSQL: ``pg_notify``
in the very statement that writes the turn, see services; delivered at commit to every
server process). Each process runs one ``Hub`` in its event loop that fans the news out
to the server-sent-event streams of that process:

- on PostgreSQL, one LISTEN connection per process;
- on SQLite (one machine), a nudge from the same process right after commit, plus one
  cheap query every quarter second over the matches being watched, which also covers
  writes made by other processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

CHANNEL = "marquoir_matches"
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
STREAM_LIFETIME_SECONDS = 600.0  # browsers reconnect by themselves; nothing lingers


def _read_seq(match_id: str) -> int | None:
    """The match's seq, read on a connection that is handed back at once: a stream lives for
    minutes, and must not hold a database connection while it waits."""
    from .models import Match, is_match_id

    if not is_match_id(match_id):
        return None
    try:
        return Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()
    finally:
        connection.close()


read_seq = sync_to_async(_read_seq)


def uses_postgres() -> bool:
    return str(settings.DATABASES["default"]["ENGINE"]).endswith("postgresql")


class Hub:
    """One per event loop: the latest seq of each watched match, and who is waiting for it."""

    def __init__(self) -> None:
        self.waiters: dict[str, set[asyncio.Queue[int]]] = defaultdict(set)
        self.latest: dict[str, int] = {}
        self.task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        # Set once news can arrive (LISTEN issued, or polling started): a stream reads the
        # match's seq only after this, so no commit can fall between the read and the news.
        self.listening = asyncio.Event()

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.loop = asyncio.get_running_loop()
            self.listening.clear()
            runner = self._listen() if uses_postgres() else self._poll()
            self.task = asyncio.create_task(runner)

    def publish(self, match_id: str, seq: int) -> None:
        """Hand ``seq`` to every stream waiting on ``match_id`` in this process."""
        if match_id not in self.waiters or seq <= self.latest.get(match_id, -1):
            return  # nobody here watches it, or it is not news
        self.latest[match_id] = seq
        for queue in self.waiters[match_id]:
            queue.put_nowait(seq)

    def publish_threadsafe(self, match_id: str, seq: int) -> None:
        """``publish`` from a worker thread (where sync views run under ASGI)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.publish, match_id, seq)

    @contextlib.contextmanager
    def subscription(self, match_id: str, seq: int) -> Any:
        queue: asyncio.Queue[int] = asyncio.Queue()
        known = self.latest.setdefault(match_id, seq)
        if known > seq:
            queue.put_nowait(known)  # the match moved on since this page read it
        self.waiters[match_id].add(queue)
        try:
            yield queue
        finally:
            self.waiters[match_id].discard(queue)
            if not self.waiters[match_id]:
                del self.waiters[match_id]
                self.latest.pop(match_id, None)

    async def _poll(self) -> None:
        from .models import Match

        self.listening.set()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            watched = list(self.waiters)
            if not watched:
                continue
            try:
                rows = [row async for row in Match.objects.filter(pk__in=watched).values_list("id", "seq")]
            except Exception:  # the database may be busy or restarting: try again shortly
                logger.warning("live: polling failed", exc_info=True)
                continue
            for match_id, seq in rows:
                self.publish(match_id, seq)

    async def _listen(self) -> None:
        import psycopg

        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as listener:
                    await listener.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    async for note in listener.notifies():
                        match_id, _colon, seq = note.payload.rpartition(":")
                        if seq.isdigit():
                            self.publish(match_id, int(seq))
            except asyncio.CancelledError:
                raise
            except Exception:  # reconnect after a database restart
                self.listening.clear()
                logger.warning("live: LISTEN connection lost, reconnecting", exc_info=True)
                await asyncio.sleep(1.0)


_hubs: dict[int, Hub] = {}


def hub() -> Hub:
    """The hub of the running event loop (one per worker process)."""
    loop = asyncio.get_running_loop()
    current = _hubs.get(id(loop))
    if current is None or current.loop is not loop:
        current = _hubs[id(loop)] = Hub()
    current.start()
    return current


def nudge_after_commit(match_id: str, seq: int) -> None:
    """Called by the services after a commit: wake this process's streams at once."""
    for known in list(_hubs.values()):
        known.publish_threadsafe(match_id, seq)


def sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    lines = [f"id: {event_id}"] if event_id is not None else []
    lines += [f"event: {event}", f"data: {json.dumps(data)}", "", ""]
    return "\n".join(lines)


async def match_events(match_id: str, seq: int) -> AsyncIterator[str]:
    """The event stream of one match: its seq now, then each new seq, with heartbeats.

    ``seq`` is what the page was built with; the stream subscribes first, waits until news
    can reach it, then reads the match again, so a turn recorded in between is not missed.
    """
    loop = asyncio.get_running_loop()
    ends_at = loop.time() + STREAM_LIFETIME_SECONDS
    current = hub()
    yield "retry: 2000\n\n"
    with current.subscription(match_id, seq) as queue:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(current.listening.wait(), timeout=5.0)
        fresh = await read_seq(match_id)
        newest = max(seq, fresh or 0)
        while not queue.empty():
            newest = max(newest, queue.get_nowait())
        current.latest[match_id] = max(current.latest.get(match_id, -1), newest)
        yield sse("state", {"seq": newest}, newest)
        while loop.time() < ends_at:
            try:
                newest = await asyncio.wait_for(queue.get(), timeout=HEARTBEAT_SECONDS)
            except TimeoutError:
                yield ": heartbeat\n\n"
                continue
            while not queue.empty():
                newest = max(newest, queue.get_nowait())
            yield sse("state", {"seq": newest}, newest)
