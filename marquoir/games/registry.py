"""The games Marquoir knows, by slug and by category (pure data, no Django).

Adding a game: give it a package with its ``META`` and content, then list it here. The
labels people read for a category ("Dice games") belong to the web layer, which
translates them; here a category is only a key.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .meta import GameMeta
from .pickomino.meta import META as PICKOMINO
from .tarot.meta import META as TAROT
from .yahtzee.meta import META as YAHTZEE

CATEGORIES: tuple[str, ...] = ("dice", "cards")
"""Category keys, in the order the catalog shows them."""

GAMES: Mapping[str, GameMeta] = MappingProxyType({game.slug: game for game in (PICKOMINO, YAHTZEE, TAROT)})
"""Every registered game, by slug, in the order the catalog shows them."""


def get_game(slug: str) -> GameMeta | None:
    """The game registered as ``slug``, or None."""
    return GAMES.get(slug)


def games_in(category: str) -> tuple[GameMeta, ...]:
    """The registered games of ``category``, in catalog order."""
    return tuple(game for game in GAMES.values() if game.category == category)


def games_by_category() -> tuple[tuple[str, tuple[GameMeta, ...]], ...]:
    """Each category that has at least one game, with its games, in catalog order."""
    return tuple((category, games) for category in CATEGORIES if (games := games_in(category)))
