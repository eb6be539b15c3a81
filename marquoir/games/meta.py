"""Facts about a game in its box, shared by every game package (pure data, no Django)."""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES: tuple[str, ...] = ("dice", "cards", "board", "party", "cooperative", "outdoor")
"""The categories a game may be in, in the order the catalog shows them. The labels people
read ("Dice games") belong to the web layer, which translates them; here a category is
only a key."""


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
    bgg_id: int | None = None
    """The game's id on BoardGameGeek (BG Stats links plays by it); None if unchecked."""
    other_names: tuple[str, ...] = ()
    """Other names people know the box by (Les Aventuriers du Rail, Zug um Zug), for the
    catalog to find it by."""
    sources: tuple[str, ...] = ()
    """Where the rules Marquoir keeps were checked (the rules page lists them)."""
