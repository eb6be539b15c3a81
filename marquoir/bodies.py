"""Request bodies are read whole in the event loop, bounded in size and time, before any
thread is taken.

a2wsgi runs the pages and the API in a fixed pool of threads (``marquoir.asgi``), and a
WSGI application reads its body from the thread: a client that declares
``Content-Length: 1000`` and sends a byte a second would hold that thread for as long as
it likes, and sixteen such clients would hold them all. Here the body is gathered by the
event loop, where a slow client costs a coroutine and its bytes, and the thread is asked
for only once the whole body is in memory; the WSGI side then reads it from memory.

- A declared ``Content-Length`` over the limit is refused at once (413), nothing read.
- A body sent without a length (chunked) is refused as soon as it passes the limit.
- A body that comes too slowly is refused (408); see ``Deadline`` for what "too slowly"
  means and why.
- The bodies held at once in a process are bounded too (503 beyond); see ``Budget``.

The limit is Django's own (``DATA_UPLOAD_MAX_MEMORY_SIZE``), larger only for the paths
given (the group import, whose files run to megabytes). Refusals are the API's JSON under
``/api/`` and a small page in the reader's language elsewhere.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from marquoir.policy import security_headers
from marquoir.tables.api_errors import API_PREFIX, error_body, language_of

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Extensions of the contract's codes (docs/api.md).
REQUEST_TIMEOUT_CODE = "request_timeout"
BUSY_CODE = "unavailable"
RETRY_AFTER_BUSY_SECONDS = 5


@dataclass(frozen=True)
class Deadline:
    """When a body must be complete: ``grace_seconds`` plus one second per
    ``min_bytes_per_second`` received, counted from the first wait.

    A minimum average rate rather than one total deadline: an import's megabytes on a poor
    mobile uplink take tens of seconds, and a total deadline long enough for them would let
    a one-byte-a-second client hold its connection (and its buffered bytes) just as long on
    every other address. With a rate, a body that keeps coming at a real network's pace
    always finishes, and one that trickles is cut after the grace. An average, not a
    per-read timeout: a per-read timeout is beaten by sending one byte just before each
    timeout falls due."""

    grace_seconds: float
    min_bytes_per_second: float

    def seconds_left(self, started: float, received: int, now: float) -> float:
        return started + self.grace_seconds + received / self.min_bytes_per_second - now


class BodyTooLarge(Exception):
    pass


class BodyTooSlow(Exception):
    pass


class ClientGone(Exception):
    pass


class ServerBusy(Exception):
    pass


class Budget:
    """The bytes of bodies this process holds at once, bounded.

    Each body is bounded, but the event loop takes any number of them at a time, where the
    threads' pool used to be the bound: without a budget, a few hundred clients sending
    import-sized bodies at a real network's pace would fill the memory. A body counts from
    its declared length, before it is read (a chunked one as its bytes come), until its
    request ends; beyond the budget, 503 and nothing read. One event loop per process, so
    no lock."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, size: int) -> None:
        if self.held + size > self.limit:
            raise ServerBusy
        self.held += size

    def give_back(self, size: int) -> None:
        self.held -= size


def _declared_length(scope: Scope) -> int | None:
    """The ``Content-Length`` the client declared; None if none (or one the server let
    through unread: the body is then bounded as it comes, like a chunked one)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            return int(value) if value.strip().isdigit() else None
    return None


def _has_body(scope: Scope) -> bool:
    """Whether a body follows the headers: a length, or a transfer coding (chunked)."""
    return any(name.lower() in (b"content-length", b"transfer-encoding") for name, _value in scope.get("headers", ()))


async def read_body(receive: Receive, limit: int, deadline: Deadline, reserve: Callable[[int], None]) -> bytes:
    """The whole body, at most ``limit`` bytes, within ``deadline``; raises otherwise.
    ``reserve(total)`` is told of the bytes received so far before each chunk is kept (and
    raises to refuse it)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    chunks: list[bytes] = []
    received = 0
    more = True
    while more:
        left = deadline.seconds_left(started, received, loop.time())
        if left <= 0:
            raise BodyTooSlow
        try:
            message = await asyncio.wait_for(receive(), timeout=left)
        except TimeoutError:
            raise BodyTooSlow from None
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        received += len(chunk)
        if received > limit:
            raise BodyTooLarge
        reserve(received)
        chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands over ``body`` in one message, then what the client says
    (its disconnect, once the answer is sent)."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _with_length(scope: Scope, length: int) -> Scope:
    """The scope as if the body had come with its ``Content-Length``: a chunked body is now
    whole, and WSGI (Django) reads a body only up to a declared length."""
    headers = [
        (name, value)
        for name, value in scope.get("headers", ())
        if name.lower() not in (b"content-length", b"transfer-encoding")
    ]
    return {**scope, "headers": [*headers, (b"content-length", str(length).encode())]}


class BoundedBodies:
    """ASGI middleware: gather each body in the loop (see the module's docstring), then call
    ``app`` with a ``receive`` that replays it."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: int,
        larger_limits: dict[str, int] | None = None,
        deadline: Deadline,
        budget: Budget,
        gates: Mapping[str, Gate] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger_limits = larger_limits or {}
        self.deadline = deadline
        self.budget = budget
        self.gates = gates or {}

    def limit_for(self, path: str) -> int:
        return self.larger_limits.get(path, self.limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await refuse(scope, send, 413, limit)
            return
        gate = self.gates.get(scope.get("path", ""))
        refusal = gate(scope) if gate is not None else None
        if refusal is not None:  # refused whatever the body says: it is not even read
            await send_answer(scope, send, refusal)
            return
        held = 0

        def reserve(total: int) -> None:
            nonlocal held
            if total > held:
                self.budget.take(total - held)
                held = total

        try:
            try:
                reserve(declared or 0)
                body = await read_body(receive, limit, self.deadline, reserve)
            except BodyTooLarge:
                await refuse(scope, send, 413, limit)
                return
            except BodyTooSlow:
                await refuse(scope, send, 408, limit)
                return
            except ServerBusy:
                await refuse(scope, send, 503, limit)
                return
            except ClientGone:
                return  # nobody to answer
            await self.app(_with_length(scope, len(body)), _replaying(body, receive), send)
        finally:
            self.budget.give_back(held)


def request_language(scope: Scope) -> str:
    """The reader's language: the address's own (/en/, /fr/), else the one asked for by
    ``Accept-Language``, as Django's LocaleMiddleware decides for the pages."""
    path_language = translation.get_language_from_path(scope.get("path", ""))
    if path_language:
        return path_language
    headers = {name.lower(): value for name, value in scope.get("headers", ())}
    return language_of(headers.get(b"accept-language", b"").decode("latin-1"))


def _refusal_words(status: int, limit: int) -> tuple[str, str]:
    """The title and sentence of a refusal page, in the active language."""
    if status == 413:
        return (
            _("This is too large to send"),
            _("What was sent is larger than %(limit)s, the most this address accepts. Go back and send less.")
            % {"limit": filesizeformat(limit)},
        )
    if status == 503:
        return (
            _("The server is busy"),
            _(
                "It is receiving many other requests at once: what you sent was not taken into account. "
                "Try again in a moment."
            ),
        )
    return (
        _("This took too long to arrive"),
        _("What was sent came too slowly and was not taken into account. Go back and send it again."),
    )


def _api_body(language: str, status: int) -> dict[str, Any]:
    """The 408 and 503 refusals in the contract's shape (413 is the API's own ``too_large``)."""
    with translation.override(language):
        if status == 503:
            code = BUSY_CODE
            message = _("The server is busy receiving other requests; nothing was changed. Try again in a moment.")
        else:
            code = REQUEST_TIMEOUT_CODE
            message = _("The request body came too slowly; nothing was changed. Send it again.")
    return {"error": {"code": code, "message": message}}


async def refuse(scope: Scope, send: Send, status: int, limit: int) -> None:
    """Answer 413, 408 or 503 before the body is (wholly) read, and close the connection:
    what is left of the body would otherwise be read as the next request."""
    language = request_language(scope)
    payload = error_body(language, "too_large", limit=limit) if status == 413 else _api_body(language, status)
    with translation.override(language):
        title, sentence = _refusal_words(status, limit)
    retry = [("Retry-After", str(RETRY_AFTER_BUSY_SECONDS))] if status == 503 else []
    refusal = refusal_for(scope, status, language, payload=payload, title=title, sentence=sentence, headers=retry)
    await send_answer(scope, send, refusal)


def refusal_for(
    scope: Scope,
    status: int,
    language: str,
    *,
    payload: dict[str, Any],
    title: str,
    sentence: str,
    headers: Sequence[tuple[str, str]] = (),
) -> Refusal:
    """A refusal made before Django is reached: ``payload`` (the contract's error shape) as
    JSON on /api/, elsewhere a small page in ``language`` saying ``title`` and ``sentence``."""
    if scope.get("path", "").startswith(API_PREFIX):
        return Refusal(status, "application/json", json.dumps(payload).encode(), language, list(headers))
    page = format_html(
        '<!doctype html><html lang="{}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>{}</title></head><body><h1>{}</h1><p>{}</p></body></html>",
        language,
        title,
        title,
        sentence,
    )
    return Refusal(status, "text/html; charset=utf-8", page.encode(), language, list(headers))


@dataclass(frozen=True)
class Refusal:
    """An answer given before the body is read: its status, body and language, and any
    header of its own (``Retry-After``)."""

    status: int
    content_type: str
    content: bytes
    language: str
    headers: list[tuple[str, str]] = field(default_factory=list)


Gate = Callable[[Scope], "Refusal | None"]
"""Asked before an address's body is read: a refusal, or None to read it."""


async def send_answer(scope: Scope, send: Send, refusal: Refusal) -> None:
    """Send ``refusal`` and close the connection: what is left of the body would otherwise
    be read as the next request."""
    headers = [
        ("Content-Type", refusal.content_type),
        ("Content-Length", str(len(refusal.content))),
        ("Content-Language", refusal.language),
        ("Connection", "close"),
        *refusal.headers,
        *security_headers(scope),
    ]
    await send(
        {
            "type": "http.response.start",
            "status": refusal.status,
            "headers": [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
        }
    )
    await send({"type": "http.response.body", "body": refusal.content})
