"""The sheet's State in the API, and the figures its screen draws, from a folded match."""

from __future__ import annotations

from typing import Any

from marquoir.games.sheet import GameState, Setup, standings, winners
from marquoir.games.sheet import Match as SheetMatch
from marquoir.tables.kit import Match, MatchView, running_totals

from .options import SheetOptions


def setup_of(row: Match) -> Setup:
    """The engine's set-up for a stored match."""
    return Setup(len(row.players), row.first, SheetOptions.of(row.options).engine())


def start(row: Match) -> SheetMatch:
    """The engine's match for a stored set-up, before any round."""
    return SheetMatch.start(setup_of(row))


def options_json(state: GameState) -> dict[str, Any]:
    options = state.options
    return {
        "title": options.title,
        "lowest_wins": options.lowest_wins,
        "target": options.target,
        "rounds": options.rounds,
    }


def state_json(view: MatchView) -> dict[str, Any]:
    """The State of the contract (docs/api-v1.md, "Score sheet for any game").

    Every game's keys, with ``players[].rounds`` (each round's score, in order) and
    ``round`` (how many rounds are recorded); ``current`` is always null (anyone writes the
    round); ``first``, the player who started, as an extension like Pickomino's.
    """
    row, state = view.row, view.engine.state
    return {
        "id": row.id,
        "game": row.game,
        "options": options_json(state),
        "seq": row.seq,
        "players": [
            {"name": name, "score": state.total(index), "rounds": list(state.player_rounds(index))}
            for index, name in enumerate(row.players)
        ],
        "current": None,
        "over": state.over,
        "standings": [
            {"player": standing.player, "score": standing.score, "rank": standing.rank} for standing in standings(state)
        ],
        "winners": list(winners(state)),
        "round": state.round_count,
        "first": row.first,
    }


def totals_by_round(state: GameState) -> list[list[int]]:
    """For each player, their total before the first round and after each round."""
    return running_totals([state.player_rounds(player) for player in range(state.player_count)])
