"""The stats a process keeps for a group are never stale: every change to the group, its
members, its plays, or an action on one of its matches, is seen at the next read."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from marquoir.groups import services
from marquoir.groups.models import Group
from marquoir.groups.selectors import stats_of
from tests.groups.owned import attach_owned

from .conftest import UNDO, Made, act, finished_sheet

pytestmark = pytest.mark.django_db


def _wins(group: Group) -> dict[str, int]:
    stats, _plays = stats_of(group)
    return {line.member.name: line.wins for line in stats.overall.players}


def _attached_sheet(made: Made, scores: tuple[int, int, int]) -> str:
    match = finished_sheet(("Ada", "Ben", "Cy"), scores)
    attach_owned(group=made.group, match_id=match.id)
    return match.id


def test_a_second_read_of_an_unchanged_group_is_one_query(made: Made) -> None:
    _attached_sheet(made, (5, 3, 1))
    first, _plays = stats_of(made.group)
    with CaptureQueriesContext(connection) as queries:
        again, _plays = stats_of(made.group)
    assert again is first
    assert len(queries) == 1  # the fingerprint


def test_an_undo_on_a_match_of_the_group_is_seen_at_the_next_read(made: Made) -> None:
    match_id = _attached_sheet(made, (5, 3, 1))
    assert _wins(made.group) == {"Ada": 1, "Ben": 0, "Cy": 0}
    act(match_id, UNDO)  # the last round taken back: the match is no longer over
    stats, _plays = stats_of(made.group)
    assert stats.overall.plays == 0


def test_a_rename_is_seen_at_the_next_read(made: Made) -> None:
    _attached_sheet(made, (5, 3, 1))
    assert "Ada" in _wins(made.group)
    ada = next(member for member in made.group.members.all() if member.name == "Ada")
    services.member_rename(group=made.group, member_id=ada.pk, name="Adèle")
    assert _wins(Group.objects.get(pk=made.group.pk)) == {"Adèle": 1, "Ben": 0, "Cy": 0}


def test_a_match_attached_or_deleted_is_seen_at_the_next_read(made: Made) -> None:
    _attached_sheet(made, (5, 3, 1))
    assert _wins(made.group)["Ben"] == 0
    _attached_sheet(made, (1, 9, 2))
    assert _wins(Group.objects.get(pk=made.group.pk))["Ben"] == 1
    _stats, plays = stats_of(made.group)
    services.play_delete(group=made.group, play_id=plays[0].id)
    assert stats_of(Group.objects.get(pk=made.group.pk))[0].overall.plays == 1


def test_the_games_are_named_in_the_readers_language(made: Made) -> None:
    match = finished_sheet(("Ada", "Ben", "Cy"), (5, 3, 1), title=None)
    attach_owned(group=made.group, match_id=match.id)
    with translation.override("en"):
        english = stats_of(made.group)[0].games[0].name
    with translation.override("fr"):
        french = stats_of(made.group)[0].games[0].name
    assert (english, french) == ("Score sheet", "Feuille de scores")
