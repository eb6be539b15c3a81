"""What a player's name may be, and when two names are the same person's.

Names are typed on phones in any script, so the policy is Unicode's own, not a list of
letters: a name must show something (a letter, digit, punctuation or symbol that is not
one of the characters drawn blank), may not hide or reorder text (control and format
characters, line and paragraph separators), nor pile marks on a letter past what any
script writes. Two names are one if they *look* alike: their skeletons (Unicode's
confusables, UTS #39, from the ``confusable-homoglyphs`` data) are equal, ignoring case,
compatibility forms (fullwidth letters) and joiners. ``Ada`` and ``Аda`` (a Cyrillic А),
``Ａda`` (fullwidth) or ``Ada`` with a zero-width joiner are then one name, and refused.

The one name policy of matches and groups alike: a refusal is ``ServiceError(invalid,
reason)``, worded by the door that answers (``messages``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]  # no types shipped

from marquoir.rules import INVALID

from .outcome import ServiceError

if TYPE_CHECKING:
    from .keepers import ScoreKeeper

NAME_MAX_LENGTH = 40

# Joiners shape Persian, Indic and emoji names; other format characters (bidi overrides
# among them) only hide or reorder text, so they are refused with the control characters.
_ALLOWED_FORMAT_CHARACTERS = {"\u200c", "\u200d"}

# Letters and symbols drawn as nothing at all: a name of them would look blank at the table.
BLANK_LOOKING = frozenset(
    {
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\u1160",  # HANGUL JUNGSEONG FILLER
        "\u17b4",  # KHMER VOWEL INHERENT AQ
        "\u17b5",  # KHMER VOWEL INHERENT AA
        "\u2800",  # BRAILLE PATTERN BLANK
        "\u3164",  # HANGUL FILLER
        "\uffa0",  # HALFWIDTH HANGUL FILLER
    }
)

MAX_MARKS_ON_A_LETTER = 4
"""Combining marks in a row after one letter: scripts that stack marks (Vietnamese in NFD,
Thai, Tibetan) need two or three; more only makes a name spill over its neighbours."""


def unprintable(char: str) -> bool:
    """Whether ``char`` may not appear in a name: it hides, reorders or breaks text."""
    category = unicodedata.category(char)
    if category == "Cf":
        return char not in _ALLOWED_FORMAT_CHARACTERS
    return category in {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}


def visible(char: str) -> bool:
    """Whether ``char`` shows something: a letter, digit, punctuation mark or symbol that
    is not drawn blank."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_LOOKING


def readable(text: str) -> bool:
    """Whether ``text`` holds something anybody could read at the table (not only joiners,
    combining marks, spaces or characters drawn blank)."""
    return any(visible(char) for char in text)


def too_many_marks(text: str) -> bool:
    """Whether some letter of ``text`` carries more than ``MAX_MARKS_ON_A_LETTER`` marks."""
    run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char) in {"Mn", "Me"} else 0
        if run > MAX_MARKS_ON_A_LETTER:
            return True
    return False


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character that Unicode finds confusable with others, mapped to one of its class
    (the smallest ASCII one if the class has any): the classes are the connected sets of
    the confusables data, so the mapping is the same whichever member a name holds. Made
    once, on first use (~25 ms)."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            parent[char] = parent.get(parent[char], parent[char])
            char = parent[char]
        return char

    for char, homoglyphs in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for homoglyph in homoglyphs:
            other = homoglyph.get("c", "")
            if len(other) == 1 and root(char) != root(other):
                parent[root(char)] = root(other)
    classes: dict[str, list[str]] = {}
    for char in list(parent):
        classes.setdefault(root(char), []).append(char)
    for char, members in list(classes.items()):
        members.append(char)
    prototype: dict[str, str] = {}
    for members in classes.values():
        plain = [member for member in members if member.isascii()]
        chosen = min(plain) if plain else min(members)
        for member in members:
            prototype[member] = chosen
    return prototype


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    kept = (char for char in text if visible(char) or unicodedata.category(char)[0] in "MZ")
    return "".join(prototypes.get(char, char) for char in kept)


def name_keys(name: str) -> tuple[str, str]:
    """What two names must differ in: two names are one if either key is the same.

    Each is a skeleton of ``name`` (compatibility forms folded, joiners and blank-looking
    characters dropped, each character by its confusables class) ignoring case, taken
    case first and confusables first: the classes are of single characters and tell cases
    apart, so "ZOÉ" meets "Zoé" only the first way (O goes with 0, o does not) and "Вen"
    (a Cyrillic В) meets "Ben" only the second (в looks like no b)."""
    folded = unicodedata.normalize("NFKC", name)
    case_first = _skeleton(unicodedata.normalize("NFKC", folded.casefold()))
    confusables_first = _skeleton(unicodedata.normalize("NFKC", _skeleton(folded).casefold()))
    return case_first.strip(), confusables_first.strip()


def name_key(name: str) -> str:
    """The first of ``name_keys``: enough to find a name among others ignoring case and
    look-alike letters from the same case."""
    return name_keys(name)[0]


def look_alike(first: str, second: str) -> bool:
    """Whether the two names would look the same at the table."""
    return bool(set(name_keys(first)) & set(name_keys(second)))


def clean_player_names(names: object, keeper: ScoreKeeper) -> list[str]:
    """Names trimmed, 1 to 40 characters, any script, unique ignoring case; as many as the game takes."""
    return clean_names(names, least=keeper.min_players, most=keeper.max_players)


def clean_names(names: object, *, least: int, most: int) -> list[str]:
    """Names trimmed, 1 to 40 characters, any script, unique ignoring case; ``least`` to ``most`` of them."""
    if not isinstance(names, Sequence) or isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise ServiceError(INVALID, "bad_players")
    cleaned = [unicodedata.normalize("NFC", name).strip() for name in names]
    if not least <= len(cleaned) <= most:
        raise ServiceError(INVALID, "player_count", count=len(cleaned), least=least, most=most)
    seen: dict[str, str] = {}
    for name in cleaned:
        check_name(name)
        keys = name_keys(name)
        other = next((seen[key] for key in keys if key in seen), None)
        if other is not None:
            _refuse_clash(name, other)
        seen.update(dict.fromkeys(keys, name))
    return cleaned


def check_name(name: str) -> None:
    """ServiceError unless ``name`` (trimmed, NFC) is 1 to 40 visible characters."""
    if not name:
        raise ServiceError(INVALID, "name_empty")
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(INVALID, "name_too_long", name=name[:NAME_MAX_LENGTH], limit=NAME_MAX_LENGTH)
    if any(unprintable(char) for char in name):
        raise ServiceError(INVALID, "name_characters", name=name)
    if not readable(name):
        raise ServiceError(INVALID, "name_invisible")
    if too_many_marks(name):
        raise ServiceError(INVALID, "name_marks", limit=MAX_MARKS_ON_A_LETTER)


def check_name_free(name: str, taken: Iterable[str]) -> None:
    """ServiceError if ``name`` is one of ``taken`` (a group's members), or looks like one."""
    for other in taken:
        if other.casefold() == name.casefold() or look_alike(other, name):
            _refuse_clash(name, other)


def _refuse_clash(name: str, other: str) -> None:
    # The same name, or one that looks the same at the table (another script's letters,
    # fullwidth forms, a hidden joiner): the players could not tell them apart.
    if other.casefold() == name.casefold():
        raise ServiceError(INVALID, "name_twice", name=name)
    raise ServiceError(INVALID, "name_lookalike", name=name, other=other)
