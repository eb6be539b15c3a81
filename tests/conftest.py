"""Shared fixtures and the summary of what the property tests played."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test.client import Client
from django.utils import translation

from .api_answers import check_answer
from .volume import PROPERTY_VOLUME


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Iterator[None]:
    """A request to a /fr/ page leaves French active in the thread; no test inherits it."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _actions_are_not_rate_limited_unless_a_test_says(settings: Any) -> Iterator[None]:
    """Tests play whole games in a fraction of a second, which the per-match and
    per-address action limits (meant for abuse) would refuse: each test starts with an
    empty in-memory limiter and limits out of reach; the rate-limit tests set their own
    with ``override_settings`` (which applies inside this)."""
    from marquoir.tables.ratelimit import LIMITER

    LIMITER.clear()
    settings.MATCH_ACTION_LIMIT = settings.MATCH_ACTION_ADDRESS_LIMIT = 10**9
    yield
    LIMITER.clear()


@pytest.fixture(autouse=True)
def _every_api_answer_fits_the_openapi(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each answer Django's test client gets from /api/v1/ is checked against the OpenAPI
    schema the app serves (tests/api_answers.py), in every test."""
    real_request = Client.request

    def request(self: Client, **environ: Any) -> Any:
        response = real_request(self, **environ)
        if not getattr(response, "streaming", False):
            check_answer(
                environ.get("REQUEST_METHOD", "GET"),
                environ.get("PATH_INFO", ""),
                response.status_code,
                response.get("Content-Type", ""),
                response.content,
            )
        return response

    monkeypatch.setattr(Client, "request", request)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if PROPERTY_VOLUME.games:
        terminalreporter.write_line(
            f"property tests: {PROPERTY_VOLUME.games} random games, {PROPERTY_VOLUME.actions} actions"
        )
