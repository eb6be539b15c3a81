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

The search forgives what people get wrong (:func:`found`): a word left out or put in another
order ("aventuriers rail": each word of the query begins a word of the game's names), a typo
(a word of four letters or more may be one edit away from the start of a name's word, eight
or more two: "quixx" finds Qwixx, "carcasone" Carcassonne), and a number spelled out ("seven
wonders", "sept wonders": a name's number is also a key in words, in English and French).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

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


ENGLISH_NUMBERS = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
                   "7": "seven", "8": "eight", "9": "nine", "10": "ten", "11": "eleven", "12": "twelve"}  # fmt: skip
FRENCH_NUMBERS = {"1": "un", "2": "deux", "3": "trois", "4": "quatre", "5": "cinq", "6": "six",
                  "7": "sept", "8": "huit", "9": "neuf", "10": "dix", "11": "onze", "12": "douze"}  # fmt: skip
"""A name's number as people say it, in English and French: "7 Wonders" is also found as
"seven wonders" and "sept wonders"."""

TYPO_MIN_LENGTH = 4
"""A query word this long or longer may be one edit from a name's word (a letter missing, one
too many, another, or two swapped): shorter ones ("uno", "dix") would find too much."""

TWO_TYPOS_MIN_LENGTH = 8
"""A query word this long or longer may be two edits from a name's word ("carcasone")."""

TYPO_MAX_LENGTH = 24
"""A query word longer than this is compared exactly: no game has a longer word, and the
work of comparing stays small whatever the address holds."""


def _spelled_out(words: list[str]) -> list[list[str]]:
    """``words`` with each number in it spelled out, in each language (none: no variant)."""
    if not any(word in ENGLISH_NUMBERS for word in words):
        return []
    return [[spelled.get(word, word) for word in words] for spelled in (ENGLISH_NUMBERS, FRENCH_NUMBERS)]


def search_keys(names: Iterable[str]) -> tuple[str, ...]:
    """What a query is matched against: for each name, from each of its words to its end, folded,
    and the same with its numbers spelled out.

    "Les Aventuriers du Rail" gives lesaventuriersdurail, aventuriersdurail, durail, rail: a
    query finds the name when one of them begins with the folded query.
    """
    keys: dict[str, None] = {}
    for name in names:
        words = _words(name)
        for variant in [words, *_spelled_out(words)]:
            for start in range(len(variant)):
                keys["".join(variant[start:])] = None
    return tuple(keys)


def _typos_allowed(word: str) -> int:
    if len(word) < TYPO_MIN_LENGTH or len(word) > TYPO_MAX_LENGTH:
        return 0
    return 1 if len(word) < TWO_TYPOS_MIN_LENGTH else 2


def _word_found(word: str, keys: Sequence[str]) -> bool:
    """Whether ``word`` (folded) begins one of ``keys``, or is within its typos of the start of
    one: the start as long as the word, give or take as many letters as typos allowed."""
    if any(key.startswith(word) for key in keys):
        return True
    typos = _typos_allowed(word)
    if not typos:
        return False
    for key in keys:
        for length in range(max(1, len(word) - typos), min(len(key), len(word) + typos) + 1):
            if OSA.distance(word, key[:length], score_cutoff=typos) <= typos:
                return True
    return False


def found(query: str, keys: Sequence[str]) -> bool:
    """Whether ``query`` finds a game with names ``keys`` (:func:`search_keys`): the whole query,
    folded, begins a key; or each of its words, folded, is found by :func:`_word_found`. A query
    with nothing to look for finds every game."""
    folded = fold(query)
    if not folded or any(key.startswith(folded) for key in keys):
        return True
    return all(_word_found(word, keys) for word in _words(query))


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
    if not found(filters.query, keys):
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
