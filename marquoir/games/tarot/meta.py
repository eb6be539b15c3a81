"""What there is to know about French Tarot before dealing: the facts the catalog and the page show.

Tarot is a traditional game, in no box of its own: the facts are those of the 78-card deck
and of the rules of the Fédération Française de Tarot (FFT), which Marquoir keeps.
"""

from __future__ import annotations

from ..meta import GameMeta

META = GameMeta(
    slug="tarot",
    names={"en": "French Tarot", "fr": "Tarot"},
    original_name="Tarot",
    category="cards",
    min_players=3,
    max_players=5,
    # A deal, not a game: the players agree how many deals they play (the page says so).
    minutes=10,
    min_age=10,
    # Played in France since the 16th century; the year the FFT was founded and made the
    # modern rules official, which are the rules this page sums up (its text says so).
    released=1973,
    designers=(),
    publishers=("Fédération Française de Tarot",),
    other_names=("Jeu de tarot",),
)
