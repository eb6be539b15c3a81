"""The sheet's table options: a title, whether the lowest total wins, a target, a round count.

The API sends them as ``{"title": "Skyjo", "lowest_wins": true, "target": 100, "rounds":
null}``; the set-up page as four form fields. Both end up as the same stored dict, checked
by the engine's ``Options`` (which refuses what no sheet could hold).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from marquoir.games.sheet import MAX_ROUNDS, MAX_TARGET, MAX_TITLE_LENGTH, Options, RuleError, valid_title
from marquoir.rules import INVALID
from marquoir.rules.values import is_whole_number
from marquoir.tables.actions import shorten

OPTION_NAMES = ("title", "lowest_wins", "target", "rounds")
DEFAULTS: dict[str, Any] = {"title": None, "lowest_wins": False, "target": None, "rounds": None}

# Joiners shape Persian, Indic and emoji words; other format characters (bidi overrides
# among them) only hide or reorder text, so a title refuses them as a name does.
_ALLOWED_FORMAT_CHARACTERS = {"\u200c", "\u200d"}


def _printable(title: str) -> bool:
    for char in title:
        category = unicodedata.category(char)
        if category in {"Cc", "Cs", "Co", "Cn"} or (category == "Cf" and char not in _ALLOWED_FORMAT_CHARACTERS):
            return False
    return True


def clean_title(title: object) -> str | None:
    """The title as stored: trimmed, NFC, None when empty; ``RuleError(invalid, bad_title)``."""
    if title is None:
        return None
    if not isinstance(title, str):
        raise RuleError(INVALID, "bad_title", title=shorten(title))
    trimmed = unicodedata.normalize("NFC", title).strip()
    if not trimmed:
        return None
    if not valid_title(trimmed) or not _printable(trimmed):
        raise RuleError(INVALID, "bad_title", title=shorten(trimmed))
    return trimmed


def clean_options(options: object) -> dict[str, Any]:
    """The options as stored, or ``RuleError(invalid, reason)``; None means the defaults.

    Reasons: ``bad_options`` (not an object), ``unknown_option``, ``bad_title``,
    ``bad_lowest_wins`` (not true or false), ``bad_target``, ``bad_rounds`` (not null nor a
    whole number in range: a float or a bool is refused).
    """
    if options is None:
        return dict(DEFAULTS)
    if not isinstance(options, Mapping):
        raise RuleError(INVALID, "bad_options")
    unknown = sorted(str(key) for key in options if key not in OPTION_NAMES)
    if unknown:
        raise RuleError(INVALID, "unknown_option", option=shorten(unknown[0]))
    title = clean_title(options.get("title"))
    lowest_wins = options.get("lowest_wins", False)
    if not isinstance(lowest_wins, bool):
        raise RuleError(INVALID, "bad_lowest_wins", lowest_wins=shorten(lowest_wins))
    target, rounds = options.get("target"), options.get("rounds")
    if target is not None and not is_whole_number(target):
        raise RuleError(INVALID, "bad_target", target=shorten(target), min=1, max=MAX_TARGET)
    if rounds is not None and not is_whole_number(rounds):
        raise RuleError(INVALID, "bad_rounds", rounds=shorten(rounds), min=1, max=MAX_ROUNDS)
    checked = Options(title=title, lowest_wins=lowest_wins, target=target, rounds=rounds)  # range checks
    return {
        "title": checked.title,
        "lowest_wins": checked.lowest_wins,
        "target": checked.target,
        "rounds": checked.rounds,
    }


def options_of(stored: Mapping[str, Any]) -> Options:
    """The engine's options for a stored match (stored options were checked on creation)."""
    return Options(
        title=stored.get("title"),
        lowest_wins=bool(stored.get("lowest_wins", False)),
        target=stored.get("target"),
        rounds=stored.get("rounds"),
    )


# --- the set-up page


class WholeNumberField(forms.CharField):
    """An optional whole number from ``least`` to ``most``, written with the ASCII digits.

    Django's IntegerField reads ``٣`` as 3 and ``１００`` as 100; at the table nobody means
    those, so they are refused here like ``²``, with a sentence saying what to write.
    """

    def __init__(self, *, least: int, most: int, **kwargs: Any) -> None:
        self.least, self.most = least, most
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))
        super().__init__(required=False, strip=True, **kwargs)

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        # The length first: a number no one types is refused before Python tries to read it.
        if len(text) > 9 or not (text.isascii() and text.isdigit()) or not self.least <= int(text) <= self.most:
            raise ValidationError(
                gettext_lazy("Leave it empty, or write a whole number from %(least)s to %(most)s."),
                code="range",
                params={"least": number_format(self.least), "most": number_format(self.most, force_grouping=True)},
            )
        return int(text)


def _check_title(title: str) -> None:
    """The set-up form refuses what the API would (control characters, bidi overrides)."""
    try:
        clean_title(title)
    except RuleError:
        raise ValidationError(
            gettext_lazy("The name of the game is one line of visible characters."), code="characters"
        ) from None


def options_form_fields() -> dict[str, forms.Field]:
    """The four options as form fields, named as in the API."""
    return {
        "title": forms.CharField(
            required=False,
            max_length=MAX_TITLE_LENGTH,
            strip=True,
            validators=[_check_title],
            label=gettext_lazy("Name of the game"),
            help_text=gettext_lazy("Shown at the top of the sheet, for example Skyjo. Optional."),
        ),
        "lowest_wins": forms.BooleanField(
            required=False,
            label=gettext_lazy("The lowest total wins"),
            help_text=gettext_lazy("As in Skyjo, Hearts or golf. Otherwise the highest total wins."),
        ),
        "target": WholeNumberField(
            least=1,
            most=MAX_TARGET,
            label=gettext_lazy("End when a total reaches"),
            help_text=gettext_lazy(
                "The game ends after the round in which a total reaches or passes this number. Optional."
            ),
        ),
        "rounds": WholeNumberField(
            least=1,
            most=MAX_ROUNDS,
            label=gettext_lazy("Number of rounds"),
            help_text=gettext_lazy("The game ends after this many rounds. Optional."),
        ),
    }


def options_from_form(cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The API-shaped options from the set-up form's cleaned data (each field checked there)."""
    return clean_options(
        {
            "title": cleaned.get("title") or None,
            "lowest_wins": bool(cleaned.get("lowest_wins")),
            "target": cleaned.get("target"),
            "rounds": cleaned.get("rounds"),
        }
    )
