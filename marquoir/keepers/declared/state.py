"""A declared game's State in the API (docs/api-v1.md, "Games declared as data"), its
schema (one per game, for the OpenAPI) and what a match comes to for the stats."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field
from pydantic import create_model

from marquoir.games.declared import Game, GameState, Match, Setup, standings, winners
from marquoir.tables.kit import Match as MatchRow
from marquoir.tables.kit import MatchSummary, MatchView, OutSchema, running_totals

from .options import game_options, stored_teams


class DeclaredPlayerOut(OutSchema):
    name: str
    score: int
    rounds: list[int] = Field(..., description="the points of each round, in order")
    breakdown: dict[str, int] = Field(..., description="the points of each category, over every round")
    carried: dict[str, int | bool] = Field(
        default_factory=dict, description="a game played by turns: the values kept from turn to turn (misses in a row)"
    )
    out: bool = Field(False, description="a game played by turns: the player no longer plays")


class DeclaredTeamOut(OutSchema):
    players: list[int] = Field(..., description="the team's seats")
    score: int
    rounds: list[int] = Field(..., description="the team's points of each round, in order")
    breakdown: dict[str, int]


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
    teams: list[DeclaredTeamOut] | None = Field(None, description="a team game: each team, its seats and score")
    result: Literal["won", "lost"] | None = Field(
        None, description="a cooperative game: null while it goes on, then won or lost"
    )
    score: int | None = Field(None, description="a cooperative game with a shared score: the table's")
    ended_by: str | None = Field(None, description="the rule that ended the game at once (its key); null otherwise")


def state_schema(game: Game, key: str | None = None) -> type[OutSchema]:
    """The State's schema for ``game`` (its ``game`` field the game's key, or ``key``: a
    user's own game is kept under ``own.<id>.<version>``)."""
    name = "".join(part.capitalize() for part in game.key.split("_"))
    key_type: Any = Literal[key or game.key]
    model: type[OutSchema] = create_model(f"{name}StateOut", __base__=DeclaredStateOut, game=(key_type, ...))
    return model


def start(game: Game, row: MatchRow) -> Match:
    """The engine's match for a stored set-up (its options were resolved on creation)."""
    return Match.start(Setup(game, len(row.players), row.first, game_options(row.options), stored_teams(row.options)))


def side_of(state: GameState, seat: int) -> int:
    """The side a seat scores for: its own, its team's, or the table's (a cooperative game)."""
    if state.teams is not None:
        return next(index for index, team in enumerate(state.teams) if seat in team)
    return 0 if state.game.cooperative else seat


def seats_of(state: GameState, sides: tuple[int, ...] | list[int]) -> list[int]:
    """Every seat of these sides, in seat order."""
    return sorted(seat for seat in range(state.players) if side_of(state, seat) in sides)


ORDINARY_ENDS = frozenset({"target", "rounds", "declared"})


def state_json(view: MatchView) -> dict[str, Any]:
    row, state = view.row, view.engine.state
    sides = [side_of(state, seat) for seat in range(len(row.players))]
    side_standings = standings(state)
    rank_of = {standing.player: standing.rank for standing in side_standings}
    # Players ranked by their side, partners together, in seat order within a side.
    ranked = [seat for standing in side_standings for seat in range(len(row.players)) if sides[seat] == standing.player]
    json: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "options": game_options(state.options),
        "seq": row.seq,
        "players": [
            {
                "name": name,
                "score": state.totals[sides[seat]],
                "rounds": list(state.player_rounds(sides[seat])),
                "breakdown": state.breakdown(sides[seat]),
                "carried": dict(state.carried[sides[seat]]),
                "out": state.out[sides[seat]],
            }
            for seat, name in enumerate(row.players)
        ],
        "current": state.current,
        "over": state.over,
        "standings": [
            {"player": seat, "score": state.totals[sides[seat]], "rank": rank_of[sides[seat]]} for seat in ranked
        ],
        "winners": seats_of(state, list(winners(state))),
        "round": state.round_count,
        "first": row.first,
        "warnings": [
            {"rule": key, "player": seat} for key, seat in (state.rounds[-1].warnings if state.rounds else ())
        ],
        "ended_by": state.end_reason if state.over and state.end_reason not in ORDINARY_ENDS else None,
        "teams": None,
        "result": None,
        "score": None,
    }
    if state.teams is not None:
        json["teams"] = [
            {
                "players": list(team),
                "score": state.totals[index],
                "rounds": list(state.player_rounds(index)),
                "breakdown": state.breakdown(index),
            }
            for index, team in enumerate(state.teams)
        ]
    if state.game.cooperative:
        json["result"] = state.outcome
        json["score"] = state.totals[0] if state.game.file.cooperative and state.game.file.cooperative.score else None
    return json


def summarise(view: MatchView) -> MatchSummary:
    """What the match comes to for a group's stats, by seat: a partner scores the team's."""
    state: GameState = view.engine.state
    seats = range(state.players)
    sides = [side_of(state, seat) for seat in seats]
    rank_of = {standing.player: standing.rank for standing in standings(state)}
    won = winners(state)
    return MatchSummary(
        scores=tuple(state.totals[side] for side in sides),
        ranks=tuple(rank_of[side] for side in sides),
        winners=tuple(seats_of(state, list(won))),
        figures=tuple(state.figures(side) for side in sides),
        over=state.over,
        highest_wins=not state.lowest_wins,
    )


def totals_by_round(state: GameState) -> list[list[int]]:
    """For each player, their total before the first round and after each round."""
    return running_totals([state.player_rounds(seat) for seat in range(state.player_count)])
