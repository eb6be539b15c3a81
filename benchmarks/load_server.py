"""The server side of the load benchmark: a database to serve, the real server, and the log check.

The server is scripts/serve.sh, exactly as in production (gunicorn with uvicorn workers),
started in a process group of its own so that a crash can be staged with one ``kill -9``
of the whole group (master and workers). Each run gets a fresh database: a SQLite file in
a temporary directory, or a new database in the throwaway cluster of scripts/postgres.sh.
After the run the log (``tables_logentry``) is read directly, not through the app.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import secrets
import signal
import socket
import sqlite3
import statistics
import subprocess
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A TCP port nobody listens on at this instant, on the loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- databases --------------------------------------------------------------------------------


@dataclass
class LogRow:
    match_id: str
    seq: int
    kind: str
    action_id: str | None
    undone_by: int | None
    undoes: int | None
    created_at: datetime


@dataclass
class Database:
    """Where one run keeps its matches: the server's settings, and a direct way to read them."""

    kind: str  # "sqlite" or "postgres"
    label: str
    env: dict[str, str]
    sqlite_path: Path | None = None
    postgres_url: str | None = None
    admin_url: str | None = None
    name: str = ""
    stop_cluster: bool = False

    def read_log(self) -> tuple[list[LogRow], dict[str, int]]:
        """Every log entry, and each match's seq, read from the database itself."""
        entries = "SELECT match_id, seq, kind, action_id, undone_by, undoes, created_at FROM tables_logentry"
        matches = "SELECT id, seq FROM tables_match"
        if self.sqlite_path is not None:
            with contextlib.closing(sqlite3.connect(self.sqlite_path, timeout=10)) as db:
                rows = db.execute(entries).fetchall()
                seqs = dict(db.execute(matches).fetchall())
        else:
            import psycopg

            assert self.postgres_url is not None
            with psycopg.connect(self.postgres_url, connect_timeout=10) as db:
                rows = db.execute(entries).fetchall()
                seqs = dict(db.execute(matches).fetchall())
        return [LogRow(row[0], row[1], row[2], row[3], row[4], row[5], _utc(row[6])) for row in rows], seqs

    def drop(self) -> None:
        """Drop the run's PostgreSQL database, and stop the cluster if this run started it.

        (The SQLite file goes with its temporary directory.)"""
        if self.kind != "postgres" or self.admin_url is None:
            return
        import psycopg

        try:
            with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=10) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        finally:
            if self.stop_cluster:
                _script("stop", timeout=120)


def _utc(value: object) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)


def sqlite_database(directory: Path) -> Database:
    path = directory / "load.sqlite3"
    return Database("sqlite", "SQLite (a file in a temporary directory, WAL)", {"SQLITE_PATH": str(path)}, path)


# The benchmark's own cluster, made and run by scripts/postgres.sh like the tests' one but
# apart from it: under load the app holds a connection per open event stream, and 200 of
# them would take every slot of a shared cluster from the tests running beside it (and its
# `reset` would drop our database mid-run). MARQUOIR_PG_DIR / MARQUOIR_PG_PORT override.
PG_DIR = os.environ.get("MARQUOIR_PG_DIR", "/tmp/marquoir-pg-load")  # noqa: S108
PG_PORT = os.environ.get("MARQUOIR_PG_PORT", "54331")


def _script(*args: str, timeout: float) -> str:
    """The output of scripts/postgres.sh with these arguments (our own script, fixed arguments)."""
    command = ["bash", str(ROOT / "scripts" / "postgres.sh"), *args]
    env = {**os.environ, "MARQUOIR_PG_DIR": PG_DIR, "MARQUOIR_PG_PORT": PG_PORT}
    done = subprocess.run(  # noqa: S603
        command, cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=timeout
    )
    return done.stdout.strip()


def _answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


def postgres_database() -> Database | str:
    """A new, empty database in the benchmark's cluster (started if need be), or why there is none."""
    import psycopg

    try:
        url = _script("url", timeout=30)
        admin_url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
        started_here = not _answers(admin_url)
        if started_here:
            _script("start", timeout=120)
        version = _script("version", timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        detail = str(getattr(error, "stderr", "") or "").strip()
        return f"scripts/postgres.sh did not give a cluster ({detail or error})"
    name = f"marquoir_load_{os.getpid()}_{secrets.token_hex(3)}"
    run_url = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        return f"could not create a database on {admin_url}: {error}"
    label = f"PostgreSQL {version} (scripts/postgres.sh, cluster {PG_DIR} on port {PG_PORT}, database {name})"
    database = Database("postgres", label, {"DATABASE_URL": run_url}, None, run_url, admin_url, name)
    database.stop_cluster = started_here
    return database


def postgres_stats(database: Database) -> tuple[int, int, int] | None:
    """(sessions ever opened on the run's database, connections open now, max_connections)."""
    import psycopg

    if database.admin_url is None:
        return None
    try:
        with psycopg.connect(database.admin_url, connect_timeout=3) as admin:
            admin.execute("SELECT pg_stat_clear_snapshot()")
            sessions = admin.execute(
                "SELECT sessions FROM pg_stat_database WHERE datname = %s", [database.name]
            ).fetchone()
            open_now = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database.name]
            ).fetchone()
            limit = admin.execute("SHOW max_connections").fetchone()
    except psycopg.Error:
        return None
    if sessions is None or open_now is None or limit is None:
        return None
    return int(sessions[0]), int(open_now[0]), int(limit[0])


# --- the server -------------------------------------------------------------------------------


class Server:
    """scripts/serve.sh in a process group of its own, its output appended to ``log_path``;
    ``nofile``: its soft limit of open files (None: this process's own)."""

    def __init__(self, database: Database, port: int, log_path: Path, workers: int, nofile: int | None = None) -> None:
        self.port = port
        self.log_path = log_path
        self.nofile = nofile
        self.proc: subprocess.Popen[bytes] | None = None
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "SQLITE_PATH", "MARQUOIR_DEBUG", "MARQUOIR_HTTPS", "SECRET_KEY"}
        }
        env.update(
            BIND=f"127.0.0.1:{port}",
            WEB_CONCURRENCY=str(workers),
            LOG_FORMAT="json",
            SECRET_KEY=secrets.token_urlsafe(50),
            MATCH_CREATION_LIMIT="100000",
            MATCH_CREATION_ADDRESS_LIMIT="100000",
            # Every simulated table plays from 127.0.0.1, faster than any real one: the
            # per-match and per-address action limits would refuse what is being measured.
            MATCH_ACTION_LIMIT="1000000",
            MATCH_ACTION_ADDRESS_LIMIT="1000000",
            GRACEFUL_TIMEOUT="5",
            PYTHONUNBUFFERED="1",
        )
        env.update(database.env)
        self.env = env

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(  # noqa: S603 (our own script, fixed arguments)
                ["bash", str(ROOT / "scripts" / "serve.sh")],  # noqa: S607
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: one signal reaches every worker
                preexec_fn=self._limit_descriptors if self.nofile is not None else None,
            )

    def _limit_descriptors(self) -> None:  # in the child, before exec: only setrlimit, safe there
        assert self.nofile is not None
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(self.nofile, hard), hard))

    def exited(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def _signal_group(self, signum: int) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signum)

    def kill(self) -> None:
        """``kill -9`` the whole server: the gunicorn master and its workers at once."""
        self._signal_group(signal.SIGKILL)
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)

    def stop(self, timeout: float = 15.0) -> None:
        """A graceful stop (SIGTERM to the group), then SIGKILL for whatever is left."""
        if self.proc is None:
            return
        self._signal_group(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=timeout)
        self._signal_group(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)

    def pids(self) -> list[int]:
        return [] if self.proc is None else group_members(self.proc.pid)

    def log_tail(self, lines: int = 15) -> list[str]:
        try:
            return self.log_path.read_text(errors="replace").splitlines()[-lines:]
        except OSError:
            return []


# --- CPU accounting from /proc ----------------------------------------------------------------


def _stat_fields(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2 :].split()


def _all_pids() -> Iterable[int]:
    return (int(name) for name in os.listdir("/proc") if name.isdigit())


def group_members(pgid: int) -> list[int]:
    members = []
    for pid in _all_pids():
        fields = _stat_fields(pid)
        if fields is not None and int(fields[2]) == pgid:
            members.append(pid)
    return members


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU time of these processes so far (children that exited are not counted)."""
    total = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def postgres_cpu_seconds() -> float:
    """CPU time of the benchmark cluster: the postmaster, its living backends, and (from the
    postmaster's children counters) every backend that has exited: a new connection per
    request means most backends live for one request only."""
    pid_file = Path(PG_DIR) / "data" / "postmaster.pid"
    try:
        postmaster = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    master = _stat_fields(postmaster)
    if master is None:
        return 0.0
    ticks = sum(int(value) for value in master[11:15])  # utime, stime, cutime, cstime
    for pid in _all_pids():
        fields = _stat_fields(pid)
        if fields is not None and int(fields[1]) == postmaster:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / CLOCK_TICKS


def machine_busy_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of every CPU since boot, from /proc/stat."""
    values = [int(value) for value in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


# --- the server's own access log --------------------------------------------------------------


@dataclass
class AccessLog:
    action_ms: list[float] = field(default_factory=list)
    levels: Counter[str] = field(default_factory=Counter)
    problems: Counter[str] = field(default_factory=Counter)


_MATCH_PATH = re.compile(r"/matches/[^/\s]+")


def read_access_log(path: Path, since: datetime, until: datetime) -> AccessLog:
    """Server-side durations of POST .../actions in a time window, and warnings/errors logged."""
    found = AccessLog()
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return found
    for line in lines:
        if not line.startswith("{"):
            continue
        try:
            entry: dict[str, Any] = json.loads(line)
        except ValueError:
            continue
        level = str(entry.get("level", ""))
        if level in {"WARNING", "ERROR", "CRITICAL"}:
            found.levels[level] += 1
            exception = str(entry.get("exception") or "").strip().splitlines()
            cause = f" — {exception[-1][:140]}" if exception else ""
            message = _MATCH_PATH.sub("/matches/{id}", str(entry.get("message")))[:70]
            found.problems[f"{level} {entry.get('logger')}: {message}{cause}"] += 1
        if entry.get("method") != "POST" or not str(entry.get("path", "")).endswith("/actions"):
            continue
        try:
            when = datetime.fromisoformat(str(entry["time"]))
        except (KeyError, ValueError):
            continue
        if since <= when < until and isinstance(entry.get("duration_ms"), int | float):
            found.action_ms.append(float(entry["duration_ms"]))
    return found


# --- the log check ----------------------------------------------------------------------------


@dataclass
class LogCheck:
    answered: int = 0  # actions that got a 2xx answer
    found_once: int = 0  # ... whose action_id is in the log exactly once, at the seq answered
    wrong_seq: int = 0  # ... in the log once but at another seq than the answer said
    missing: int = 0
    duplicated: int = 0  # ... whose action_id is in the log more than once
    ids_twice: int = 0  # action_ids (anyone's) logged more than once
    matches: int = 0
    matches_with_gaps: int = 0
    matches_seq_mismatch: int = 0  # the match row's seq is not the last logged seq
    undo_links_broken: int = 0
    unanswered_in_log: int = 0  # logged, but their client never got a 2xx (gave up)
    entries: int = 0
    gap_examples: list[str] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not (
            self.missing
            or self.duplicated
            or self.wrong_seq
            or self.ids_twice
            or self.matches_with_gaps
            or self.matches_seq_mismatch
            or self.undo_links_broken
        )


def check_log(
    rows: list[LogRow], match_seqs: dict[str, int], answered: dict[str, tuple[str, int]], sent_ids: set[str]
) -> LogCheck:
    """Every answered action logged exactly once, no action_id twice, seqs 1..N without a gap.

    ``answered`` maps each action_id that got a 2xx to (match id, seq answered); ``sent_ids``
    holds every action_id the clients sent (answered or not).
    """
    check = LogCheck(answered=len(answered), entries=len(rows), matches=len(match_seqs))
    by_id: dict[str, list[LogRow]] = defaultdict(list)
    by_match: dict[str, list[LogRow]] = defaultdict(list)
    for row in rows:
        by_match[row.match_id].append(row)
        if row.action_id is not None:
            by_id[row.action_id].append(row)
    check.ids_twice = sum(1 for logged in by_id.values() if len(logged) > 1)
    for action_id, (match_id, seq) in answered.items():
        logged = by_id.get(action_id, [])
        if not logged:
            check.missing += 1
        elif len(logged) > 1:
            check.duplicated += 1
        elif (logged[0].match_id, logged[0].seq) != (match_id, seq):
            check.wrong_seq += 1
        else:
            check.found_once += 1
    check.unanswered_in_log = sum(1 for action_id in by_id if action_id in sent_ids and action_id not in answered)
    for match_id, match_seq in match_seqs.items():
        entries = sorted(by_match.get(match_id, []), key=lambda row: row.seq)
        seqs = [row.seq for row in entries]
        if seqs != list(range(1, len(seqs) + 1)):
            check.matches_with_gaps += 1
            if len(check.gap_examples) < 3:
                check.gap_examples.append(f"{match_id[:8]}…: {seqs[:12]}")
        if match_seq != (seqs[-1] if seqs else 0):
            check.matches_seq_mismatch += 1
        at = {row.seq: row for row in entries}
        for row in entries:
            if row.undoes is not None:
                target = at.get(row.undoes)
                if target is None or target.undone_by != row.seq or row.kind != "undo":
                    check.undo_links_broken += 1
            if row.undone_by is not None:
                undo = at.get(row.undone_by)
                if undo is None or undo.undoes != row.seq:
                    check.undo_links_broken += 1
    return check


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile (``pct`` in 0..100); NaN for no samples."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), int(-(-pct * len(ordered) // 100))))
    return ordered[rank - 1]


def median(samples: list[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


def wall_now() -> datetime:
    return datetime.fromtimestamp(time.time(), tz=UTC)
