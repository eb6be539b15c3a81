"""A live stream the server refuses (its caps on open streams: 429 or 503) leaves the table
following by polling, and the page does not knock at the stream again and again."""

from __future__ import annotations

import json
from collections.abc import Callable

from playwright.sync_api import Page, Route, expect

from .helpers import MakePage
from .test_table import record, start_match


def test_a_refused_stream_falls_back_to_polling_and_tries_again_later_without_hammering(make_page: MakePage) -> None:
    ada = make_page()
    table = start_match(ada, "Ada", "Ben")
    watcher = make_page()
    asked: list[str] = []

    def refuse(route: Route) -> None:
        asked.append(route.request.url)
        body = {"error": {"code": "rate_limited", "message": "Too many live pages are open from here."}}
        route.fulfill(status=429, headers={"Retry-After": "60"}, content_type="application/json", body=json.dumps(body))

    watcher.route("**/events", refuse)
    watcher.clock.install()  # the page's timers, to jump to its next try of the stream
    watcher.goto(table)
    record(ada, 29, "Take 29 from the grill", log="Ada took 29")
    expect(watcher.locator(".log__lines li").first).to_contain_text("Ada took 29", timeout=10_000)
    record(ada, 27, "Take 27 from the grill", log="Ben took 27")
    expect(watcher.locator(".log__lines li").first).to_contain_text("Ben took 27", timeout=10_000)
    # Two turns followed by polling, several seconds: the stream was asked for once (the
    # next try waits a minute at least).
    assert len(asked) == 1, asked
    watcher.clock.fast_forward(80_000)  # past the first wait (45 to 75 s): one more try
    wait_until(watcher, lambda: len(asked) >= 2)
    assert len(asked) == 2, asked
    watcher.clock.fast_forward(80_000)  # the next wait doubled (90 to 150 s): not yet
    watcher.wait_for_timeout(1_000)
    assert len(asked) == 2, asked


def wait_until(page: Page, condition: Callable[[], bool]) -> None:
    for _ in range(100):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page did not do it within 10 s")
