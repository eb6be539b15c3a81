"""What the box says about Yahtzee (Yam's in French homes): the facts the catalog and the page show."""

from __future__ import annotations

from ..meta import GameMeta

META = GameMeta(
    slug="yahtzee",
    names={"en": "Yahtzee", "fr": "Yahtzee"},
    original_name="Yahtzee",
    category="dice",
    # The box says "1 or more players"; a sheet per player, and Marquoir keeps up to 8.
    min_players=1,
    max_players=8,
    minutes=30,
    min_age=8,
    released=1956,
    # Nobody is credited with the game: E. S. Lowe bought it from the couple who played it
    # on their yacht. The page shows no designer rather than a made-up one.
    designers=(),
    publishers=("Milton Bradley / Hasbro", "E. S. Lowe"),
    bgg_id=2243,
    other_names=("Yam's", "Yams", "Yatzy"),
)
