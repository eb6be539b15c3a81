"""Your own games in API v1: make one from a game file, read it, change it (a new version),
export it as TOML, import one, check one without keeping it (docs/api.md, "Your own games").

A match of an own game is made as any match, ``POST /api/v1/matches`` with ``"game":
"own.<id>"`` (its newest version) or ``"own.<id>.<version>"``; its State's ``game`` says the
version it keeps. Refusals are the contract's ``{"error": {"code", "message"}}`` in the
language of ``Accept-Language``; a refused file adds ``field``, where the fault is. A
change needs ``Authorization: Bearer {edit_token}``, the game's own key.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Field, Router
from pydantic import ValidationError as PydanticValidationError

from marquoir.games.declared import GameFileError
from marquoir.tables.api import ApiPart, add_api_part, bearer_token, json_body
from marquoir.tables.api_errors import ErrorOut, answer
from marquoir.tables.outcome import ServiceError
from marquoir.tables.ratelimit import allow_match_creation, client_key
from marquoir.tables.schemas import OutSchema, StrictBody

from . import files, services
from .keeper import own_key
from .messages import file_refusal, own_game_error_response
from .models import OwnGame, OwnGameVersion

router = Router(tags=["own games"])
MAX_FILE_BYTES = files.MAX_FILE_CHARACTERS * 4
"""A file's body: its characters, each up to four bytes of UTF-8."""

WRITE: dict[str, Any] = {"security": [{"ownGameToken": []}]}


class OwnGameIn(StrictBody):
    file: dict[str, Any] | None = Field(
        None, description="the game file as JSON (docs/game-file.md); an own game's box needs only names and players"
    )
    toml: str | None = Field(
        None, max_length=files.MAX_FILE_CHARACTERS, description="or the game file as TOML text (an export)"
    )


class OwnGameVersionOut(OutSchema):
    number: int
    created_at: str
    game: str = Field(..., description="the game key a match of this version is made with")


class OwnGameOut(OutSchema):
    id: str
    game: str = Field(..., description="the game key of its newest version, for POST /api/v1/matches")
    version: int = Field(..., description="the newest version's number")
    names: dict[str, str]
    min_players: int
    max_players: int
    versions: list[OwnGameVersionOut] = Field(..., description="the newest first (at most 20)")
    file: dict[str, Any] = Field(..., description="the newest version's file, as the schema reads it")


class OwnGameCreatedOut(OutSchema):
    id: str
    edit_token: str = Field(..., description="the right to change the game: shown only here")
    own_game: OwnGameOut


class OwnGameCheckedOut(OutSchema):
    valid: bool
    examples: int = Field(..., description="how many worked examples were played, and held")


def _answering(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refusals in the contract's shape, worded for own games."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except GameFileError as error:
            return own_game_error_response(request, file_refusal(error))
        except ServiceError as error:
            response = own_game_error_response(request, error)
            if error.code == "rate_limited":
                response["Retry-After"] = str(error.params["retry_after"])
            return response

    return wrapped


def _file_of(body: object) -> dict[str, Any]:
    """The file a body carries (as JSON, or as TOML text), or a ServiceError."""
    if not isinstance(body, dict):
        raise ServiceError("invalid", "not_an_object")
    try:
        read = OwnGameIn.model_validate(body)
    except PydanticValidationError as failure:
        error = failure.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else ""
        raise ServiceError(
            "invalid", "unknown_field" if error["type"] == "extra_forbidden" else "bad_field", field=field[:40]
        ) from None
    if (read.file is None) == (read.toml is None):
        raise ServiceError("invalid", "game_file", field="(file)", problem="file_or_toml")
    return read.file if read.file is not None else files.read_text(read.toml or "")


def _game(game_id: str, request: HttpRequest | None = None) -> OwnGame:
    """The game (for a write, only with its key: checked before any read)."""
    if request is not None and not services.game_key_matches(game_id, bearer_token(request)):
        raise ServiceError("unauthorized")
    game = services.find_game(game_id)
    if game is None:
        raise ServiceError("not_found")
    return game


def _version_json(game: OwnGame, version: OwnGameVersion) -> dict[str, Any]:
    return {
        "number": version.number,
        "created_at": version.created_at.isoformat(),
        "game": own_key(game.id, version.number),
    }


def own_game_json(game: OwnGame) -> dict[str, Any]:
    versions = list(OwnGameVersion.objects.filter(game=game).order_by("-number")[:20])
    newest = versions[0]
    box = newest.file.get("box", {})
    return {
        "id": game.id,
        "game": own_key(game.id, game.latest),
        "version": game.latest,
        "names": box.get("names", {}),
        "min_players": box.get("players", [1, 1])[0],
        "max_players": box.get("players", [1, 1])[1],
        "versions": [_version_json(game, version) for version in versions],
        "file": newest.file,
    }


def _body_schema() -> dict[str, Any]:
    return {
        "requestBody": {"required": True, "content": {"application/json": {"schema": OwnGameIn.model_json_schema()}}}
    }


@router.post(
    "",
    response={201: OwnGameCreatedOut, 413: ErrorOut, 415: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    openapi_extra=_body_schema(),
    summary="Make your own game",
)
@_answering
def create_own_game(request: HttpRequest) -> HttpResponse:
    """A game of one's own from its file (JSON, or TOML text: an import); the answer carries
    its id (to play it) and its edit token (to change it; shown only here)."""
    services.spend_check(client_key(request))
    data = _file_of(json_body(request, MAX_FILE_BYTES))

    def spend() -> Any:
        return allow_match_creation(request)

    saved = services.own_game_create(data=data, spend=spend)
    return answer(
        OwnGameCreatedOut, {"id": saved.game.id, "edit_token": saved.key, "own_game": own_game_json(saved.game)}, 201
    )


@router.post(
    "/check",
    response={200: OwnGameCheckedOut, 413: ErrorOut, 415: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    openapi_extra=_body_schema(),
    summary="Check a game file",
)
@_answering
def check_own_game(request: HttpRequest) -> HttpResponse:
    """The file read, compiled and its examples played, as making the game would: nothing is kept."""
    services.spend_check(client_key(request))
    game, _kept = services.checked_file(_file_of(json_body(request, MAX_FILE_BYTES)))
    return answer(OwnGameCheckedOut, {"valid": True, "examples": len(game.file.examples)})


@router.get("/{game_id}", response={200: OwnGameOut, 404: ErrorOut}, summary="Read your own game")
@_answering
def read_own_game(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game, its newest file and its versions; the id alone is enough (it is the right to play it)."""
    return answer(OwnGameOut, own_game_json(_game(game_id)))


@router.put(
    "/{game_id}",
    response={
        200: OwnGameOut,
        401: ErrorOut,
        404: ErrorOut,
        413: ErrorOut,
        415: ErrorOut,
        422: ErrorOut,
        429: ErrorOut,
    },
    openapi_extra={**WRITE, **_body_schema()},
    summary="Change your own game",
)
@_answering
def change_own_game(request: HttpRequest, game_id: str) -> HttpResponse:
    """A new version from this file (the same file again makes none); matches under way keep theirs."""
    game = _game(game_id, request)
    services.spend_check(client_key(request))
    data = _file_of(json_body(request, MAX_FILE_BYTES))
    services.own_game_change(game=game, data=data)
    return answer(OwnGameOut, own_game_json(game))


@router.get(
    "/{game_id}/versions/{number}",
    response={200: OwnGameOut, 404: ErrorOut, 422: ErrorOut},
    summary="Read a version of your own game",
)
@_answering
def read_version(request: HttpRequest, game_id: str, number: int) -> HttpResponse:
    """One version, as a match of it keeps it."""
    game = _game(game_id)
    version = services.version_of(game, number) if 1 <= number <= services.MAX_VERSIONS else None
    if version is None:
        raise ServiceError("not_found", "no_such_version")
    body = own_game_json(game)
    body.update(game=own_key(game.id, version.number), version=version.number, file=version.file)
    return answer(OwnGameOut, body)


@router.get(
    "/{game_id}/export",
    response={200: str, 404: ErrorOut},
    openapi_extra={
        "responses": {
            "200": {"description": "the file, as TOML", "content": {"application/toml": {"schema": {"type": "string"}}}}
        }
    },
    summary="Export your own game",
)
@_answering
def export_own_game(request: HttpRequest, game_id: str) -> HttpResponse:
    """The newest version's file as TOML (``application/toml``): what import takes back."""
    game = _game(game_id)
    version = services.version_of(game)
    if version is None:
        raise ServiceError("not_found")
    return HttpResponse(files.as_toml(version.file), content_type="application/toml; charset=utf-8")


add_api_part(
    ApiPart(
        "/own-games",
        router,
        creations={"/own-games": "game_id"},
        security_schemes={
            "ownGameToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "the own game's edit_token, from its creation answer",
            }
        },
    )
)
