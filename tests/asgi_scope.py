"""An HTTP request's ASGI scope as uvicorn makes it, for tests that drive an ASGI
application by hand (the entry point, the body reader, the live stream)."""

from __future__ import annotations

from typing import Any


def http_scope(path: str, method: str = "GET", **headers: str) -> dict[str, Any]:
    """The scope of ``method path`` from 127.0.0.1 to ``testserver``; ``headers`` by their
    Python names (``content_length="4"`` is ``Content-Length: 4``), after ``Host``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            *((name.replace("_", "-").lower().encode(), value.encode()) for name, value in headers.items()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
