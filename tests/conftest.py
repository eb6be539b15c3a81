"""Shared fixtures and the summary of what the property tests played."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from .volume import PROPERTY_VOLUME


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Iterator[None]:
    """A request to a /fr/ page leaves French active in the thread; no test inherits it."""
    with translation.override("en"):
        yield


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if PROPERTY_VOLUME.games:
        terminalreporter.write_line(
            f"property tests: {PROPERTY_VOLUME.games} random games, {PROPERTY_VOLUME.actions} actions"
        )
