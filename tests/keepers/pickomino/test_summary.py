"""What a Pickomino match comes to for the stats: worms, places by the tie-break, winners,
and each player's busts, steals and best tile, counted from the entries in force only.

Every expected number is counted by hand in the test from the actions it plays (tiles 21–24
carry 1 worm, 25–28 2, 29–32 3, 33–36 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from django.utils import translation

from marquoir.keepers.pickomino.keeper import KEEPER
from marquoir.tables import services
from marquoir.tables.models import Match
from marquoir.tables.selectors import keeper_of, match_view
from marquoir.tables.summary import MatchSummary

from .conftest import BUST, UNDO, take

pytestmark = pytest.mark.django_db

ADA, BEN, CY = 0, 1, 2


def new_match(players: tuple[str, ...] = ("Ada", "Ben", "Cy"), options: Mapping[str, bool] | None = None) -> str:
    row, _token = services.match_create(game="pickomino", players=list(players), first=0, options=options)
    return row.id


def play(match_id: str, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        services.match_act(match_id=match_id, body=body)


def summary_of(match_id: str) -> MatchSummary:
    """The summary the core gets: the match read back and folded, through its game's keeper."""
    row = Match.objects.get(pk=match_id)
    return keeper_of(row).summarise(match_view(row))


def test_the_figures_are_busts_per_game_steals_and_best_tile_in_that_order() -> None:
    figures = KEEPER.stat_figures

    assert [(figure.key, figure.kind) for figure in figures] == [
        ("busts", "per_game"),
        ("steals", "total"),
        ("best_tile", "best"),
    ]
    assert [str(figure.label) for figure in figures] == ["Busts per game", "Steals", "Highest tile"]
    with translation.override("fr"):
        assert [str(figure.label) for figure in figures] == ["Tours ratés par partie", "Vols", "Plus haut Pickomino"]


def test_pickomino_has_its_boardgamegeek_id() -> None:
    assert KEEPER.bgg_id == 15818


def test_steals_and_busts_count_and_an_undone_steal_or_bust_does_not() -> None:
    match_id = new_match()
    play(
        match_id,
        take(25),  # Ada takes 25 from the grill: Ada [25]
        take(25, source=ADA),  # Ben steals 25 from Ada (steal 1 of Ben): Ada [], Ben [25]
        BUST,  # Cy busts with an empty stack (bust 1 of Cy)
        take(30),  # Ada takes 30 from the grill: Ada [30]
        BUST,  # Ben busts, 25 goes back (bust 1 of Ben): Ben [], 36 turned face down
        take(30, source=ADA),  # Cy steals 30 from Ada (steal 1 of Cy): Ada [], Cy [30]
        take(27),  # Ada takes 27 from the grill: Ada [27]
        take(27, source=ADA),  # Ben steals 27 from Ada…
        UNDO,  # …taken back: neither a steal nor Ben's best tile
        BUST,  # Ben busts…
        UNDO,  # …taken back: not a bust
        take(22),  # Ben takes 22 from the grill: Ben [22]
    )

    summary = summary_of(match_id)

    # Busts: Ben 1 (the undone one left out), Cy 1. Steals: Ben 1 (25; the undone 27 left
    # out), Cy 1 (30). Best tile taken: Ada 30 (lost to Cy since), Ben 25 (not the undone
    # 27, and above his 22), Cy 30.
    assert summary.figures == (
        {"busts": 0, "steals": 0, "best_tile": 30},
        {"busts": 1, "steals": 1, "best_tile": 25},
        {"busts": 1, "steals": 1, "best_tile": 30},
    )
    # Worms now: Ada [27] 2, Ben [22] 1, Cy [30] 3; so Cy first, Ada second, Ben third.
    assert summary.scores == (2, 1, 3)
    assert summary.ranks == (2, 3, 1)


def test_an_unfinished_match_is_not_over_and_has_no_winner_yet() -> None:
    match_id = new_match()
    play(match_id, take(36))  # Ada leads with 4 worms, 15 tiles still face up

    summary = summary_of(match_id)

    assert summary.over is False
    assert summary.winners == ()
    assert summary.ranks == (1, 2, 2)  # Ada 4 worms; Ben and Cy 0 worms and no tile: tied
    assert summary.highest_wins is True
    assert summary.title is None


def test_a_player_with_no_tile_taken_has_best_tile_zero() -> None:
    match_id = new_match()

    summary = summary_of(match_id)

    assert summary.figures == ({"busts": 0, "steals": 0, "best_tile": 0},) * 3
    assert summary.scores == (0, 0, 0)


def test_equal_worms_rank_by_the_highest_tile_and_the_winner_is_the_engines() -> None:
    match_id = new_match(("Ada", "Ben"))
    # Ada takes every odd tile, Ben every even one, until the grill is empty.
    play(match_id, *(take(tile) for tile in range(21, 37)))

    summary = summary_of(match_id)

    # Ada: 21 23 25 27 29 31 33 35 = 1+1+2+2+3+3+4+4 = 20 worms; Ben: 22 … 36, 20 worms too.
    # The tie-break goes to the highest tile: Ben's 36 beats Ada's 35.
    assert summary.over is True
    assert summary.scores == (20, 20)
    assert summary.ranks == (2, 1)
    assert summary.winners == (BEN,)
    assert summary.figures == (
        {"busts": 0, "steals": 0, "best_tile": 35},
        {"busts": 0, "steals": 0, "best_tile": 36},
    )


def test_players_tied_with_no_tile_share_the_win_and_the_first_place() -> None:
    # A bust with an empty stack turns the highest tile down with this option: 16 busts,
    # 8 each, empty the grill.
    match_id = new_match(("Ada", "Ben"), options={"flip_without_return": True})
    play(match_id, *([BUST] * 16))

    summary = summary_of(match_id)

    assert summary.over is True
    assert summary.scores == (0, 0)
    assert summary.ranks == (1, 1)
    assert summary.winners == (ADA, BEN)
    assert summary.figures == ({"busts": 8, "steals": 0, "best_tile": 0},) * 2
