"""The server-sent-event stream of a match: ``{"seq": N}`` now, then after every action.

One stream, two doors:

- ``stream_app``, a plain ASGI application, is what the server (``marquoir.asgi``) hands
  every request for ``/api/v1/matches/<id>/events``. An open stream is then a coroutine
  waiting on a queue and nothing else: no thread, no database connection (the live hub
  reads seqs for everyone in one thread of its own). Django's ASGI handler would keep an
  idle thread per open request for as long as the stream lasts (asgiref's
  ``ThreadSensitiveContext`` gives each request one, for the synchronous signal receivers
  and middleware), which is what limited a server to a few thousand watchers.
- ``match_stream``, the same stream as a Django view, for ``reverse()``, Django's test
  client and a server that runs Django alone (``manage.py runserver``).

Both answer with the same events, headers and errors (a test holds them together), and
both count their open streams against the caps of ``live.stream_slots``: beyond them a
stream is refused (429 for one address's share, 503 for the process's, ``Retry-After``
either way) and the page polls instead (``static/js/live.js``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host
from django.middleware.security import SecurityMiddleware
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from marquoir.security import CONTENT_SECURITY_POLICY

from .api_errors import api_language, error_body, error_response, language_of
from .live import hub, match_events, stream_slots
from .ratelimit import client_key
from .services import ServiceError

access_logger = logging.getLogger("marquoir.access")
logger = logging.getLogger(__name__)

# The address of the stream (api_urls.py names the same one for Django): the server's entry
# point sends exactly these paths here; a test holds the two together.
STREAM_PATH = re.compile(r"/api/v1/matches/(?P<match_id>[^/]+)/events")

STREAM_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Type", "text/event-stream"),
    ("Cache-Control", "no-cache, no-transform"),
    ("X-Accel-Buffering", "no"),  # a proxy must pass each event on as it comes
)


# How long a refused page waits before it tries a stream again (it polls meanwhile). The
# browser's EventSource cannot read it; live.js waits at least as long by itself.
STREAM_RETRY_AFTER_SECONDS = 60

# Why a stream was refused (live.StreamSlots.take): the status and the code of the answer.
REFUSALS: dict[str, tuple[int, str]] = {"address": (429, "rate_limited"), "process": (503, "unavailable")}


def is_stream_path(path: str) -> bool:
    """Whether ``path`` is a match's event stream."""
    return STREAM_PATH.fullmatch(path) is not None


def django_request(scope: dict[str, Any]) -> HttpRequest:
    """Django's request for ``scope``, with an empty body: what reads only the headers and
    the client's address (``client_key``, ``SecurityMiddleware``) reads it as for a page."""
    return ASGIRequest(dict(scope), io.BytesIO())


def refusal_body(language: str, why: str) -> dict[str, Any]:
    """The contract's error shape for a stream refused by its caps."""
    with translation.override(language):
        if why == "address":
            message = _("Too many live pages are open from here: this page checks for news every few seconds instead.")
        else:
            message = _(
                "The server follows as many live pages as it can: this page checks for news every few seconds instead."
            )
    return {"error": {"code": REFUSALS[why][1], "message": message}}


class _SlotHeld:
    """A stream's events, holding its slot until the stream ends: when the events are closed
    (Django closes a streaming response's content with ``close()``), or run out."""

    def __init__(self, events: AsyncIterator[str], address: str) -> None:
        self.events = events
        self.address: str | None = address

    def __aiter__(self) -> _SlotHeld:
        return self

    async def __anext__(self) -> str:
        try:
            return await anext(self.events)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.address is not None:
            stream_slots.give_back(self.address)
            self.address = None

    async def aclose(self) -> None:
        self.close()
        aclose = getattr(self.events, "aclose", None)
        if aclose is not None:
            await aclose()


@require_GET
async def match_stream(request: HttpRequest, match_id: str) -> HttpResponse | StreamingHttpResponse:
    """The stream through Django (see the module's docstring)."""
    address = client_key(request)
    refused = stream_slots.take(address)
    if refused is not None:
        status, _code = REFUSALS[refused]
        refusal = JsonResponse(refusal_body(api_language(request), refused), status=status)
        refusal["Retry-After"] = str(STREAM_RETRY_AFTER_SECONDS)
        return refusal
    try:
        seq = await hub().seq_of(match_id)
    except BaseException:
        stream_slots.give_back(address)
        raise
    if seq is None:
        stream_slots.give_back(address)
        return error_response(request, ServiceError("not_found"))
    stream = StreamingHttpResponse(_SlotHeld(match_events(match_id, seq), address))
    for name, value in STREAM_HEADERS:
        stream[name] = value
    return stream


async def stream_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The stream as a plain ASGI application (see the module's docstring).

    Checks what Django's handler and middleware would check for this address: the host
    against ``ALLOWED_HOSTS``, HTTPS (``SecurityMiddleware``'s own redirect, so
    ``SECURE_SSL_REDIRECT`` and ``SECURE_PROXY_SSL_HEADER`` count as for the pages), the
    method, the caps on open streams, the match; and sets the same security headers. The
    client going away (``http.disconnect``) ends the stream at once."""
    started = time.perf_counter()
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())}
    language = language_of(headers.get("accept-language", ""))
    method = scope.get("method", "GET")
    path = scope.get("path", "")
    address = STREAM_PATH.fullmatch(path)
    status = 200
    slot: str | None = None  # the client's address, while it holds a stream's slot
    try:
        domain, _port = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            status = 400
            await _send_json(send, status, error_body(language, "invalid", "bad_host"), scope)
            return
        request = django_request(scope)
        redirect = SecurityMiddleware(_no_view).process_request(request)
        if redirect is not None:
            status = redirect.status_code
            await _send_start(send, status, scope, [("Location", redirect["Location"]), ("Content-Length", "0")])
            await send({"type": "http.response.body", "body": b""})
        elif method == "OPTIONS":
            status = 204
            await _send_start(send, status, scope, [("Allow", "GET, OPTIONS")])
            await send({"type": "http.response.body", "body": b""})
        elif method != "GET":
            status = 405
            body = error_body(language, "method_not_allowed", method=method, allowed="GET")
            await _send_json(send, status, body, scope, [("Allow", "GET")])
        elif (refused := stream_slots.take(client := client_key(request))) is not None:
            status = REFUSALS[refused][0]
            # Closed at once: a refused client keeps no descriptor, even one that holds on.
            refusal = [("Retry-After", str(STREAM_RETRY_AFTER_SECONDS)), ("Connection", "close")]
            await _send_json(send, status, refusal_body(language, refused), scope, refusal)
        else:
            slot = client
            if address is None or (seq := await _seq_or_none(address["match_id"])) is None:
                status = 404
                await _send_json(send, status, error_body(language, "not_found"), scope)
            elif seq < 0:
                status = 500
                await _send_json(send, status, error_body(language, "server_error"), scope)
            else:
                await _send_start(send, status, scope, list(STREAM_HEADERS))
                await _stream_until_gone(match_events(address["match_id"], seq), receive, send)
    finally:
        if slot is not None:
            stream_slots.give_back(slot)
        access_logger.info(
            "%s %s %s",
            method,
            path,
            status,
            extra={
                "method": method,
                "path": path,
                "status": status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            },
        )


async def _seq_or_none(match_id: str) -> int | None:
    """The match's seq, None if there is no such match, -1 if the database could not say
    (logged; the browser tries again by itself)."""
    try:
        return await hub().seq_of(match_id)
    except Exception:
        logger.exception("live: the seq of a match could not be read")
        return -1


async def _stream_until_gone(events: AsyncIterator[str], receive: Any, send: Any) -> None:
    """Send each event as it comes, until the stream's lifetime ends or the client goes."""

    async def pump() -> None:
        async for event in events:
            await send({"type": "http.response.body", "body": event.encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def client_gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    pumping, watching = asyncio.create_task(pump()), asyncio.create_task(client_gone())
    try:
        await asyncio.wait({pumping, watching}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (pumping, watching):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError):
            await pumping
        with contextlib.suppress(asyncio.CancelledError):
            await watching
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            await aclose()


def _no_view(request: HttpRequest) -> HttpResponse:
    raise AssertionError("SecurityMiddleware is asked only whether to redirect")


def security_headers(scope: dict[str, Any]) -> list[tuple[str, str]]:
    """What SecurityMiddleware and the policy middleware add to every answer."""
    answer = [
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", settings.SECURE_REFERRER_POLICY or "same-origin"),
        ("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY or "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]
    # Secure as Django decides it for the pages (SECURE_PROXY_SSL_HEADER behind our proxy).
    if settings.SECURE_HSTS_SECONDS and django_request(scope).is_secure():
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        answer.append(("Strict-Transport-Security", hsts))
    return answer


async def _send_start(send: Any, status: int, scope: dict[str, Any], headers: list[tuple[str, str]]) -> None:
    every = [*headers, *security_headers(scope)]
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in every],
        }
    )


async def _send_json(
    send: Any, status: int, body: dict[str, Any], scope: dict[str, Any], headers: list[tuple[str, str]] | None = None
) -> None:
    content = JsonResponse(body).content
    await _send_start(
        send,
        status,
        scope,
        [("Content-Type", "application/json"), ("Content-Length", str(len(content))), *(headers or [])],
    )
    await send({"type": "http.response.body", "body": content})
