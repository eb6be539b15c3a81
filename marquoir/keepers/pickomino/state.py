"""Pickomino's State in the API, and the figures its screens draw, from a folded match."""

from __future__ import annotations

from typing import Any

from marquoir.games.pickomino import Match as PickominoMatch
from marquoir.games.pickomino import Setup, legal_claims, standings, winners, worms_on
from marquoir.tables.kit import Match, MatchView

from .options import OptionsSchema


def setup_of(row: Match) -> Setup:
    """The engine's set-up for a stored match."""
    return Setup(len(row.players), row.first, OptionsSchema.of(row.options).engine())


def start(row: Match) -> PickominoMatch:
    """The engine's match for a stored set-up, before any action."""
    return PickominoMatch.start(setup_of(row))


def state_json(view: MatchView) -> dict[str, Any]:
    """The State of the API contract (docs/api-v1.md), with nothing changed and a few additions.

    ``score`` (beside ``worms``, the same number) is what every game's State has.
    """
    row, state = view.row, view.engine.state
    return {
        "id": row.id,
        "game": row.game,
        "options": {
            "shorter_game": state.options.shorter_game,
            "flip_without_return": state.options.flip_without_return,
        },
        "seq": row.seq,
        "players": [
            {"name": name, "stack": list(state.stacks[index]), "worms": state.worms(index), "score": state.worms(index)}
            for index, name in enumerate(row.players)
        ],
        "grill": [
            {"tile": tile, "worms": worms_on(tile), "face": "up" if up else "down"} for tile, up in state.grill()
        ],
        "current": state.current,
        "over": state.over,
        "standings": [
            {
                "player": row_.player,
                "worms": row_.worms,
                "score": row_.worms,
                "best_tile": row_.best_tile,
                "rank": row_.rank,
            }
            for row_ in standings(state)
        ],
        "winners": list(winners(state)),
        "first": row.first,
    }


def claims_json(view: MatchView, total: int, worm: bool) -> dict[str, Any]:
    """What a take with ``total`` (and ``worm``) may claim for the current player."""
    claims = legal_claims(view.engine.state, total, worm)
    return {
        "claims": [{"tile": claim.tile, "from": claim.source} for claim in claims],
        "bust": not claims,
    }


def worms_over_time(view: MatchView) -> list[list[int]]:
    """For each player, their worms before the first action and after each action in force."""
    states = view.engine.states()
    return [[state.worms(player) for state in states] for player in range(len(view.row.players))]
