"""A declared game's State in the API (docs/api-v1.md, "Games declared as data"), its
schema (one per game, for the OpenAPI) and what a match comes to for the stats."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field
from pydantic import create_model

from marquoir.games.declared import Game, GameState, Match, Setup, standings, winners
from marquoir.tables.kit import Match as MatchRow
from marquoir.tables.kit import MatchSummary, MatchView, OutSchema, ranks_by_seat, running_totals


class DeclaredPlayerOut(OutSchema):
    name: str
    score: int
    rounds: list[int] = Field(..., description="the points of each round, in order")
    breakdown: dict[str, int] = Field(..., description="the points of each category, over every round")
    carried: dict[str, int | bool] = Field(
        default_factory=dict, description="a game played by turns: the values kept from turn to turn (misses in a row)"
    )
    out: bool = Field(False, description="a game played by turns: the player no longer plays")


class DeclaredWarningOut(OutSchema):
    rule: str = Field(..., description="the warning's key in the game file (Qwixx: not_an_end)")
    player: int | None = None


class DeclaredStandingOut(OutSchema):
    player: int
    score: int
    rank: int


class DeclaredStateOut(OutSchema):
    id: str
    options: dict[str, Any]
    seq: int
    players: list[DeclaredPlayerOut]
    current: int | None = Field(..., description="a game played by turns: whose turn it is; else null")
    over: bool
    standings: list[DeclaredStandingOut]
    winners: list[int]
    round: int = Field(..., description="rounds recorded")
    first: int
    warnings: list[DeclaredWarningOut] = Field(
        default_factory=list, description="what the last round recorded warns of (it was recorded all the same)"
    )


def state_schema(game: Game, key: str | None = None) -> type[OutSchema]:
    """The State's schema for ``game`` (its ``game`` field the game's key, or ``key``: a
    user's own game is kept under ``own.<id>.<version>``)."""
    name = "".join(part.capitalize() for part in game.key.split("_"))
    key_type: Any = Literal[key or game.key]
    model: type[OutSchema] = create_model(f"{name}StateOut", __base__=DeclaredStateOut, game=(key_type, ...))
    return model


def start(game: Game, row: MatchRow) -> Match:
    """The engine's match for a stored set-up (its options were resolved on creation)."""
    return Match.start(Setup(game, len(row.players), row.first, row.options))


def state_json(view: MatchView) -> dict[str, Any]:
    row, state = view.row, view.engine.state
    return {
        "id": row.id,
        "game": row.game,
        "options": dict(state.options),
        "seq": row.seq,
        "players": [
            {
                "name": name,
                "score": state.totals[seat],
                "rounds": list(state.player_rounds(seat)),
                "breakdown": state.breakdown(seat),
                "carried": dict(state.carried[seat]) if state.game.by_turns else {},
                "out": state.out[seat],
            }
            for seat, name in enumerate(row.players)
        ],
        "current": state.current,
        "over": state.over,
        "standings": [
            {"player": standing.player, "score": standing.score, "rank": standing.rank} for standing in standings(state)
        ],
        "winners": list(winners(state)),
        "round": state.round_count,
        "first": row.first,
        "warnings": [
            {"rule": key, "player": seat} for key, seat in (state.rounds[-1].warnings if state.rounds else ())
        ],
    }


def summarise(view: MatchView) -> MatchSummary:
    state: GameState = view.engine.state
    return MatchSummary(
        scores=state.totals,
        ranks=ranks_by_seat(standings(state), state.player_count),
        winners=winners(state),
        figures=tuple(state.figures(seat) for seat in range(state.player_count)),
        over=state.over,
        highest_wins=not state.lowest_wins,
    )


def totals_by_round(state: GameState) -> list[list[int]]:
    """For each player, their total before the first round and after each round."""
    return running_totals([state.player_rounds(seat) for seat in range(state.player_count)])
