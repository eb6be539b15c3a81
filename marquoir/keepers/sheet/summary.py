"""What a score sheet comes to: totals and places, highest or lowest first as the sheet says.

A sheet keeps score for any game, so it has no figures of its own; its title names the
game it kept score for. Everything is read from the engine's match folded from the
entries in force (``view.engine``): a round taken back never counts.
"""

from __future__ import annotations

from marquoir.games.sheet import GameState, standings, winners
from marquoir.tables.kit import MatchSummary, MatchView, ranks_by_seat


def summarise(view: MatchView) -> MatchSummary:
    """The match as the stats see it, over or not."""
    state: GameState = view.engine.state
    no_figures: tuple[dict[str, int], ...] = tuple({} for _ in range(state.player_count))
    return MatchSummary(
        scores=state.totals,
        ranks=ranks_by_seat(standings(state), state.player_count),
        winners=winners(state),
        figures=no_figures,
        over=state.over,
        title=state.options.title,
        highest_wins=not state.options.lowest_wins,
    )
