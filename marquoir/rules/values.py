"""Checks on the values a game's actions carry, the same for every game."""

from __future__ import annotations


def is_whole_number(value: object) -> bool:
    """Whether ``value`` is an int and not a bool: ``True`` is an int to Python, never a
    score or a count to a player."""
    return isinstance(value, int) and not isinstance(value, bool)
