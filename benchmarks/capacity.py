"""Capacity: how many actions a second one server process on one core sustains with a p99 of
50 ms or less, divided by how many ``GET /healthz`` it sustains the same way, in one run.

    .venv/bin/python -m benchmarks.capacity [--databases sqlite,postgres] [--step-seconds 3]

The server is the production one (scripts/serve.sh: gunicorn, one uvicorn worker) pinned to
one core; this client runs on the other. Requests are sent open-loop at a fixed rate (each
at its scheduled time, whatever the answers: a late answer delays no later request, and
its latency counts from when it was due), over kept-alive connections. The rate doubles
until the p99 passes 50 ms or a request fails, then a bisection finds the highest rate that
holds. Actions are random legal Pickomino turns (take, bust, undo now and then) on 600
matches made beforehand, each with its edit token, ``expected_seq`` and a new ``action_id``.

The ratio divides out the machine's speed: it says what a turn costs against the cheapest
request the same server answers. It reports and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from marquoir.games.pickomino.playout import random_legal_action

from .load import action_body, game_state
from .load_server import Database, Server, free_port, percentile, postgres_database, sqlite_database

TARGET_P99_MS = 50.0
MATCHES = 600
UNDO_SHARE = 0.05
SERVER_CORE, CLIENT_CORE = 1, 0


class Connection:
    """One kept-alive HTTP/1.1 connection, a request at a time (a phone's)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def ask(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes]:
        """The status and body of one request. A kept-alive connection the server closed
        meanwhile (its keep-alive timeout) is opened again once, as a browser does."""
        reused = self.reader is not None
        try:
            return await self._ask(method, path, body, headers)
        except (OSError, asyncio.IncompleteReadError):
            if not reused:
                raise
            return await self._ask(method, path, body, headers)

    async def _ask(self, method: str, path: str, body: bytes, headers: str) -> tuple[int, bytes]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        try:
            self.writer.write(head.encode() + b"\r\n" + body)
            await self.writer.drain()
            lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            fields = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])}
            content = await self.reader.readexactly(int(fields.get("content-length", "0")))
        except (OSError, asyncio.IncompleteReadError):
            self.close()
            raise
        if fields.get("connection", "").lower() == "close":
            self.close()
        return int(lines[0].split()[1]), content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Table:
    """A match being played: its token, its State as last answered, and whether a request
    for it is on its way."""

    match_id: str
    token: str
    state: dict[str, Any]
    busy: bool = False
    can_undo: bool = False  # an action of this run is in force: an undo has something to take back
    rng: random.Random = field(default_factory=random.Random)


@dataclass
class Step:
    rate: float
    sent: int
    failed: int
    p99_ms: float

    @property
    def holds(self) -> bool:
        return self.failed == 0 and self.p99_ms <= TARGET_P99_MS


async def run_at(rate: float, seconds: float, request: Callable[[], Awaitable[bool]]) -> Step:
    """Send ``request`` ``rate`` times a second for ``seconds``, open-loop."""
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    failures = 0
    count = max(1, int(rate * seconds))
    start = loop.time() + 0.05

    async def one(due: float) -> None:
        nonlocal failures
        await asyncio.sleep(max(0.0, due - loop.time()))
        try:
            ok = await asyncio.wait_for(request(), 10.0)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            ok = False
        latencies.append((loop.time() - due) * 1000)
        failures += not ok

    await asyncio.gather(*(one(start + index / rate) for index in range(count)))
    return Step(rate, count, failures, percentile(latencies, 99))


async def holds_at(rate: float, seconds: float, request: Callable[[], Awaitable[bool]], label: str) -> bool:
    """Whether the server holds ``rate``: a step that misses is tried once more, so that a
    pause of this busy machine (another process, a full GC) is not taken for the server's
    limit; two misses in a row are."""
    for _attempt in range(2):
        step = await run_at(rate, seconds, request)
        print(f"    {label:<8} {rate:>7.0f}/s  p99 {step.p99_ms:>7.1f} ms  failed {step.failed}")
        if step.holds:
            return True
    return False


async def highest_rate(request: Callable[[], Awaitable[bool]], seconds: float, label: str) -> float:
    """The highest rate (requests a second) at which ``request`` keeps its p99 ≤ 50 ms."""
    await run_at(20.0, 1.0, request)  # warm-up: connections, the server's caches
    good, bad, rate = 0.0, 0.0, 50.0
    while rate <= 20000:
        if not await holds_at(rate, seconds, request, label):
            bad = rate
            break
        good, rate = rate, rate * 2
    for _ in range(4 if bad else 0):
        rate = (good + bad) / 2
        good, bad = (rate, bad) if await holds_at(rate, seconds, request, label) else (good, rate)
    return good


class Pool:
    """Idle connections, opened as needed (a request at a time on each)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[Connection] = []

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        held = self.idle.pop() if self.idle else Connection(self.port)
        try:
            yield held
        finally:
            self.idle.append(held)


async def make_tables(pool: Pool, count: int, seed: int) -> list[Table]:
    tables = []
    for index in range(count):
        body = json.dumps({"game": "pickomino", "players": ["Ada", "Ben", "Cy"], "first": index % 3}).encode()
        async with pool.connection() as connection:
            status, content = await connection.ask("POST", "/api/v1/matches", body)
        if status != 201:
            raise RuntimeError(f"creating a match answered {status}: {content[:200]!r}")
        created = json.loads(content)
        tables.append(Table(created["id"], created["edit_token"], created["state"], rng=random.Random(seed + index)))
    return tables


def action_request(pool: Pool, tables: list[Table]) -> Callable[[], Awaitable[bool]]:
    async def act() -> bool:
        table = next((table for table in tables if not table.busy and not table.state["over"]), None)
        if table is None:
            return False  # every match over or in flight: counted as a failure, never hidden
        table.busy = True
        try:
            state = table.state
            undo = table.can_undo and table.rng.random() < UNDO_SHARE
            if undo:
                body: dict[str, Any] = {"type": "undo"}
            else:
                body = action_body(random_legal_action(game_state(state), table.rng.choice))
            body.update(expected_seq=state["seq"], action_id=uuid.uuid4().hex)
            async with pool.connection() as connection:
                status, content = await connection.ask(
                    "POST",
                    f"/api/v1/matches/{table.match_id}/actions",
                    json.dumps(body).encode(),
                    f"Authorization: Bearer {table.token}\r\n",
                )
            if status == 200:
                table.state, table.can_undo = json.loads(content), not undo
            return status == 200
        finally:
            table.busy = False

    return act


def health_request(pool: Pool) -> Callable[[], Awaitable[bool]]:
    async def health() -> bool:
        async with pool.connection() as connection:
            status, _content = await connection.ask("GET", "/healthz")
        return status == 200

    return health


def wait_ready(server: Server, timeout: float = 90.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.exited() is not None:
            return False
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{server.base_url}/healthz", timeout=2) as answer,  # noqa: S310 (loopback)
        ):
            if answer.status == 200:
                return True
        time.sleep(0.3)
    return False


async def measure(database: Database, tmp: Path, seconds: float, seed: int) -> tuple[float, float] | None:
    server = Server(database, free_port(), tmp / f"capacity-{database.kind}.log", workers=1)
    server.start()
    try:
        if not wait_ready(server):
            print(f"  the server did not start; its log ends: {server.log_tail(5)}")
            return None
        for pid in server.pids():  # the master and its one worker, on one core
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, {SERVER_CORE})
        pool = Pool(server.port)
        health = await highest_rate(health_request(pool), seconds, "healthz")
        tables = await make_tables(pool, MATCHES, seed)
        actions = await highest_rate(action_request(pool, tables), seconds, "actions")
        for connection in pool.idle:
            connection.close()
        return actions, health
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.capacity", description=__doc__.split("\n")[0])
    parser.add_argument("--databases", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument("--step-seconds", type=float, default=3.0, help="length of each rate tried (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if (os.cpu_count() or 1) < 2:
        print("capacity: needs two cores (one for the server, one for this client); skipped")
        return 0
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {CLIENT_CORE})
    print("Capacity: one server process on one core, p99 ≤ 50 ms, open-loop (benchmarks/capacity.py)")
    with tempfile.TemporaryDirectory(prefix="marquoir-capacity-") as directory:
        tmp = Path(directory)
        for kind in args.databases.split(","):
            database = sqlite_database(tmp) if kind == "sqlite" else postgres_database()
            if isinstance(database, str):
                print(f"  {kind}: {database}")
                continue
            print(f"  {database.label}; load average before: {os.getloadavg()[0]:.2f}")
            try:
                figures = asyncio.run(measure(database, tmp, args.step_seconds, args.seed))
            finally:
                database.drop()
            if figures is None:
                continue
            actions, health = figures
            ratio = actions / health if health else 0.0
            print(f"  {kind}: actions {actions:.0f}/s, GET /healthz {health:.0f}/s: capacity ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
