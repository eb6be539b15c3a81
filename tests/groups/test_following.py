"""A group's plays follow their matches as the matches are written (the match core's published
hook, once committed), and reading a group writes nothing."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from marquoir.groups import services
from marquoir.groups.models import Play
from marquoir.groups.selectors import plays_of
from marquoir.tables import services as match_services
from marquoir.tables.fold import MatchView
from marquoir.tables.models import Match

from .conftest import PLAYERS, Made, new_match, round_
from .owned import attach_owned


def test_a_match_taken_into_a_history_is_followed_and_let_go_with_its_play(made: Made) -> None:
    match = new_match("sheet", PLAYERS)
    assert Match.objects.get(pk=match.id).followed is False
    play = attach_owned(group=made.group, match_id=match.id)
    assert Match.objects.get(pk=match.id).followed is True
    services.play_delete(group=made.group, play_id=play.uuid)  # this request keeps no score on it
    assert Match.objects.filter(pk=match.id).exists()
    assert Match.objects.get(pk=match.id).followed is False


def test_a_round_written_on_a_followed_match_updates_its_play_once_committed(
    made: Made, django_capture_on_commit_callbacks: Any
) -> None:
    match = new_match("sheet", PLAYERS, {"rounds": 2})
    attach_owned(group=made.group, match_id=match.id)
    with django_capture_on_commit_callbacks(execute=False) as pending:
        match_services.match_act(match_id=match.id, body=round_(5, 1, 1)).or_raise()
    assert Play.objects.get().summary_seq == 0  # nothing before the commit
    for callback in pending:
        callback()
    play = Play.objects.get()
    assert play.summary_seq == 1
    assert play.summary["scores"] == [5, 1, 1]


def test_a_match_nobody_follows_tells_nobody(made: Made, django_capture_on_commit_callbacks: Any) -> None:
    told: list[MatchView] = []
    match_services.follow_writes(told.append)
    try:
        match = new_match("sheet", PLAYERS)
        with django_capture_on_commit_callbacks(execute=True):
            match_services.match_act(match_id=match.id, body=round_(1, 2, 3)).or_raise()
        assert told == []
    finally:
        match_services._followers.remove(told.append)


def test_reading_a_group_whose_play_is_behind_its_match_writes_nothing(made: Made) -> None:
    match = new_match("sheet", PLAYERS, {"rounds": 2})
    attach_owned(group=made.group, match_id=match.id)
    # Written with no commit to tell the play (as if its server stopped right after): behind.
    match_services.match_act(match_id=match.id, body=round_(5, 1, 1)).or_raise()
    assert Play.objects.get().summary_seq == 0
    with CaptureQueriesContext(connection) as queries:
        [play] = plays_of(made.group)
    assert play.summary.scores == (5, 1, 1)  # as the match is now
    writes = [query["sql"] for query in queries.captured_queries if not query["sql"].lstrip().startswith("SELECT")]
    assert writes == []
    assert Play.objects.get().summary_seq == 0
