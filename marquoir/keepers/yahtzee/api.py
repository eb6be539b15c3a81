"""Yahtzee in the JSON API: its action's and State's schemas, and its own endpoint
(``/advice``: the assistant's expected final scores, from the solver)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Field
from pydantic import ConfigDict
from pydantic_core import ErrorDetails

from marquoir.games.yahtzee import DICE_COUNT, RuleError
from marquoir.rules import INVALID
from marquoir.tables.api_errors import error_response
from marquoir.tables.keepers import GameEndpoint
from marquoir.tables.models import Match
from marquoir.tables.schemas import ActionBody, OutSchema, shorten
from marquoir.tables.selectors import match_view
from marquoir.tables.services import ServiceError

from .assistant import advice_json, read_advice_query
from .keeper import KEEPER

BoxKey = Literal[
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
]
Die = Annotated[int, Field(ge=1, le=6)]
# The most a box can take: 50 in ``yahtzee`` (a sum of five dice is 30 at most, a straight 40).
MAX_BOX_POINTS = 50


class YahtzeeOptions(OutSchema):
    """Yahtzee has no table options yet: the box's rules (an empty object)."""

    model_config = ConfigDict(extra="forbid")


class ScoreIn(ActionBody):
    """The current player's turn, scored in a box: with the five dice of the last roll
    (Marquoir works out the points, the bonuses and the joker), or, for a table that keeps
    only the sheet, with the points (extension: refused when no five dice give them there)."""

    type: Literal["score"]
    box: BoxKey = Field(..., description="the box to fill")
    dice: Annotated[list[Die], Field(min_length=DICE_COUNT, max_length=DICE_COUNT)] | None = Field(
        None, description="the five dice of the last roll, 1 to 6 each, in any order; or give points"
    )
    points: int | None = Field(
        None,
        ge=0,
        le=MAX_BOX_POINTS,
        description="extension, instead of dice: the points written in the box, 0 to 50",
    )
    five_alike: bool | None = Field(
        None,
        description="extension, with points only: whether the dice were five alike (the joker and the "
        "Yahtzee bonus depend on it); left out, it is worked out from the points when only five alike "
        "give them (50 in yahtzee, 20 in fours…), else taken as not",
    )

    reasons: ClassVar[Mapping[str, str]] = {
        "box": "unknown_box",
        "points": "bad_points",
        "five_alike": "bad_five_alike",
    }

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        if field == "box":
            return RuleError(INVALID, "unknown_box", box=shorten(error.get("input")))
        if field != "dice":
            return super().refusal(field, error)
        location, kind, given = error["loc"], error["type"], error.get("input")
        if len(location) < 3:  # the list itself
            if kind in {"too_short", "too_long"} and isinstance(given, list):
                return RuleError(INVALID, "dice_count", count=len(given), expected=DICE_COUNT)
            return RuleError(INVALID, "bad_dice", dice=shorten(given))
        return RuleError(INVALID, "bad_die", position=location[2], die=shorten(given))


class YahtzeeBoxesOut(OutSchema):
    """The points in each box, null while it is open."""

    ones: int | None
    twos: int | None
    threes: int | None
    fours: int | None
    fives: int | None
    sixes: int | None
    three_of_a_kind: int | None
    four_of_a_kind: int | None
    full_house: int | None
    small_straight: int | None
    large_straight: int | None
    yahtzee: int | None
    chance: int | None


class YahtzeePlayerOut(OutSchema):
    name: str
    score: int = Field(..., description="the grand total: every box, the upper bonus, the Yahtzee bonuses")
    boxes: YahtzeeBoxesOut
    upper_total: int = Field(..., description="extension: the sum of ones to sixes (the bonus needs 63)")
    upper_bonus: int = Field(..., description="0, or 35 once the upper boxes add up to 63 or more")
    yahtzee_bonus: int = Field(..., description="100 for each Yahtzee bonus earned: 0, 100, 200…")


class YahtzeeStandingOut(OutSchema):
    player: int
    score: int
    rank: int = Field(..., description="1 for the best total; tied players share the rank (1, 1, 3)")


class YahtzeeStateOut(OutSchema):
    id: str
    game: Literal["yahtzee"]
    options: YahtzeeOptions
    seq: int
    players: list[YahtzeePlayerOut]
    current: int | None = Field(..., description="the player whose turn it is; null once the game is over")
    over: bool
    standings: list[YahtzeeStandingOut]
    winners: list[int] = Field(..., description="empty until over; then every player tied on the best total")
    round: int = Field(..., description="the round being played, 1 to 13 (13 once over)")
    first: int = Field(..., description="extension: the player who started")


# --- /advice


class YahtzeeAdviceQuery(OutSchema):
    dice: str = Field(
        "",
        max_length=32,
        description="the five dice shown, separated by commas: `1,3,3,4,6` (none: the sheet's value before the turn)",
    )
    rolls_left: int | None = Field(
        None, ge=0, le=2, description="with dice: the rolls still allowed after this one, 0, 1 or 2 (default 0)"
    )


class YahtzeeKeepOut(OutSchema):
    keep: list[int] = Field(..., description="the dice to keep, ascending (all five: roll no more)")
    value: float = Field(..., description="the expected final score keeping them, played well from there")


class YahtzeeBoxAdviceOut(OutSchema):
    box: BoxKey
    points: int = Field(..., description="what the box takes with these dice (the Yahtzee bonus aside)")
    value: float = Field(..., description="the expected final score scoring them there, played well from there")


class YahtzeeAdviceOut(OutSchema):
    player: int = Field(..., description="extension: whose sheet (the current player)")
    value: float = Field(..., description="the expected final score of the best choice (of the sheet, without dice)")
    keep: list[int] | None = Field(None, description="with rolls left: the best dice to keep")
    keeps: list[YahtzeeKeepOut] | None = Field(None, description="with rolls left: every distinct keep, best first")
    box: BoxKey | None = Field(None, description="with no roll left: the best box")
    boxes: list[YahtzeeBoxAdviceOut] | None = Field(
        None, description="with no roll left: every box the rules allow, best first"
    )


def match_advice(request: HttpRequest, match: Match) -> HttpResponse:
    """The assistant for the current player's sheet (optimal solitaire play, the forced joker).

    No parameters: the sheet's expected final score before the turn's first roll. With
    `dice` and `rolls_left` 1 or 2: which dice to keep, each keep with its expected final
    score; with `rolls_left` 0 (or left out): which box to score, each with its points and
    expected final score. No token needed.
    """
    players = list(match.players)
    try:
        try:
            dice, rolls_left = read_advice_query(request.GET)
        except RuleError as error:
            raise ServiceError.from_rule(error, keeper=KEEPER) from None
        state = match_view(match).engine.state
        if state.current is None:
            raise ServiceError("match_over")
        data: dict[str, Any] = advice_json(state.sheet(state.current), dice, rolls_left)
    except ServiceError as error:
        return error_response(request, error, players, KEEPER)
    data["player"] = state.current
    # Only the keys of the question asked (docs/api-v1.md): no nulls for the others.
    body = YahtzeeAdviceOut.model_validate(data).model_dump(mode="json", exclude_none=True)
    return JsonResponse(body)


ENDPOINTS = (
    GameEndpoint(
        path="/matches/{match_id}/advice",
        view=match_advice,
        response=YahtzeeAdviceOut,
        query=YahtzeeAdviceQuery,
        summary="Odds and advice for the turn in progress",
        description="Yahtzee: for the current player's sheet, optimal solitaire play. No parameters: the "
        "sheet's expected final score before the turn. `dice` with `rolls_left` 1 or 2: the dice to keep "
        "(`keep`, `keeps`); with `rolls_left` 0: the box to score (`box`, `boxes`). `value` is the expected "
        "final score of the best choice.",
    ),
)
