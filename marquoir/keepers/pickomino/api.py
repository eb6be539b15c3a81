"""Pickomino in the JSON API: its State's schema, and its own endpoints (``/claims``: what a
total may claim; ``/advice``: the turn assistant's exact odds). The actions' schemas are
actions.py's, the options' options.py's."""

from __future__ import annotations

from typing import Literal

from django.http import HttpRequest, HttpResponse
from ninja import Field
from pydantic import ValidationError as PydanticValidationError

from marquoir.games.pickomino import RuleError
from marquoir.games.pickomino.engine import MAX_TOTAL, steal_victim
from marquoir.games.pickomino.odds import Table, advise
from marquoir.tables.kit import (
    GameEndpoint,
    Match,
    OutSchema,
    ServiceError,
    answer,
    error_response,
    keeper_for,
    match_view,
)

from .options import OptionsSchema
from .state import claims_json
from .turn import decode_dice, decode_roll


class PlayerOut(OutSchema):
    name: str
    stack: list[int]
    worms: int
    score: int = Field(..., description="what every game's State has: for Pickomino, the worms")


class GrillTileOut(OutSchema):
    tile: int
    worms: int
    face: Literal["up", "down"]


class StandingOut(OutSchema):
    player: int
    worms: int
    score: int = Field(..., description="the worms, as every game's standings have a score")
    best_tile: int | None
    rank: int


class StateOut(OutSchema):
    id: str
    game: Literal["pickomino"]
    options: OptionsSchema
    seq: int
    players: list[PlayerOut]
    grill: list[GrillTileOut]
    current: int
    over: bool
    standings: list[StandingOut]
    winners: list[int]
    first: int = Field(..., description="extension: the player who started")


class ClaimOut(OutSchema):
    tile: int
    from_: Literal["grill"] | int = Field(..., alias="from")


class ClaimsOut(OutSchema):
    claims: list[ClaimOut]
    bust: bool


class ClaimsQuery(OutSchema):
    total: int = Field(..., ge=1, le=MAX_TOTAL, description="the turn's total")
    worm: bool = Field(..., description="whether a worm was kept")


def match_claims(request: HttpRequest, match: Match) -> HttpResponse:
    """Every legal claim for the current player with that total, or none and `bust: true` (also after the end)."""
    try:
        try:
            query = ClaimsQuery.model_validate(request.GET.dict())
        except PydanticValidationError:
            raise ServiceError("invalid", "bad_claim_query") from None
        view = match_view(match)
    except ServiceError as error:
        return error_response(request, error, None, keeper_for(match.game))
    return answer(ClaimsOut, claims_json(view, query.total, query.worm))


class KeepAdviceOut(OutSchema):
    face: Literal["1", "2", "3", "4", "5", "worm"]
    count: int
    value: float = Field(..., description="expected worms of the turn after this keep, played well")
    stop_after: bool
    bust_chance: float


class AdviceOut(OutSchema):
    total: int
    dice_left: int
    has_worm: bool
    value: float = Field(..., description="expected worms of the turn from here, played well")
    should_stop: bool
    stop_value: float = Field(..., description="worms for stopping now (the bust's value when that is a bust)")
    stop_claim: ClaimOut | None
    roll_value: float | None
    roll_bust_chance: float | None
    bust_chance: float = Field(..., description="chance the turn fails from here, playing as advised")
    bust_value: float
    roll_busts: bool = Field(..., description="the roll given shows no face that may be kept")
    best_face: Literal["1", "2", "3", "4", "5", "worm"] | None
    keeps: list[KeepAdviceOut] = Field(..., description="for the roll given, one per face that may be kept, best first")


class AdviceQuery(OutSchema):
    dice: str = Field("", max_length=64, description="the dice kept so far, in keeping order: `worm:2,5:3`")
    roll: str = Field("", max_length=64, description="the dice just rolled, counts per face: `1:2,3:1,worm:2`")


def match_advice(request: HttpRequest, match: Match) -> HttpResponse:
    """Exact odds for the current player (extension of v1).

    `dice`: the dice kept so far, in keeping order, as `worm:2,5:3` (empty at the start of
    a turn). `roll`: the dice just rolled, as counts per face, `1:2,3:1,worm:2` (one per
    die left; optional). Values are expected worms: a grill tile its worms, a steal twice
    (the opponent loses them), a bust minus the worms of the player's top tile.
    """
    players = list(match.players)
    try:
        try:
            query = AdviceQuery.model_validate(request.GET.dict())
        except PydanticValidationError:
            raise ServiceError("invalid", "bad_query") from None
        dice, roll = query.dice, query.roll
        view = match_view(match)
        state = view.engine.state
        if state.over:
            raise ServiceError("match_over")
        try:
            kept = decode_dice(dice)
            rolled = decode_roll({"roll": roll}, kept.dice_left) if roll else None
            advice = advise(Table.of(state), kept, rolled)
        except RuleError as error:
            raise ServiceError.from_rule(error) from None
    except ServiceError as error:
        return error_response(request, error, players, keeper_for(match.game))
    stop_claim = None
    if advice.stop_tile is not None:
        victim = steal_victim(state, advice.stop_tile) if advice.stop_steals else None
        stop_claim = {"tile": advice.stop_tile, "from": "grill" if victim is None else victim}
    return answer(
        AdviceOut,
        {
            "total": kept.total,
            "dice_left": kept.dice_left,
            "has_worm": kept.has_worm,
            "value": advice.value,
            "should_stop": advice.should_stop,
            "stop_value": advice.stop_value,
            "stop_claim": stop_claim,
            "roll_value": advice.roll_value,
            "roll_bust_chance": advice.roll_bust_chance,
            "bust_chance": advice.bust_chance,
            "bust_value": advice.bust_value,
            "roll_busts": advice.roll_busts,
            "best_face": advice.best_face.key if advice.best_face else None,
            "keeps": [
                {
                    "face": keep.face.key,
                    "count": keep.count,
                    "value": keep.value,
                    "stop_after": keep.stop_after,
                    "bust_chance": keep.bust_chance,
                }
                for keep in advice.keeps
            ],
        },
    )


ENDPOINTS = (
    GameEndpoint(
        path="/matches/{match_id}/claims",
        view=match_claims,
        response=ClaimsOut,
        query=ClaimsQuery,
        summary="What a total may claim",
        description="Pickomino: every legal claim for the current player with that total, or none and "
        "`bust: true` (also after the end).",
    ),
    GameEndpoint(
        path="/matches/{match_id}/advice",
        view=match_advice,
        response=AdviceOut,
        query=AdviceQuery,
        summary="Odds and advice for the turn in progress",
        description="Pickomino: exact odds for the current player. Values are expected worms: a grill tile "
        "its worms, a steal twice (the opponent loses them), a bust minus the worms of the player's top tile.",
    ),
)
