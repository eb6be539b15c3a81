"""Logs a machine can read: one JSON object per line, and an access log that keeps secrets out.

The access log records the path without its query string and never a header, so an edit
token (in ``Authorization``) or a join key can never end up in a log file. Nor does an id:
knowing a match's id is the right to watch it, a group's the right to see it, so each id in a
path is logged as a short tag (``~3f9a1c7e``), the same for every request on that match, of
no use to find the match from.
"""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from .middleware import AfterViewMiddleware

access_logger = logging.getLogger("marquoir.access")

_STANDARD_ATTRIBUTES = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


# A path segment shaped like an id: the ids we make are at least 22 characters of the URL-safe
# alphabet (matches, groups: 128 random bits; plays: a UUID), and no literal segment of our
# addresses is that long and dot-free (tests/test_logs.py checks every route in both
# languages). Shorter made-up ids name nothing, so they give no right away.
# An id alone in a segment (/tables/<id>/), or a user's own game's in its game key
# (/tables/new/own.<id>/, /api/v1/games/own.<id>.3): its id is the right to play it.
_ID_SEGMENT = re.compile(r"(?<=/)[A-Za-z0-9_-]{16,64}(?=/|$)|(?<=/own\.)[A-Za-z0-9_-]{16,32}(?=[./]|$)")
_TAG_SALT = "marquoir.logs.capability-tag"


def id_tag(identifier: str) -> str:
    """A short tag for ``identifier``: the first 8 hex digits of an HMAC under SECRET_KEY, so
    the same id always gets the same tag (a match's requests can be followed in the log), and
    without the key nobody can even check a guessed id against it."""
    return "~" + salted_hmac(_TAG_SALT, identifier, algorithm="sha256").hexdigest()[:8]


def loggable_path(path: str) -> str:
    """``path`` with every id in it replaced by its tag; static files are left as they are."""
    if path.startswith("/static/"):
        return path
    return _ID_SEGMENT.sub(lambda found: id_tag(found.group(0)), path)


class HideCapabilities(logging.Filter):
    """On the loggers that name paths (settings.LOGGING: the access log, whoever writes it,
    the live streams included; Django's request errors; the API's): every path goes out with
    its ids as tags, in the message's arguments and in the ``path`` field."""

    def filter(self, record: logging.LogRecord) -> bool:
        path = getattr(record, "path", None)
        if isinstance(path, str):
            record.path = loggable_path(path)
        if isinstance(record.args, tuple):
            record.args = tuple(
                loggable_path(arg) if isinstance(arg, str) and arg.startswith("/") else arg for arg in record.args
            )
        return True


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", …extra fields}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if isinstance(value, HttpRequest):  # Django's request errors: its str() has the whole path
                entry[key] = f"{value.method} {loggable_path(value.path)}"
            elif key not in _STANDARD_ATTRIBUTES and not key.startswith("_"):
                entry[key] = value if isinstance(value, str | int | float | bool | type(None)) else str(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def log_access(method: str, path: str, status: int, started: float) -> None:
    """The access log's line for one answer: method, path (no query, ids as tags), status,
    and the time since ``started`` (a ``time.perf_counter()``). Written by
    ``AccessLogMiddleware`` for pages and the API, and by the live streams' door."""
    logged_path = loggable_path(path)
    access_logger.info(
        "%s %s %s",
        method,
        logged_path,
        status,
        extra={
            "method": method,
            "path": logged_path,
            "status": status,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
        },
    )


class AccessLogMiddleware(AfterViewMiddleware):
    """One line per request (``log_access``)."""

    def after(self, request: HttpRequest, response: HttpResponse, started: float) -> HttpResponse:
        log_access(str(request.method), request.path, response.status_code, started)
        return response
