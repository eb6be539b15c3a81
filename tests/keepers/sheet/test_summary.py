"""What a score sheet comes to for the stats: totals, places highest or lowest first as
the sheet says, winners, its title; no figures of its own. Rounds in force only.

Every expected number is added up by hand in the test from the rounds it writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from marquoir.keepers.sheet.keeper import KEEPER
from marquoir.tables import services
from marquoir.tables.models import Match
from marquoir.tables.selectors import keeper_of, match_view
from marquoir.tables.summary import MatchSummary

from .conftest import END, UNDO, round_

pytestmark = pytest.mark.django_db

ADA, BEN, CY = 0, 1, 2


def new_sheet(options: Mapping[str, Any] | None = None) -> str:
    row, _token = services.match_create(game="sheet", players=["Ada", "Ben", "Cy"], first=0, options=options)
    return row.id


def play(match_id: str, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        services.match_act(match_id=match_id, body=body)


def summary_of(match_id: str) -> MatchSummary:
    """The summary the core gets: the match read back and folded, through its game's keeper."""
    row = Match.objects.get(pk=match_id)
    return keeper_of(row).summarise(match_view(row))


def test_a_sheet_has_no_figures_of_its_own_nor_a_boardgamegeek_id() -> None:
    assert KEEPER.stat_figures == ()
    assert KEEPER.bgg_id is None


def test_lowest_wins_equal_totals_share_the_win_and_an_undone_round_does_not_count() -> None:
    match_id = new_sheet({"title": "Skyjo", "lowest_wins": True})
    play(
        match_id,
        round_(10, 4, 12),
        round_(3, 9, 6),
        round_(0, 0, -20),  # would put Cy first…
        UNDO,  # …taken back
        END,
    )

    summary = summary_of(match_id)

    # Ada 10 + 3 = 13, Ben 4 + 9 = 13, Cy 12 + 6 = 18 (the undone −20 left out). The lowest
    # wins: Ada and Ben share first place and the win, Cy is third.
    assert summary.scores == (13, 13, 18)
    assert summary.ranks == (1, 1, 3)
    assert summary.winners == (ADA, BEN)
    assert summary.over is True
    assert summary.highest_wins is False
    assert summary.title == "Skyjo"
    assert summary.figures == ({}, {}, {})


def test_an_unfinished_sheet_ranks_highest_first_and_has_no_winner_yet() -> None:
    match_id = new_sheet()
    play(match_id, round_(5, 8, 8), round_(-2, 0, 1))

    summary = summary_of(match_id)

    # Ada 5 − 2 = 3, Ben 8 + 0 = 8, Cy 8 + 1 = 9: Cy first, Ben second, Ada third.
    assert summary.scores == (3, 8, 9)
    assert summary.ranks == (3, 2, 1)
    assert summary.over is False
    assert summary.winners == ()
    assert summary.highest_wins is True
    assert summary.title is None
