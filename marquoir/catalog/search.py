"""Finding a game in the catalog: by a name, the number of players, the time and the category.

Pure (no Django, no request): the home page's view reads the form through :func:`read_filters`
and keeps the cards for which :func:`matches` holds; its script (static/js/catalog.js) does the
same in the browser from what the cards carry (:func:`search_keys` as ``data-keys``), so the
page with and without JavaScript shows the same games.

A name is compared folded: case and accents ignored (casefold, NFKD, combining marks
dropped), and of the rest only letters and digits kept ("Yam's" is "yams", "Mölkky" is
"molkky", "6 nimmt!" is "6nimmt"). A query finds a name when it begins one of the name's
words, the words after it included ("aventu", "aventuriers du r" and "durail" find Les
Aventuriers du Rail).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from marquoir.games.meta import GameMeta

QUERY_MAX_LENGTH = 100
"""The longest query read; the rest is cut off (the form says so with ``maxlength``)."""

MINUTES_CHOICES: tuple[int, ...] = (15, 30, 45, 60)
"""The times the form offers: the games that last at most that long."""

_DIGITS_MAX = 4
"""A number in the address longer than this is no choice of the form: it is ignored unread."""


def fold(text: str) -> str:
    """``text`` as names are compared: casefolded, without accents, letters and digits only.

    Decomposed before casefolding (a compatibility form may decompose to capitals: ℉ to °F)
    and after (casefolding may compose); the page's script folds in the same order."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    return "".join(char for char in decomposed if char.isalnum())


def _words(name: str) -> list[str]:
    """The words of ``name``, split at spaces and dashes (each then folded, empty ones dropped)."""
    spaced = "".join(" " if char.isspace() or unicodedata.category(char) == "Pd" else char for char in name)
    return [folded for word in spaced.split() if (folded := fold(word))]


def search_keys(names: Iterable[str]) -> tuple[str, ...]:
    """What a query is matched against: for each name, from each of its words to its end, folded.

    "Les Aventuriers du Rail" gives lesaventuriersdurail, aventuriersdurail, durail, rail: a
    query finds the name when one of them begins with the folded query.
    """
    keys: dict[str, None] = {}
    for name in names:
        words = _words(name)
        for start in range(len(words)):
            keys["".join(words[start:])] = None
    return tuple(keys)


@dataclass(frozen=True, slots=True)
class Filters:
    """What the form asks: each filter None (or an empty query) when not asked."""

    query: str = ""
    players: int | None = None
    minutes: int | None = None
    category: str | None = None

    @property
    def folded_query(self) -> str:
        return fold(self.query)

    @property
    def active(self) -> bool:
        """Whether any filter narrows the catalog (a query of punctuation only does not)."""
        return bool(self.folded_query) or any(
            value is not None for value in (self.players, self.minutes, self.category)
        )


@dataclass(frozen=True, slots=True)
class Choices:
    """What the form offers, from the games there are: a value outside them is ignored."""

    players: tuple[int, ...]
    minutes: tuple[int, ...]
    categories: tuple[str, ...]


def choices_for(games: Sequence[GameMeta], categories: Sequence[str]) -> Choices:
    """The form's choices for ``games``: 1 to the most players any of them takes, the times,
    and the categories that have a game (in the order of ``categories``)."""
    most = max((game.max_players for game in games), default=0)
    present = {game.category for game in games}
    return Choices(
        players=tuple(range(1, most + 1)),
        minutes=MINUTES_CHOICES,
        categories=tuple(category for category in categories if category in present),
    )


def _choice(value: str | None, offered: Sequence[int]) -> int | None:
    text = (value or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > _DIGITS_MAX:
        return None
    number = int(text)
    return number if number in offered else None


def read_filters(params: Mapping[str, str], choices: Choices) -> Filters:
    """The filters of the form's fields (``q``, ``players``, ``minutes``, ``category``); a value
    that is not one of the choices is ignored, the query cut to :data:`QUERY_MAX_LENGTH`."""
    query = str(params.get("q") or "")[:QUERY_MAX_LENGTH].strip()
    category = str(params.get("category") or "").strip()
    return Filters(
        query=query,
        players=_choice(params.get("players"), choices.players),
        minutes=_choice(params.get("minutes"), choices.minutes),
        category=category if category in choices.categories else None,
    )


def matches(meta: GameMeta, keys: Sequence[str], filters: Filters) -> bool:
    """Whether the game with box facts ``meta`` and names ``keys`` (:func:`search_keys`) is what
    ``filters`` ask for."""
    query = filters.folded_query
    if query and not any(key.startswith(query) for key in keys):
        return False
    if filters.players is not None and not meta.min_players <= filters.players <= meta.max_players:
        return False
    if filters.minutes is not None and meta.minutes > filters.minutes:
        return False
    return filters.category is None or meta.category == filters.category


def names_of(meta: GameMeta, titles: Iterable[str]) -> tuple[str, ...]:
    """Every name a game is found by: its titles (its pages' own, in each language), its box
    names, its original name and the other names people know it by."""
    names = [*titles, *meta.names.values(), meta.original_name, *meta.other_names]
    return tuple(dict.fromkeys(name for name in names if name))
