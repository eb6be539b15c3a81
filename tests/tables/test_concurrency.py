"""Requests racing on one match, from real threads with their own database connections.

`services.match_act` is the one write path: it locks the match row (SQLite: the IMMEDIATE
transaction; PostgreSQL: SELECT ... FOR UPDATE), checks `action_id` and `expected_seq`,
applies, appends and commits. These tests start several requests together
(`threading.Barrier`) and check that whatever order the database lets them in, the log
ends up as if they had come one after the other: no lost, doubled or skipped entry, and
every answer equal to the fold of the log up to it.

They commit for real (`transactional_db`), and run on both databases: on SQLite the test
database is a file shared by every connection (settings.py, `TEST.NAME`), since the
default in-memory one would be shared-cache, where a second writer fails at once with
"database table is locked" instead of waiting its turn.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connections

from marquoir.keepers.pickomino.keeper import KEEPER
from marquoir.keepers.pickomino.state import state_json
from marquoir.tables import services
from marquoir.tables.actions import ActionRequest
from marquoir.tables.actions import parse_action as parse_request
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.outcome import Accepted, ServiceError
from marquoir.tables.selectors import match_view


def parse_action(body: object) -> ActionRequest:
    """The core's parser, for a Pickomino match (a game of the core's tests)."""
    return parse_request(body, KEEPER)


pytestmark = pytest.mark.django_db(transaction=True)

JOIN_TIMEOUT_S = 60.0  # far beyond SQLite's 10 s busy timeout: a hang fails, it does not block the suite
ROUNDS = 4  # each race is run on this many fresh matches


@dataclass(frozen=True)
class Outcome:
    """What one racing request got: its result, or the error it raised."""

    result: Accepted | None = None
    error: BaseException | None = None

    @property
    def state(self) -> dict[str, Any]:
        assert self.result is not None, self.error
        return self.result.state


def race(match_id: str, bodies: Sequence[dict[str, Any]]) -> list[Outcome]:
    """Send each body to ``match_act`` from its own thread, all released at once; their outcomes."""
    barrier = threading.Barrier(len(bodies))
    outcomes: list[Outcome | None] = [None] * len(bodies)

    def send(index: int, body: dict[str, Any]) -> None:
        try:
            request = parse_action(body)
            barrier.wait(timeout=JOIN_TIMEOUT_S)
            outcomes[index] = Outcome(result=services.match_act(match_id=match_id, request=request).or_raise())
        except BaseException as error:  # every failure is the test's to judge, none the thread's
            outcomes[index] = Outcome(error=error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, body), name=f"race-{i}") for i, body in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_TIMEOUT_S)
    assert not any(thread.is_alive() for thread in threads), "a racing request never finished"
    assert all(outcome is not None for outcome in outcomes)
    return [outcome for outcome in outcomes if outcome is not None]


def new_match(players: Sequence[str] = ("Ada", "Ben", "Cy")) -> str:
    match, _token = services.match_create(game="pickomino", players=list(players))
    return match.id


def log_of(match_id: str) -> list[LogEntry]:
    return list(LogEntry.objects.filter(match_id=match_id).order_by("seq"))


def fold_up_to(match_id: str, seq: int) -> dict[str, Any]:
    """The State folded from the stored log up to ``seq``, as the match stood then."""
    row = copy.copy(Match.objects.get(pk=match_id))
    row.seq = seq
    return state_json(match_view(row))


def assert_log_is_gapless(match_id: str, count: int) -> None:
    assert [entry.seq for entry in log_of(match_id)] == list(range(1, count + 1))
    assert Match.objects.get(pk=match_id).seq == count


def assert_no_unexpected_error(outcomes: Sequence[Outcome], allowed: Callable[[BaseException], bool]) -> None:
    for outcome in outcomes:
        if outcome.error is not None and not allowed(outcome.error):
            raise AssertionError(f"unexpected {type(outcome.error).__name__}: {outcome.error!r}") from outcome.error


def is_conflict(error: BaseException) -> bool:
    return isinstance(error, ServiceError) and error.code == "conflict"


def take(total: int, **extra: Any) -> dict[str, Any]:
    return {"type": "take", "total": total, "worm": True, "from": "grill", **extra}


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_recordings_of_one_turn_at_once_apply_exactly_one_and_the_other_is_a_conflict(round_: int):
    match_id = new_match()
    outcomes = race(
        match_id,
        [
            take(27, expected_seq=0, action_id=f"phone-a-{round_}"),
            take(25, expected_seq=0, action_id=f"phone-b-{round_}"),
        ],
    )

    assert_no_unexpected_error(outcomes, is_conflict)
    applied = [outcome for outcome in outcomes if outcome.result is not None]
    refused = [outcome for outcome in outcomes if outcome.error is not None]
    assert len(applied) == 1
    assert len(refused) == 1
    error = refused[0].error
    assert isinstance(error, ServiceError)
    assert error.params == {"expected": 0, "seq": 1}
    assert_log_is_gapless(match_id, 1)
    (entry,) = log_of(match_id)
    assert applied[0].result is not None
    assert entry.action_id == applied[0].result.entry.action_id
    assert applied[0].state == fold_up_to(match_id, 1)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_one_action_id_sent_twice_at_once_is_recorded_once_and_both_get_the_same_answer(round_: int):
    match_id = new_match()
    body = take(27, expected_seq=0, action_id=f"retried-{round_}")
    outcomes = race(match_id, [body, dict(body)])

    assert_no_unexpected_error(outcomes, lambda error: False)
    assert outcomes[0].state == outcomes[1].state
    assert sorted(outcome.result.replayed for outcome in outcomes if outcome.result) == [False, True]
    assert_log_is_gapless(match_id, 1)
    assert outcomes[0].state == fold_up_to(match_id, 1)


def test_eight_busts_without_expected_seq_all_apply_one_after_the_other():
    count = 8
    match_id = new_match(["Ada", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus"])
    outcomes = race(match_id, [{"type": "bust"} for _ in range(count)])

    assert_no_unexpected_error(outcomes, lambda error: False)
    seqs = sorted(outcome.state["seq"] for outcome in outcomes)
    assert seqs == list(range(1, count + 1)), "each request got a seq of its own"
    assert_log_is_gapless(match_id, count)
    assert all(entry.kind == LogEntry.Kind.ACTION and entry.payload["type"] == "bust" for entry in log_of(match_id))
    for outcome in outcomes:
        assert outcome.state == fold_up_to(match_id, outcome.state["seq"])
    # Each bust passed the turn on once: seven players, eight turns, so the second player is up.
    assert fold_up_to(match_id, count)["current"] == count % 7


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_undo_racing_a_take_leaves_a_log_whose_fold_is_every_answer(round_: int):
    match_id = new_match()
    first = services.match_act(match_id=match_id, request=parse_action(take(27))).or_raise()
    assert first.state["seq"] == 1

    outcomes = race(match_id, [{"type": "undo"}, take(26)])

    assert_no_unexpected_error(outcomes, lambda error: False)
    assert sorted(outcome.state["seq"] for outcome in outcomes) == [2, 3]
    assert_log_is_gapless(match_id, 3)
    for outcome in outcomes:
        assert outcome.state == fold_up_to(match_id, outcome.state["seq"])
    # The undo took back whichever take was last in force when it ran, and marked it.
    entries = {entry.seq: entry for entry in log_of(match_id)}
    (undo,) = [entry for entry in entries.values() if entry.kind == LogEntry.Kind.UNDO]
    assert undo.undoes is not None
    assert undo.undoes < undo.seq
    assert entries[undo.undoes].payload["type"] == "take"
    assert entries[undo.undoes].undone_by == undo.seq
    assert [entry.seq for entry in entries.values() if entry.undone_by is not None] == [undo.undoes]
