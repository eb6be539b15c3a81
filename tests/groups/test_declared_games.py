"""A game declared as data in a group: its matches are plays like any other, and the group's
stats show the game's own figures from its file (Skyjo: rounds ended, times doubled), in
the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from marquoir.groups import services
from marquoir.groups.selectors import stats_of
from tests.groups.owned import attach_owned

from .conftest import act, new_match

pytestmark = pytest.mark.django_db


def skyjo_round(cards: list[int], ended_by: int) -> dict[str, object]:
    return {"type": "round", "inputs": {"cards": cards, "ended_by": ended_by}}


def test_a_finished_skyjo_match_counts_in_the_group_with_its_own_figures() -> None:
    group, _key = services.group_create(name="Family", players=["Ada", "Ben", "Cy"])
    match = new_match("skyjo", ["Ada", "Ben", "Cy"], {"target": 40})
    attach_owned(group=group, match_id=match.id)
    act(match, skyjo_round([15, 10, 22], 0), skyjo_round([20, 3, 9], 1))  # Ada: 30 then 20, over

    stats, plays = stats_of(group)
    assert len(plays) == 1

    [section] = stats.games
    assert section.game == "skyjo"
    assert section.plays == 1
    lines = {line.member.name: line for line in section.players}
    assert lines["Ben"].wins == 1  # 13, the lowest total
    assert lines["Ada"].wins == 0
    with translation.override("en"):
        assert [str(figure.label) for figure in section.figures] == ["Rounds ended", "Times doubled"]
    with translation.override("fr"):
        assert [str(figure.label) for figure in section.figures] == ["Manches finies", "Fois doublé"]
    ada = {value.figure.key: value.value for value in lines["Ada"].figures}
    assert ada == {"rounds_ended": 1, "times_doubled": 1}
    ben = {value.figure.key: value.value for value in lines["Ben"].figures}
    assert ben == {"rounds_ended": 1, "times_doubled": 0}
