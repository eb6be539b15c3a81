"""Yahtzee's State in the API, and the figures its screen draws, from a folded match."""

from __future__ import annotations

from typing import Any

from marquoir.games.yahtzee import ROUNDS, GameState, Scored, Setup, Sheet, standings, winners
from marquoir.games.yahtzee import Match as YahtzeeMatch
from marquoir.tables.kit import Match, MatchView


def setup_of(row: Match) -> Setup:
    """The engine's set-up for a stored match (Yahtzee has no table options yet)."""
    return Setup(tuple(row.players), row.first)


def start(row: Match) -> YahtzeeMatch:
    """The engine's match for a stored set-up, before any turn."""
    return YahtzeeMatch.start(setup_of(row))


def player_json(name: str, sheet: Sheet) -> dict[str, Any]:
    return {
        "name": name,
        "score": sheet.total,
        "boxes": sheet.by_box(),
        "upper_total": sheet.upper_total,
        "upper_bonus": sheet.upper_bonus,
        "yahtzee_bonus": sheet.yahtzee_bonus,
    }


def state_json(view: MatchView) -> dict[str, Any]:
    """The State of the contract (docs/api-v1.md, "Yahtzee").

    Every game's keys, with each player's ``boxes`` (null while open), ``upper_bonus`` (0 or
    35) and ``yahtzee_bonus`` (0, 100, 200…), ``score`` the grand total; ``round``, 1 to 13
    (13 once over). Extensions: ``players[].upper_total`` (the upper boxes' sum, for the
    bonus's progress) and ``first``, the player who started.
    """
    row, state = view.row, view.engine.state
    return {
        "id": row.id,
        "game": row.game,
        "options": {},
        "seq": row.seq,
        "players": [player_json(name, state.sheet(index)) for index, name in enumerate(row.players)],
        "current": state.current,
        "over": state.over,
        "standings": [
            {"player": standing.player, "score": standing.score, "rank": standing.rank} for standing in standings(state)
        ],
        "winners": list(winners(state)),
        "round": state.round,
        "first": row.first,
    }


def totals_by_round(view: MatchView) -> list[list[int]]:
    """For each player, their total before the first round and after each of their turns."""
    state: GameState = view.engine.state
    series: list[list[int]] = [[0] for _ in range(state.player_count)]
    for outcome in view.engine.outcomes:
        if isinstance(outcome, Scored):
            series[outcome.player].append(outcome.total)
    return [values[: ROUNDS + 1] for values in series]
