"""Shared fixtures and the summary of what the property tests played."""

from __future__ import annotations

from typing import Any

from .volume import PROPERTY_VOLUME


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if PROPERTY_VOLUME.games:
        terminalreporter.write_line(
            f"property tests: {PROPERTY_VOLUME.games} random games, {PROPERTY_VOLUME.actions} actions"
        )
