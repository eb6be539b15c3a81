"""French Tarot in the JSON API: its State's schema (for the OpenAPI; the actions' are
actions.py's, the options' options.py's). Tarot has no endpoint of its own: create, read and
act are the core's, for every game."""

from __future__ import annotations

from typing import Literal

from ninja import Field

from marquoir.tables.kit import OutSchema

from .actions import ChelemKey, ContractKey, SideKey, SizeKey
from .options import TarotOptions


class TarotPlayerOut(OutSchema):
    name: str
    score: int = Field(..., description="the player's running total")


class TarotStandingOut(OutSchema):
    player: int
    score: int
    rank: int = Field(..., description="1 for the best total; tied players share the rank (1, 1, 3)")


class PoigneeOut(OutSchema):
    side: SideKey
    size: SizeKey


class DealOut(OutSchema):
    """A deal of the match: its input, whether the contract was made, each player's score."""

    number: int = Field(..., description="extension: the deal's number, from 1, passed ones included")
    dealer: int = Field(..., description="extension: who dealt it")
    passed: bool = Field(..., description="extension: every player passed (no input then, and scores all 0)")
    taker: int | None = None
    contract: ContractKey | None = None
    partner: int | None = Field(None, description="5 players: the called partner, or the taker's own index (alone)")
    bouts: int | None = None
    points: int | float | None = Field(None, description="the taker's side's card points")
    petit_au_bout: SideKey | None = None
    poignees: list[PoigneeOut] = Field(default_factory=list)
    chelem: ChelemKey | None = None
    made: bool | None = Field(..., description="whether the contract was made; null for a passed deal")
    needed: int | None = Field(None, description="extension: the points the taker's side needed for its bouts")
    per_defender: int | None = Field(None, description="extension: what each defender paid (negative: was paid)")
    scores: list[int] = Field(..., description="what each player got from the deal; they add up to 0")


class TarotStateOut(OutSchema):
    id: str
    game: Literal["tarot"]
    options: TarotOptions
    seq: int
    players: list[TarotPlayerOut]
    current: None = Field(None, description="always null: any player may report the deal")
    over: bool
    standings: list[TarotStandingOut]
    winners: list[int] = Field(..., description="empty until over; then every player tied on the best total")
    dealer: int = Field(..., description="who deals next")
    deals: list[DealOut] = Field(..., description="every deal in order, passed ones included")
    first: int = Field(..., description="extension: the first dealer")
