"""Tarot's State in the API, from a folded match."""

from __future__ import annotations

from typing import Any

from marquoir.games.tarot import DealRecord, GameState, PlayedDeal, Setup, standings, winners
from marquoir.games.tarot import Match as TarotMatch
from marquoir.tables.kit import Match, MatchView

from .options import TarotOptions


def setup_of(row: Match) -> Setup:
    """The engine's set-up for a stored match: the players in playing order, the first dealer."""
    return Setup(len(row.players), row.first, TarotOptions.of(row.options).engine())


def start(row: Match) -> TarotMatch:
    """The engine's match for a stored set-up, before any deal."""
    return TarotMatch.start(setup_of(row))


def deal_json(deal: DealRecord) -> dict[str, Any]:
    """A deal of the history: its input as the table gave it (points on the taker's side),
    whether the contract was made, and what each player got."""
    if not isinstance(deal, PlayedDeal):
        return {"number": deal.number, "dealer": deal.dealer, "passed": True, "made": None, "scores": list(deal.scores)}
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "passed": False,
        "taker": deal.taker,
        "contract": deal.contract.value,
        "partner": deal.partner,
        "bouts": deal.bouts,
        "points": deal.points,
        "petit_au_bout": deal.petit_au_bout.value if deal.petit_au_bout else None,
        "poignees": [{"side": p.side.value, "size": p.size.value} for p in deal.poignees],
        "chelem": deal.chelem.value if deal.chelem else None,
        "made": deal.made,
        "needed": deal.score.needed,
        "per_defender": deal.score.per_defender,
        "scores": list(deal.scores),
    }


def state_json(view: MatchView) -> dict[str, Any]:
    """The State of the contract (docs/api-v1.md, "French Tarot").

    Every game's keys, with ``dealer`` (who deals next) and ``deals`` (every deal in order
    with its input, ``made`` and ``scores``); ``current`` is always null; ``first``, the
    first dealer, as an extension like the other games'.
    """
    row, state = view.row, view.engine.state
    return {
        "id": row.id,
        "game": row.game,
        "options": {"deals": state.options.deals},
        "seq": row.seq,
        "players": [{"name": name, "score": state.total(index)} for index, name in enumerate(row.players)],
        "current": None,
        "over": state.over,
        "standings": [
            {"player": standing.player, "score": standing.score, "rank": standing.rank} for standing in standings(state)
        ],
        "winners": list(winners(state)),
        "dealer": state.dealer,
        "deals": [deal_json(deal) for deal in state.deals],
        "first": row.first,
    }


def remaining_deals(state: GameState) -> int | None:
    """Scored deals still to play when the table agreed on a number, else None."""
    if state.options.deals is None:
        return None
    return max(state.options.deals - state.played_count, 0)
