"""The score sheet in the JSON API: its actions' and State's schemas (for the OpenAPI). The
sheet has no endpoint of its own: create, read and act are the core's, for every game."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Schema

from marquoir.games.sheet import MAX_PLAYERS, MAX_ROUNDS, MAX_SCORE, MAX_TARGET, MAX_TITLE_LENGTH, MIN_SCORE


class SheetOptions(Schema):
    """The sheet's table options; all optional."""

    title: str | None = Field(None, min_length=1, max_length=MAX_TITLE_LENGTH, description="the game's name, trimmed")
    lowest_wins: bool = Field(False, description="the lowest total wins instead of the highest")
    target: int | None = Field(
        None, ge=1, le=MAX_TARGET, description="the game ends after the round in which a total reaches or passes it"
    )
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS, description="the game ends after this many rounds")


class SheetActionIn(Schema):
    """The score sheet's actions: a round, the end, and the undo every game has."""

    type: Literal["round", "end", "undo"]
    scores: list[int] | None = Field(
        None,
        min_length=1,
        max_length=MAX_PLAYERS,
        description=f"round: one whole number per player, in seating order, {MIN_SCORE} to {MAX_SCORE}",
    )
    expected_seq: int | None = Field(None, description="the seq last seen; 409 conflict if it is not current")
    action_id: str | None = Field(None, max_length=64, description="a client key: the same key is applied once")


class SheetPlayerOut(Schema):
    name: str
    score: int = Field(..., description="the player's total")
    rounds: list[int] = Field(..., description="the player's score in each round, in order")


class SheetStandingOut(Schema):
    player: int
    score: int
    rank: int = Field(..., description="1 for the best total; tied players share the rank (1, 1, 3)")


class SheetStateOut(Schema):
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
