"""What the box says about Pickomino: the facts the catalog and the page show."""

from __future__ import annotations

from ..meta import GameMeta

META = GameMeta(
    slug="pickomino",
    names={"en": "Pickomino", "fr": "Pickomino"},
    original_name="Heckmeck am Bratwurmeck",
    category="dice",
    min_players=2,
    max_players=7,
    minutes=20,
    min_age=8,
    released=2005,
    designers=("Reiner Knizia",),
    publishers=("Gigamic", "Zoch"),
    bgg_id=15818,
    other_names=("Heckmeck", "Heckmeck am Bratwurmeck", "Regenwormen"),
)
