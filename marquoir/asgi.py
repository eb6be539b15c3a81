"""ASGI entry point (uvicorn, and gunicorn with uvicorn workers in production).

Every view of the site is synchronous except the live event streams. Django's own ASGI
handler runs the middleware chain in async mode, so a synchronous request crosses
between the event loop and a worker thread a dozen times (each of Django's middleware
runs its request and response halves in a thread of their own), and under load every
crossing waits for the interpreter lock; each request also gets a new thread, and so a
new database connection. Here a synchronous request runs its whole middleware chain and
view in one trip to one of a few long-lived threads, which keep their connections; a
request for an async view (a live stream) goes to Django's handler unchanged, so it holds
no thread while it waits. Same middleware, same views, same answers: only the thread
switches differ.
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.asgi import get_asgi_application
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponseBadRequest, HttpResponseBase, StreamingHttpResponse
from django.urls import Resolver404, resolve, set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marquoir.settings")
django_handler = get_asgi_application()


# The threads that run synchronous requests: a fixed few per process, reused, so each keeps
# its database connection (SQLite opens one in about a millisecond, a third of a small
# request) and a burst of requests queues here in order instead of a thread each fighting
# for the interpreter lock.
sync_executor = ThreadPoolExecutor(max_workers=settings.MARQUOIR_SYNC_THREADS, thread_name_prefix="marquoir-sync")


class SyncStackHandler(ASGIHandler):
    """Django's ASGI handler for synchronous views: the whole request (signals, middleware
    chain built for sync, view, request_finished) runs in one trip to a worker thread."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await self.handle(scope, receive, send)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await sync_to_async(self.respond, thread_sensitive=False, executor=sync_executor)(
                scope, body_file
            )
            if isinstance(response, StreamingHttpResponse) and not response.is_async:
                # A file (whitenoise): read it in the same threads, a chunk at a time,
                # rather than have Django warn and read it through its own.
                response.streaming_content = chunks_in_thread(cast(Iterator[bytes], response.streaming_content))
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass  # the client went away while the answer was sent
            finally:
                if response.streaming:  # static files: closed once sent
                    await sync_to_async(response.close, thread_sensitive=False, executor=sync_executor)()
        finally:
            body_file.close()

    def respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """The response to one request, in a worker thread: what Django's ASGI handler does,
        in the same order, but without leaving the thread between the steps."""
        set_script_prefix(get_script_prefix(scope))
        # request_started closes this thread's connection if it is too old or broken.
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:  # a body that cannot be read: Django's own 400 or 413
            response: HttpResponseBase = error_response or HttpResponseBadRequest()
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        if not response.streaming:
            # The body is complete, so the request can finish here, in the thread that
            # holds its database connection (request_finished closes or keeps it).
            response.close()
        return response


async def chunks_in_thread(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    """The chunks of a synchronous iterator, each read in one of the synchronous threads."""

    def next_chunk() -> bytes | None:
        return next(chunks, None)

    read = sync_to_async(next_chunk, thread_sensitive=False, executor=sync_executor)
    while (chunk := await read()) is not None:
        yield chunk


sync_stack = SyncStackHandler()

# What is loaded by now (Django, the apps, the URL patterns, the templates' machinery) lives
# as long as the process: set it aside from the garbage collector, whose full passes would
# otherwise walk all of it again and again, pausing every request in the process for tens
# of milliseconds under load (measured with `make bench-load`).
gc.collect()
gc.freeze()


def serves_async_view(scope: dict[str, Any]) -> bool:
    """Whether the request's path leads to an async view (the live streams)."""
    path = scope.get("path", "")
    root = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    try:
        view = resolve(path or "/").func
    except Resolver404:
        return False
    return iscoroutinefunction(view)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    handler = django_handler if scope["type"] != "http" or serves_async_view(scope) else sync_stack
    await handler(scope, receive, send)
