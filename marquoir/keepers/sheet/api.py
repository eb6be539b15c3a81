"""The score sheet in the JSON API: its State's schema (for the OpenAPI; the actions' are
actions.py's, the options' options.py's). The sheet has no endpoint of its own: create,
read and act are the core's, for every game."""

from __future__ import annotations

from typing import Literal

from ninja import Field

from marquoir.tables.kit import OutSchema

from .options import SheetOptions


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
