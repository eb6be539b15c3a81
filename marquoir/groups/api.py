"""Groups in API v1: make one, read it, rename its players, attach and delete its matches,
its stats, its export and an import (docs/api.md, "Groups").

The same envelope as matches: refusals are ``{"error": {"code", "message"}}`` in the
language of ``Accept-Language``; a write needs ``Authorization: Bearer {edit_token}``, the
group's own key from its creation answer (a match's token does not open a group).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal

from django.http import HttpRequest, HttpResponse
from ninja import Field, Router
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from marquoir.tables.actions import shorten
from marquoir.tables.api import NAME_PATTERN, ApiPart, add_api_part, bearer_token, json_body
from marquoir.tables.api_errors import ErrorOut, answer
from marquoir.tables.outcome import ServiceError
from marquoir.tables.ratelimit import allow_match_creation, client_key
from marquoir.tables.schemas import OutSchema, StrictBody

from . import services
from .messages import group_error_response
from .models import Group
from .presenters import MAX_IMPORT_BYTES, export_response, group_json, import_file, play_json, stats_json
from .records import MAX_MEMBERS
from .selectors import find_group, history_of, members_of, plays_of, stats_of

router = Router(tags=["groups"])
HISTORY_PAGE = 30
"""Matches in a page of the history, as on the group's page."""

WRITE: dict[str, Any] = {"security": [{"groupToken": []}]}


# --- schemas

Name = Annotated[str, Field(min_length=1, pattern=NAME_PATTERN)]


class GroupIn(StrictBody):
    name: Name = Field(..., examples=["Thursday night"], description="1 to 60 visible characters")
    players: list[Name] = Field(
        ..., min_length=1, max_length=MAX_MEMBERS, examples=[["Ada", "Ben", "Cy"]], description="the members"
    )


class GroupPlayerIn(StrictBody):
    name: Name = Field(..., examples=["Ada"])


class GroupMatchIn(StrictBody):
    match_id: str = Field(..., min_length=1, max_length=64, description="the id of a match kept on Marquoir")
    match_edit_token: str | None = Field(
        None,
        max_length=128,
        description="the match's own edit_token: its id is only the right to watch it, so a match "
        "joins a group only with its write right (403 forbidden without it)",
    )


class GroupPlayerOut(OutSchema):
    id: int
    name: str


class GroupOut(OutSchema):
    id: str
    name: str
    players: list[GroupPlayerOut]
    matches: int = Field(..., description="how many matches its history holds")


class GroupCreatedOut(OutSchema):
    id: str
    edit_token: str
    group: GroupOut


class GroupSeatOut(OutSchema):
    player_id: int
    name: str = Field(..., description="the member's name now (renamed members keep their history)")
    score: float
    rank: int
    winner: bool
    starts: bool


class GroupMatchOut(OutSchema):
    id: str
    match_id: str | None = Field(..., description="the match kept on Marquoir; null for an imported play")
    game: str
    game_name: str
    started_at: str
    ended_at: str
    duration_min: int
    over: bool
    players: list[GroupSeatOut]


class GroupMatchesOut(OutSchema):
    matches: list[GroupMatchOut] = Field(..., description="one page of the history, newest first")
    page: int = Field(..., description="this page's number, from 1")
    pages: int = Field(..., description="how many pages the history has (at least 1)")
    total: int = Field(..., description="how many matches the whole history holds")


class GroupMatchesQuery(OutSchema):
    page: int = Field(1, ge=1, le=1_000_000, description=f"the page, {HISTORY_PAGE} matches each")


class GroupFigureOut(OutSchema):
    key: str
    label: str
    kind: Literal["per_game", "total", "best", "rate"]
    value: float | None


class GroupPlayerLineOut(OutSchema):
    player_id: int
    name: str
    plays: int
    wins: int
    win_rate: float
    average: float | None
    best: float | None
    longest_streak: int
    current_streak: int
    figures: list[GroupFigureOut]


class GroupRivalryOut(OutSchema):
    first: int
    second: int
    played: int
    first_ahead: int
    second_ahead: int
    level: int


class GroupStatsSectionOut(OutSchema):
    key: str = Field(..., description='"all", a game\'s key, or "sheet:<title>"')
    game: str | None
    name: str
    plays: int
    players: list[GroupPlayerLineOut]
    head_to_head: list[GroupRivalryOut]


class GroupStatsOut(OutSchema):
    overall: GroupStatsSectionOut
    games: list[GroupStatsSectionOut]


class GroupExportQuery(OutSchema):
    format: Literal["json", "csv"] = Field("json", description="BG Stats-shaped JSON (default), or CSV")


GROUP_ERRORS: dict[int, type[BaseModel]] = {401: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}
ATTACH_ERRORS: dict[int, type[BaseModel]] = {**GROUP_ERRORS, 403: ErrorOut}


# --- reading bodies


def _read(model: type[StrictBody], body: object) -> Any:
    """``body`` read by ``model``; ServiceError naming the first field wrong."""
    if not isinstance(body, dict):
        raise ServiceError("invalid", "not_an_object")
    try:
        return model.model_validate(body)
    except PydanticValidationError as failure:
        errors = failure.errors()
    for error in errors:
        if error["type"] == "extra_forbidden" or (error["type"] == "string_unicode" and not error["loc"]):
            field = error["loc"][0] if error["loc"] else error.get("input")
            raise ServiceError("invalid", "unknown_field", field=shorten(field))
    field = str(errors[0]["loc"][0]) if errors[0]["loc"] else ""
    raise ServiceError("invalid", "bad_field", field=shorten(field))


def _group(group_id: str, request: HttpRequest | None = None) -> Group:
    """The group, or 404; with ``request``, the group's key must be its bearer token (401)."""
    # A write's key is checked first, before anything is looked up: the key is derived from
    # the id, so a wrong one says nothing of whether the group is there (or was a moment ago:
    # groups can be deleted). Only the group's own key learns that it is gone.
    if request is not None and not services.group_key_matches(group_id, bearer_token(request)):
        raise ServiceError("unauthorized")
    group = find_group(group_id)
    if group is None:
        raise ServiceError("not_found")
    return group


def _answering(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refusals in the contract's shape, worded for groups."""

    @functools.wraps(view)  # ninja reads the path parameters from the signature
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            response = group_error_response(request, error)
            if error.code in {"rate_limited", "unavailable"}:
                response["Retry-After"] = str(error.params["retry_after"])
            return response

    return wrapped


def _count_new_group(request: HttpRequest) -> None:
    """A new group costs what a new match does (the same allowance, by address for a
    script): ServiceError(rate_limited) once it is spent."""
    allowance = allow_match_creation(request)
    if not allowance.allowed:
        raise ServiceError("rate_limited", minutes=allowance.minutes, retry_after=allowance.retry_after)


def _group_answer(group: Group, status: int = 200) -> HttpResponse:
    return answer(GroupOut, group_json(group), status)


# --- the addresses


@router.post(
    "",
    response={201: GroupCreatedOut, 413: ErrorOut, 415: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": GroupIn.model_json_schema()}}}
    },
    summary="Make a group",
)
@_answering
def create_group(request: HttpRequest) -> HttpResponse:
    """A group of players; the answer carries its id (to see it) and its edit token (shown only here)."""
    body = _read(GroupIn, json_body(request))
    services.check_new_group(name=body.name, players=body.players)
    _count_new_group(request)
    group, key = services.group_create(name=body.name, players=body.players)
    return answer(GroupCreatedOut, {"id": group.id, "edit_token": key, "group": group_json(group)}, 201)


@router.post(
    "/import",
    response={201: GroupCreatedOut, 413: ErrorOut, 415: ErrorOut, 422: ErrorOut, 429: ErrorOut, 503: ErrorOut},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object", "description": "an export of a group"}}},
        }
    },
    summary="Import a group",
)
@_answering
def import_group(request: HttpRequest) -> HttpResponse:
    """A new group from a file written by the export (or a BG Stats backup)."""
    services.spend_import(client_key(request))  # before the file is read: refused files count
    with services.one_import_at_a_time():
        data = json_body(request, MAX_IMPORT_BYTES)
        group, key = import_file(data, before_writing=lambda: _count_new_group(request))
    return answer(GroupCreatedOut, {"id": group.id, "edit_token": key, "group": group_json(group)}, 201)


@router.get("/{group_id}", response={200: GroupOut, 404: ErrorOut}, summary="Read a group")
@_answering
def read_group(request: HttpRequest, group_id: str) -> HttpResponse:
    """The group and its players; the id alone is enough (it is the right to see it)."""
    return _group_answer(_group(group_id))


@router.delete("/{group_id}", response={204: None, **GROUP_ERRORS}, openapi_extra=WRITE, summary="Delete a group")
@_answering
def delete_group(request: HttpRequest, group_id: str) -> HttpResponse:
    """The group, its players and its history, gone from the database; its matches stay
    with whoever keeps their score (a group's key is no right over a match)."""
    services.group_delete(group=_group(group_id, request))
    return HttpResponse(status=204)


@router.post(
    "/{group_id}/players",
    response={201: GroupOut, 413: ErrorOut, 415: ErrorOut, **GROUP_ERRORS},
    openapi_extra={
        **WRITE,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": GroupPlayerIn.model_json_schema()}},
        },
    },
    summary="Add a player to a group",
)
@_answering
def add_player(request: HttpRequest, group_id: str) -> HttpResponse:
    group = _group(group_id, request)
    body = _read(GroupPlayerIn, json_body(request))
    services.member_add(group=group, name=body.name)
    return _group_answer(group, 201)


@router.patch(
    "/{group_id}/players/{player_id}",
    response={200: GroupOut, 413: ErrorOut, 415: ErrorOut, **GROUP_ERRORS},
    openapi_extra={
        **WRITE,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": GroupPlayerIn.model_json_schema()}},
        },
    },
    summary="Rename a player",
)
@_answering
def rename_player(request: HttpRequest, group_id: str, player_id: int) -> HttpResponse:
    """The player keeps every match and figure: plays point at the player, not at a name."""
    group = _group(group_id, request)
    body = _read(GroupPlayerIn, json_body(request))
    services.member_rename(group=group, member_id=player_id, name=body.name)
    return _group_answer(group)


@router.get(
    "/{group_id}/matches",
    response={200: GroupMatchesOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    summary="A group's history",
)
@_answering
def group_matches(request: HttpRequest, group_id: str) -> HttpResponse:
    """The group's matches, newest first, with players, scores and winners, a page at a
    time (`?page=2`; a page past the last is empty)."""
    try:
        query = GroupMatchesQuery.model_validate(request.GET.dict())
    except PydanticValidationError:
        raise ServiceError("invalid", "bad_query") from None
    group = _group(group_id)
    services.spend_costly_read(client_key(request))
    names = {member.id: member.name for member in members_of(group)}
    plays = history_of(group)
    shown = plays[(query.page - 1) * HISTORY_PAGE : query.page * HISTORY_PAGE]
    pages = max(1, -(-len(plays) // HISTORY_PAGE))
    body = {"matches": [play_json(play, names) for play in shown], "page": query.page, "pages": pages}
    return answer(GroupMatchesOut, {**body, "total": len(plays)})


@router.post(
    "/{group_id}/matches",
    response={201: GroupMatchOut, 413: ErrorOut, 415: ErrorOut, **ATTACH_ERRORS},
    openapi_extra={
        **WRITE,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": GroupMatchIn.model_json_schema()}},
        },
    },
    summary="Add a match to a group",
)
@_answering
def attach_match(request: HttpRequest, group_id: str) -> HttpResponse:
    """A match kept on Marquoir joins the group's history; its players are matched to the
    group's by name (ignoring case), and a name the group does not know becomes a player."""
    group = _group(group_id, request)
    body = _read(GroupMatchIn, json_body(request))
    try:
        play = services.play_attach(group=group, match_id=body.match_id, match_token=body.match_edit_token)
    except ServiceError as refused:
        if refused.reason == "match_write_needed":  # worded for the API: what to send
            raise ServiceError("forbidden", "match_token_needed") from None
        raise
    names = {member.id: member.name for member in members_of(group)}
    record = next(record for record in plays_of(group) if record.id == play.uuid)
    return answer(GroupMatchOut, play_json(record, names), 201)


@router.delete(
    "/{group_id}/matches/{play_id}",
    response={204: None, **GROUP_ERRORS},
    openapi_extra=WRITE,
    summary="Delete a match of a group",
)
@_answering
def delete_match(request: HttpRequest, group_id: str, play_id: str) -> HttpResponse:
    """The match leaves the history; the match itself stays with whoever keeps its score."""
    services.play_delete(group=_group(group_id, request), play_id=play_id)
    return HttpResponse(status=204)


@router.get("/{group_id}/stats", response={200: GroupStatsOut, 404: ErrorOut, 429: ErrorOut}, summary="A group's stats")
@_answering
def group_stats(request: HttpRequest, group_id: str) -> HttpResponse:
    """Plays, wins, win rate, scores, streaks and head to head, overall and per game, with
    each game's own figures; finished matches only."""
    group = _group(group_id)
    services.spend_costly_read(client_key(request))
    stats, _plays = stats_of(group)
    return answer(GroupStatsOut, stats_json(stats))


@router.get(
    "/{group_id}/export",
    response={200: dict[str, Any], 404: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    openapi_extra={
        "responses": {
            "200": {
                "description": "the export",
                "content": {
                    "application/json": {"schema": {"type": "object"}},
                    "text/csv": {"schema": {"type": "string"}},
                },
            }
        }
    },
    summary="Export a group",
)
@_answering
def export_group(request: HttpRequest, group_id: str) -> HttpResponse:
    """The group's history as BG Stats-shaped JSON (which the import reads back), or as CSV."""
    try:
        query = GroupExportQuery.model_validate(request.GET.dict())
    except PydanticValidationError:
        raise ServiceError("invalid", "bad_query") from None
    group = _group(group_id)
    services.spend_export(client_key(request))
    return export_response(group, query.format)


add_api_part(
    ApiPart(
        "/groups",
        router,
        # A new group's id leads to its addresses (OpenAPI links), as a new match's does.
        creations={"/groups": "group_id", "/groups/import": "group_id"},
        security_schemes={
            "groupToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "the group's edit_token, from its creation (or import) answer",
            }
        },
    )
)
