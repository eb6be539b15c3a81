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

Both answer with the same events, headers and errors (tests hold them together, and to the
pages): ``stream_app`` takes the host, HTTPS, method, header and access-log rules from the
functions Django's middleware use (``marquoir.policy``). Both count their open streams
against the caps of ``live.stream_slots``: beyond them a stream is refused (429 for one
address's share, 503 for the process's, ``Retry-After`` either way) and the page polls
instead (``static/js/live.js``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from marquoir import policy

from .api_errors import api_language, error_body, error_response
from .live import hub, match_events, stream_slots
from .ratelimit import client_key
from .services import ServiceError

logger = logging.getLogger(__name__)

# The address of the stream (api_urls.py names the same one for Django): the server's entry
# point sends exactly these paths here; a test holds the two together.
STREAM_PATH = re.compile(r"/api/v1/matches/(?P<match_id>[^/]+)/events")

# What the stream serves; anything else is refused as the API refuses it (marquoir.policy).
STREAM_METHODS = ("GET",)


# How long a refused page waits before it tries a stream again (it polls meanwhile). The
# browser's EventSource cannot read it; live.js waits at least as long by itself.
STREAM_RETRY_AFTER_SECONDS = 60

# Why a stream was refused (live.StreamSlots.take): the status and the code of the answer.
REFUSALS: dict[str, tuple[int, str]] = {"address": (429, "rate_limited"), "process": (503, "unavailable")}


def is_stream_path(path: str) -> bool:
    """Whether ``path`` is a match's event stream."""
    return STREAM_PATH.fullmatch(path) is not None


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


@require_http_methods(STREAM_METHODS)
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
    return stream_response(_SlotHeld(match_events(match_id, seq), address))


def stream_response(events: AsyncIterator[str] | tuple[()]) -> StreamingHttpResponse:
    """An answer that streams ``events``, with the stream's own headers."""
    stream = StreamingHttpResponse(events, content_type="text/event-stream")
    stream["Cache-Control"] = "no-cache, no-transform"
    stream["X-Accel-Buffering"] = "no"  # a proxy must pass each event on as it comes
    return stream


async def stream_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The stream as a plain ASGI application (see the module's docstring).

    Asks of the request and puts on its answers what Django's middleware would, from the
    same functions (``marquoir.policy``): the host, HTTPS, the method, the security headers,
    the access log line; then checks the caps on open streams and the match. The client
    going away (``http.disconnect``) ends the stream at once."""
    started = time.perf_counter()
    method = str(scope.get("method", "GET"))
    path = str(scope.get("path", ""))
    status = 200
    slot: str | None = None  # the client's address, while it holds a stream's slot
    try:
        request = policy.django_request(scope)
        language = api_language(request)
        address = STREAM_PATH.fullmatch(path)
        events: AsyncIterator[str] | None = None
        answer: HttpResponse | StreamingHttpResponse
        if (refused := policy.refusal(request, STREAM_METHODS)) is not None:
            answer = refused
        elif (full := stream_slots.take(client := client_key(request))) is not None:
            answer = JsonResponse(refusal_body(language, full), status=REFUSALS[full][0])
            answer["Retry-After"] = str(STREAM_RETRY_AFTER_SECONDS)
            # Closed at once: a refused client keeps no descriptor, even one that holds on.
            answer["Connection"] = "close"
        else:
            slot = client
            if address is None or (seq := await _seq_or_none(address["match_id"])) is None:
                answer = JsonResponse(error_body(language, "not_found"), status=404)
            elif seq < 0:
                answer = JsonResponse(error_body(language, "server_error"), status=500)
            else:
                answer = stream_response(())  # its headers; the events go out as they come, below
                events = match_events(address["match_id"], seq)
        status = answer.status_code
        await send(policy.response_start(policy.finish(request, answer)))
        if events is not None:
            await _stream_until_gone(events, receive, send)
        else:
            body = answer.content if isinstance(answer, HttpResponse) else b""
            await send({"type": "http.response.body", "body": body})
    finally:
        if slot is not None:
            stream_slots.give_back(slot)
        policy.log_access(method, path, status, started)


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
