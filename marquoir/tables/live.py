"""Live updates: every page watching a match hears of each accepted action within a second.

A write announces the match's new ``seq`` inside its transaction (PostgreSQL: ``NOTIFY``,
see ``announce``; delivered at commit to every server process). Each process runs one
``Hub`` in its event loop that fans the news out to the server-sent-event streams of that
process:

- on PostgreSQL, one LISTEN connection per process;
- on SQLite (one machine), a nudge from the same process right after commit; the writes of
  the other processes (the other workers, ``manage.py``) are found by polling, see
  ``Hub._poll``.

A stream reads its match's seq through the hub too: the hub's one thread, which keeps its
database connection, answers every stream that connected meanwhile with one query. A
thousand phones reconnecting at once (after a restart) cost a few queries, not a thousand
connections opened and closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, connections

logger = logging.getLogger(__name__)

CHANNEL = "marquoir_matches"
# SQLite: how often a process asks whether the database changed (see Hub._poll), and the
# share of its time it may spend reading the watched matches' seqs when it did.
POLL_SECONDS = 0.02
POLL_READING_SHARE = 0.1
POLL_RETRY_SECONDS = 0.25  # after a failed poll: a broken database is not asked (and logged) 50 times a second
HEARTBEAT_SECONDS = 15.0
STREAM_LIFETIME_SECONDS = 600.0  # browsers reconnect by themselves; nothing lingers


LOOKUP_BATCH = 500  # match ids per query of the hub's reads

# The hubs' reads of the database: one thread per process, which keeps its connection; one
# query answers every stream that asked meanwhile.
_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="marquoir-live")


def close_reader_connection() -> None:
    """Close the reading thread's database connection (tests, before the database goes)."""
    _reader.submit(connections.close_all).result()  # resolved in that thread


def _read_seqs(match_ids: list[str]) -> dict[str, int]:
    """The seq of each of ``match_ids`` that exists, in the hub's reading thread."""
    from .models import Match

    found: dict[str, int] = {}
    try:
        for start in range(0, len(match_ids), LOOKUP_BATCH):
            batch = match_ids[start : start + LOOKUP_BATCH]
            found.update(Match.objects.filter(pk__in=batch).values_list("id", "seq"))
    except Exception:
        connection.close()  # broken (the database restarted): the next read opens a new one
        raise
    return found


def _change_mark() -> object | None:
    """In the hub's reading thread: a mark that differs from the last one whenever another
    connection committed a write since (SQLite's ``PRAGMA data_version``, which reads no
    table; Django has no API for it, hence the one statement of SQL). It counts per
    connection, so the mark holds the connection too: a new one (after a broken one was
    closed) never passes for the old. None where there is no such counter."""
    if connection.vendor != "sqlite":
        return None
    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA data_version")
            (version,) = cursor.fetchone()
    except Exception:
        connection.close()
        raise
    return (connection.connection, version)


class Polled(NamedTuple):
    """What one poll found: the change mark, the seqs if it read them, and the processor
    time the reading took (its own thread's: not the waits for a busy machine)."""

    mark: object | None
    seqs: dict[str, int] | None
    cpu_seconds: float


def _read_seqs_if_changed(match_ids: list[str], seen: object | None) -> Polled:
    """In the hub's reading thread: the change mark now, and the seqs of ``match_ids`` unless
    the mark is still ``seen`` (nothing was committed since the read that took it). The mark
    is taken before the seqs are read, so a commit between the two is read again next time,
    never missed."""
    mark = _change_mark()
    if mark is not None and mark == seen:
        return Polled(mark, None, 0.0)
    began = time.thread_time()
    seqs = _read_seqs(match_ids)
    return Polled(mark, seqs, time.thread_time() - began)


def uses_postgres() -> bool:
    return str(settings.DATABASES["default"]["ENGINE"]).endswith("postgresql")


def announce(match_id: str, seq: int) -> None:
    """Inside the transaction that writes ``seq``: on PostgreSQL, tell every server
    process's listener, at commit and only if it commits. Django has no API for
    ``NOTIFY``, hence the one statement of SQL; the payload is a parameter. Elsewhere the
    services' nudge after commit and the hub's polling carry the news."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{match_id}:{seq}"])


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
        # Set while anyone here watches: the poll sleeps on it, not on a clock, when nobody does.
        self.watched = asyncio.Event()
        self.lookups: dict[str, list[asyncio.Future[int | None]]] = {}
        self.lookup_task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.loop = asyncio.get_running_loop()
            self.listening.clear()
            runner = self._listen() if uses_postgres() else self._poll()
            self.task = asyncio.create_task(runner)

    async def seq_of(self, match_id: str) -> int | None:
        """The match's seq as committed now; None if there is no such match."""
        from .models import is_match_id

        if not is_match_id(match_id):
            return None
        answer: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self.lookups.setdefault(match_id, []).append(answer)
        if self.lookup_task is None or self.lookup_task.done():
            self.lookup_task = asyncio.create_task(self._look_up())
        return await answer

    async def read(self, match_ids: list[str]) -> dict[str, int]:
        """The seqs of ``match_ids``, read in the hub's thread."""
        return await asyncio.get_running_loop().run_in_executor(_reader, _read_seqs, match_ids)

    async def read_if_changed(self, match_ids: list[str], seen: object | None) -> Polled:
        """``_read_seqs_if_changed`` in the hub's thread."""
        return await asyncio.get_running_loop().run_in_executor(_reader, _read_seqs_if_changed, match_ids, seen)

    async def _look_up(self) -> None:
        """Answer every pending ``seq_of``, a batch per query, until none is left."""
        while self.lookups:
            asking, self.lookups = self.lookups, {}
            try:
                found = await self.read(list(asking))
            except Exception as error:
                logger.warning("live: reading seqs failed", exc_info=True)
                for answers in asking.values():
                    for answer in answers:
                        if not answer.done():
                            answer.set_exception(error)
                continue
            for match_id, answers in asking.items():
                for answer in answers:
                    if not answer.done():  # its stream may have gone meanwhile
                        answer.set_result(found.get(match_id))

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
        self.watched.set()
        try:
            yield queue
        finally:
            self.waiters[match_id].discard(queue)
            if not self.waiters[match_id]:
                del self.waiters[match_id]
                self.latest.pop(match_id, None)

    async def _poll(self) -> None:
        """Where there is no LISTEN (SQLite): every ``POLL_SECONDS``, while anyone here
        watches, one question to the database, whether anything was committed since the
        last time (``_change_mark``: microseconds, no table read, however many matches are
        watched); only when something was, one query for the seqs of every watched match.

        Why a poll, not a wake-up sent by the writing process (a datagram to each worker, a
        file touched and watched): with nothing sent, there is nothing to set up, to clean
        up after a crash, or to lose. A worker, a ``manage.py`` command, a process killed
        right after its commit: whatever commits is seen by every process the next time
        it asks. A fiftieth of a second keeps the news within the 50 ms a phone on the
        other worker is allowed, for a quarter of a percent of a core per worker (50 µs a
        question, measured). When the seqs are many and the writes never stop, the next
        question waits long enough for the reads to take no more than
        ``POLL_READING_SHARE`` of a core (their processor time, so that a busy machine,
        which only slows them, does not slow the news too)."""
        self.listening.set()
        seen: object | None = None
        pause = POLL_SECONDS
        while True:
            await asyncio.sleep(pause)
            pause = POLL_SECONDS
            watched = list(self.waiters)
            if not watched:
                # Nobody watches: no question until someone does (no wake-up meanwhile).
                self.watched.clear()
                await self.watched.wait()
                continue
            try:
                polled = await self.read_if_changed(watched, seen)
            except Exception:  # the database may be busy or restarting: try again shortly
                logger.warning("live: polling failed", exc_info=True)
                seen = None
                pause = POLL_RETRY_SECONDS
                continue
            seen = polled.mark
            if polled.seqs is None:
                continue
            pause = max(POLL_SECONDS, polled.cpu_seconds * (1 - POLL_READING_SHARE) / POLL_READING_SHARE)
            for match_id, seq in polled.seqs.items():
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


class StreamSlots:
    """How many event streams this process has open, per client address and in all.

    Each open stream holds a connection, so a file descriptor, for up to ten minutes: left
    unbounded, one client opening thousands of them runs the process out of descriptors,
    and then it cannot accept any connection at all, ``/healthz`` included. The process's
    cap stays below its descriptor limit by ``MARQUOIR_RESERVED_DESCRIPTORS``, kept for
    what else needs one (database connections, the pages' connections and the static
    files they send, logs, the listening sockets, connections still sending their
    headers). The per-address cap keeps one client from taking the whole process's share.
    Both are per process: the event loop is the only one to count, so no lock."""

    def __init__(self) -> None:
        self.by_address: Counter[str] = Counter()
        self.total = 0

    @staticmethod
    def process_cap() -> int:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        below_descriptors = soft - settings.MARQUOIR_RESERVED_DESCRIPTORS if soft != resource.RLIM_INFINITY else None
        cap: int = settings.MARQUOIR_STREAMS_PER_PROCESS
        return max(0, cap if below_descriptors is None else min(cap, below_descriptors))

    def take(self, address: str) -> str | None:
        """Count one more stream for ``address``; None if it may open, else why not:
        ``"address"`` (its own cap) or ``"process"`` (the process's)."""
        if self.by_address[address] >= settings.MARQUOIR_STREAMS_PER_ADDRESS:
            return "address"
        if self.total >= self.process_cap():
            return "process"
        self.by_address[address] += 1
        self.total += 1
        return None

    def give_back(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


stream_slots = StreamSlots()

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
        fresh = await current.seq_of(match_id)
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
