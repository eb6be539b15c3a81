"""What a Pickomino match comes to: worms, places by the tie-break, and each player's own figures.

Everything is read from the engine's match folded from the entries in force
(``view.engine``): an action taken back never counts, since the fold left it out.

The figures, per seat:

- ``busts``: the turns the player busted (a ``Busted`` outcome of theirs), whatever the
  reason and whether or not they had a tile to give back.
- ``steals``: the tiles the player took from another player's stack (a ``Took`` whose
  source is a seat).
- ``best_tile``: the highest tile the player took during the match, from the grill or by
  stealing, even if they lost it since (stolen, or given back on a bust); 0 if they took none.
"""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy

from marquoir.games.pickomino import Busted, GameState, Outcome, Took, standings, winners
from marquoir.tables.kit import MatchSummary, MatchView, StatFigure, ranks_by_seat

BUSTS, STEALS, BEST_TILE = "busts", "steals", "best_tile"

# The labels are lazy translations, read in the reader's language when shown; the
# summary's ``label`` is typed ``str``, which a lazy string stands in for.
STAT_FIGURES: tuple[StatFigure, ...] = (
    StatFigure(BUSTS, cast(str, gettext_lazy("Busts per game")), "per_game"),
    StatFigure(STEALS, cast(str, gettext_lazy("Steals")), "total"),
    StatFigure(BEST_TILE, cast(str, gettext_lazy("Highest tile")), "best"),
)


def seat_figures(outcomes: tuple[Outcome, ...], player_count: int) -> tuple[dict[str, int], ...]:
    """Each seat's busts, steals and best tile, from the outcomes of the actions in force."""
    figures = [{BUSTS: 0, STEALS: 0, BEST_TILE: 0} for _ in range(player_count)]
    for outcome in outcomes:
        seat = figures[outcome.player]
        if isinstance(outcome, Busted):
            seat[BUSTS] += 1
        elif isinstance(outcome, Took):
            if outcome.is_steal:
                seat[STEALS] += 1
            seat[BEST_TILE] = max(seat[BEST_TILE], outcome.tile)
    return tuple(figures)


def summarise(view: MatchView) -> MatchSummary:
    """The match as the stats see it, over or not."""
    state: GameState = view.engine.state
    return MatchSummary(
        scores=tuple(state.worms(player) for player in range(state.player_count)),
        ranks=ranks_by_seat(standings(state), state.player_count),
        winners=winners(state),
        figures=seat_figures(view.engine.outcomes, state.player_count),
        over=state.over,
        highest_wins=True,
    )
