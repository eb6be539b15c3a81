"""What a Yahtzee match comes to for the stats: totals, places, winners, and each player's
Yahtzees and upper bonus, counted from the turns in force only.

Every expected number is counted by hand in the test from the dice it scores.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from marquoir.keepers.yahtzee.keeper import KEEPER
from marquoir.tables import services
from marquoir.tables.models import Match
from marquoir.tables.selectors import keeper_of, match_view
from marquoir.tables.summary import MatchSummary

from .conftest import UNDO, score

pytestmark = pytest.mark.django_db

ADA, BEN = 0, 1


def new_match(players: tuple[str, ...] = ("Ada", "Ben")) -> str:
    row, _token = services.match_create(game="yahtzee", players=list(players), first=0)
    return row.id


def play(match_id: str, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        services.match_act(match_id=match_id, body=body)


def summary_of(match_id: str) -> MatchSummary:
    """The summary the core gets: the match read back and folded, through its game's keeper."""
    row = Match.objects.get(pk=match_id)
    return keeper_of(row).summarise(match_view(row))


def test_the_figures_are_yahtzees_and_the_upper_bonus_rate() -> None:
    figures = KEEPER.stat_figures

    assert [(figure.key, figure.kind) for figure in figures] == [("yahtzees", "total"), ("upper_bonus", "rate")]
    assert [str(figure.label) for figure in figures] == ["Yahtzees", "Upper bonus rate"]
    with translation.override("fr"):
        assert [str(figure.label) for figure in figures] == ["Yahtzee réussis", "Taux de prime du haut"]


def test_yahtzee_has_its_boardgamegeek_id() -> None:
    assert KEEPER.bgg_id == 2243


def test_a_yahtzee_bonus_counts_as_a_yahtzee_and_an_undone_one_does_not() -> None:
    match_id = new_match()
    play(
        match_id,
        score("yahtzee", 6, 6, 6, 6, 6),  # Ada: 50 in the Yahtzee box (Yahtzee 1)
        score("chance", 1, 2, 3, 4, 6),  # Ben: 16
        score("sixes", 6, 6, 6, 6, 6),  # Ada: joker, 30 in sixes + 100 bonus (Yahtzee 2)
        score("ones", 1, 1, 2, 3, 4),  # Ben: 2
        score("fives", 5, 5, 5, 5, 1),  # Ada: 20
        score("twos", 2, 2, 1, 3, 4),  # Ben: 4
        score("fours", 4, 4, 4, 4, 1),  # Ada: 16; upper 30 + 20 + 16 = 66 ≥ 63: bonus 35
        # Ben: five 3s with his Yahtzee box still open: 15 in threes, no 50, no bonus,
        # so not a Yahtzee the sheet records.
        score("threes", 3, 3, 3, 3, 3),
        score("twos", 2, 2, 2, 2, 2),  # Ada: joker, 10 in twos + 100 bonus…
        UNDO,  # …taken back: not a Yahtzee
        score("chance", 1, 2, 3, 4, 5),  # Ada: 15
    )

    summary = summary_of(match_id)

    # Ada: the 50 and one bonus = 2 Yahtzees (the undone bonus left out), upper bonus earned.
    # Ben: no Yahtzee, upper 2 + 4 + 15 = 21, no bonus.
    assert summary.figures == ({"yahtzees": 2, "upper_bonus": 1}, {"yahtzees": 0, "upper_bonus": 0})
    # Ada: 50 + 30 + 100 + 20 + 16 + 35 + 15 = 266; Ben: 16 + 2 + 4 + 15 = 37.
    assert summary.scores == (266, 37)
    assert summary.ranks == (1, 2)
    assert summary.over is False
    assert summary.winners == ()
    assert summary.highest_wins is True
    assert summary.title is None


# Ada's thirteen turns: the upper boxes add up to exactly 63 (bonus 35), the Yahtzee box is
# scratched. 3 + 6 + 9 + 12 + 15 + 18 = 63, + 35 = 98; lower 8 + 9 + 25 + 30 + 40 + 0 + 26 =
# 138; total 236.
ADA_TURNS = (
    score("ones", 1, 1, 1, 2, 3),  # 3
    score("twos", 2, 2, 2, 1, 3),  # 6
    score("threes", 3, 3, 3, 1, 2),  # 9
    score("fours", 4, 4, 4, 1, 2),  # 12
    score("fives", 5, 5, 5, 1, 2),  # 15
    score("sixes", 6, 6, 6, 1, 2),  # 18
    score("three_of_a_kind", 1, 1, 1, 2, 3),  # 8
    score("four_of_a_kind", 2, 2, 2, 2, 1),  # 9
    score("full_house", 3, 3, 3, 2, 2),  # 25
    score("small_straight", 1, 2, 3, 4, 6),  # 30
    score("large_straight", 1, 2, 3, 4, 5),  # 40
    score("yahtzee", 1, 2, 3, 4, 6),  # 0
    score("chance", 6, 6, 5, 5, 4),  # 26
)
# Ben's: three less in threes, so 60 up top and no bonus; 50 in the Yahtzee box; 12 less in
# chance. Upper 3 + 6 + 6 + 12 + 15 + 18 = 60; lower 8 + 9 + 25 + 30 + 40 + 50 + 14 = 176;
# total 236, the same as Ada's.
BEN_TURNS = (
    score("ones", 1, 1, 1, 2, 3),  # 3
    score("twos", 2, 2, 2, 1, 3),  # 6
    score("threes", 3, 3, 1, 2, 4),  # 6
    score("fours", 4, 4, 4, 1, 2),  # 12
    score("fives", 5, 5, 5, 1, 2),  # 15
    score("sixes", 6, 6, 6, 1, 2),  # 18
    score("three_of_a_kind", 1, 1, 1, 2, 3),  # 8
    score("four_of_a_kind", 2, 2, 2, 2, 1),  # 9
    score("full_house", 3, 3, 3, 2, 2),  # 25
    score("small_straight", 1, 2, 3, 4, 6),  # 30
    score("large_straight", 1, 2, 3, 4, 5),  # 40
    score("yahtzee", 5, 5, 5, 5, 5),  # 50
    score("chance", 1, 2, 3, 4, 4),  # 14
)


def test_equal_totals_share_the_win_and_the_upper_bonus_is_one_or_zero() -> None:
    match_id = new_match()
    play(match_id, *(turn for pair in zip(ADA_TURNS, BEN_TURNS, strict=True) for turn in pair))

    summary = summary_of(match_id)

    assert summary.over is True
    assert summary.scores == (236, 236)
    assert summary.ranks == (1, 1)
    assert summary.winners == (ADA, BEN)
    assert summary.figures == ({"yahtzees": 0, "upper_bonus": 1}, {"yahtzees": 1, "upper_bonus": 0})
