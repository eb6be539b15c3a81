"""The score sheet in the JSON API: its actions' and State's schemas (for the OpenAPI). The
sheet has no endpoint of its own: create, read and act are the core's, for every game."""

from __future__ import annotations

from typing import Annotated, Literal

from ninja import Field
from pydantic_core import ErrorDetails

from marquoir.games.sheet import MAX_PLAYERS, MAX_ROUNDS, MAX_SCORE, MAX_TARGET, MAX_TITLE_LENGTH, MIN_SCORE
from marquoir.rules import INVALID, RuleError
from marquoir.tables.schemas import ActionBody, OutSchema, shorten


class SheetOptions(OutSchema):
    """The sheet's table options; all optional."""

    title: str | None = Field(None, min_length=1, max_length=MAX_TITLE_LENGTH, description="the game's name, trimmed")
    lowest_wins: bool = Field(False, description="the lowest total wins instead of the highest")
    target: int | None = Field(
        None, ge=1, le=MAX_TARGET, description="the game ends after the round in which a total reaches or passes it"
    )
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS, description="the game ends after this many rounds")


class RoundIn(ActionBody):
    """A round: one score per player, in seating order."""

    type: Literal["round"]
    scores: list[Annotated[int, Field(ge=MIN_SCORE, le=MAX_SCORE)]] = Field(
        ...,
        max_length=MAX_PLAYERS,  # how many this sheet takes is the engine's to say: it knows the players
        description=f"one whole number per player, in seating order, {MIN_SCORE} to {MAX_SCORE}",
    )

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        location, kind, given = error["loc"], error["type"], error.get("input")
        if field != "scores":
            return super().refusal(field, error)
        if len(location) < 3:  # the list itself
            if kind == "too_long" and isinstance(given, list):
                return RuleError(INVALID, "score_count", count=len(given), expected=None)
            return RuleError(INVALID, "bad_scores", scores=shorten(given))
        player = location[2]
        if kind in {"greater_than_equal", "less_than_equal"}:
            return RuleError(INVALID, "score_range", player=player, score=shorten(given))
        return RuleError(INVALID, "bad_scores", player=player, score=shorten(given))


class EndIn(ActionBody):
    """The table says the game is over: the standings as they are."""

    type: Literal["end"]


class SheetPlayerOut(OutSchema):
    name: str
    score: int = Field(..., description="the player's total")
    rounds: list[int] = Field(..., description="the player's score in each round, in order")


class SheetStandingOut(OutSchema):
    player: int
    score: int
    rank: int = Field(..., description="1 for the best total; tied players share the rank (1, 1, 3)")


class SheetStateOut(OutSchema):
    id: str
    game: Literal["sheet"]
    options: SheetOptions
    seq: int
    players: list[SheetPlayerOut]
    current: None = Field(None, description="always null: anyone may write the round")
    over: bool
    standings: list[SheetStandingOut]
    winners: list[int] = Field(..., description="empty until over; then every player tied on the best total")
    round: int = Field(..., description="how many rounds are recorded")
    first: int = Field(..., description="extension: the player who started")
