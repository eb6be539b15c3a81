"""Bounded growth (issue 18): what one accepted action adds to the database, and what the
table screen costs at the log's bound.

A 20-player score sheet (the widest State) played as an abuser would: 200 rounds (the
sheet's most), then undo/round again and again, 1,000 accepted actions in all, each with
an action_id as the pages send one. "Before" is the same log with each entry also
keeping the whole State it answered, as entries did before migration 0006; "now" is what
``match_act`` writes. Both on a fresh SQLite file: the file's growth, and the bytes of
the rows' columns. Then the table screen of a sheet whose log is at its bound
(services.MAX_LOG_ENTRIES), with the whole log worded as before, and cut as now.

    .venv/bin/python -m benchmarks.bench_growth [--actions 1000]
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from .database import use_fresh_database

PLAYERS = 20


def _file_bytes(db_path: str) -> int:
    """The database's size on disk, its write-ahead log folded in first."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(path.stat().st_size for path in Path(db_path).parent.glob(Path(db_path).name + "*"))


def _row_bytes(match_id: str) -> int:
    """The bytes of the log entries' columns (SQLite's LENGTH of each value)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT SUM(LENGTH(payload) + IFNULL(LENGTH(response), 0) + IFNULL(LENGTH(action_id), 0)"
            " + LENGTH(kind) + 8 * 4 + LENGTH(created_at)) FROM tables_logentry WHERE match_id = %s",
            [match_id],
        )
        (total,) = cursor.fetchone()
    return int(total or 0)


def _play(actions: int, *, keep_state: bool, rng: random.Random) -> str:
    """A 20-player sheet played by ``actions`` accepted actions: 200 rounds, then undo and
    round in turn. ``keep_state``: each entry also stores the State answered (as before)."""
    from marquoir.tables import services
    from marquoir.tables.models import LogEntry

    match, _token = services.match_create(game="sheet", players=[f"Player {n + 1}" for n in range(PLAYERS)])
    for number in range(actions):
        if number < 200 or (number - 200) % 2 == 1:
            body: dict[str, Any] = {"type": "round", "scores": [rng.randint(-10, 30) for _ in range(PLAYERS)]}
        else:
            body = {"type": "undo"}
        body["action_id"] = uuid.uuid4().hex
        result = services.match_act(match_id=match.id, body=body).or_raise()
        if keep_state:
            LogEntry.objects.filter(pk=result.entry.pk).update(response=result.state)
    return match.id


def measure_growth(db_path: str, actions: int) -> None:
    from .timing import report

    rng = random.Random(1)
    print(f"Log growth: a {PLAYERS}-player sheet, {actions:,} accepted actions (200 rounds, then undo/round)")
    figures = {}
    for label, keep_state in (("before (each entry kept its State)", True), ("now (the action only)", False)):
        start_bytes = _file_bytes(db_path)
        match_id = _play(actions, keep_state=keep_state, rng=rng)
        grown = _file_bytes(db_path) - start_bytes
        figures[label] = grown
        report(
            f"{label}: database file growth",
            f"{grown / actions:,.0f} B/action",
            f"{grown / 1e6:.2f} MB; columns {_row_bytes(match_id) / actions:,.0f} B/action",
        )
    before, now = figures.values()
    report("growth now / before", f"{now / before:.3f}x" if before else "-")


def _long_sheet(entries: int) -> Any:
    """A 20-player sheet whose log holds ``entries`` entries (200 rounds, then undo/round),
    written straight into the database as match_act would have (fast)."""
    from marquoir.tables import services
    from marquoir.tables.models import LogEntry, Match

    rng = random.Random(2)
    match, _token = services.match_create(game="sheet", players=[f"Player {n + 1}" for n in range(PLAYERS)])
    rows: list[LogEntry] = []
    standing: list[int] = []
    for seq in range(1, entries + 1):
        if seq <= 200 or (seq - 200) % 2 == 0:
            scores = [rng.randint(-10, 30) for _ in range(PLAYERS)]
            rows.append(LogEntry(match=match, seq=seq, kind="action", payload={"type": "round", "scores": scores}))
            standing.append(seq)
        else:
            undone = standing.pop()
            rows[undone - 1].undone_by = seq
            rows.append(LogEntry(match=match, seq=seq, kind="undo", payload={"type": "undo"}, undoes=undone))
    LogEntry.objects.bulk_create(rows, batch_size=500)
    Match.objects.filter(pk=match.pk).update(seq=entries)
    return Match.objects.get(pk=match.pk)


def measure_page_at_the_bound(repeats: int) -> None:
    from django.test import Client

    from marquoir.tables import log_words, services
    from marquoir.tables.selectors import fold_cache

    from .timing import report

    bound = services.MAX_LOG_ENTRIES
    match = _long_sheet(bound)
    address = f"/en/tables/{match.id}/"
    client = Client()
    print(f"Table screen at the log's bound ({bound:,} entries, {PLAYERS}-player sheet)")
    shown_now = log_words.log_in_words.__defaults__
    try:
        for label, shown in (("before (whole log)", bound), (f"now (last {log_words.LOG_SHOWN})", log_words.LOG_SHOWN)):
            log_words.log_in_words.__defaults__ = (shown,)
            cold, warm = [], []
            html = b""
            for _ in range(repeats):
                fold_cache.clear()  # a first view in this process: the log read and folded
                start = time.perf_counter()
                html = client.get(address).content
                cold.append(time.perf_counter() - start)
                start = time.perf_counter()
                client.get(address)
                warm.append(time.perf_counter() - start)
            report(
                f"{label}: GET, median",
                f"{statistics.median(warm) * 1000:.1f} ms",
                f"first view (fold from the database) {statistics.median(cold) * 1000:.1f} ms",
            )
            report(f"{label}: HTML", f"{len(html):,} B", f"gzip {len(gzip.compress(html)):,} B")
    finally:
        log_words.log_in_words.__defaults__ = shown_now


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_growth", description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=1000, help="accepted actions per measure (default 1000)")
    parser.add_argument("--repeats", type=int, default=5, help="page views per figure (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="marquoir-growth-") as tmp:
        db_path = str(Path(tmp) / "bench.sqlite3")
        if not use_fresh_database(db_path):
            print("Log growth: skipped (DATABASE_URL names another database than SQLite)")
            return
        measure_growth(db_path, args.actions)
        measure_page_at_the_bound(args.repeats)
        from django.db import connections

        connections.close_all()  # before the file goes


if __name__ == "__main__":
    main()
