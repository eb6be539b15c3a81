"""What a French Tarot match comes to for the stats: running totals, places, winners, and
each player's deals taken and made per contract, counted from the deals in force only.

Every expected number is counted by hand in the test from the deals it plays: per defender
the deal is worth (25 + gap) × the contract's multiplier (petite ×1, garde ×2, garde sans
×4, garde contre ×6), won by the taker's side if made, lost if not; the needed points are
56, 51, 41, 36 for 0, 1, 2, 3 bouts.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from marquoir.keepers.tarot.keeper import KEEPER
from marquoir.tables import services
from marquoir.tables.models import Match
from marquoir.tables.selectors import keeper_of, match_view
from marquoir.tables.summary import MatchSummary

from .conftest import END, PASS, UNDO, deal

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
FOUR = ("Ada", "Ben", "Cy", "Dee")
FIVE = (*FOUR, "Eve")
ADA, BEN, CY, DEE = 0, 1, 2, 3
CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")


def new_match(players: tuple[str, ...] = FOUR) -> str:
    row, _token = services.match_create(game="tarot", players=list(players), first=0)
    return row.id


def play(match_id: str, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        services.match_act(match_id=match_id, body=body)


def summary_of(match_id: str) -> MatchSummary:
    """The summary the core gets: the match read back and folded, through its game's keeper."""
    row = Match.objects.get(pk=match_id)
    return keeper_of(row).summarise(match_view(row))


def figures(**counts: int) -> dict[str, int]:
    """A seat's figures: every contract taken and made 0 times, but for ``counts``."""
    zero = {f"{what}_{contract}": 0 for contract in CONTRACTS for what in ("taken", "made")}
    return zero | counts


def test_the_figures_are_taken_and_made_for_each_contract_in_the_engines_keys() -> None:
    stat_figures = KEEPER.stat_figures

    assert [(figure.key, figure.kind) for figure in stat_figures] == [
        (f"{what}_{contract}", "total") for contract in CONTRACTS for what in ("taken", "made")
    ]
    labels = [str(figure.label) for figure in stat_figures]
    assert labels[:4] == ["Taken: Petite", "Made: Petite", "Taken: Garde", "Made: Garde"]
    assert labels[-1] == "Made: Garde contre"
    with translation.override("fr"):
        labels = [str(figure.label) for figure in stat_figures]
    assert labels[2:4] == [f"Prises{NBSP}: Garde", f"Réussies{NBSP}: Garde"]
    assert labels[6] == f"Prises{NBSP}: Garde contre"


def test_tarot_has_no_boardgamegeek_id_yet() -> None:
    assert KEEPER.bgg_id is None


def test_deals_taken_and_made_per_contract_count_failures_and_not_undone_deals() -> None:
    match_id = new_match()
    play(
        match_id,
        # Ada's garde, 2 bouts, 47: needs 41, made by 6; (25 + 6) × 2 = 62 per defender.
        # Ada +186, Ben Cy Dee −62.
        deal(ADA, "garde", 2, 47),
        PASS,  # everyone passed: no one took
        # Ben's petite, 1 bout, 45: needs 51, failed by 6; (25 + 6) × 1 = 31.
        # Ben −93, Ada Cy Dee +31.
        deal(BEN, "petite", 1, 45),
        # Ada's garde, 1 bout, 50: needs 51, failed by 1; (25 + 1) × 2 = 52.
        # Ada −156, Ben Cy Dee +52.
        deal(ADA, "garde", 1, 50),
        # Cy's garde contre, 3 bouts, 40: needs 36, made by 4; (25 + 4) × 6 = 174.
        # Cy +522, Ada Ben Dee −174.
        deal(CY, "garde_contre", 3, 40),
        deal(DEE, "garde_sans", 3, 60),  # Dee's garde sans…
        UNDO,  # …taken back: Dee took nothing
    )

    summary = summary_of(match_id)

    assert summary.figures == (
        figures(taken_garde=2, made_garde=1),
        figures(taken_petite=1),
        figures(taken_garde_contre=1, made_garde_contre=1),
        figures(),
    )
    # Ada 186 + 31 − 156 − 174 = −113; Ben −62 − 93 + 52 − 174 = −277;
    # Cy −62 + 31 + 52 + 522 = 543; Dee −62 + 31 + 52 − 174 = −153.
    assert summary.scores == (-113, -277, 543, -153)
    assert summary.ranks == (2, 4, 1, 3)
    assert summary.over is False
    assert summary.winners == ()
    assert summary.highest_wins is True
    assert summary.title is None


def test_equal_totals_share_the_win_once_the_match_is_over() -> None:
    match_id = new_match()
    play(
        match_id,
        # Ada's petite, 2 bouts, 41: just made; 25 per defender. Ada +75, the others −25.
        deal(ADA, "petite", 2, 41),
        # Ben's the same. Ben +75, the others −25.
        deal(BEN, "petite", 2, 41),
        END,
    )

    summary = summary_of(match_id)

    # Ada 75 − 25 = 50, Ben −25 + 75 = 50, Cy and Dee −25 − 25 = −50.
    assert summary.over is True
    assert summary.scores == (50, 50, -50, -50)
    assert summary.ranks == (1, 1, 3, 3)
    assert summary.winners == (ADA, BEN)
    assert summary.figures[ADA] == figures(taken_petite=1, made_petite=1)
    assert summary.figures[BEN] == figures(taken_petite=1, made_petite=1)


def test_at_five_the_called_partner_did_not_take() -> None:
    match_id = new_match(FIVE)
    play(
        match_id,
        # Ada's garde with Cy, 2 bouts, 47: made by 6, 62 per defender. Ada 2 × 62 = +124,
        # Cy +62, Ben Dee Eve −62.
        deal(ADA, "garde", 2, 47, partner=CY),
        # Ben's petite alone, 1 bout, 45: failed by 6, 31 per defender. Ben −124, the others +31.
        deal(BEN, "petite", 1, 45, partner=BEN),
    )

    summary = summary_of(match_id)

    assert summary.figures == (
        figures(taken_garde=1, made_garde=1),
        figures(taken_petite=1),
        figures(),
        figures(),
        figures(),
    )
    # Ada 124 + 31 = 155, Ben −62 − 124 = −186, Cy 62 + 31 = 93, Dee and Eve −62 + 31 = −31.
    assert summary.scores == (155, -186, 93, -31, -31)
    assert summary.ranks == (1, 5, 2, 3, 3)
