"""Small readers for settings taken from the environment (as healthchecks does)."""

from __future__ import annotations

import os


def env(name: str, default: str = "") -> str:
    """The variable's text, or ``default`` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """True for 1/true/yes/on (any case), False for anything else set; ``default`` when unset."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """The variable as a whole number, or ``default`` when unset."""
    value = os.environ.get(name, "")
    return int(value) if value else default


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated variable as a list of non-empty, trimmed items."""
    return [item.strip() for item in env(name, default).split(",") if item.strip()]
