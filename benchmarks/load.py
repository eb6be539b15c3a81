"""Load and fault benchmark: the real server under tables keeping score and pages watching them.

    .venv/bin/python -m benchmarks.load [--tables 50] [--watchers 200] [--seconds 30]
                                        [--databases sqlite,postgres] [--crash | --no-crash]
                                        [--rate 1] [--workers 2] [--seed 1] [--keep]

For each database the production server (scripts/serve.sh: gunicorn, two uvicorn workers)
is started on a free loopback port with a fresh database. K tables each play random legal
Pickomino games through the JSON API, one action a second (``expected_seq`` and a fresh
``action_id`` on each), a new match when a game ends; W watchers, spread over the tables,
follow their table's match on the server-sent-event stream; a baseline asks /healthz five
times a second. Printed: throughput, errors by kind, action latency, the delay from sending
an action to each watcher of the table seeing its seq, and the baseline, beside the targets.

The crash test then ``kill -9``s the whole server (its process group) under load, restarts
it, lets the clients recover (they retry with backoff; an action whose answer was lost is
sent again with the same ``action_id``), and finally reads the log in the database itself:
every answered action logged exactly once, no action_id twice, each match's seqs 1..N.

PostgreSQL runs in a cluster of the benchmark's own, made by scripts/postgres.sh in
/tmp/marquoir-pg-load on port 54331 (started if need be, stopped again if this run started
it), a new database per run, dropped at the end: see load_server.py for why not the tests'.

Only loopback traffic; every loop is bounded in count and time; it stops by itself and
exits 0 when a target is missed (it reports, it does not assert). Exit 1 only when a
server could not be started at all, or a run failed with an exception.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import random
import shutil
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvloop

from marquoir.games.pickomino.engine import Action, GameState, Options, Take
from marquoir.games.pickomino.playout import random_legal_action

from .load_server import (
    Database,
    LogCheck,
    Server,
    check_log,
    cpu_seconds,
    free_port,
    machine_busy_ticks,
    median,
    percentile,
    postgres_cpu_seconds,
    postgres_database,
    postgres_stats,
    read_access_log,
    sqlite_database,
    wall_now,
)

# httpcore asks for sniffio on every lock and event it makes; sniffio is not installed here,
# and a failed import searches the whole path each time (7% of this client's CPU). A None
# entry makes that import fail at once; httpcore then assumes asyncio, which is right.
sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

# Targets (printed beside the figures).
TARGET_ACTION_P99_MS = 50.0
TARGET_DELIVERY_P95_MS = 300.0

ACTION_PERIOD = 1.0  # seconds between two actions of one table
HEALTH_PERIOD = 0.2  # the baseline: /healthz five times a second
UNDO_RATE = 0.05  # now and then a table takes its last action back, as people do
ACTION_TIMEOUT_SECONDS, CONNECT_TIMEOUT = 5.0, 2.0
ACTION_TIMEOUT = httpx.Timeout(ACTION_TIMEOUT_SECONDS, connect=CONNECT_TIMEOUT)
HEALTH_TIMEOUT = httpx.Timeout(2.0)
STREAM_TIMEOUT = httpx.Timeout(5.0, read=30.0)  # the server sends a heartbeat every 15 s
BACKOFF_FIRST, BACKOFF_MAX = 0.1, 1.0
FINAL_SEQ_WAIT = 3.0  # how long a watcher waits for a finished match's last seq before moving on
RETRY_GRACE = 5.0  # after the end, how long a lost answer may still be retried
SERVER_START_TIMEOUT = 90.0
UNHEALTHY_GIVE_UP = 20.0  # a restarted server answering /healthz with errors this long: go on
READY_TIMEOUT = 20.0  # every watcher's first event, before the clock starts
CRASH_AFTER = 2.0  # seconds of load in the crash phase before the kill
RECOVERY_SECONDS = 8.0  # seconds of load after the server answers again
MAX_RECONNECTS = 10_000
# httpcore's pool looks at every connection of its client on each request and each close:
# watchers go to clients of their own, a few dozen streams each, so that scan stays short.
WATCHERS_PER_CLIENT = 25
NOT_SENT = {"ConnectError", "ConnectTimeout", "PoolTimeout"}  # the request surely did not reach the server
NAMES = ["Ada", "Ben", "Zoé", "Łukasz", "Ngozi", "Mei", "Omar", "Ines", "Kai", "Ása"]


# --- what the clients record -------------------------------------------------------------------


@dataclass
class Attempt:
    start: float
    end: float
    kind: str  # "2xx", "409 conflict", "ConnectError", "ReadTimeout", ...

    @property
    def ok(self) -> bool:
        return self.kind == "2xx"

    @property
    def ms(self) -> float:
        return (self.end - self.start) * 1000


@dataclass
class ActionRecord:
    slot: int
    match_id: str
    seq: int  # the seq this action makes, if accepted
    action_id: str
    kind: str  # take, bust or undo
    first_sent: float
    attempts: list[Attempt] = field(default_factory=list)
    answered_seq: int | None = None


@dataclass
class WatchRecord:
    """One watcher on one match: when its stream first answered, and every seq it heard."""

    ready: float | None = None
    events: list[tuple[float, int]] = field(default_factory=list)

    @property
    def newest(self) -> int:
        return max((seq for _t, seq in self.events), default=-1)


@dataclass
class Slot:
    """One table: its current match, and the matches it left (with their last seq)."""

    index: int
    rng: random.Random
    match_id: str = ""
    token: str = ""
    state: GameState | None = None
    seq: int = 0
    in_force: int = 0
    left: dict[str, asyncio.Event] = field(default_factory=dict)
    final_seq: dict[str, int] = field(default_factory=dict)
    next_match: dict[str, str | None] = field(default_factory=dict)
    matches: int = 0

    def enter(self, created: dict[str, Any]) -> None:
        self.match_id, self.token = created["id"], created["edit_token"]
        self.left[self.match_id] = asyncio.Event()
        self.adopt(created["state"])
        self.in_force = 0
        self.matches += 1

    def adopt(self, state: dict[str, Any]) -> None:
        self.state, self.seq = game_state(state), int(state["seq"])

    def leave(self, next_match: str | None) -> None:
        old = self.match_id
        self.final_seq[old], self.next_match[old] = self.seq, next_match
        self.left[old].set()


@dataclass
class Run:
    """Everything one database's run shares: the client, the clock marks, the records."""

    client: httpx.AsyncClient  # the baseline, and the server's readiness
    table_clients: list[httpx.AsyncClient]  # one per table: each table is a phone of its own
    table_connections: list[TableConnection]  # ... and the connection its actions go down
    stream_clients: list[httpx.AsyncClient]  # the watchers, WATCHERS_PER_CLIENT to a client
    tables: int
    watchers: int
    period: float = ACTION_PERIOD
    t_start: float = 0.0
    t_load_end: float = 0.0
    t_stop: float = math.inf
    t_kill: float | None = None
    t_up: float | None = None
    t_answering: float | None = None  # the restarted server's first answer, healthy or not
    wall_kill: datetime | None = None
    actions: list[ActionRecord] = field(default_factory=list)
    creations: list[Attempt] = field(default_factory=list)
    resyncs: Counter[str] = field(default_factory=Counter)
    health: list[Attempt] = field(default_factory=list)
    watch: dict[tuple[int, str], WatchRecord] = field(default_factory=dict)
    stream_errors: list[tuple[float, str]] = field(default_factory=list)
    watch_outages: list[tuple[float, float]] = field(default_factory=list)
    loop_lag: list[tuple[float, float]] = field(default_factory=list)
    failure_examples: dict[str, str] = field(default_factory=dict)
    pg_sessions: int | None = None  # PostgreSQL sessions opened on the run's database over the load
    pg_open: int = 0  # ... connections open at the end of the load
    pg_max: int = 0  # ... and the cluster's max_connections
    busy_before: float = 0.0  # the machine's CPU use before the load, the server idle
    replayed: int = 0  # answers lost in the crash whose action had been committed before it
    resent_unknown: int = 0  # actions sent again after an answer that never came

    def now(self) -> float:
        return time.perf_counter()

    def stopping(self) -> bool:
        return self.now() >= self.t_stop


def game_state(state: dict[str, Any]) -> GameState:
    """The engine's GameState from the API's State."""
    return GameState(
        options=Options(**state["options"]),
        stacks=tuple(tuple(player["stack"]) for player in state["players"]),
        face_up=frozenset(tile["tile"] for tile in state["grill"] if tile["face"] == "up"),
        face_down=frozenset(tile["tile"] for tile in state["grill"] if tile["face"] == "down"),
        current=int(state["current"]),
    )


def action_body(action: Action) -> dict[str, Any]:
    if isinstance(action, Take):
        return {"type": "take", "total": action.total, "worm": action.worm, "from": action.source}
    return {"type": "bust", "reason": action.reason.value}


def error_kind(response: httpx.Response) -> str:
    try:
        code = response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        code = response.reason_phrase or "error"
    return f"{response.status_code} {code}"


def failure(run: Run, error: Exception) -> str:
    """The kind of a request that got no answer, remembering one message of each kind."""
    kind = type(error).__name__
    if kind not in run.failure_examples:
        root: BaseException = error
        for _depth in range(10):  # the OSError underneath says more than httpx's wrapper
            if root.__cause__ is None and root.__context__ is None:
                break
            root = root.__cause__ or root.__context__ or root
        run.failure_examples[kind] = f"{error or repr(error)}" + (f" ({root!r})" if root is not error else "")
    return kind


async def sleep_until(moment: float) -> None:
    delay = moment - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    if timeout <= 0:
        return event.is_set()
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except TimeoutError:
        return False
    return True


# --- the clients -------------------------------------------------------------------------------


class TableConnection:
    """A table's phone sending its actions: one kept-alive HTTP/1.1 connection, one request
    at a time, written and read with asyncio's streams.

    httpx costs the client a few milliseconds of CPU a request, on the two cores the server
    uses too, and that time would be counted as the server's latency; this does only what
    an action needs. Failures are raised as httpx's own errors, so they are counted and
    retried exactly as the rest of the client's.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def post(self, path: str, body: dict[str, Any], headers: dict[str, str], timeout: float) -> httpx.Response:
        payload = json.dumps(body).encode()
        head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        request = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n{head}\r\n"
        ).encode() + payload
        reader, writer = await self._connection()
        try:
            writer.write(request)
            await writer.drain()
        except OSError as error:
            self.close()
            raise httpx.WriteError(str(error)) from error
        try:
            return await asyncio.wait_for(self._read_response(reader), timeout)
        except TimeoutError:
            self.close()
            raise httpx.ReadTimeout("no answer in time") from None
        except asyncio.IncompleteReadError as error:
            self.close()
            raise httpx.RemoteProtocolError("peer closed connection without a complete answer") from error
        except OSError as error:
            self.close()
            raise httpx.ReadError(str(error)) from error

    async def _connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The kept-alive connection, opened again if the last one broke or was closed."""
        if self.reader is not None and self.writer is not None:
            return self.reader, self.writer
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), CONNECT_TIMEOUT)
        except TimeoutError:
            raise httpx.ConnectTimeout("connect timed out") from None
        except OSError as error:
            raise httpx.ConnectError("All connection attempts failed") from error
        self.reader, self.writer = reader, writer
        return reader, writer

    async def _read_response(self, reader: asyncio.StreamReader) -> httpx.Response:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
        lowered = {name.lower(): value for name, value in headers.items()}
        if lowered.get("transfer-encoding", "").lower() == "chunked":
            content = b""
            while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
                content += await reader.readexactly(size + 2)
                content = content[:-2]
            await reader.readuntil(b"\r\n")
        else:
            content = await reader.readexactly(int(lowered.get("content-length", "0")))
        if lowered.get("connection", "").lower() == "close":
            self.close()
        return httpx.Response(status, headers=headers, content=content)


async def create_match(run: Run, slot: Slot, deadline: float) -> dict[str, Any] | None:
    """A new match for ``slot`` (2 to 5 players), retried with backoff until ``deadline``."""
    players = slot.rng.sample(NAMES, slot.rng.randint(2, 5))
    body = {"game": "pickomino", "players": players, "first": slot.rng.randrange(len(players))}
    backoff = BACKOFF_FIRST
    for _attempt in range(1000):
        start = run.now()
        try:
            response = await run.table_clients[slot.index].post("/api/v1/matches", json=body, timeout=ACTION_TIMEOUT)
        except httpx.HTTPError as error:
            run.creations.append(Attempt(start, run.now(), failure(run, error)))
        else:
            ok = response.status_code == 201
            run.creations.append(Attempt(start, run.now(), "2xx" if ok else error_kind(response)))
            if ok:
                created: dict[str, Any] = response.json()
                return created
        if run.now() + backoff > deadline:
            return None
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, BACKOFF_MAX)
    return None


async def resync(run: Run, slot: Slot) -> None:
    """Read the match again after a refusal (a client that lost track of the table does this)."""
    for _attempt in range(3):
        try:
            response = await run.table_clients[slot.index].get(
                f"/api/v1/matches/{slot.match_id}", timeout=ACTION_TIMEOUT
            )
        except httpx.HTTPError as error:
            run.resyncs[failure(run, error)] += 1
            await asyncio.sleep(BACKOFF_MAX)
            continue
        if response.status_code == 200:
            run.resyncs["ok"] += 1
            slot.adopt(response.json())
            slot.in_force = 0
            return
        run.resyncs[error_kind(response)] += 1
        return


async def play_one(run: Run, slot: Slot) -> None:
    """One action for the table, sent until it is answered (same action_id on every retry)."""
    assert slot.state is not None
    if slot.in_force and slot.rng.random() < UNDO_RATE:
        body: dict[str, Any] = {"type": "undo"}
    else:
        body = action_body(random_legal_action(slot.state, slot.rng.choice))
    body |= {"expected_seq": slot.seq, "action_id": uuid.uuid4().hex}
    record = ActionRecord(slot.index, slot.match_id, slot.seq + 1, body["action_id"], body["type"], run.now())
    run.actions.append(record)
    url = f"/api/v1/matches/{slot.match_id}/actions"
    headers = {"Authorization": f"Bearer {slot.token}"}
    backoff = BACKOFF_FIRST
    for _attempt in range(1000):
        start = run.now()
        try:
            response = await run.table_connections[slot.index].post(url, body, headers, ACTION_TIMEOUT_SECONDS)
        except httpx.HTTPError as error:  # no answer: it may or may not have been applied
            record.attempts.append(Attempt(start, run.now(), failure(run, error)))
        else:
            end = run.now()
            if response.status_code == 200:
                record.attempts.append(Attempt(start, end, "2xx"))
                state = response.json()
                record.answered_seq = int(state["seq"])
                slot.adopt(state)
                slot.in_force += -1 if body["type"] == "undo" else 1
                return
            record.attempts.append(Attempt(start, end, error_kind(response)))
            if response.status_code < 500:  # refused: the state is unchanged; read it again
                await resync(run, slot)
                return
        if run.now() + backoff > run.t_stop + RETRY_GRACE:
            return  # given up: the outcome stays unknown to this client
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, BACKOFF_MAX)


async def table(run: Run, slot: Slot) -> None:
    """One action a second on the slot's match; a new match when the game ends."""
    next_at = run.t_start + run.period * slot.index / max(run.tables, 1)  # staggered start
    max_actions = int((run.t_stop - run.t_start if math.isfinite(run.t_stop) else 600) / run.period) + 600
    for _turn in range(max_actions):
        await sleep_until(min(next_at, run.t_stop))
        if run.stopping():
            break
        await play_one(run, slot)
        if slot.state is not None and slot.state.over:
            created = await create_match(run, slot, run.t_stop)
            if created is None:
                break
            slot.leave(created["id"])
            slot.enter(created)
        next_at = max(next_at + run.period, run.now())  # late: go on at once, without a burst
    slot.leave(None)


async def read_stream(run: Run, watcher: int, match_id: str, record: WatchRecord, heard: asyncio.Event) -> None:
    """Follow one match's event stream, reconnecting with backoff; cancelled by its owner."""
    url = f"/api/v1/matches/{match_id}/events"
    lost_at: float | None = None
    backoff = BACKOFF_FIRST
    for _attempt in range(MAX_RECONNECTS):
        try:
            async with run.stream_clients[watcher // WATCHERS_PER_CLIENT].stream(
                "GET", url, headers={"Accept": "text/event-stream"}, timeout=STREAM_TIMEOUT
            ) as response:
                if response.status_code != 200:
                    kind = f"{response.status_code} on connect"
                else:
                    async for line in response.aiter_lines():
                        if not line.startswith("data:"):
                            continue
                        now = run.now()
                        record.events.append((now, int(json.loads(line[5:])["seq"])))
                        if record.ready is None:
                            record.ready = now
                        if lost_at is not None:
                            run.watch_outages.append((lost_at, now))
                            lost_at = None
                        backoff = BACKOFF_FIRST
                        heard.set()
                    kind = "stream ended"
        except httpx.HTTPError as error:
            kind = failure(run, error)
        now = run.now()
        run.stream_errors.append((now, kind))
        if lost_at is None and record.ready is not None:
            lost_at = now
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, BACKOFF_MAX)


async def watcher(run: Run, index: int, slot: Slot, hard_stop: float) -> None:
    """Watch the slot's matches one after the other, each until its last seq is heard."""
    match_id: str | None = slot.match_id
    while match_id is not None and run.now() < hard_stop:
        record = run.watch[(index, match_id)] = WatchRecord()
        heard = asyncio.Event()
        reader = asyncio.create_task(read_stream(run, index, match_id, record, heard))
        try:
            await wait_event(slot.left[match_id], hard_stop - run.now())
            final = slot.final_seq.get(match_id, math.inf)
            until = min(run.now() + FINAL_SEQ_WAIT, hard_stop)
            while record.newest < final and run.now() < until:
                heard.clear()
                await wait_event(heard, until - run.now())
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        match_id = slot.next_match.get(match_id)


async def baseline(run: Run) -> None:
    """GET /healthz five times a second."""
    next_at = run.t_start
    for _probe in range(100_000):
        await sleep_until(min(next_at, run.t_stop))
        if run.stopping():
            return
        start = run.now()
        try:
            response = await run.client.get("/healthz", timeout=HEALTH_TIMEOUT)
        except httpx.HTTPError as error:
            run.health.append(Attempt(start, run.now(), failure(run, error)))
        else:
            ok = response.status_code == 200
            run.health.append(Attempt(start, run.now(), "2xx" if ok else error_kind(response)))
        next_at = max(next_at + HEALTH_PERIOD, run.now())


async def lag_monitor(run: Run) -> None:
    """How late the client's own event loop wakes up (it adds to every delay measured)."""
    for _tick in range(100_000):
        if run.stopping():
            return
        start = run.now()
        await asyncio.sleep(0.05)
        run.loop_lag.append((start, max(0.0, run.now() - start - 0.05)))


async def machine_busy_over(seconds: float) -> float:
    """The fraction of all cores busy over ``seconds`` (other processes included)."""
    busy0, total0 = machine_busy_ticks()
    await asyncio.sleep(seconds)
    busy, total = machine_busy_ticks()
    return (busy - busy0) / max(total - total0, 1)


async def wait_healthy(
    client: httpx.AsyncClient, server: Server, timeout: float, run: Run | None = None
) -> float | None:
    """Seconds until /healthz answers 200, or None: the server exited, took too long, or has
    been answering without being healthy for UNHEALTHY_GIVE_UP seconds. The first answer of
    any kind is noted in ``run.t_answering``."""
    start = time.perf_counter()
    answering: float | None = None
    for _probe in range(int(timeout / 0.1) + 1):
        if server.exited() is not None:
            return None
        with contextlib.suppress(httpx.HTTPError):
            status = (await client.get("/healthz", timeout=1.0)).status_code
            now = time.perf_counter()
            if answering is None:
                answering = now
                if run is not None:
                    run.t_answering = now
            if status == 200:
                return now - start
            if now - answering > UNHEALTHY_GIVE_UP:
                return None
        if time.perf_counter() - start > timeout:
            return None
        await asyncio.sleep(0.1)
    return None


# --- one database ------------------------------------------------------------------------------


@dataclass
class Usage:
    """CPU used over a window: the machine, the server's processes, PostgreSQL, this client."""

    wall: float
    machine_busy: float  # fraction of all cores
    server: float
    postgres: float
    client: float


class UsageMeter:
    def __init__(self, server: Server, postgres: bool) -> None:
        self.server, self.postgres = server, postgres

    def start(self) -> None:
        self.pids = self.server.pids()
        self.t0, self.busy0 = time.perf_counter(), machine_busy_ticks()
        self.server0, self.client0 = cpu_seconds(self.pids), time.process_time()
        self.pg0 = postgres_cpu_seconds() if self.postgres else 0.0

    def stop(self) -> Usage:
        busy, total = machine_busy_ticks()
        postgres = postgres_cpu_seconds() - self.pg0 if self.postgres else 0.0
        return Usage(
            wall=time.perf_counter() - self.t0,
            machine_busy=(busy - self.busy0[0]) / max(total - self.busy0[1], 1),
            server=cpu_seconds(self.pids) - self.server0,
            postgres=postgres,
            client=time.process_time() - self.client0,
        )


@dataclass
class Outcome:
    database: Database
    run: Run
    server_ready: float
    usage: Usage | None
    restart: float | None
    check: LogCheck | None
    access_log_ms: list[float]
    log_levels: Counter[str]
    log_problems: Counter[str]
    failure: str | None = None


async def drive(
    run: Run, server: Server, database: Database, args: argparse.Namespace, meter: UsageMeter
) -> Usage | None:
    """Create the tables, open the watchers, play; stage the crash if asked."""
    slots = [Slot(index, random.Random(args.seed * 1000 + index)) for index in range(args.tables)]
    setup_deadline = run.now() + 30
    creations = await asyncio.gather(*(create_match(run, slot, setup_deadline) for slot in slots))
    for slot, created in zip(slots, creations, strict=True):
        if created is None:
            raise RuntimeError("could not create the tables")
        slot.enter(created)
    hard_stop = run.now() + args.seconds + (SERVER_START_TIMEOUT + 60 if args.crash else 0) + 60
    watchers = [
        asyncio.create_task(watcher(run, index, slots[index % len(slots)], hard_stop)) for index in range(args.watchers)
    ]
    ready_by = run.now() + READY_TIMEOUT
    while run.now() < ready_by and sum(1 for rec in run.watch.values() if rec.ready is not None) < args.watchers:
        await asyncio.sleep(0.05)
    # The client's own garbage collector would pause it mid-measurement, longer and longer
    # as its records grow, and every pause would count as server latency: what exists now
    # is set aside, and collection waits until the run is over (run_database).
    gc.collect()
    gc.freeze()
    gc.disable()
    run.t_start = run.now() + 0.2
    run.t_load_end = run.t_start + args.seconds
    run.t_stop = run.t_load_end + (SERVER_START_TIMEOUT + 60 if args.crash else 0)
    players = [asyncio.create_task(table(run, slot)) for slot in slots]
    others = [asyncio.create_task(baseline(run)), asyncio.create_task(lag_monitor(run))]
    await sleep_until(run.t_start)
    meter.start()
    before = await asyncio.to_thread(postgres_stats, database) if database.kind == "postgres" else None
    await sleep_until(run.t_load_end)
    usage = meter.stop()
    after = await asyncio.to_thread(postgres_stats, database) if database.kind == "postgres" else None
    if before is not None and after is not None:
        run.pg_sessions, run.pg_open, run.pg_max = after[0] - before[0], after[1], after[2]
    elif database.kind == "postgres":
        run.pg_sessions = -1  # the statistics could not be read: the cluster refused a connection
    if args.crash:
        await sleep_until(run.t_load_end + CRASH_AFTER)
        run.t_kill, run.wall_kill = run.now(), wall_now()
        server.kill()
        server.start()
        up = await wait_healthy(run.client, server, SERVER_START_TIMEOUT, run)
        run.t_up = None if up is None else run.now()
        run.t_stop = run.now() + RECOVERY_SECONDS
    await asyncio.wait([*players, *others], timeout=max(run.t_stop - run.now(), 0) + RETRY_GRACE + 10)
    if watchers:
        await asyncio.wait(watchers, timeout=FINAL_SEQ_WAIT + 5)
    for task in players + others + watchers:
        task.cancel()
    await asyncio.gather(*players, *others, *watchers, return_exceptions=True)
    return usage


def new_client(base_url: str, connections: int) -> httpx.AsyncClient:
    """An HTTP/1.1 client keeping up to ``connections`` connections open to the server."""
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(base_url=base_url, limits=limits, http1=True, http2=False)


async def run_database(database: Database, args: argparse.Namespace, tmp: Path) -> Outcome:
    log_path = tmp / f"server-{database.kind}.log"
    server = Server(database, free_port(), log_path, args.workers)
    async with contextlib.AsyncExitStack() as clients:
        client = await clients.enter_async_context(new_client(server.base_url, 4))
        # Each table is a phone with a connection of its own, as at real tables: one client
        # shared by all would send every action down the same few pooled connections, so
        # the server would see a handful of very busy phones instead of many ordinary ones.
        table_clients = [
            await clients.enter_async_context(new_client(server.base_url, 2)) for _table in range(args.tables)
        ]
        stream_clients = [
            await clients.enter_async_context(new_client(server.base_url, WATCHERS_PER_CLIENT))
            for _shard in range(math.ceil(args.watchers / WATCHERS_PER_CLIENT))
        ]
        table_connections = [TableConnection("127.0.0.1", server.port) for _table in range(args.tables)]
        run = Run(client, table_clients, table_connections, stream_clients, args.tables, args.watchers, 1.0 / args.rate)
        server.start()
        ready = await wait_healthy(client, server, SERVER_START_TIMEOUT)
        if ready is None:
            code = server.exited()
            server.stop()
            tail = "\n    ".join(server.log_tail()) or "(nothing)"
            empty = Outcome(database, run, 0.0, None, None, None, [], Counter(), Counter())
            how = f"scripts/serve.sh exited with {code}" if code is not None else "no answer in time"
            empty.failure = f"the server did not answer /healthz ({how}); its log ({log_path}) ends:\n    {tail}"
            return empty
        run.busy_before = await machine_busy_over(1.0)
        wall_start = wall_now()
        meter = UsageMeter(server, database.kind == "postgres")
        try:
            usage = await drive(run, server, database, args, meter)
        finally:
            gc.enable()
            gc.unfreeze()
            for each in [client, *table_clients, *stream_clients]:
                await each.aclose()
            for connection in table_connections:
                connection.close()
            server.stop()
    wall_load_end = wall_start + timedelta(seconds=run.t_load_end - run.t_start + 0.5)
    if args.keep:  # every attempt, for a closer look: seconds since the load began, and ms
        samples = [
            {"table": record.slot, "type": record.kind, "at": a.start - run.t_start, "ms": a.ms, "kind": a.kind}
            for record in run.actions
            for a in record.attempts
        ]
        (tmp / f"actions-{database.kind}.json").write_text(json.dumps(samples))
    access = read_access_log(log_path, wall_start, wall_load_end)
    answered = {
        record.action_id: (record.match_id, record.answered_seq)
        for record in run.actions
        if record.answered_seq is not None
    }
    rows, match_seqs = database.read_log()
    check = check_log(rows, match_seqs, answered, {record.action_id for record in run.actions})
    if run.wall_kill is not None:
        logged_at = {row.action_id: row.created_at for row in rows if row.action_id is not None}
        for record in run.actions:
            if record.answered_seq is not None and any(a.kind not in NOT_SENT and not a.ok for a in record.attempts):
                run.resent_unknown += 1
                if logged_at.get(record.action_id, run.wall_kill) < run.wall_kill:
                    run.replayed += 1
    restart = None if run.t_up is None or run.t_kill is None else run.t_up - run.t_kill
    return Outcome(database, run, ready, usage, restart, check, access.action_ms, access.levels, access.problems)


# --- the figures -------------------------------------------------------------------------------


def line(name: str, value: str, note: str = "") -> None:
    print(f"  {name:<46} {value:>22}  {note}".rstrip())


def ms3(samples: list[float]) -> str:
    if not samples:
        return "-"
    return " / ".join(f"{percentile(samples, pct):.1f}" for pct in (50, 95, 99)) + " ms"


def verdict(ok: bool) -> str:
    return "meets" if ok else "MISSES"


def in_window(t: float, start: float, end: float) -> bool:
    return start <= t < end


def deliveries(run: Run, start: float, end: float) -> tuple[list[float], int, int]:
    """Delays (ms) from sending each accepted action to each watcher of its match hearing its seq.

    A watcher is expected to hear an action if its stream on that match had answered before
    the action was sent; hearing a later seq counts (the stream sends only the newest).
    Returns (delays, expected, missed).
    """
    by_match: dict[str, list[WatchRecord]] = {}
    for (_index, match_id), record in run.watch.items():
        by_match.setdefault(match_id, []).append(record)
    delays: list[float] = []
    expected = missed = 0
    for action in run.actions:
        if action.answered_seq is None or not in_window(action.first_sent, start, end):
            continue
        for record in by_match.get(action.match_id, []):
            if record.ready is None or record.ready > action.first_sent:
                continue
            expected += 1
            heard = next((t for t, seq in record.events if seq >= action.answered_seq), None)
            if heard is None:
                missed += 1
            else:
                delays.append((heard - action.first_sent) * 1000)
    return delays, expected, missed


def phase_figures(run: Run, start: float, end: float, *, targets: bool) -> None:
    actions = [record for record in run.actions if in_window(record.first_sent, start, end)]
    # Requests (and their errors and latencies) count in the phase they were sent in, retries too.
    attempts = [
        attempt for record in run.actions for attempt in record.attempts if in_window(attempt.start, start, end)
    ]
    answered = [record for record in actions if record.answered_seq is not None]
    errors = Counter(attempt.kind for attempt in attempts if not attempt.ok)
    errors += Counter(
        attempt.kind for attempt in run.creations if not attempt.ok and in_window(attempt.start, start, end)
    )
    retried = sum(1 for record in actions if len(record.attempts) > 1)
    latency = [attempt.ms for attempt in attempts if attempt.ok]
    health = [attempt for attempt in run.health if in_window(attempt.start, start, end)]
    health_errors = Counter(attempt.kind for attempt in health if not attempt.ok)
    delays, expected, missed = deliveries(run, start, end)
    stream_errors = Counter(kind for t, kind in run.stream_errors if in_window(t, start, end))
    created = sum(1 for attempt in run.creations if attempt.ok and in_window(attempt.start, start, end))
    seconds = end - start

    mix = Counter(record.kind for record in actions)
    line(
        "actions sent (distinct action_ids)",
        f"{len(actions):,}",
        f"{len(attempts):,} requests, {retried} sent again; {', '.join(f'{n} {k}' for k, n in mix.most_common())}",
    )
    line("  of which answered 2xx (retries included)", f"{len(answered):,}")
    no_error = not errors and not health_errors and not missed
    note = f"target: no error — {verdict(no_error)}" if targets else ""
    line("errors (requests)", f"{sum(errors.values()):,}", note)
    for kind, count in errors.most_common(8):
        line(f"  {kind}", f"{count:,}")
    line("actions accepted per second", f"{len(answered) / seconds:.1f}", f"new matches: {created}")
    p99 = percentile(latency, 99)
    note = f"target p99 ≤ {TARGET_ACTION_P99_MS:.0f} ms — {verdict(p99 <= TARGET_ACTION_P99_MS)}" if targets else ""
    line("action latency p50 / p95 / p99", ms3(latency), note)
    if latency:
        line("action latency max", f"{max(latency):.1f} ms")
    if not targets:
        to_accept = [
            (next(a.end for a in record.attempts if a.ok) - record.first_sent) * 1000
            for record in answered
            if len(record.attempts) > 1
        ]
        if to_accept:
            line(
                "retried actions: first send → 2xx, median / max", f"{median(to_accept):.0f} / {max(to_accept):.0f} ms"
            )
    p95 = percentile(delays, 95)
    note = f"target p95 ≤ {TARGET_DELIVERY_P95_MS:.0f} ms — {verdict(p95 <= TARGET_DELIVERY_P95_MS)}" if targets else ""
    if not expected:
        note = "(no watchers)"
    line("delay to watchers p50 / p95 / p99", ms3(delays), note)
    line("deliveries expected / heard / missed", f"{expected:,} / {len(delays):,} / {missed:,}")
    if stream_errors:
        line(
            "event streams lost",
            f"{sum(stream_errors.values()):,}",
            ", ".join(f"{k} {n}" for k, n in stream_errors.most_common(4)),
        )
    line("baseline GET /healthz p50 / p95 / p99", ms3([a.ms for a in health if a.ok]), f"{len(health)} probes")
    if health_errors:
        line(
            "  /healthz errors",
            f"{sum(health_errors.values())}",
            ", ".join(f"{k} {n}" for k, n in health_errors.most_common(4)),
        )
    lag = [value * 1000 for t, value in run.loop_lag if in_window(t, start, end)]
    if lag:
        line(
            "client event-loop lag p50 / p99",
            f"{percentile(lag, 50):.1f} / {percentile(lag, 99):.1f} ms",
            "(adds to every figure above)",
        )


def crash_figures(outcome: Outcome) -> None:
    run = outcome.run
    assert run.t_kill is not None
    if outcome.restart is None:
        if run.t_answering is None:
            line("server back after the kill", "NEVER", f"(no answer within {SERVER_START_TIMEOUT:.0f} s)")
            return
        line(
            "server answering again after kill -9",
            f"{run.t_answering - run.t_kill:.1f} s",
            f"but /healthz not 200 in the {UNHEALTHY_GIVE_UP:.0f} s after",
        )
    else:
        line(
            "server back after kill -9 (serve.sh → /healthz)",
            f"{outcome.restart:.1f} s",
            # serve.sh skips its build and deploy steps when nothing changed (stamps in var/serve).
            "gunicorn's boot: nothing to build or migrate again",
        )
    # Downtime seen by each table: from the kill to its first accepted action after it.
    back: dict[int, float] = {}
    for record in run.actions:
        for attempt in record.attempts:
            if attempt.ok and attempt.end > run.t_kill and (record.slot not in back or attempt.end < back[record.slot]):
                back[record.slot] = attempt.end
    gaps = [value - run.t_kill for value in back.values()]
    if gaps:
        line(
            "tables: kill → first accepted action, median / max",
            f"{median(gaps):.1f} / {max(gaps):.1f} s",
            f"{len(gaps)} of {run.tables} tables back",
        )
    healthy = [a.end for a in run.health if a.ok and a.end > run.t_kill]
    before = [a.end for a in run.health if a.ok and a.end <= run.t_kill]
    if healthy and before:
        line("baseline: /healthz unanswered for", f"{healthy[0] - before[-1]:.1f} s")
    outages = [back_at - lost for lost, back_at in run.watch_outages if lost >= run.t_kill - 1]
    if outages:
        line(
            "watchers: stream lost → first event again, median / max",
            f"{median(outages):.1f} / {max(outages):.1f} s",
            f"{len(outages)} reconnections",
        )
    line(
        "sent again after an answer never came (same id)",
        f"{run.resent_unknown}",
        f"{run.replayed} had been committed before the kill: the retry got the first answer back",
    )


def check_figures(check: LogCheck) -> None:
    sound = "sound" if check.sound else "BROKEN"
    line(
        "2xx answers (load and crash)",
        f"{check.answered:,}",
        f"log: {check.entries:,} entries, {check.matches} matches — {sound}",
    )
    line("  found once, at the seq answered", f"{check.found_once:,}")
    line("  missing from the log", f"{check.missing:,}")
    line("  logged more than once", f"{check.duplicated:,}")
    if check.wrong_seq:
        line("  logged at another seq than answered", f"{check.wrong_seq:,}")
    line("action_ids logged twice (any)", f"{check.ids_twice:,}")
    line("matches whose seqs are not 1..N", f"{check.matches_with_gaps:,}", "; ".join(check.gap_examples))
    line("matches whose seq is not the last logged", f"{check.matches_seq_mismatch:,}")
    line("undo links broken (undoes / undone_by)", f"{check.undo_links_broken:,}")
    line("logged without a 2xx reaching the client", f"{check.unanswered_in_log:,}", "(gave up; not an error)")


def print_outcome(outcome: Outcome, args: argparse.Namespace) -> None:
    run = outcome.run
    print(outcome.database.label)
    if outcome.failure:
        print(f"  NOT RUN: {outcome.failure}")
        return
    line("server ready (serve.sh → /healthz 200)", f"{outcome.server_ready:.1f} s")
    line("machine busy before the load (others)", f"{run.busy_before * 100:.0f}%", "of 2 cores, server idle")
    print(f" Load ({args.seconds:g} s, {args.tables} tables, {args.watchers} watchers)")
    phase_figures(run, run.t_start, run.t_load_end, targets=True)
    if outcome.access_log_ms:
        line(
            "server side (access log): action p50 / p95 / p99", ms3(outcome.access_log_ms), "inside Django's middleware"
        )
    if outcome.usage is not None:
        usage = outcome.usage
        cores = f"machine busy {usage.machine_busy * 100:.0f}% of 2 cores"
        line(
            "CPU s over the load: server / postgres / client",
            f"{usage.server:.1f} / {usage.postgres:.1f} / {usage.client:.1f}",
            f"in {usage.wall:.0f} s; {cores}",
        )
    if run.pg_sessions == -1:
        line("PostgreSQL sessions opened over the load", "?", "the cluster refused our own connection to read them")
    elif run.pg_sessions is not None:
        answered = sum(
            1 for r in run.actions if r.answered_seq is not None and run.t_start <= r.first_sent < run.t_load_end
        )
        line(
            "PostgreSQL sessions opened over the load",
            f"{run.pg_sessions:,}",
            f"{run.pg_sessions / max(answered, 1):.2f} per accepted action; "
            f"{run.pg_open} open at the end (max_connections {run.pg_max})",
        )
    if args.crash and run.t_kill is not None:
        print(
            f" Crash (the load goes on; kill -9 of the whole server {CRASH_AFTER:g} s in, restart,"
            f" {RECOVERY_SECONDS:g} s more)"
        )
        crash_figures(outcome)
        phase_figures(run, run.t_load_end, run.t_stop + RETRY_GRACE, targets=False)
    if outcome.log_levels:
        line("server log warnings / errors", " / ".join(str(outcome.log_levels[k]) for k in ("WARNING", "ERROR")))
        for problem, count in outcome.log_problems.most_common(4):
            print(f"    {count} × {problem}")
    if run.failure_examples:
        print("  no answer at all, one message of each kind:")
        for kind, message in sorted(run.failure_examples.items()):
            print(f"    {kind}: {message[:150]}")
    if run.resyncs:
        line(
            "matches read again after a refusal",
            f"{sum(run.resyncs.values())}",
            ", ".join(f"{k} {n}" for k, n in run.resyncs.items()),
        )
    if outcome.check is not None:
        print(" Log check (tables_logentry, read from the database directly)")
        check_figures(outcome.check)


# --- main --------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables keeping score (default 50)")
    parser.add_argument("--watchers", type=int, default=200, help="event streams, spread over the tables (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the load phase (default 30)")
    parser.add_argument("--databases", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument(
        "--crash", action=argparse.BooleanOptionalAction, default=True, help="stage a kill -9 (default on)"
    )
    parser.add_argument("--rate", type=float, default=1.0, help="actions per second per table (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="WEB_CONCURRENCY of the server (default 2)")
    parser.add_argument("--keep", action="store_true", help="keep the server logs and the SQLite file")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    args = parser.parse_args(argv)
    args.databases = [name.strip() for name in args.databases.split(",") if name.strip()]
    unknown = set(args.databases) - {"sqlite", "postgres"}
    if unknown or not args.databases:
        parser.error(f"unknown databases: {', '.join(sorted(unknown)) or '(none)'}")
    if args.tables < 1 or args.watchers < 0 or not 1 <= args.seconds <= 600 or not 0.01 <= args.rate <= 100:
        parser.error("need --tables ≥ 1, --watchers ≥ 0, 1 ≤ --seconds ≤ 600, 0.01 ≤ --rate ≤ 100")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"Load and faults: the real server (scripts/serve.sh, gunicorn, {args.workers} uvicorn workers), loopback\n"
        f"  {args.tables} tables, {args.rate:g} action a second each; {args.watchers} watchers on the event streams; "
        f"/healthz {1 / HEALTH_PERIOD:g} times a second\n"
        "  client: uvloop, this process; each table's actions on a connection of its own;"
        " latencies in ms as p50 / p95 / p99"
    )
    status = 0
    tmp = tempfile.mkdtemp(prefix="marquoir-load-")
    if args.keep:
        print(f"  server logs, the SQLite file and every action's timing kept in {tmp}")
    try:
        for name in args.databases:
            print()
            database: Database | str = sqlite_database(Path(tmp)) if name == "sqlite" else postgres_database()
            if isinstance(database, str):
                print(f"PostgreSQL\n  skipped: {database}")
                continue
            try:
                # uvloop, as the server uses: the client's own overhead adds to every figure.
                outcome = uvloop.run(run_database(database, args, Path(tmp)))
            except Exception as error:  # report it and go on with the next database
                print(f"{database.label}\n  FAILED: {type(error).__name__}: {error}")
                status = 1
                continue
            finally:
                with contextlib.suppress(Exception):
                    database.drop()
            print_outcome(outcome, args)
            if outcome.failure:
                status = 1
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
