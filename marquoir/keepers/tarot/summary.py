"""What a French Tarot match comes to: running totals, places, and each player's contracts.

Everything is read from the deals of the engine's match folded from the entries in force
(``view.engine``): a deal taken back never counts, since the fold left it out.

The figures, per seat and per contract ``K`` (the engine's keys: ``petite``, ``garde``,
``garde_sans``, ``garde_contre``):

- ``taken_<K>``: the scored deals the player took with contract ``K`` (as the taker; a
  partner called at five players does not count as taking). Passed deals count for no one.
- ``made_<K>``: of those, the deals where the taker's side made its contract.
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext as _

from marquoir.games.tarot import Contract, GameState, standings, winners
from marquoir.tables.kit import MatchSummary, MatchView, StatFigure, ranks_by_seat

from .narration import contract_label


def taken_key(contract: Contract) -> str:
    """The figure of the deals taken with ``contract``: ``taken_garde``."""
    return f"taken_{contract.value}"


def made_key(contract: Contract) -> str:
    """The figure of the deals made with ``contract``: ``made_garde``."""
    return f"made_{contract.value}"


def _taken_label(contract: Contract) -> str:
    return _("Taken: %(contract)s") % {"contract": contract_label(contract)}


def _made_label(contract: Contract) -> str:
    return _("Made: %(contract)s") % {"contract": contract_label(contract)}


# Lazy labels: worded in the reader's language when shown, not at import.
_lazy_taken_label = lazy(_taken_label, str)
_lazy_made_label = lazy(_made_label, str)

STAT_FIGURES: tuple[StatFigure, ...] = tuple(
    figure
    for contract in Contract
    for figure in (
        StatFigure(taken_key(contract), _lazy_taken_label(contract), "total"),
        StatFigure(made_key(contract), _lazy_made_label(contract), "total"),
    )
)


def seat_figures(state: GameState) -> tuple[dict[str, int], ...]:
    """Each seat's deals taken and made, per contract, from the scored deals."""
    figures = [{figure.key: 0 for figure in STAT_FIGURES} for _seat in range(state.player_count)]
    for deal in state.played:
        seat = figures[deal.taker]
        seat[taken_key(deal.contract)] += 1
        if deal.made:
            seat[made_key(deal.contract)] += 1
    return tuple(figures)


def summarise(view: MatchView) -> MatchSummary:
    """The match as the stats see it, over or not."""
    state: GameState = view.engine.state
    return MatchSummary(
        scores=state.totals,
        ranks=ranks_by_seat(standings(state), state.player_count),
        winners=winners(state),
        figures=seat_figures(state),
        over=state.over,
        highest_wins=True,
    )
