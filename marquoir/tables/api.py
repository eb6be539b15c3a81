"""The JSON API, version 1, exactly as docs/api-v1.md says (extended, never changed): the
envelope every game shares (create, read, act, the error shape); each game's keeper adds
its State, its actions' schema and its own endpoints (see ``keepers.ScoreKeeper``).

One set of schemas documents the API and does the work: the request bodies are read by
them (``CreateIn``, each game's action schemas, see ``schemas``), and every answer is built
through its Out schema (``answer``). The views read the body themselves, rather than
leaving it to ninja, so that every refusal, malformed JSON included, answers in the
contract's shape ``{"error": {"code", "message"}}`` in the language of
``Accept-Language``, and so that the match and its token are checked before the body.

The API is built by ``build_api`` for a set of keepers (their States, their actions and
their endpoints are in its schemas), once for the site by ``get_api``, which the URLconf
serves: a test may build another with a keeper of its own. Other apps add their part of
the API (groups) with ``add_api_part``, before it is first built.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal, Union

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from ninja import Field, NinjaAPI, Router
from ninja.errors import ValidationError
from ninja.openapi.docs import Swagger
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError
from pydantic.json_schema import models_json_schema
from pydantic_core import ErrorDetails

from marquoir.rules import RuleError

from . import services
from .actions import ascii_number, shorten
from .api_errors import ERRORS, ErrorOut, answer, api_language, error_response, find_match_or_error, server_error
from .capabilities import edit_token_matches
from .fold import MatchView, in_force
from .keepers import GameEndpoint, ScoreKeeper, all_keepers, found_key_patterns, found_state_schemas, keeper_for
from .log_words import entry_words
from .models import LogEntry, Match
from .outcome import GameRefusal, ServiceError
from .ratelimit import allow_action, allow_match_creation
from .schemas import CorrectIn, OutSchema, RedoIn, StrictBody, UndoIn
from .selectors import keeper_of, match_view

__all__ = ["add_api_part", "api_language", "bearer_token", "build_api", "error_response", "get_api", "json_body"]


# What the schema can say of a name: not empty, no control character. The rest (visible,
# at most 40 characters once trimmed, no two alike ignoring case) is the services' to check.
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]+$"

# A refused field of the creation body, by name: the reason the set-up page gives too.
_CREATE_REASONS = {"game": "unknown_game", "players": "bad_players", "first": "first_player", "options": "bad_options"}

# The largest body a client needs is a few hundred bytes; nothing bigger is read.
MAX_BODY_BYTES = 16 * 1024


# --- reading requests


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


def json_body(request: HttpRequest, limit: int = MAX_BODY_BYTES) -> Any:
    """The request's JSON body, read only if it says it is JSON and is at most ``limit`` bytes."""
    media_type = request.content_type or ""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isascii() or not declared.isdigit() or int(declared) > limit:
        raise ServiceError("too_large", limit=limit)
    try:
        raw = request.read(limit + 1)
    except (RequestDataTooBig, OSError):
        raise ServiceError("too_large", limit=limit) from None
    if len(raw) > limit:
        raise ServiceError("too_large", limit=limit)
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


def bearer_token(request: HttpRequest) -> str | None:
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _about_names(error: ErrorDetails) -> bool:
    """Whether pydantic's ``error`` is about how many players there are or about a name."""
    location = error["loc"]
    return location[:1] == ("players",) and (error["type"] in {"too_long", "too_short"} or len(location) > 1)


# --- the schemas of a set of games


@dataclass(frozen=True)
class Schemas:
    """The envelope's schemas for a set of games: each game's State, the creation body (its
    ``game`` one of their keys), every action's body, and the components they refer to."""

    keepers: Mapping[str, ScoreKeeper]
    state_out: Any
    create_in: type[StrictBody]
    created_out: type[OutSchema]
    action_body: dict[str, Any]
    create_body: dict[str, Any]
    action_components: dict[str, Any]

    def knows(self, game: object) -> bool:
        """Whether ``game`` is the key of a game of these (or of one made since: a user's own)."""
        return isinstance(game, str) and (game in self.keepers or keeper_for(game) is not None)

    def keeper(self, game: object) -> ScoreKeeper | None:
        return self.keepers.get(game) if isinstance(game, str) and game in self.keepers else keeper_for(game)

    def read_creation(self, body: object) -> Any:
        """The creation body read by ``CreateIn``; ServiceError naming the first thing wrong.
        What the names and options must be for the game is the game's to say (services)."""
        if not isinstance(body, dict):
            raise ServiceError("invalid", "not_an_object")
        try:
            return self.create_in.model_validate(body)
        except PydanticValidationError as failure:
            errors = failure.errors()
        if all(_about_names(error) for error in errors) and self.knows(body.get("game")):
            # How many players, and what a name may be: the services word it for the game.
            return self.create_in.model_construct(**body)
        unknown = sorted(str(error["loc"][0]) for error in errors if error["type"] == "extra_forbidden")
        # A key that is no text at all (a lone surrogate): no field is named so.
        unknown += [
            str(error.get("input")) for error in errors if error["type"] == "string_unicode" and not error["loc"]
        ]
        if unknown:
            raise ServiceError("invalid", "unknown_field", field=shorten(unknown[0]))
        # The game first (it decides what the rest must be), then the fields in the body's order.
        order = list(_CREATE_REASONS)
        error = min(
            (error for error in errors if not _about_names(error) or not self.knows(body.get("game"))),
            key=lambda error: order.index(str(error["loc"][0])) if error["loc"] and error["loc"][0] in order else 99,
        )
        field = str(error["loc"][0]) if error["loc"] else ""
        reason = _CREATE_REASONS.get(field, "bad_field")
        raise ServiceError(
            "invalid", reason, field=shorten(field), game=shorten(body.get("game")), first=shorten(body.get("first"))
        )


def schemas_for(keepers: Mapping[str, ScoreKeeper]) -> Schemas:
    """The envelope's schemas for these games (named as the OpenAPI has always named them)."""
    # Beside each installed game's State, that of the games made since (a user's own).
    states = (*(keeper.state_schema for keeper in keepers.values()), *found_state_schemas())
    state_out: Any = states[0] if len(states) == 1 else Union[states]  # noqa: UP007
    game_key: Any = Literal[tuple(keepers)]
    # A game made since the site started (a user's own, "own.<id>"): its key has a pattern.
    for pattern in found_key_patterns():
        game_key = Union[game_key, Annotated[str, Field(pattern=pattern, max_length=40)]]  # noqa: UP007

    class CreateIn(StrictBody):
        game: game_key = Field(..., description="the game's key")
        players: list[Annotated[str, Field(min_length=1, pattern=NAME_PATTERN)]] = Field(
            ...,
            min_length=1,
            max_length=20,
            examples=[["Ada", "Ben", "Cy"]],
            description="the names in seating order; how many, and what a name may be: see each game and docs/api.md",
        )
        first: int = Field(0, ge=0, description="the seat of the player who starts")
        options: dict[str, Any] | None = Field(None, description="the game's table options (see each game)")

    class CreatedOut(OutSchema):
        id: str
        edit_token: str
        state: state_out

    # Every game's action schemas, undo included (OpenAPI ``anyOf``, by ``type``), and the
    # component schemas the request bodies refer to. ``anyOf``, not ``oneOf``: two games may
    # have the same action (the sheet's and Tarot's ``{"type": "end"}``), which then matches
    # two branches, and ``oneOf`` would call the documented body invalid (the match's game
    # reads it).
    distinct: set[type[BaseModel]] = {UndoIn, RedoIn, CorrectIn}
    for keeper in keepers.values():
        distinct.update(keeper.action_models)
    models = sorted(distinct, key=lambda model: (model.__name__, model.__module__))
    bodies: list[type[BaseModel]] = [*models, CreateIn]
    # Two games may name a schema alike (each its EndIn): pydantic then names them apart,
    # and the references it gives back are the ones to use.
    references, components = models_json_schema(
        [(model, "validation") for model in bodies], ref_template="#/components/schemas/{model}"
    )
    refs = [references[(model, "validation")] for model in models]
    return Schemas(
        keepers=keepers,
        state_out=state_out,
        create_in=CreateIn,
        created_out=CreatedOut,
        action_body={"anyOf": refs},
        create_body=references[(CreateIn, "validation")],
        action_components=components.get("$defs", {}),
    )


# --- the API object


class DocsWithOwnPolicy(Swagger):
    """Swagger UI from ninja's own static files; it sets styles inline, so its page allows that."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        response = super().render_page(request, api, **kwargs)
        response["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
        )
        return response


EDIT_TOKEN_SCHEME = {
    "editToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "the match's edit_token, from its creation answer",
    }
}


@dataclass(frozen=True)
class ApiPart:
    """Another app's part of API v1: its ``router`` under ``prefix``; the addresses among
    its own that create a thing (by the end of their path, with the path parameter the new
    thing's id fills in: OpenAPI links), and the security schemes its writes name."""

    prefix: str
    router: Router
    creations: Mapping[str, str] = field(default_factory=dict)
    security_schemes: Mapping[str, dict[str, str]] = field(default_factory=dict)


_parts: list[ApiPart] = []


def add_api_part(part: ApiPart) -> None:
    """Add ``part`` to every API built from now on (an app's ``ready``, before any request)."""
    if get_api.cache_info().currsize:
        raise RuntimeError("add_api_part: the site's API is built already")
    if part not in _parts:
        _parts.append(part)


class MarquoirAPI(NinjaAPI):
    """Ninja's API, with the write capability named in the OpenAPI: the edit token as a
    Bearer token (checked by the views themselves, so that a refusal keeps the contract's
    shape and language; ninja's own ``auth`` would answer in its own)."""

    def __init__(
        self,
        *,
        schemas: Schemas,
        creations: Mapping[str, str],
        security_schemes: Mapping[str, dict[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.schemas = schemas
        # The addresses that create a thing, by the end of their path, with the path
        # parameter the new thing's id fills in (OpenAPI links).
        self.creations = dict(creations)
        self.security_schemes = dict(security_schemes)

    def get_openapi_schema(self, *args: Any, **kwargs: Any) -> Any:
        schema = super().get_openapi_schema(*args, **kwargs)
        components = schema.setdefault("components", {})
        components.setdefault("schemas", {}).update(self.schemas.action_components)
        # A created match's id leads to every address that takes one (OpenAPI links: what
        # a client, or schemathesis's stateful phase, may call next with the answer).
        for creation, parameter in self.creations.items():
            links = {
                operation["operationId"]: {
                    "operationId": operation["operationId"],
                    "parameters": {parameter: "$response.body#/id"},
                }
                for path, methods in schema["paths"].items()
                # Only where the new id is the whole address: a link cannot know the other
                # ids (a group's player, a play), and a made-up one reads as "not found".
                if re.findall(r"\{([^}]+)\}", path) == [parameter]
                # Not to a deletion: what follows the creation is the use of the new thing.
                for method, operation in methods.items()
                if method != "delete"
            }
            for path, methods in schema["paths"].items():
                responses = methods.get("post", {}).get("responses", {})
                created = responses.get(201, responses.get("201"))  # ninja keys them by number
                if path.removeprefix("/api/v1") == creation and created is not None:
                    created["links"] = links
        components.setdefault("securitySchemes", {}).update(self.security_schemes)
        return schema


@cache
def get_api() -> MarquoirAPI:
    """The site's API: every registered game, and every app's part."""
    return build_api(all_keepers())


def build_api(keepers: Mapping[str, ScoreKeeper], *, urls_namespace: str = "api-v1") -> MarquoirAPI:
    """API v1 for these games, with every app's part (``add_api_part``)."""
    schemas = schemas_for(keepers)
    creations = {"/matches": "match_id"}
    security_schemes = dict(EDIT_TOKEN_SCHEME)
    for part in _parts:
        creations.update(part.creations)
        security_schemes.update(part.security_schemes)
    api = MarquoirAPI(
        schemas=schemas,
        creations=creations,
        security_schemes=security_schemes,
        title="Marquoir API",
        version="1",
        description="Keep score at the table: create a match, read it, act on it. See docs/api.md.",
        urls_namespace=urls_namespace,
        docs=DocsWithOwnPolicy(),
        docs_url="/docs",
    )
    api.exception_handler(Exception)(_unexpected)
    _add_envelope(api, schemas)
    _add_games(api, keepers)
    api.exception_handler(ValidationError)(_validation_failed)
    # Each game's own endpoints (Pickomino's /claims and /advice…), under the same envelope;
    # an address two games serve is served once, by the match's game.
    endpoints: dict[str, dict[str, GameEndpoint]] = {}
    for keeper in keepers.values():
        for endpoint in keeper.api_endpoints:
            endpoints.setdefault(endpoint.path, {})[keeper.key] = endpoint
    for path, by_game in endpoints.items():
        _add_game_endpoint(api, keepers, path, by_game)
    for part in _parts:
        api.add_router(part.prefix, part.router)
    return api


def _unexpected(request: HttpRequest, error: Exception) -> HttpResponse:
    """Never a traceback to the client, DEBUG or not (ninja sends one under DEBUG)."""
    return server_error(request, error)


def _validation_failed(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """Ninja's own parameter checks answer in the contract's shape too."""
    return error_response(request, ServiceError("invalid", "bad_query"))


# --- the games: what each one keeps, so that another client can draw its entry


class GameOut(OutSchema):
    key: str
    names: dict[str, str] = Field(..., description="the game's name in English and in French")
    min_players: int
    max_players: int
    declared: bool = Field(..., description="scored by a game file (docs/game-file.md): its inputs are published")


class GamesOut(OutSchema):
    games: list[GameOut]


class GameDetailOut(GameOut):
    scored: Literal["rounds", "end", "turns"] | None = Field(
        None, description="round after round, once at the end, or a turn at a time (actions of type turn)"
    )
    winner: Literal["highest", "lowest"] | None = None
    lowest_wins_when: str | None = Field(None, description="a formula on the options: then the lowest total wins")
    inputs: list[dict[str, Any]] | None = Field(
        None, description="each input: key, per (player or round), kind, label, min, max (a number or a formula), …"
    )
    options: list[dict[str, Any]] | None = Field(None, description="each option: key, kind, default, bounds")
    end: dict[str, Any] | None = Field(
        None,
        description="rounds, target (numbers or formulas), table_decides, rules (key, when, winners, result), unless;"
        " untied and last_standing as the first version said them",
    )
    tiebreaks: list[dict[str, Any]] | None = None
    categories: list[str] | None = Field(None, description="the keys of the State's breakdown")
    schema_version: int | None = Field(None, description="the game file's version (2)")
    entry: Literal["rounds", "turns"] | None = Field(None, description="a round for every side at once, or turns")
    play: Literal["competitive", "teams", "cooperative"] | None = Field(
        None, description="each for themselves, in teams (inputs per team), or the table together"
    )
    teams: dict[str, Any] | None = Field(None, description="a team game: size [fewest, most], formed (a formula)")
    cooperative: dict[str, Any] | None = Field(None, description="a cooperative game: score (a shared score)")
    carried: list[dict[str, Any]] | None = Field(None, description="values kept from round to round; track: shown")
    ranking: list[dict[str, Any]] | None = Field(None, description="what ranks the sides, in order: key, value, order")
    final: dict[str, Any] | None = Field(
        None, description="the end's count: the inputs an end action takes ({type: end, inputs}); null: a bare end"
    )


def _game_json(keeper: ScoreKeeper) -> dict[str, Any]:
    names = {}
    for language in ("en", "fr"):
        with translation.override(language):
            names[language] = str(keeper.name())
    described = keeper.describe()
    return {
        "key": keeper.key,
        "names": names,
        "min_players": keeper.min_players,
        "max_players": keeper.max_players,
        "declared": bool(described),
        **described,
    }


def _add_games(api: MarquoirAPI, keepers: Mapping[str, ScoreKeeper]) -> None:
    @api.get("/games", response={200: GamesOut}, summary="List the games")
    def list_games(request: HttpRequest) -> HttpResponse:
        """Every game Marquoir keeps score for: its key, names and player counts."""
        return answer(GamesOut, {"games": [_game_json(keeper) for keeper in keepers.values()]})

    @api.get("/games/{key}", response={200: GameDetailOut, 404: ErrorOut}, summary="Read a game")
    def read_game(request: HttpRequest, key: str) -> HttpResponse:
        """One game; for a game declared as data, its inputs, options, end and tie-breaks."""
        keeper = keepers.get(key) or keeper_for(key)  # or a user's own game, by its id
        if keeper is None:
            return error_response(request, ServiceError("not_found", "unknown_game", game=shorten(key)))
        return answer(GameDetailOut, _game_json(keeper))


# --- the envelope: create, read, act


def _add_envelope(api: MarquoirAPI, schemas: Schemas) -> None:
    @api.post(
        "/matches",
        response={201: schemas.created_out, 413: ErrorOut, 415: ErrorOut, 422: ErrorOut, 429: ErrorOut},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": schemas.create_body}},
            }
        },
        summary="Create a match",
    )
    def create_match(request: HttpRequest) -> HttpResponse:
        """Start a match; the answer carries the watch id and the edit token (shown only here)."""
        return _create_match(request, schemas)

    @api.get("/matches/{match_id}", response={200: schemas.state_out, 404: ErrorOut}, summary="Read a match")
    def read_match(request: HttpRequest, match_id: str) -> HttpResponse:
        """The match's State; the id alone is enough (it is the watch capability)."""
        try:
            match = find_match_or_error(match_id)
        except ServiceError as error:
            return error_response(request, error)
        keeper = keeper_of(match)
        return answer(keeper.state_schema, keeper.state_json(match_view(match)))

    @api.get(
        "/matches/{match_id}/log",
        response={200: LogOut, 404: ErrorOut, 422: ErrorOut},
        summary="Read a match's log",
        openapi_extra={"parameters": [_LOG_FROM_PARAMETER]},
    )
    def read_log(request: HttpRequest, match_id: str) -> HttpResponse:
        """Every entry of the log from ``from`` (1 by default), 500 at most an answer: what
        each did, in words in the language of ``Accept-Language``, and what an undo or a
        redo would take back or do again; the id alone is enough (the watch capability)."""
        try:
            match = find_match_or_error(match_id)
            first = _log_from(request.GET.get("from"))
        except ServiceError as error:
            return error_response(request, error)
        return answer(LogOut, log_json(match_view(match), keeper_of(match), first))

    @api.post(
        "/matches/{match_id}/actions",
        response={200: schemas.state_out, 413: ErrorOut, 415: ErrorOut, 429: ErrorOut, **ERRORS},
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/json": {"schema": schemas.action_body}}},
            "security": [{"editToken": []}],
        },
        summary="Act on a match",
    )
    def act_on_match(request: HttpRequest, match_id: str) -> HttpResponse:
        """One of the game's actions, or an undo; needs `Authorization: Bearer {edit_token}`."""
        return _act_on_match(request, match_id)


# --- the log, read


class LogEntryOut(OutSchema):
    seq: int
    kind: Literal["action", "undo", "redo", "correct"]
    action: dict[str, Any] | None = Field(
        description="what was sent (an action's body, a correction's seq and action); null for undo and redo"
    )
    text: str = Field(description="the entry in words, in the language of Accept-Language")
    undone: bool = Field(description="an action or correction an undo took back (and no redo did again)")
    corrected: bool = Field(description="an action a correction in force replaced")
    undoes: int | None = Field(description="an undo: the seq it took back")
    redoes: int | None = Field(description="a redo: the seq it did again")
    corrects: int | None = Field(description="a correction: the seq of the action it replaced")


class LogOut(OutSchema):
    entries: list[LogEntryOut]
    next: int | None = Field(description="the ``from`` of the next page (null: this was the end)")
    undo: int | None = Field(description="the seq of the entry an undo would take back now")
    redo: int | None = Field(description="the seq of the entry a redo would do again now")


LOG_PAGE = 500
_LOG_FROM_PARAMETER = {
    "name": "from",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 1, "maximum": 999999999, "default": 1},
    "description": "the first seq to list",
}


def _log_from(raw: str | None) -> int:
    if raw is None:
        return 1
    try:
        first = ascii_number(raw, reason="bad_log_from", digits=9)
    except RuleError:
        first = 0
    if first < 1:
        raise ServiceError("invalid", "bad_log_from")
    return first


def log_json(view: MatchView, keeper: ScoreKeeper, first: int) -> dict[str, Any]:
    """The log from seq ``first``, a page of it, each entry with its words (``log_words``)."""
    entries = [logged for logged in view.log if logged.seq >= first][: LOG_PAGE + 1]
    shown = entries[:LOG_PAGE]
    payloads = log_payloads(view.row, [logged.seq for logged in shown])
    words = entry_words(view, keeper.log_words, shown)
    undoable = in_force(view.log)
    return {
        "entries": [
            {
                "seq": logged.seq,
                "kind": _kind_of(logged.kind),
                "action": payloads.get(logged.seq) if logged.redoes is None and logged.undoes is None else None,
                "text": text,
                "undone": logged.undone,
                "corrected": logged.corrected,
                "undoes": logged.undoes,
                "redoes": logged.redoes,
                "corrects": logged.corrects,
            }
            for logged, text in zip(shown, words, strict=True)
        ],
        "next": entries[LOG_PAGE].seq if len(entries) > LOG_PAGE else None,
        "undo": undoable[-1] if undoable else None,
        "redo": view.redo,
    }


def _kind_of(kind: str) -> str:
    """Entries from before migration 0005 were kept as "take" and "bust": actions."""
    return kind if kind in {"undo", "redo", "correct"} else "action"


def log_payloads(row: Match, seqs: list[int]) -> dict[int, dict[str, Any]]:
    """The stored payload of each entry, by seq (one query): what each sent."""
    if not seqs:
        return {}
    rows = LogEntry.objects.filter(match_id=row.pk, seq__gte=seqs[0], seq__lte=seqs[-1]).values_list("seq", "payload")
    return dict(rows)


def _create_match(request: HttpRequest, schemas: Schemas) -> HttpResponse:
    game_keeper: ScoreKeeper | None = None
    try:
        body = schemas.read_creation(json_body(request))
        game_keeper = schemas.keeper(body.game)
        # Checked once: the match is made from the set-up as checked here.
        setup = services.check_new_match(game=body.game, players=body.players, first=body.first, options=body.options)
        # Only creations that happen are counted: a refused body costs no allowance. A script
        # is counted by its address: a device's own allowance is the pages' (a cookie it could
        # make up would otherwise buy a new one per request).
        allowance = allow_match_creation(request)
        if not allowance.allowed:
            raise ServiceError("rate_limited", minutes=allowance.minutes, retry_after=allowance.retry_after)
        match, token = services.create_checked(setup)
    except ServiceError as error:
        # The game words the refusals that are its own (the names, the options).
        response = error_response(request, error, None, game_keeper if isinstance(error, GameRefusal) else None)
        if error.code == "rate_limited":
            response["Retry-After"] = str(error.params["retry_after"])
        return response
    state = keeper_of(match).state_json(match_view(match))
    return answer(schemas.created_out, {"id": match.id, "edit_token": token, "state": state}, 201)


def _act_on_match(request: HttpRequest, match_id: str) -> HttpResponse:
    try:
        # The token is derived from the id, so it is checked before any database read;
        # only a refused token needs to know whether the match exists (404 before 401).
        token = bearer_token(request)
        if not edit_token_matches(match_id, token):
            # Without any token a write is refused as such, whether or not the match is
            # (still) there; with a wrong one, an unknown match is said first.
            if token:
                find_match_or_error(match_id)
            raise ServiceError("unauthorized")
        # Counted in memory, before any work: a flood of actions costs no query.
        allowance = allow_action(request, match_id)
        if not allowance.allowed:
            raise ServiceError("rate_limited", "too_many_actions", seconds=allowance.retry_after)
        body = json_body(request)
    except ServiceError as error:
        response = error_response(request, error)
        if error.reason == "too_many_actions":
            response["Retry-After"] = str(error.params["seconds"])
        return response
    # The body is parsed by the match's game once its row is read (one read, not two).
    outcome = services.match_act(match_id=match_id, body=body)
    if outcome.error is not None:
        # The game words the refusals that are its own (its rules, its actions' fields).
        return error_response(
            request, outcome.error, outcome.players, outcome.keeper if outcome.words_of_game else None
        )
    assert outcome.entry is not None  # noqa: S101 (applied or replayed)
    assert outcome.keeper is not None  # noqa: S101
    if outcome.replayed and outcome.entry.response is not None:
        return JsonResponse(outcome.state)  # an entry from before 0006: its answer as it was sent then
    # A retried action_id (its State folded again up to its entry) goes through the same
    # schema as its first answer did, so the two are the same bytes.
    return answer(outcome.keeper.state_schema, outcome.state or {})


# --- the games' own endpoints


def _add_game_endpoint(
    api: MarquoirAPI, keepers: Mapping[str, ScoreKeeper], path: str, by_game: dict[str, GameEndpoint]
) -> None:
    """Serve ``GET /api/v1{path}`` once for every game that has it: the match is found, and
    the request handed to its game's endpoint (see ``keepers.GameEndpoint``)."""
    names = sorted(by_game)

    # Every query parameter the address documents, whichever game reads it.
    documented = {
        field for endpoint in by_game.values() if endpoint.query is not None for field in endpoint.query.model_fields
    }

    def serve(request: HttpRequest, match_id: str) -> HttpResponse:
        try:
            match = find_match_or_error(match_id)
            keeper = keeper_of(match)
            # A game made since the site started (a user's own) serves what its kind serves.
            endpoint = by_game.get(keeper.key) or next((own for own in keeper.api_endpoints if own.path == path), None)
            if endpoint is None:
                served_by = ", ".join(str(keepers[name].name()) for name in names)
                raise ServiceError("not_found", "wrong_game", game=served_by)
            # A parameter the address documents for another game only (Pickomino's `roll` on
            # a Yahtzee match) is refused, not silently dropped; others are ignored as before.
            own = set(endpoint.query.model_fields) if endpoint.query is not None else set()
            if (set(request.GET) & documented) - own:
                raise ServiceError("invalid", "bad_query")
        except ServiceError as error:
            return error_response(request, error)
        return endpoint.view(request, match)

    endpoints = [by_game[name] for name in names]
    # Each query parameter once (OpenAPI wants a name once per place), described for every
    # game that reads it; required only where the one game serving the address needs it.
    parameters: dict[str, dict[str, Any]] = {}  # ninja adds match_id's from the signature
    for name, endpoint in zip(names, endpoints, strict=True):
        if endpoint.query is None:
            continue
        schema = endpoint.query.model_json_schema()
        required = set(schema.get("required", ()))
        for field_name, field_schema in schema.get("properties", {}).items():
            description = f"{name}: {field_schema.pop('description', '')}".rstrip(": ")
            known = parameters.get(field_name)
            if known is None:
                parameters[field_name] = {
                    "name": field_name,
                    "in": "query",
                    "required": field_name in required and len(names) == 1,
                    "schema": field_schema,
                    "description": description,
                }
            else:
                known["description"] += "; " + description
                if known["schema"] != field_schema:
                    known["schema"] = {"anyOf": [known["schema"], field_schema]}
    answers = tuple(endpoint.response for endpoint in endpoints)
    answer_schema: Any = answers[0] if len(answers) == 1 else Union[answers]  # noqa: UP007
    serve.__name__ = "match_" + path.rstrip("/").rsplit("/", 1)[-1]
    api.get(
        path,
        response={200: answer_schema, **ERRORS},
        by_alias=True,
        summary=" / ".join(dict.fromkeys(endpoint.summary for endpoint in endpoints if endpoint.summary)),
        description="\n\n".join(endpoint.description for endpoint in endpoints if endpoint.description),
        openapi_extra={"parameters": list(parameters.values())},
    )(serve)
