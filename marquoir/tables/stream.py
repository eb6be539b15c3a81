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

Both answer with the same events, headers and errors (a test holds them together).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host
from django.views.decorators.http import require_GET

from marquoir.security import CONTENT_SECURITY_POLICY

from .api_errors import error_body, error_response, language_of
from .live import hub, match_events
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


def is_stream_path(path: str) -> bool:
    """Whether ``path`` is a match's event stream."""
    return STREAM_PATH.fullmatch(path) is not None


@require_GET
async def match_stream(request: HttpRequest, match_id: str) -> HttpResponse | StreamingHttpResponse:
    """The stream through Django (see the module's docstring)."""
    seq = await hub().seq_of(match_id)
    if seq is None:
        return error_response(request, ServiceError("not_found"))
    response = StreamingHttpResponse(match_events(match_id, seq))
    for name, value in STREAM_HEADERS:
        response[name] = value
    return response


async def stream_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The stream as a plain ASGI application (see the module's docstring).

    Checks what Django's handler and middleware would check for this address: the host
    against ``ALLOWED_HOSTS``, the method, the match; and sets the same security headers.
    The client going away (``http.disconnect``) ends the stream at once."""
    started = time.perf_counter()
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())}
    language = language_of(headers.get("accept-language", ""))
    method = scope.get("method", "GET")
    path = scope.get("path", "")
    address = STREAM_PATH.fullmatch(path)
    status = 200
    try:
        domain, _port = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            status = 400
            await _send_json(send, status, error_body(language, "invalid", "bad_host"), scope)
        elif method == "OPTIONS":
            status = 204
            await _send_start(send, status, scope, [("Allow", "GET, OPTIONS")])
            await send({"type": "http.response.body", "body": b""})
        elif method != "GET":
            status = 405
            body = error_body(language, "method_not_allowed", method=method, allowed="GET")
            await _send_json(send, status, body, scope, [("Allow", "GET")])
        elif address is None or (seq := await _seq_or_none(address["match_id"])) is None:
            status = 404
            await _send_json(send, status, error_body(language, "not_found"), scope)
        elif seq < 0:
            status = 500
            await _send_json(send, status, error_body(language, "server_error"), scope)
        else:
            await _send_start(send, status, scope, list(STREAM_HEADERS))
            await _stream_until_gone(match_events(address["match_id"], seq), receive, send)
    finally:
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


def _security_headers(scope: dict[str, Any]) -> list[tuple[str, str]]:
    """What SecurityMiddleware and the policy middleware add to every answer."""
    answer = [
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", settings.SECURE_REFERRER_POLICY or "same-origin"),
        ("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY or "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]
    if settings.SECURE_HSTS_SECONDS and scope.get("scheme") == "https":
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        answer.append(("Strict-Transport-Security", hsts))
    return answer


async def _send_start(send: Any, status: int, scope: dict[str, Any], headers: list[tuple[str, str]]) -> None:
    every = [*headers, *_security_headers(scope)]
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
