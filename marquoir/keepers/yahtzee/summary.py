"""What a Yahtzee match comes to: totals, places, and each player's Yahtzees and upper bonus.

Everything is read from the sheets of the engine's match folded from the entries in force
(``view.engine``): a turn taken back never counts, since the fold left it out.

The figures, per seat:

- ``yahtzees``: the Yahtzees the player scored: 1 for the 50 in the ``yahtzee`` box, plus
  one for each 100-point Yahtzee bonus. Five alike scored while the ``yahtzee`` box is
  still open (in another box) or after it was scratched (0) earn neither, and are not counted.
- ``upper_bonus``: 1 if the upper boxes reach 63 (the 35-point bonus is earned), else 0.
"""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy

from marquoir.games.yahtzee import GameState, Sheet, standings, winners
from marquoir.tables.kit import MatchSummary, MatchView, StatFigure, ranks_by_seat

YAHTZEES, UPPER_BONUS = "yahtzees", "upper_bonus"

# The labels are lazy translations, read in the reader's language when shown; the
# summary's ``label`` is typed ``str``, which a lazy string stands in for.
STAT_FIGURES: tuple[StatFigure, ...] = (
    StatFigure(YAHTZEES, cast(str, gettext_lazy("Yahtzees")), "total"),
    StatFigure(UPPER_BONUS, cast(str, gettext_lazy("Upper bonus rate")), "rate"),
)


def sheet_figures(sheet: Sheet) -> dict[str, int]:
    """One sheet's Yahtzees and whether its upper bonus is earned."""
    return {
        YAHTZEES: (1 if sheet.yahtzee_holds_fifty else 0) + sheet.yahtzee_bonuses,
        UPPER_BONUS: 1 if sheet.upper_bonus else 0,
    }


def summarise(view: MatchView) -> MatchSummary:
    """The match as the stats see it, over or not."""
    state: GameState = view.engine.state
    return MatchSummary(
        scores=state.totals,
        ranks=ranks_by_seat(standings(state), state.player_count),
        winners=winners(state),
        figures=tuple(sheet_figures(sheet) for sheet in state.sheets),
        over=state.over,
        highest_wins=True,
    )
