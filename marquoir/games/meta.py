"""Facts about a game in its box, shared by every game package (pure data, no Django)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameMeta:
    """A game's box facts; texts for people (pitch, mechanics, contents) live in its content."""

    slug: str
    names: dict[str, str]
    original_name: str
    category: str
    min_players: int
    max_players: int
    minutes: int
    min_age: int
    released: int
    designers: tuple[str, ...]
    publishers: tuple[str, ...]
