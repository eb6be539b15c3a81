"""``asyncio.run`` for tests that drive ASGI applications by hand.

Playwright's sync API parks a running event loop in the main thread for the whole session
once a browser test has run (tests/browser/conftest.py), and ``asyncio.run`` refuses to
start inside a running loop. A coroutine is run here on a thread of its own, with a loop of
its own, whatever the main thread holds; its result or exception comes back as is.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to the end on a fresh event loop in its own thread."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as failure:
            outcome["error"] = failure

    thread = threading.Thread(target=run, name="run-async")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
