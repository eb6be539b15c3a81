"""The games the catalog lists, read from the one registry (``marquoir.registry``): every
installed game that has box facts, in catalog order (by category, then as installed), with
its quick reference. The catalog imports no game's keeper: it reads the definitions the
registry found, as the match core does."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol, cast

from marquoir.games.meta import CATEGORIES, GameMeta
from marquoir.registry import installed_games


class CatalogedGame(Protocol):
    """What the catalog reads of a game's definition (``marquoir.tables.keepers.Keeper``)."""

    @property
    def meta(self) -> GameMeta | None: ...

    @property
    def reference_template(self) -> str: ...

    def reference(self) -> object | None: ...


def _definitions() -> Mapping[str, CatalogedGame]:
    return cast("Mapping[str, CatalogedGame]", installed_games())


def _catalogued() -> dict[str, GameMeta]:
    metas = [game.meta for game in _definitions().values() if game.meta is not None]
    # sorted() keeps the installation order within a category.
    metas.sort(key=lambda meta: CATEGORIES.index(meta.category) if meta.category in CATEGORIES else len(CATEGORIES))
    return {meta.slug: meta for meta in metas}


class _Games(Mapping[str, GameMeta]):
    """The catalogued games by slug, read from the registry when asked (a test that installs
    a game of its own sees it)."""

    def __getitem__(self, slug: str) -> GameMeta:
        return _catalogued()[slug]

    def __iter__(self) -> Iterator[str]:
        return iter(_catalogued())

    def __len__(self) -> int:
        return len(_catalogued())


GAMES: Mapping[str, GameMeta] = _Games()
"""Every installed game with box facts, by slug, in the order the catalog shows them."""


def get_game(slug: str) -> GameMeta | None:
    """The game registered as ``slug``, or None."""
    return _catalogued().get(slug)


def games_in(category: str) -> tuple[GameMeta, ...]:
    """The registered games of ``category``, in catalog order."""
    return tuple(game for game in _catalogued().values() if game.category == category)


def games_by_category() -> tuple[tuple[str, tuple[GameMeta, ...]], ...]:
    """Each category that has at least one game, with its games, in catalog order."""
    return tuple((category, games) for category in CATEGORIES if (games := games_in(category)))


def keeps_score(slug: str) -> bool:
    """Whether Marquoir keeps the score of this game (every installed game is a keeper)."""
    return slug in _definitions()


def reference_for(slug: str) -> tuple[str, object] | None:
    """The quick reference template and its data for game ``slug`` (built in the page's
    language), or None if it has none."""
    game = _definitions().get(slug)
    reference = game.reference() if game is not None else None
    if game is None or reference is None:
        return None
    return game.reference_template, reference
