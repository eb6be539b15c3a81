"""Under /api/, every answer keeps the contract's shape, even the ones no view writes.

Django answers a method a route does not serve with an HTML 405, and an unexpected error
with an HTML page (or, under DEBUG, ninja with the traceback as text). An API client gets
``{"error": {"code", "message"}}`` instead, in its language, never a traceback: the error
is logged on the server, where it belongs.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header
from ninja import Field
from pydantic import BaseModel

from marquoir.middleware import AfterViewMiddleware

from .keepers import ScoreKeeper
from .messages import STATUS, message_for, status_for
from .models import Match
from .outcome import ServiceError
from .schemas import OutSchema
from .selectors import find_match

API_PREFIX = "/api/"


class ErrorBody(OutSchema):
    code: str = Field(..., examples=["not_stealable"])
    message: str


class ErrorOut(OutSchema):
    """The shape of every refusal of the API."""

    error: ErrorBody


ERRORS: dict[int, type[BaseModel]] = {401: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}
logger = logging.getLogger("marquoir.api")


def answer(schema: type[BaseModel], data: Mapping[str, Any], status: int = 200) -> JsonResponse:
    """An answer built through its Out schema: what the OpenAPI says is what is sent."""
    return JsonResponse(schema.model_validate(data).model_dump(mode="json", by_alias=True), status=status)


def api_language(request: HttpRequest) -> str:
    """The language of ``Accept-Language`` (English or French), English otherwise."""
    return language_of(request.headers.get("Accept-Language", ""))


def language_of(accept_language: str) -> str:
    """The language an ``Accept-Language`` header asks for (English or French), English
    otherwise."""
    for code, _quality in parse_accept_lang_header(accept_language):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return "en"


def api_error(request: HttpRequest, code: str, reason: str | None = None, **params: object) -> JsonResponse:
    """The contract's error body for ``code``, worded in the request's language."""
    return JsonResponse(error_body(api_language(request), code, reason, **params), status=STATUS.get(code, 422))


def error_body(language: str, code: str, reason: str | None = None, **params: object) -> dict[str, Any]:
    """``{"error": {"code", "message"}}`` for ``code``, worded in ``language``."""
    with translation.override(language):
        message = message_for(code, reason or code, params)
    return {"error": {"code": code, "message": message}}


def error_response(
    request: HttpRequest,
    error: ServiceError,
    players: Sequence[str] | None = None,
    keeper: ScoreKeeper | None = None,
) -> JsonResponse:
    """The contract's error body for a refusal, worded in the request's language (the game's
    ``keeper`` words its own refusals)."""
    with translation.override(api_language(request)):
        message = message_for(
            error.code, error.reason, error.params, players or [], keeper.wordings if keeper else None
        )
    response = JsonResponse({"error": {"code": error.code, "message": message}}, status=status_for(error.code, keeper))
    if error.code == "unauthorized":
        response["WWW-Authenticate"] = 'Bearer realm="marquoir"'
    return response


def find_match_or_error(match_id: str) -> Match:
    """The match with this id, or ``ServiceError(not_found)``."""
    match = find_match(match_id)
    if match is None:
        raise ServiceError("not_found")
    return match


DATABASE_RETRY_SECONDS = 2
"""What a client is told to wait when the database does not answer (a restart takes seconds)."""


def server_error(request: HttpRequest, error: Exception) -> HttpResponse:
    """An unexpected error in an API view: logged with its traceback, answered without it.
    A database that cannot be reached (restarting, failing over, its pool spent) is said as
    such, 503 with ``Retry-After``: nothing was written, and trying again soon will do."""
    if isinstance(error, OperationalError | InterfaceError):
        logger.warning("database unavailable on %s %s: %s", request.method, request.path, error)
        response = api_error(request, "unavailable", "database_unavailable")
        response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
        return response
    logger.error("API error on %s %s", request.method, request.path, exc_info=error)
    return api_error(request, "server_error")


class ApiErrorMiddleware(AfterViewMiddleware):
    """Turns the framework's HTML 405 on API addresses into the contract's shape (with
    ``Allow``), answers ``OPTIONS`` with the methods an address serves, and an exception
    escaping an API view with ``server_error``."""

    def after(self, request: HttpRequest, response: HttpResponse, started: float) -> HttpResponse:
        if not request.path.startswith(API_PREFIX) or response.status_code not in (404, 405):
            return response
        if response.status_code == 404:
            # An address the API does not have; its own 404s are JSON already.
            if response.get("Content-Type", "").startswith("application/json"):
                return response
            return api_error(request, "not_found", "no_such_address")
        allowed = response.get("Allow", "")
        if request.method == "OPTIONS":
            answer = HttpResponse(status=204)
            answer["Allow"] = ", ".join(filter(None, [allowed, "OPTIONS"]))
            return answer
        answer = api_error(request, "method_not_allowed", method=request.method, allowed=allowed or "GET")
        answer["Allow"] = allowed
        return answer

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if request.path.startswith(API_PREFIX):
            return server_error(request, exception)
        return None
