"""Abuse benchmark: the real server, 50 tables playing normally, and one attack at a time beside them.

    .venv/bin/python -m benchmarks.abuse [--scenarios slowbody,streams,imports,exports,pgrestart]
                                         [--quiet 10] [--seconds 20] [--tables 50] [--plays 5000]
                                         [--slow 200] [--streams 5000] [--importers 20] [--exporters 20]
                                         [--server-nofile 1024] [--workers 2] [--seed 1]

(``make bench-abuse``, with ``BENCH_ABUSE_ARGS`` for these options.) Each scenario starts
the production server afresh (scripts/serve.sh, as ``make serve`` does: gunicorn, two
uvicorn workers) on a fresh database, creates the tables, and lets them play one action a
second each (benchmarks/load.py's clients, retries and all) with /healthz probed five
times a second on a kept-alive connection and five times on a new connection each (as a
load balancer checks): first ``--quiet`` seconds alone (the run without the attack), then
``--seconds`` with the attack. Printed for both windows of the same run: the normal
players' action p50/p99, /healthz p99, their errors, and the database bytes per accepted
action; and what the attack got. The targets (p99 ≤ 50 ms, no error for the normal
players) are printed beside the figures, never asserted.

The attacks, one per scenario, all from this machine's one address (127.0.0.1):

- ``slowbody``: ``--slow`` connections that each declare ``Content-Length: 1000`` on
  ``POST /api/v1/matches`` and send a byte a second, opening a new one when one is closed;
- ``streams``: ``--streams`` event streams (``/api/v1/matches/<id>/events``) from one
  address, opened as fast as the server takes them; a refused one tries again 5 s later
  (this process raises its own descriptor limit to do it);
- ``imports``: ``--importers`` clients sending, one after the other, a refused import of
  about 3.8 MiB (``POST /api/v1/groups/import``: 16,400 plays, over the 5,000 allowed);
- ``exports``: ``--exporters`` clients reading, one after the other, the JSON export of the
  biggest group (``--plays`` matches, built before the server starts by
  benchmarks/abuse_group.py with bench_groups.py's builder);
- ``pgrestart``: a fault, not an attack: on PostgreSQL, ``pg_ctl restart -m fast`` under the
  load. Printed: how long until the server answers again, every 5xx (and whether it has the
  contract's JSON shape), and the log read back from the database (every acknowledged
  action in it exactly once).

The server is started with the usual soft limit of open files (``--server-nofile``, 1,024
as a login shell or systemd gives; the hard limit is left as it is, for serve.sh to raise)
and with no per-address action limit: the 50 tables stand for 50 phones, which here all
share 127.0.0.1. PostgreSQL runs in a cluster of this benchmark's own (scripts/postgres.sh
in /tmp/marquoir-pg-abuse on port 54337; MARQUOIR_ABUSE_PG_DIR / _PORT move it), started
if need be and stopped again, never the tests' one nor bench-load's.

The machine is shared (2 cores): the figures are noisy, and the client (this process)
shares the cores with the server; its own event-loop lag is printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvloop

from . import load_server
from .load import (
    HEALTH_PERIOD,
    TARGET_ACTION_P99_MS,
    Attempt,
    Run,
    Slot,
    TableConnection,
    baseline,
    check_figures,
    create_match,
    lag_monitor,
    machine_busy_over,
    new_client,
    table,
    wait_healthy,
)
from .load_server import ROOT, Database, Server, check_log, free_port, percentile, read_access_log

SCENARIOS = ("slowbody", "streams", "imports", "exports", "pgrestart")
HOST = "127.0.0.1"
SERVER_START_TIMEOUT = 120.0
CONNECT_TIMEOUT = 3.0
STREAM_RETRY = 5.0  # a refused stream tries again after this (plus up to a second)
SLOW_DECLARED = 1000  # the Content-Length a slow client declares
IMPORT_BYTES = int(3.8 * 2**20)  # under the 4 MiB an import may be, so it is read, then refused
PG_DIR = os.environ.get("MARQUOIR_ABUSE_PG_DIR", "/tmp/marquoir-pg-abuse")  # noqa: S108
PG_PORT = os.environ.get("MARQUOIR_ABUSE_PG_PORT", "54337")
RESTART_RECOVERY = 12.0  # seconds of load after PostgreSQL is back
MIN_ACTIONS_FOR_BYTES = 100  # fewer accepted actions in a window: its bytes per action are not printed


# --- a minimal HTTP/1.1 client for the attackers ----------------------------------------------


async def raw_request(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None, timeout: float = 30.0
) -> tuple[int, bytes]:
    """One request on a connection of its own (``Connection: close``): (status, body).

    Raises OSError or TimeoutError. The attackers send bodies httpx would take CPU to
    build; this writes bytes and reads them back."""
    head = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    request = (
        f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n"
        f"Content-Length: {len(body)}\r\n{head}\r\n"
    ).encode() + body
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), CONNECT_TIMEOUT)
    try:
        writer.write(request)
        # A server may answer (413) and close before the whole body is in: its answer is
        # what counts, so a failed write still reads what came back.
        with contextlib.suppress(OSError):
            await asyncio.wait_for(writer.drain(), timeout)
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    if not raw:
        raise ConnectionResetError("closed without an answer")
    status = int(raw.split(b" ", 2)[1])
    return status, raw.partition(b"\r\n\r\n")[2]


@dataclass
class AttackStats:
    """What one attack got: its requests by outcome, and figures of its own."""

    outcomes: Counter[str] = field(default_factory=Counter)
    ms: list[float] = field(default_factory=list)  # durations of its answered requests
    notes: dict[str, str] = field(default_factory=dict)
    open_now: int = 0
    open_max: int = 0
    bytes_read: int = 0

    def opened(self) -> None:
        self.open_now += 1
        self.open_max = max(self.open_max, self.open_now)

    def closed(self) -> None:
        self.open_now -= 1


async def _pause_until(stop: float, seconds: float) -> None:
    await asyncio.sleep(max(0.0, min(seconds, stop - time.perf_counter())))


def _error_name(error: BaseException) -> str:
    return "timeout" if isinstance(error, TimeoutError) else type(error).__name__


async def _repeat(stop: float, stats: AttackStats, once: Callable[[], Awaitable[None]]) -> None:
    """``once`` again and again until ``stop``; a failure is counted, and waits a little."""
    for _round in range(1_000_000):
        if time.perf_counter() >= stop:
            return
        try:
            await once()
        except (OSError, TimeoutError) as error:
            stats.outcomes[_error_name(error)] += 1
            await asyncio.sleep(0.2)


async def slow_bodies(port: int, count: int, stop: float, stats: AttackStats) -> None:
    """``count`` connections declaring a body of SLOW_DECLARED bytes, sending a byte a second."""
    head = (
        f"POST /api/v1/matches HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {SLOW_DECLARED}\r\n\r\n"
    ).encode()

    async def one() -> None:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), CONNECT_TIMEOUT)
        stats.opened()
        started = time.perf_counter()
        try:
            writer.write(head)
            for _byte in range(SLOW_DECLARED):
                if time.perf_counter() >= stop:
                    return  # still open: counted in the notes when the window ends
                writer.write(b" ")
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    answer = await asyncio.wait_for(reader.read(200), 1.0)
                    if not answer:
                        stats.outcomes["closed by the server, no answer"] += 1
                    else:
                        status = answer.split(b" ", 2)[1].decode(errors="replace")
                        stats.outcomes[f"answered {status}"] += 1
                    stats.ms.append((time.perf_counter() - started) * 1000)
                    return
            stats.outcomes["whole body sent"] += 1
        finally:
            stats.closed()
            writer.close()

    await asyncio.gather(*(_repeat(stop, stats, one) for _client in range(count)))


async def event_streams(port: int, count: int, match_ids: list[str], stop: float, stats: AttackStats) -> None:
    """``count`` event streams at once, each kept open (and read) until ``stop``."""
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)
    stats.notes["this client's open-files limit"] = f"{limit[0]:,} (raised to its hard limit)"

    async def one(index: int) -> None:
        path = f"/api/v1/matches/{match_ids[index % len(match_ids)]}/events"
        request = f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), CONNECT_TIMEOUT)
        try:
            writer.write(request)
            line = await asyncio.wait_for(reader.readline(), 10.0)
            if not line:
                stats.outcomes["closed by the server, no answer"] += 1
                await _pause_until(stop, STREAM_RETRY + random.random())  # jitter
                return
            status = line.split(b" ", 2)[1].decode(errors="replace")
            if status != "200":
                stats.outcomes[f"refused {status}"] += 1
                await _pause_until(stop, STREAM_RETRY + random.random())
                return
            stats.outcomes["opened (200)"] += 1
            stats.opened()
            try:
                while time.perf_counter() < stop:
                    with contextlib.suppress(TimeoutError):
                        chunk = await asyncio.wait_for(reader.read(4096), max(0.1, stop - time.perf_counter()))
                        if not chunk:
                            stats.outcomes["stream ended by the server"] += 1
                            return
                        stats.bytes_read += len(chunk)
            finally:
                stats.closed()
        finally:
            writer.close()

    async def keep(index: int) -> None:
        await _repeat(stop, stats, lambda: one(index))

    tasks = []
    for index in range(count):  # opened in waves: a few hundred connects at a time
        tasks.append(asyncio.create_task(keep(index)))
        if index % 250 == 249:
            await asyncio.sleep(0.1)
    await asyncio.gather(*tasks)


def refused_import() -> bytes:
    """An export-shaped file of about 3.8 MiB that the import reads, then refuses (it holds
    ~16,400 plays, over the 5,000 an import takes)."""
    players = [{"id": number, "name": name} for number, name in enumerate(["Ada", "Ben", "Cy", "Dee"], start=1)]
    plays = [
        {
            "uuid": str(uuid.UUID(int=number)),
            "gameRefId": 1,
            "playDate": "2024-05-04 20:15:00",
            "durationMin": 30,
            "playerScores": [{"playerRefId": player["id"], "score": str(number % 50)} for player in players[:3]],
        }
        for number in range(IMPORT_BYTES // 150)
    ]
    body = {"games": [{"id": 1, "name": "Pickomino"}], "players": players, "plays": plays}
    while len(encoded := json.dumps(body).encode()) > IMPORT_BYTES:
        excess_plays = (len(encoded) - IMPORT_BYTES) // (len(encoded) // len(plays)) + 1
        del plays[-excess_plays:]
    return encoded


async def requests_in_a_loop(
    port: int, clients: int, stop: float, stats: AttackStats, method: str, path: str, body: bytes = b""
) -> None:
    headers = {"Content-Type": "application/json"} if body else {}

    async def one() -> None:
        started = time.perf_counter()
        status, answer = await raw_request(port, method, path, body, headers, timeout=60.0)
        stats.ms.append((time.perf_counter() - started) * 1000)
        stats.bytes_read += len(answer)
        stats.outcomes[str(status)] += 1
        if status == 429:  # what a polite client does; an impolite one is not slower for it
            await asyncio.sleep(0.05)

    await asyncio.gather(*(_repeat(stop, stats, one) for _client in range(clients)))


async def fresh_probes(run: Run, port: int, probes: list[Attempt], bodies: dict[str, str]) -> None:
    """GET /healthz on a new connection each time, five times a second, as a load balancer's
    check or a phone that just woke up does: a server out of descriptors refuses these
    first, while kept-alive connections still work."""
    next_at = run.t_start
    for _probe in range(100_000):
        await asyncio.sleep(max(0.0, min(next_at, run.t_stop) - run.now()))
        if run.stopping():
            return
        start = run.now()
        try:
            status, body = await raw_request(port, "GET", "/healthz", timeout=2.0)
        except (OSError, TimeoutError) as error:
            probes.append(Attempt(start, run.now(), _error_name(error)))
        else:
            probes.append(Attempt(start, run.now(), "2xx" if status == 200 else str(status)))
            if status != 200:  # what a refusal says, once of each status
                bodies.setdefault(str(status), body[:200].decode(errors="replace"))
        next_at = max(next_at + HEALTH_PERIOD, run.now())


# --- PostgreSQL, a cluster of our own ---------------------------------------------------------


def use_own_cluster() -> None:
    """load_server's PostgreSQL helpers, pointed at this benchmark's cluster (never the tests')."""
    load_server.PG_DIR, load_server.PG_PORT = PG_DIR, PG_PORT


def pg_restart() -> tuple[float, str]:
    """``pg_ctl restart -m fast`` of our cluster: (seconds it took, its complaint if any)."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not bins:
        return 0.0, "no pg_ctl under /usr/lib/postgresql"
    command = [str(bins[-1]), "restart", "-D", f"{PG_DIR}/data", "-m", "fast", "-w", "-t", "60", "-s"]
    command += ["-l", f"{PG_DIR}/server.log"]
    if os.geteuid() == 0:  # the cluster belongs to `postgres` (scripts/postgres.sh)
        command = ["runuser", "-u", "postgres", "--", *command]
    started = time.perf_counter()
    done = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=90, check=False)  # noqa: S603
    return time.perf_counter() - started, (done.stderr or done.stdout).strip() if done.returncode else ""


# --- one scenario -----------------------------------------------------------------------------


@dataclass
class Window:
    name: str
    start: float
    end: float
    db_bytes_start: int | None = None
    db_bytes_end: int | None = None


@dataclass
class Outcome:
    scenario: str
    database: Database
    run: Run
    windows: list[Window]
    attack: AttackStats
    server_ready: float
    busy_before: float
    log_levels: Counter[str]
    log_problems: Counter[str]
    server_nofile: str = "?"  # the soft open-files limit its processes run with
    fresh: list[Attempt] = field(default_factory=list)  # /healthz on a new connection each time
    fresh_bodies: dict[str, str] = field(default_factory=dict)  # ... what its refusals said
    restart: dict[str, float | str] = field(default_factory=dict)
    check: Any = None
    failure: str | None = None


def served_nofile(server: Server) -> str:
    """The soft limits of open files the server's processes run with (from /proc), once
    serve.sh has done with them: it may raise what it was started with."""
    limits = set()
    for pid in server.pids():
        with contextlib.suppress(OSError, ValueError, IndexError):
            for row in Path(f"/proc/{pid}/limits").read_text().splitlines():
                if row.startswith("Max open files"):
                    limits.add(int(row.split()[3]))
    return ", ".join(f"{limit:,}" for limit in sorted(limits)) or "?"


def database_bytes(database: Database) -> int | None:
    """Bytes the database's pages hold now (SQLite: used pages, WAL included; PostgreSQL:
    pg_database_size), read beside the server."""
    try:
        if database.sqlite_path is not None:
            with contextlib.closing(sqlite3.connect(database.sqlite_path, timeout=10)) as db:
                pages = db.execute("PRAGMA page_count").fetchone()[0]
                free = db.execute("PRAGMA freelist_count").fetchone()[0]
                size = db.execute("PRAGMA page_size").fetchone()[0]
                return int((pages - free) * size)
        import psycopg

        assert database.postgres_url is not None
        with psycopg.connect(database.postgres_url, connect_timeout=5) as db:
            row = db.execute("SELECT pg_database_size(current_database())").fetchone()
            return int(row[0]) if row else None
    except Exception:  # a figure we cannot read is printed as "-"
        return None


def new_run(base_url: str, port: int, tables: int) -> tuple[Run, list[httpx.AsyncClient]]:
    client = new_client(base_url, 4)
    table_clients = [new_client(base_url, 2) for _table in range(tables)]
    connections = [TableConnection(HOST, port) for _table in range(tables)]
    return Run(client, table_clients, connections, [], tables, 0, 1.0), [client, *table_clients]


async def run_scenario(
    scenario: str, database: Database, args: argparse.Namespace, tmp: Path, group_id: str | None
) -> Outcome:
    log_path = tmp / f"server-{scenario}.log"
    port = free_port()
    # scripts/serve.sh as load_server.Server starts it (its action limits raised: the 50 tables
    # are 50 phones, here all on 127.0.0.1), with the usual soft limit of open files.
    server = Server(database, port, log_path, args.workers, nofile=args.server_nofile)
    run, clients = new_run(server.base_url, port, args.tables)
    attack = AttackStats()
    outcome = Outcome(scenario, database, run, [], attack, 0.0, 0.0, Counter(), Counter())
    try:
        server.start()
        ready = await wait_healthy(run.client, server, SERVER_START_TIMEOUT)
        if ready is None:
            tail = "\n    ".join(server.log_tail()) or "(nothing)"
            outcome.failure = f"the server did not answer /healthz; its log ({log_path}) ends:\n    {tail}"
            return outcome
        outcome.server_ready = ready
        outcome.server_nofile = served_nofile(server)
        outcome.busy_before = await machine_busy_over(1.0)
        wall_start = load_server.wall_now()
        slots = [Slot(index, random.Random(args.seed * 1000 + index)) for index in range(args.tables)]
        created = await asyncio.gather(*(create_match(run, slot, run.now() + 30) for slot in slots))
        for slot, match in zip(slots, created, strict=True):
            if match is None:
                outcome.failure = "could not create the tables"
                return outcome
            slot.enter(match)
        attack_seconds = RESTART_RECOVERY if scenario == "pgrestart" else args.seconds
        gc.collect()
        gc.freeze()
        gc.disable()  # as load.py: no collector pause counted as the server's latency
        run.t_start = run.now() + 0.2
        quiet = Window("without the attack", run.t_start, run.t_start + args.quiet)
        loud = Window("with the attack" if scenario != "pgrestart" else "restart and after", quiet.end, 0.0)
        run.t_stop = quiet.end + attack_seconds + (30 if scenario == "pgrestart" else 0)
        players = [asyncio.create_task(table(run, slot)) for slot in slots]
        others = [
            asyncio.create_task(baseline(run)),
            asyncio.create_task(lag_monitor(run)),
            asyncio.create_task(fresh_probes(run, port, outcome.fresh, outcome.fresh_bodies)),
        ]
        quiet.db_bytes_start = await asyncio.to_thread(database_bytes, database)
        await asyncio.sleep(max(0.0, quiet.end - run.now()))
        quiet.db_bytes_end = loud.db_bytes_start = await asyncio.to_thread(database_bytes, database)
        if scenario == "pgrestart":
            outcome.restart["t0"] = run.now()
            took, complaint = await asyncio.to_thread(pg_restart)
            outcome.restart["pg_ctl"] = took
            if complaint:
                outcome.restart["complaint"] = complaint
            outcome.restart["t_pg_up"] = run.now()
            run.t_stop = run.now() + RESTART_RECOVERY
            await asyncio.sleep(max(0.0, run.t_stop - run.now()))
        else:
            stop = quiet.end + attack_seconds
            attacker = asyncio.create_task(
                attack_for(scenario, port, stop, attack, args, [slot.match_id for slot in slots], group_id)
            )
            # The window ends on time, whatever the attackers are waiting for; then they are
            # cancelled (their connections closed), not waited for.
            await asyncio.wait([attacker], timeout=max(0.0, stop - run.now()))
            attack.notes["connections still open at the end"] = f"{attack.open_now:,}"
            attacker.cancel()
            await asyncio.gather(attacker, return_exceptions=True)
        loud.end = min(run.now(), run.t_stop)
        outcome.windows = [quiet, loud]
        run.t_stop = min(run.t_stop, run.now())
        await asyncio.wait([*players, *others], timeout=15)
        for task in players + others:
            task.cancel()
        await asyncio.gather(*players, *others, return_exceptions=True)
        loud.db_bytes_end = await asyncio.to_thread(database_bytes, database)
    finally:
        gc.enable()
        gc.unfreeze()
        for each in clients:
            await each.aclose()
        for connection in run.table_connections:
            connection.close()
        server.stop()
    access = read_access_log(log_path, wall_start, load_server.wall_now())
    outcome.log_levels, outcome.log_problems = access.levels, access.problems
    if scenario == "pgrestart":
        answered = {
            record.action_id: (record.match_id, record.answered_seq)
            for record in run.actions
            if record.answered_seq is not None
        }
        rows, seqs = await asyncio.to_thread(database.read_log)
        outcome.check = check_log(rows, seqs, answered, {record.action_id for record in run.actions})
    return outcome


async def attack_for(
    scenario: str,
    port: int,
    stop: float,
    stats: AttackStats,
    args: argparse.Namespace,
    match_ids: list[str],
    group_id: str | None,
) -> None:
    if scenario == "slowbody":
        stats.notes["attack"] = f"{args.slow} connections, Content-Length: {SLOW_DECLARED}, a byte a second"
        await slow_bodies(port, args.slow, stop, stats)
    elif scenario == "streams":
        stats.notes["attack"] = f"{args.streams:,} event streams from 127.0.0.1 on the tables' matches"
        await event_streams(port, args.streams, match_ids, stop, stats)
    elif scenario == "imports":
        body: bytes = args.import_body
        stats.notes["attack"] = (
            f"{args.importers} clients, each a refused import of {len(body) / 2**20:.1f} MiB in a loop"
        )
        await requests_in_a_loop(port, args.importers, stop, stats, "POST", "/api/v1/groups/import", body)
    elif scenario == "exports":
        assert group_id is not None
        stats.notes["attack"] = f"{args.exporters} clients reading the export of a {args.plays:,}-play group in a loop"
        await requests_in_a_loop(port, args.exporters, stop, stats, "GET", f"/api/v1/groups/{group_id}/export")


# --- the figures ------------------------------------------------------------------------------


def line(name: str, values: list[str], note: str = "") -> None:
    print(f"  {name:<36}" + "".join(f"{value:>27}" for value in values) + (f"  {note}" if note else ""))


def _ms(samples: list[float]) -> str:
    if not samples:
        return "-"
    return f"{percentile(samples, 50):.1f} / {percentile(samples, 99):.1f} ms"


def _errors(kinds: Counter[str]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in kinds.most_common(3))


def window_figures(run: Run, window: Window, fresh: list[Attempt]) -> dict[str, Any]:
    def inside(attempt: Attempt) -> bool:
        return window.start <= attempt.start < window.end

    attempts = [attempt for record in run.actions for attempt in record.attempts if inside(attempt)]
    accepted = sum(
        1
        for record in run.actions
        if record.answered_seq is not None and any(a.ok and window.start <= a.end < window.end for a in record.attempts)
    )
    health = [attempt for attempt in run.health if inside(attempt)]
    new = [attempt for attempt in fresh if inside(attempt)]
    lag = [value * 1000 for t, value in run.loop_lag if window.start <= t < window.end]
    grown = (
        None
        if window.db_bytes_start is None or window.db_bytes_end is None
        else window.db_bytes_end - window.db_bytes_start
    )
    errors = Counter(a.kind for a in attempts if not a.ok)
    errors += Counter(a.kind for a in run.creations if not a.ok and inside(a))
    return {
        "accepted": accepted,
        "seconds": window.end - window.start,
        "action_ms": [a.ms for a in attempts if a.ok],
        "errors": errors,
        "health_ms": [a.ms for a in health if a.ok],
        "health_errors": Counter(a.kind for a in health if not a.ok),
        "probes": len(health),
        "fresh_ms": [a.ms for a in new if a.ok],
        "fresh_errors": Counter(a.kind for a in new if not a.ok),
        "fresh_probes": len(new),
        "lag": lag,
        # Pages are 4 KiB: a handful of actions says nothing about the bytes each costs.
        "bytes_per_action": None if grown is None or accepted < MIN_ACTIONS_FOR_BYTES else grown / accepted,
    }


def print_outcome(outcome: Outcome, args: argparse.Namespace) -> None:
    titles = {
        "slowbody": f"{args.slow} slow-body connections",
        "streams": f"{args.streams:,} event streams from one address",
        "imports": f"{args.importers} clients sending refused ~4 MiB imports",
        "exports": f"{args.exporters} clients reading the biggest export ({args.plays:,} plays)",
        "pgrestart": "PostgreSQL restarted under load (pg_ctl restart -m fast)",
    }
    print(f"\n== {outcome.scenario}: {titles[outcome.scenario]} — {outcome.database.label}")
    if outcome.failure:
        print(f"  NOT RUN: {outcome.failure}")
        return
    print(
        f"  server ready in {outcome.server_ready:.1f} s; machine busy before the load {outcome.busy_before * 100:.0f}%"
        f" of 2 cores (others); the server started with a soft open-files limit of"
        f" {args.server_nofile or 'inherited'}, its processes run with {outcome.server_nofile}"
    )
    figures = [window_figures(outcome.run, window, outcome.fresh) for window in outcome.windows]
    line("", [f"{window.name} ({f['seconds']:.0f} s)" for window, f in zip(outcome.windows, figures, strict=True)])
    line(
        "actions accepted (per second)", [f"{f['accepted']:,} ({f['accepted'] / f['seconds']:.1f}/s)" for f in figures]
    )
    for f in figures:
        p99 = percentile(f["action_ms"], 99)
        f["meets"] = not f["errors"] and not f["health_errors"] and p99 <= TARGET_ACTION_P99_MS
    line(
        "action p50 / p99",
        [_ms(f["action_ms"]) for f in figures],
        f"target p99 ≤ {TARGET_ACTION_P99_MS:.0f} ms, 0 errors",
    )
    line("action errors", [f"{sum(f['errors'].values()):,}" for f in figures])
    for f, window in zip(figures, outcome.windows, strict=True):
        if f["errors"]:
            print(f"    {window.name}: {_errors(f['errors'])}")
    line("/healthz p50 / p99", [_ms(f["health_ms"]) for f in figures], f"{1 / HEALTH_PERIOD:g} probes a second")
    line("/healthz errors", [f"{sum(f['health_errors'].values()):,} of {f['probes']}" for f in figures])
    for f, window in zip(figures, outcome.windows, strict=True):
        if f["health_errors"]:
            print(f"    {window.name}: {_errors(f['health_errors'])}")
    line("/healthz, new connection: p50 / p99", [_ms(f["fresh_ms"]) for f in figures], "as a load balancer checks")
    line(
        "/healthz, new connection: errors",
        [f"{sum(f['fresh_errors'].values()):,} of {f['fresh_probes']}" for f in figures],
    )
    for f, window in zip(figures, outcome.windows, strict=True):
        if f["fresh_errors"]:
            print(f"    {window.name}: {_errors(f['fresh_errors'])}")
    for status, body in outcome.fresh_bodies.items():
        print(f"    a {status} from /healthz said: {body}")
    line(
        "database bytes per accepted action",
        ["-" if f["bytes_per_action"] is None else f"{f['bytes_per_action']:,.0f}" for f in figures],
        f"(- : unreadable, or under {MIN_ACTIONS_FOR_BYTES} actions accepted)",
    )
    line(
        "client event-loop lag p99",
        [f"{percentile(f['lag'], 99):.1f} ms" if f["lag"] else "-" for f in figures],
        "(adds to every figure)",
    )
    verdicts = ["meets" if f["meets"] else "MISSES" for f in figures]
    line("target for the normal players", verdicts)
    attack = outcome.attack
    if outcome.scenario == "pgrestart":
        restart_figures(outcome)
    else:
        for name, note in attack.notes.items():
            print(f"  {name}: {note}")
        print(f"  attack outcomes: {_errors(Counter(dict(attack.outcomes.most_common()))) or '-'}")
        for kind, count in attack.outcomes.most_common()[3:]:
            print(f"    also {count:,} {kind}")
        if attack.ms:
            print(f"  attack requests p50 / p99: {_ms(attack.ms)}; {attack.bytes_read / 2**20:,.1f} MiB read")
        if outcome.scenario in ("slowbody", "streams"):
            print(f"  attack connections open at most at once: {attack.open_max:,}")
    if outcome.log_levels:
        print(f"  server log: {outcome.log_levels['WARNING']} warnings, {outcome.log_levels['ERROR']} errors")
        for problem, count in outcome.log_problems.most_common(4):
            print(f"    {count} × {problem[:150]}")


def _contract_shaped(kind: str) -> bool:
    """Whether an answer's kind ("503 unavailable", "500 Internal Server Error") came from the
    contract's JSON error shape: load.error_kind takes error.code from it, else the reason."""
    code = kind.partition(" ")[2]
    return bool(code) and code.replace("_", "").isalpha() and code.islower()


def restart_figures(outcome: Outcome) -> None:
    run, restart = outcome.run, outcome.restart
    t0 = float(restart["t0"])
    t_up = float(restart["t_pg_up"])
    print(
        f"  pg_ctl restart -m fast took {float(restart['pg_ctl']):.1f} s"
        + (f" ({restart['complaint']})" if "complaint" in restart else "")
    )
    after = [a for record in run.actions for a in record.attempts if a.start >= t0]
    first_ok = min((a.end for a in after if a.ok and a.start >= t_up), default=None)
    health_ok = min((a.end for a in run.health if a.ok and a.start >= t_up), default=None)
    fails = [a for a in after if not a.ok]
    last_fail = max((a.end for a in fails), default=None)
    if first_ok is None:
        print("  the server answered no action after the restart")
    else:
        target = "within 5 s: meets" if first_ok - t_up <= 5 else "within 5 s: MISSES"
        print(
            f"  first accepted action after PostgreSQL is back: {first_ok - t_up:.1f} s ({target});"
            f" {first_ok - t0:.1f} s after pg_ctl restart began"
        )
    if health_ok is not None:
        print(f"  first /healthz 200 after PostgreSQL is back: {health_ok - t_up:.1f} s")
    if last_fail is not None:
        print(f"  actions failing from the restart for {last_fail - t0:.1f} s; {len(fails)} failed attempts (retried)")
    kinds = Counter(a.kind for a in fails)
    health = Counter(a.kind for a in run.health if not a.ok and a.start >= t0)
    server_errors = {kind: count for kind, count in kinds.items() if kind[:1] == "5"}
    shapeless = {kind: count for kind, count in server_errors.items() if not _contract_shaped(kind)}
    print(f"  API failures by kind (POST .../actions): {_errors(kinds) or 'none'}")
    for kind, count in list(kinds.most_common())[3:]:
        print(f"    also {count} {kind}")
    print(
        f"  API 5xx answers: {sum(server_errors.values())}; without the contract's JSON shape"
        f' ({{"error": {{"code", "message"}}}}): {sum(shapeless.values())}'
        + (f" ({_errors(Counter(shapeless))})" if shapeless else "")
    )
    # /healthz is not the API: its refusal is {"status": ...}, not the contract's error shape.
    print(f"  /healthz failures after the restart: {_errors(health) or 'none'}")
    if outcome.check is not None:
        print(" Log check (tables_logentry, read from the database directly)")
        check_figures(outcome.check)


# --- main -------------------------------------------------------------------------------------


def build_group_database(directory: Path, plays: int) -> tuple[Path, str] | str:
    """A SQLite file holding the biggest group (benchmarks/abuse_group.py), and its id; or why not."""
    path = directory / "group.sqlite3"
    env = {
        **{key: value for key, value in os.environ.items() if key not in {"DATABASE_URL"}},
        "SQLITE_PATH": str(path),
        "SECRET_KEY": "abuse-benchmark-group-builder-" + uuid.uuid4().hex,
        "MARQUOIR_DEBUG": "0",
    }
    started = time.perf_counter()
    done = subprocess.run(  # noqa: S603 (our own module)
        [sys.executable, "-m", "benchmarks.abuse_group", str(plays)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if done.returncode != 0:
        return f"benchmarks.abuse_group failed: {done.stderr.strip()[-600:]}"
    group_id = done.stdout.strip().splitlines()[-1]
    print(f"  the biggest group: {plays:,} plays built in {time.perf_counter() - started:.0f} s (group {group_id})")
    return path, group_id


def raise_own_descriptor_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.abuse", description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help=f"comma-separated: {', '.join(SCENARIOS)}")
    parser.add_argument("--quiet", type=float, default=10.0, help="seconds of normal load alone (default 10)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of the attack beside it (default 20)")
    parser.add_argument("--tables", type=int, default=50, help="tables playing normally (default 50)")
    parser.add_argument("--slow", type=int, default=200, help="slow-body connections (default 200)")
    parser.add_argument("--streams", type=int, default=5000, help="event streams (default 5000)")
    parser.add_argument("--importers", type=int, default=20, help="clients sending refused imports (default 20)")
    parser.add_argument("--exporters", type=int, default=20, help="clients reading the export (default 20)")
    parser.add_argument("--plays", type=int, default=5000, help="plays of the exported group (default 5000)")
    parser.add_argument(
        "--server-nofile", type=int, default=1024, help="the server's soft open-files limit; 0: this process's"
    )
    parser.add_argument("--workers", type=int, default=2, help="WEB_CONCURRENCY of the server (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    parser.add_argument("--keep", action="store_true", help="keep the server logs and databases")
    args = parser.parse_args(argv)
    args.scenarios = [name.strip() for name in args.scenarios.split(",") if name.strip()]
    unknown = set(args.scenarios) - set(SCENARIOS)
    if unknown or not args.scenarios:
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown)) or '(none)'}")
    if not (1 <= args.quiet <= 300 and 1 <= args.seconds <= 300 and args.tables >= 1 and 1 <= args.plays <= 5000):
        parser.error("need 1 ≤ --quiet, --seconds ≤ 300, --tables ≥ 1, 1 ≤ --plays ≤ 5000")
    args.server_nofile = args.server_nofile or None
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_own_descriptor_limit()
    use_own_cluster()
    print(
        f"Abuse: the real server (scripts/serve.sh, gunicorn, {args.workers} uvicorn workers, loopback), "
        f"{args.tables} tables at one action a second each, /healthz {1 / HEALTH_PERIOD:g} times a second;\n"
        f"  each scenario: {args.quiet:g} s without the attack, then {args.seconds:g} s with it, on a fresh server"
        f" and database (SQLite, but pgrestart on PostgreSQL). Code under test: {ROOT}\n"
        "  latencies as p50 / p99; nothing asserted. The machine is shared: figures are noisy.\n"
        "  The server: MATCH_ACTION_ADDRESS_LIMIT raised (the 50 tables stand for 50 phones, here all on"
        " 127.0.0.1); every other limit as shipped."
    )
    status = 0
    tmp = Path(tempfile.mkdtemp(prefix="marquoir-abuse-"))
    if args.keep:
        print(f"  server logs and databases kept in {tmp}")
    # Made before any clock runs: building it blocks the event loop for a moment.
    args.import_body = refused_import() if "imports" in args.scenarios else b""
    try:
        group: tuple[Path, str] | str | None = None
        if "exports" in args.scenarios:
            group = build_group_database(tmp, args.plays)
            if isinstance(group, str):
                print(f"  exports: {group}")
        for scenario in args.scenarios:
            directory = tmp / scenario
            directory.mkdir()
            group_id = None
            if scenario == "exports":
                if not isinstance(group, tuple):
                    continue
                shutil.copyfile(group[0], directory / "load.sqlite3")
                group_id = group[1]
            database: Database | str = (
                load_server.postgres_database() if scenario == "pgrestart" else load_server.sqlite_database(directory)
            )
            if isinstance(database, str):
                print(f"\n== {scenario}: skipped: {database}")
                continue
            try:
                outcome = uvloop.run(run_scenario(scenario, database, args, directory, group_id))
            except Exception as error:  # report it and go on with the next scenario
                print(f"\n== {scenario}: FAILED: {type(error).__name__}: {error}")
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
