"""French Tarot in the JSON API: its actions' and State's schemas (for the OpenAPI). Tarot
has no endpoint of its own: create, read and act are the core's, for every game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from ninja import Field
from pydantic import ConfigDict
from pydantic_core import ErrorDetails

from marquoir.games.tarot import BOUTS, CARD_POINTS, MAX_DEALS, MAX_PLAYERS, RuleError
from marquoir.rules import INVALID
from marquoir.tables.schemas import ActionBody, OutSchema, StrictBody, shorten

ContractKey = Literal["petite", "garde", "garde_sans", "garde_contre"]
SideKey = Literal["taker", "defence"]
SizeKey = Literal["simple", "double", "triple"]
ChelemKey = Literal["announced_made", "made", "announced_failed"]
CardPoints = Annotated[int | float, Field(ge=0, le=CARD_POINTS, multiple_of=0.5)]


class TarotOptions(OutSchema):
    """Tarot's table options; all optional."""

    deals: int | None = Field(
        None, ge=1, le=MAX_DEALS, description="the game ends after this many scored deals (passed ones do not count)"
    )


class PoigneeIn(StrictBody):
    """A handful shown: by which side (the partner's counts for the taker's), and its size."""

    model_config = ConfigDict(extra="forbid", strict=True)

    side: SideKey
    size: SizeKey


class DealIn(ActionBody):
    """A played deal, as the table reports it: Marquoir works out every player's score."""

    type: Literal["deal"]
    taker: int = Field(..., ge=0, lt=MAX_PLAYERS, description="the taker's index")
    contract: ContractKey
    partner: int | None = Field(
        None,
        ge=0,
        lt=MAX_PLAYERS,
        description="5 players only, required there: the called partner, or the taker's own index to play alone",
    )
    bouts: int = Field(..., ge=0, le=BOUTS, description="the taker's side's bouts, 0 to 3")
    points: CardPoints | None = Field(None, description="the taker's side's card points, 0 to 91 in halves")
    defence_points: CardPoints | None = Field(
        None, description="extension: the defence's card points instead of points (the taker's side has 91 − x)"
    )
    petit_au_bout: SideKey | None = Field(None, description="the side that took the last trick with the Petit in it")
    poignees: list[PoigneeIn] = Field(
        default_factory=list, max_length=MAX_PLAYERS, description="each handful shown, with its side and size"
    )
    chelem: ChelemKey | None = None

    reasons: ClassVar[Mapping[str, str]] = {
        "contract": "bad_contract",
        "bouts": "bad_bouts",
        "petit_au_bout": "bad_petit_au_bout",
        "chelem": "bad_chelem",
    }

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        location, kind, given = error["loc"], error["type"], error.get("input")
        if field in {"taker", "partner"}:
            return RuleError(INVALID, "unknown_player", role=field, player=shorten(given))
        if field in {"points", "defence_points"}:
            side = "taker" if field == "points" else "defence"
            if kind in {"greater_than_equal", "less_than_equal"}:
                return RuleError(INVALID, "points_range", side=side, points=shorten(given), min=0, max=CARD_POINTS)
            if kind == "multiple_of":
                return RuleError(INVALID, "points_halves", side=side, points=shorten(given))
            return RuleError(INVALID, "bad_points", side=side, points=shorten(given))
        if field == "poignees":
            if len(location) < 3:  # the list itself
                if kind == "too_long" and isinstance(given, list):
                    return RuleError(INVALID, "too_many_poignees", count=len(given), max=MAX_PLAYERS)
                return RuleError(INVALID, "bad_poignees", poignees=shorten(given))
            return RuleError(INVALID, "bad_poignee", index=location[2], poignee=shorten(given))
        if field in cls.reasons:
            return RuleError(INVALID, cls.reasons[field], **{field: shorten(given)})
        return super().refusal(field, error)


class PassIn(ActionBody):
    """Every player passed: nothing is scored, the next player deals."""

    type: Literal["pass"]


class EndIn(ActionBody):
    """The players stop: the game ends on the totals as they stand (after a scored deal)."""

    type: Literal["end"]


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
