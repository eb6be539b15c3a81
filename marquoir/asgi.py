"""ASGI entry point (uvicorn, and gunicorn with uvicorn workers in production).

Two standard parts side by side, each for what it is made for:

- every request but the live streams (the pages and the API, synchronous views) goes to
  Django's WSGI handler, run by a2wsgi in a fixed pool of long-lived threads. A request
  runs its whole middleware chain and view in one trip to one thread, which keeps its
  database connection (``CONN_MAX_AGE``). Under Django's ASGI handler a synchronous
  request would cross between the event loop and a thread of its own once per
  middleware, and open a new database connection each time. Its body is read whole in
  the event loop first, bounded in size and time (``marquoir.bodies``), so that a slow
  client never holds one of those threads;
- the live streams (``/api/v1/matches/<id>/events``) go to ``stream_app``, a plain ASGI
  application: an open stream waits on a queue and holds no thread (see
  ``marquoir.tables.stream`` for why not Django's ASGI handler).

Only public APIs: Django's ``get_wsgi_application``, a2wsgi's ``WSGIMiddleware``, ASGI.
"""

from __future__ import annotations

import gc
import os
from typing import Any

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import reverse
from django.utils import translation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marquoir.settings")
threaded_pages = WSGIMiddleware(get_wsgi_application(), workers=settings.MARQUOIR_SYNC_THREADS)  # type: ignore[arg-type]

# Needs the apps loaded (by get_wsgi_application above).
from marquoir.bodies import BoundedBodies, Budget, Deadline  # noqa: E402
from marquoir.groups.gate import import_gate  # noqa: E402
from marquoir.tables.stream import is_stream_path, stream_app  # noqa: E402


def import_paths() -> list[str]:
    """The addresses that take a group's exported file: the page in each language, and the
    API's. Found by name, so that a renamed or translated address keeps its limit."""
    paths = ["/api/v1/groups/import"]
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            paths.append(reverse("groups:import"))
    return paths


# Django's own limit everywhere (it would refuse a larger form anyway, but only once a
# thread had read it); the import's file for its addresses (marquoir.settings).
pages = BoundedBodies(
    threaded_pages,  # type: ignore[arg-type]
    limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    larger_limits=dict.fromkeys(import_paths(), settings.MARQUOIR_IMPORT_BODY_BYTES),
    # An address whose import budget is spent is refused before its file is read.
    gates=dict.fromkeys(import_paths(), import_gate),
    deadline=Deadline(settings.MARQUOIR_BODY_GRACE_SECONDS, settings.MARQUOIR_BODY_MIN_BYTES_PER_SECOND),
    budget=Budget(settings.MARQUOIR_BODY_BUFFER_BYTES),
)

# What is loaded by now (Django, the apps, the URL patterns, the templates' machinery) lives
# as long as the process: set it aside from the garbage collector, whose full passes would
# otherwise walk all of it again and again, pausing every request in the process for tens
# of milliseconds under load (measured with `make bench-load`).
gc.collect()
gc.freeze()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and is_stream_path(scope.get("path", "")):
        await stream_app(scope, receive, send)
    else:
        await pages(scope, receive, send)
