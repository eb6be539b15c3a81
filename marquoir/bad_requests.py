"""Requests refused before any view: a host name we do not serve, a form too large to read.

Django answers both with its 400 handler, or, under DEBUG, with its full debug page (settings,
code, the request). `HOST=127.0.0.1 make run` has DEBUG on, and a page on another site can
reach it under its own name (DNS rebinding), so the debug page must never be the answer to a
foreign ``Host``, whatever DEBUG says. Here the host is checked first, and an API request's
form parsed first, so each gets a short answer of ours: plain text on pages, the contract's
``{"error": {"code", "message"}}`` on /api/, in the language ``Accept-Language`` asks for.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    DisallowedHost,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from marquoir.middleware import DualModeMiddleware
from marquoir.tables.api_errors import API_PREFIX, error_body, language_of

# Django's own logger names, so an operator's filters on them keep working.
security_logger = logging.getLogger("django.security.DisallowedHost")
FORM_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _language(request: HttpRequest) -> str:
    """The language of ``Accept-Language``: for a foreign host (nothing resolved yet) and on
    the API, as the API's own errors."""
    return language_of(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))


def _page_language(request: HttpRequest) -> str:
    """On a page the address says it (/fr/…, set by LocaleMiddleware before the view read
    the form); before that, the header."""
    code = getattr(request, "LANGUAGE_CODE", None)
    return code if isinstance(code, str) and not _api(request) else _language(request)


def _api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _plain(status: int, text: str) -> HttpResponse:
    response = HttpResponse(text + "\n", status=status, content_type="text/plain; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-store"
    return response


def foreign_host(request: HttpRequest) -> HttpResponse:
    """The answer to a ``Host`` outside ALLOWED_HOSTS: 400, nothing about the server."""
    language = _language(request)
    if _api(request):
        return JsonResponse(error_body(language, "invalid", "bad_host"), status=400)
    with translation.override(language):
        return _plain(400, _("Bad request: this server does not answer for that host name."))


def host_refusal(request: HttpRequest) -> HttpResponse | None:
    """:func:`foreign_host` if ``request``'s host is not one we serve (as Django decides it:
    ``ALLOWED_HOSTS``, ``USE_X_FORWARDED_HOST``), logged where Django logs it; else None.
    Asked by ``BadRequestMiddleware`` for pages and the API, by ``marquoir.policy`` for the
    live streams."""
    try:
        request.get_host()
    except DisallowedHost as error:
        security_logger.warning("%s", error)
        return foreign_host(request)
    return None


def form_refused(request: HttpRequest, error: SuspiciousOperation) -> HttpResponse:
    """The answer to a form over Django's limits (DATA_UPLOAD_MAX_MEMORY_SIZE,
    DATA_UPLOAD_MAX_NUMBER_FIELDS, DATA_UPLOAD_MAX_NUMBER_FILES): 413 on /api/, 400 on pages."""
    language = _page_language(request)
    with translation.override(language):
        if isinstance(error, TooManyFieldsSent):
            message = _("The form has too many fields: %(limit)s at most.") % {
                "limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
            }
        elif isinstance(error, TooManyFilesSent):
            message = _("The form sends too many files: %(limit)s at most.") % {
                "limit": settings.DATA_UPLOAD_MAX_NUMBER_FILES
            }
        else:
            message = _("The form is too large: %(limit)s bytes at most.") % {
                "limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            }
        if _api(request):
            return JsonResponse({"error": {"code": "too_large", "message": message}}, status=413)
        return _plain(400, message)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400 (marquoir.urls), with DEBUG off: whatever Django refused as suspicious gets
    the same short answers, JSON on /api/."""
    if isinstance(exception, DisallowedHost):
        return foreign_host(request)
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return form_refused(request, exception)
    if _api(request):
        return JsonResponse(error_body(_language(request), "invalid"), status=400)
    with translation.override(_page_language(request)):
        return _plain(400, _("Bad request: the server could not read it."))


class BadRequestMiddleware(DualModeMiddleware):
    """Checks the host (every request) and parses an API request's form before anything
    else does, and answers what fails with :func:`foreign_host` or :func:`form_refused`.

    Runs in Django's sync and async modes alike (the live streams go through async)."""

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        refused = host_refusal(request)
        if refused is not None:
            return refused
        # An API request is JSON; a form sent to it is parsed here, inside the limits, so
        # that its refusal is JSON too (later it would be Django's HTML 400, or its debug
        # page). Pages are left to the 400 handler: only DEBUG, on this machine, shows more.
        if _api(request) and request.method == "POST" and request.content_type in FORM_CONTENT_TYPES:
            try:
                request.POST  # noqa: B018 (parsing is the point)
            except (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent) as error:
                return form_refused(request, error)
        return None

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        refused = self.refusal(request)
        return refused if refused is not None else self.get_response(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        refused = self.refusal(request)
        if refused is not None:
            return refused
        response: HttpResponse = await self.get_response(request)
        return response
