"""The fold cache: a match folded once is reused only for exactly the log it was folded from."""

from __future__ import annotations

import datetime
import random

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from marquoir.games.pickomino.playout import random_legal_action
from marquoir.keepers.pickomino.state import state_json
from marquoir.tables.fold import FoldCache, Folded, Ledger, fold_cache, fold_log, log_rows
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.selectors import keeper_of, match_view

from .conftest import UNDO, act_on, body_of, create_row, take


def fresh_state(match_id: str) -> dict[str, object]:
    """The State folded from the stored log, the cache left aside."""
    row = Match.objects.get(pk=match_id)
    return state_json(fold_log(row, log_rows(row), keeper_of(row)))


def fresh_log(match_id: str) -> list[tuple[int, str, bool, int | None]]:
    row = Match.objects.get(pk=match_id)
    return [(e.seq, e.kind, e.undone, e.undoes) for e in fold_log(row, log_rows(row), keeper_of(row)).log]


def test_a_match_read_twice_at_one_seq_is_folded_once(row, django_assert_num_queries):
    act_on(row, take(27))
    fold_cache.clear()
    stored = Match.objects.get(pk=row.id)
    with django_assert_num_queries(1):  # the log
        first = match_view(stored)
    with django_assert_num_queries(0):
        again = match_view(stored)
    assert again.engine == first.engine
    assert again.log == first.log


def test_after_an_action_the_next_request_reuses_the_fold_it_answered(row, django_assert_num_queries):
    answered = act_on(row, take(27)).state
    stored = Match.objects.get(pk=row.id)
    with django_assert_num_queries(0):
        cached = state_json(match_view(stored))
    assert cached == answered == fresh_state(row.id)


def test_a_fold_is_not_reused_once_the_match_was_written_elsewhere(row, django_assert_num_queries):
    act_on(row, take(27))
    # Another process records a bust: the row's seq and updated_at move on, the cache here
    # still holds the fold at seq 1.
    moved_at = Match.objects.get(pk=row.id).updated_at + datetime.timedelta(seconds=1)
    LogEntry.objects.create(match_id=row.id, seq=2, kind="bust", payload={"type": "bust"})
    Match.objects.filter(pk=row.id).update(seq=2, updated_at=moved_at)
    stored = Match.objects.get(pk=row.id)
    with django_assert_num_queries(1):
        view = match_view(stored)
    assert state_json(view) == fresh_state(row.id)
    assert view.engine.state.current == 2


def test_a_fold_with_the_same_seq_but_another_write_time_is_not_reused(row):
    act_on(row, take(27))
    stored = Match.objects.get(pk=row.id)
    held = match_view(stored)
    # The same seq reached by another history (say, a database restored and played on):
    # only the write time tells them apart, and it is part of the key.
    stored.updated_at += datetime.timedelta(microseconds=1)
    LogEntry.objects.filter(match_id=row.id, seq=1).update(payload={"type": "bust"}, kind="bust")
    again = match_view(stored)
    assert again.engine != held.engine
    assert again.log[0].kind == "bust"


def test_the_least_recently_used_fold_goes_first():
    cache = FoldCache(size=2)
    rows = [Match(id=f"m{index}", players=["Ada", "Ben"], seq=0) for index in range(3)]
    for row in rows:
        row.updated_at = datetime.datetime(2026, 11, 29, tzinfo=datetime.UTC)
    entries = [Folded(ledger=Ledger(engine=object()), action_ids={}) for _row in rows]  # type: ignore[arg-type]
    cache.put(rows[0], entries[0])
    cache.put(rows[1], entries[1])
    assert cache.get(rows[0]) is entries[0]  # now the most recently used
    cache.put(rows[2], entries[2])
    assert cache.get(rows[1]) is None
    assert cache.get(rows[0]) is entries[0]
    assert cache.get(rows[2]) is entries[2]


def test_a_cache_of_size_zero_holds_nothing(row):
    cache = FoldCache(size=0)
    stored = Match.objects.get(pk=row.id)
    cache.put(stored, Folded(ledger=Ledger(engine=match_view(stored).engine), action_ids={}))
    assert cache.get(stored) is None


def test_every_answer_and_every_read_equal_a_fresh_fold_over_a_whole_game(db):
    rng = random.Random(7)
    row, _token = create_row(["Ada", "Ben", "Cy", "Dee"])
    undos = 0
    for _turn in range(400):
        view = match_view(Match.objects.get(pk=row.id))
        if view.engine.state.over:
            break
        if view.engine.steps and rng.random() < 0.1:
            body, undos = UNDO, undos + 1
        else:
            body = body_of(random_legal_action(view.engine.state, rng.choice))
        answered = act_on(row, body).state
        assert answered == fresh_state(row.id)
        view = match_view(Match.objects.get(pk=row.id))
        assert state_json(view) == answered
        assert [(e.seq, e.kind, e.undone, e.undoes) for e in view.log] == fresh_log(row.id)
    assert Match.objects.get(pk=row.id).over
    assert undos > 0


def test_a_turn_on_a_match_folded_lately_reads_nothing_before_its_write(row):
    """The match as this process last folded it is acted on as it is: the write's compare and
    swap on the row is what tells that it still stands (a later test sees it not stand)."""
    act_on(row, take(27))
    with CaptureQueriesContext(connection) as queries:
        act_on(row, take(26))
    statements = [query["sql"].split()[0].upper() for query in queries.captured_queries]
    reads = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].lstrip().upper().startswith("SELECT") and "pg_notify" not in query["sql"]
    ]
    assert reads == []
    assert statements.count("UPDATE") == 1
    assert statements.count("INSERT") == 1
    # PostgreSQL: the news of the new seq, in the same transaction, delivered at commit.
    assert sum("pg_notify" in query["sql"] for query in queries.captured_queries) == (
        1 if connection.vendor == "postgresql" else 0
    )


def test_a_turn_on_a_match_another_process_wrote_meanwhile_reads_the_row_once(row):
    act_on(row, take(27))
    # Another process's write that moves no seq (its assistant switched on): the row moves
    # on, this process's copy of it does not.
    Match.objects.filter(pk=row.pk).update(assistant=True, updated_at=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        answered = act_on(row, take(26)).state
    reads = [query["sql"] for query in queries.captured_queries if query["sql"].lstrip().upper().startswith("SELECT")]
    match_reads = [sql for sql in reads if "tables_match" in sql and "tables_logentry" not in sql]
    assert len(match_reads) == 1  # the missed compare and swap, then the row read once
    assert answered == fresh_state(row.id)
