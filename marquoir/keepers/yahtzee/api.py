"""Yahtzee in the JSON API: its State's and options' schemas, and its own endpoint
(``/advice``: the assistant's expected final scores, from the solver). The action's schema
is actions.py's."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Field

from marquoir.games.yahtzee import RuleError
from marquoir.tables.kit import (
    GameEndpoint,
    Match,
    OutSchema,
    ServiceError,
    TableOptions,
    error_response,
    keeper_for,
    match_view,
)

from .actions import BoxKey
from .assistant import advice_json, read_advice_query


class YahtzeeOptions(TableOptions):
    """Yahtzee has no table options yet: the box's rules (none, or an empty object)."""


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
            raise ServiceError.from_rule(error) from None
        state = match_view(match).engine.state
        if state.current is None:
            raise ServiceError("match_over")
        data: dict[str, Any] = advice_json(state.sheet(state.current), dice, rolls_left)
    except ServiceError as error:
        return error_response(request, error, players, keeper_for(match.game))
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
