"""The JSON API, version 1, exactly as docs/api-v1.md says (extended, never changed).

Bodies are parsed by hand rather than by ninja's schemas so that every refusal, malformed
JSON included, answers in the contract's shape ``{"error": {"code", "message"}}`` in the
language of ``Accept-Language``, and so that the match and its token are checked before
the body. The schemas below document the API in the OpenAPI schema the app serves.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header
from ninja import Field, NinjaAPI, Schema
from ninja.errors import ValidationError
from ninja.openapi.docs import Swagger

from marquoir.games.pickomino import RuleError
from marquoir.games.pickomino.engine import MAX_TOTAL, MIN_TOTAL_WITH_WORM, steal_victim
from marquoir.games.pickomino.odds import Table, advise

from . import services
from .actions import parse_action, shorten
from .api_errors import server_error
from .device import device_secret
from .messages import STATUS, message_for
from .models import Match
from .ratelimit import allow_match_creation
from .selectors import claims_json, find_match, match_view, state_json
from .services import ServiceError
from .turn import decode_dice, decode_roll


class ErrorBody(Schema):
    code: str = Field(..., examples=["not_stealable"])
    message: str


class ErrorOut(Schema):
    error: ErrorBody


class OptionsSchema(Schema):
    shorter_game: bool = False
    flip_without_return: bool = False


class CreateIn(Schema):
    game: Literal["pickomino"]
    players: list[str] = Field(..., min_length=2, max_length=7, examples=[["Ada", "Ben", "Cy"]])
    first: int = 0
    options: OptionsSchema | None = None


class ActionIn(Schema):
    type: Literal["take", "bust", "undo"]
    total: int | None = Field(None, ge=MIN_TOTAL_WITH_WORM, le=MAX_TOTAL, description="take: the turn's total")
    worm: bool | None = Field(None, description="take: whether a worm was kept")
    dice: dict[Literal["1", "2", "3", "4", "5", "worm"], int] | None = Field(
        None, description="take: the kept dice per face, instead of total and worm"
    )
    from_: Literal["grill"] | int = Field("grill", alias="from", description='take: "grill" or the player robbed')
    reason: Literal["declared", "no_new_face", "no_worm", "nothing_to_claim"] | None = Field(
        None, description="bust: why the turn failed (extension; the penalty is the same)"
    )
    expected_seq: int | None = Field(None, description="the seq last seen; 409 conflict if it is not current")
    action_id: str | None = Field(None, max_length=64, description="a client key: the same key is applied once")


class PlayerOut(Schema):
    name: str
    stack: list[int]
    worms: int


class GrillTileOut(Schema):
    tile: int
    worms: int
    face: Literal["up", "down"]


class StandingOut(Schema):
    player: int
    worms: int
    best_tile: int | None
    rank: int


class StateOut(Schema):
    id: str
    game: str
    options: OptionsSchema
    seq: int
    players: list[PlayerOut]
    grill: list[GrillTileOut]
    current: int
    over: bool
    standings: list[StandingOut]
    winners: list[int]
    first: int = Field(..., description="extension: the player who started")


class CreatedOut(Schema):
    id: str
    edit_token: str
    state: StateOut


class ClaimOut(Schema):
    tile: int
    from_: Literal["grill"] | int = Field(..., alias="from")


class ClaimsOut(Schema):
    claims: list[ClaimOut]
    bust: bool


class DocsWithOwnPolicy(Swagger):
    """Swagger UI from ninja's own static files; it sets styles inline, so its page allows that."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        response = super().render_page(request, api, **kwargs)
        response["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
        )
        return response


api = NinjaAPI(
    title="Marquoir API",
    version="1",
    description="Keep score at the table: create a match, read it, act on it. See docs/api.md.",
    urls_namespace="api-v1",
    docs=DocsWithOwnPolicy(),
    docs_url="/docs",
)


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, error: Exception) -> HttpResponse:
    """Never a traceback to the client, DEBUG or not (ninja sends one under DEBUG)."""
    return server_error(request, error)


def api_language(request: HttpRequest) -> str:
    """The language of ``Accept-Language`` (English or French), English otherwise."""
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return "en"


def error_response(request: HttpRequest, error: ServiceError, players: list[str] | None = None) -> JsonResponse:
    """The contract's error body, worded in the request's language."""
    with translation.override(api_language(request)):
        message = message_for(error.code, error.reason, error.params, players or [])
    response = JsonResponse({"error": {"code": error.code, "message": message}}, status=STATUS.get(error.code, 422))
    if error.code == "unauthorized":
        response["WWW-Authenticate"] = 'Bearer realm="marquoir"'
    return response


# The largest body a client needs is a few hundred bytes; nothing bigger is read.
MAX_BODY_BYTES = 16 * 1024


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON allows ``{"type": "take", "type": "bust"}`` and Python keeps the last; we refuse it,
    since two readers of the same body could act on different values."""
    body: dict[str, Any] = {}
    for key, value in pairs:
        if key in body:
            raise _DuplicateKey(key)
        body[key] = value
    return body


def _json_body(request: HttpRequest) -> Any:
    """The request's JSON body, read only if it says it is JSON and is small enough."""
    media_type = request.content_type or ""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isascii() or not declared.isdigit() or int(declared) > MAX_BODY_BYTES:
        raise ServiceError("too_large", limit=MAX_BODY_BYTES)
    try:
        raw = request.read(MAX_BODY_BYTES + 1)
    except (RequestDataTooBig, OSError):
        raise ServiceError("too_large", limit=MAX_BODY_BYTES) from None
    if len(raw) > MAX_BODY_BYTES:
        raise ServiceError("too_large", limit=MAX_BODY_BYTES)
    # An empty body is simply not the object asked for (invalid); a body is read as JSON
    # only when it says it is JSON.
    if raw and media_type != "application/json" and not media_type.endswith("+json"):
        raise ServiceError("unsupported_media_type", "not_json")
    try:
        return json.loads(raw or b"null", object_pairs_hook=_refuse_duplicate_keys)
    except _DuplicateKey as duplicate:
        raise ServiceError("invalid", "duplicate_key", field=shorten(duplicate.key)) from None
    except (ValueError, RecursionError):
        # ValueError covers bad JSON, bad UTF-8 and numbers too long to read;
        # RecursionError, arrays nested past the interpreter's depth.
        raise ServiceError("invalid", "bad_json") from None


def _bearer_token(request: HttpRequest) -> str | None:
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _find_match(match_id: str) -> Match:
    match = find_match(match_id)
    if match is None:
        raise ServiceError("not_found")
    return match


ACTION_SCHEMA = ActionIn.model_json_schema(by_alias=True)
ERRORS: dict[int, type[Schema]] = {401: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}


@api.post(
    "/matches",
    response={201: CreatedOut, 422: ErrorOut, 429: ErrorOut},
    openapi_extra={"requestBody": {"content": {"application/json": {"schema": CreateIn.model_json_schema()}}}},
    summary="Create a match",
)
def create_match(request: HttpRequest) -> HttpResponse:
    """Start a match; the answer carries the watch id and the edit token (shown only here)."""
    try:
        body = _json_body(request)
        if not isinstance(body, dict):
            raise ServiceError("invalid", "not_an_object")
        unknown = sorted(set(body) - {"game", "players", "first", "options"})
        if unknown:
            raise ServiceError("invalid", "unknown_field", field=shorten(unknown[0]))
        game, players, first, options = body.get("game"), body.get("players"), body.get("first", 0), body.get("options")
        services.check_new_match(game=game, players=players, first=first, options=options)
        # Only creations that happen are counted: a refused body costs no allowance.
        secret = device_secret(request)
        allowance = allow_match_creation(request, device=services.digest(secret) if secret else None)
        if not allowance.allowed:
            raise ServiceError("rate_limited", minutes=allowance.minutes, retry_after=allowance.retry_after)
        match, token = services.match_create(game=game, players=players, first=first, options=options)
    except ServiceError as error:
        response = error_response(request, error)
        if error.code == "rate_limited":
            response["Retry-After"] = str(error.params["retry_after"])
        return response
    return JsonResponse({"id": match.id, "edit_token": token, "state": state_json(match_view(match))}, status=201)


@api.get("/matches/{match_id}", response={200: StateOut, 404: ErrorOut}, summary="Read a match")
def read_match(request: HttpRequest, match_id: str) -> HttpResponse:
    """The match's State; the id alone is enough (it is the watch capability)."""
    try:
        match = _find_match(match_id)
    except ServiceError as error:
        return error_response(request, error)
    return JsonResponse(state_json(match_view(match)))


@api.post(
    "/matches/{match_id}/actions",
    response={200: StateOut, **ERRORS},
    openapi_extra={"requestBody": {"content": {"application/json": {"schema": ACTION_SCHEMA}}}},
    summary="Act on a match",
)
def act_on_match(request: HttpRequest, match_id: str) -> HttpResponse:
    """A take, a bust or an undo for the current player; needs `Authorization: Bearer {edit_token}`."""
    try:
        # The token is derived from the id, so it is checked before any database read;
        # only a refused token needs to know whether the match exists (404 before 401).
        if not services.edit_token_matches(match_id, _bearer_token(request)):
            _find_match(match_id)
            raise ServiceError("unauthorized")
        try:
            action = parse_action(_json_body(request))
        except RuleError as error:
            raise ServiceError.from_rule(error) from None
        result = services.match_act(match_id=match_id, request=action)
    except ServiceError as error:
        return error_response(request, error, error.players)
    return JsonResponse(result.state)


@api.get(
    "/matches/{match_id}/claims",
    response={200: ClaimsOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="What a total may claim",
)
def match_claims(
    request: HttpRequest, match_id: str, total: int | None = None, worm: bool | None = None
) -> HttpResponse:
    """Every legal claim for the current player with that total, or none and `bust: true` (also after the end)."""
    try:
        match = _find_match(match_id)
        if total is None or worm is None or not 1 <= total <= MAX_TOTAL:
            raise ServiceError("invalid", "bad_claim_query")
        view = match_view(match)
    except ServiceError as error:
        return error_response(request, error)
    return JsonResponse(claims_json(view, total, worm))


class KeepAdviceOut(Schema):
    face: Literal["1", "2", "3", "4", "5", "worm"]
    count: int
    value: float = Field(..., description="expected worms of the turn after this keep, played well")
    stop_after: bool
    bust_chance: float


class AdviceOut(Schema):
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


@api.get(
    "/matches/{match_id}/advice",
    response={200: AdviceOut, **ERRORS},
    summary="Odds and advice for the turn in progress",
)
def match_advice(request: HttpRequest, match_id: str, dice: str = "", roll: str = "") -> HttpResponse:
    """Exact odds for the current player (extension of v1).

    `dice`: the dice kept so far, in keeping order, as `worm:2,5:3` (empty at the start of
    a turn). `roll`: the dice just rolled, as counts per face, `1:2,3:1,worm:2` (one per
    die left; optional). Values are expected worms: a grill tile its worms, a steal twice
    (the opponent loses them), a bust minus the worms of the player's top tile.
    """
    players: list[str] = []
    try:
        match = _find_match(match_id)
        players = list(match.players)
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
        return error_response(request, error, players)
    stop_claim = None
    if advice.stop_tile is not None:
        victim = steal_victim(state, advice.stop_tile) if advice.stop_steals else None
        stop_claim = {"tile": advice.stop_tile, "from": "grill" if victim is None else victim}
    return JsonResponse(
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
        }
    )


@api.exception_handler(ValidationError)
def validation_failed(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """Ninja's own parameter checks answer in the contract's shape too."""
    return error_response(request, ServiceError("invalid", "bad_claim_query"))
