"""The sheet's table options: a title, whether the lowest total wins, a target, a round count.

One model for all they are: the API sends them as ``{"title": "Skyjo", "lowest_wins": true,
"target": 100, "rounds": null}`` (and the State gives them back so), the set-up page as four
form fields; both end up as the same stored dict, and the engine's ``Options`` from it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy
from ninja import Field
from pydantic import field_validator

from marquoir.games.sheet import MAX_ROUNDS, MAX_TARGET, MAX_TITLE_LENGTH, Options, RuleError, valid_title
from marquoir.rules import INVALID
from marquoir.tables.kit import TableOptions, shorten

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


class SheetOptions(TableOptions):
    """The sheet's table options; all optional.

    Reasons: ``bad_title``, ``bad_lowest_wins`` (not true or false), ``bad_target``,
    ``bad_rounds`` (not null nor a whole number in range: a float or a bool is refused).
    """

    title: str | None = Field(None, min_length=1, max_length=MAX_TITLE_LENGTH, description="the game's name, trimmed")
    lowest_wins: bool = Field(False, description="the lowest total wins instead of the highest")
    target: int | None = Field(
        None, ge=1, le=MAX_TARGET, description="the game ends after the round in which a total reaches or passes it"
    )
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS, description="the game ends after this many rounds")

    reasons: ClassVar[Mapping[str, str]] = {
        "title": "bad_title",
        "lowest_wins": "bad_lowest_wins",
        "target": "bad_target",
        "rounds": "bad_rounds",
    }

    @field_validator("title", mode="before")
    @classmethod
    def _title(cls, title: object) -> str | None:
        return clean_title(title)

    def engine(self) -> Options:
        return Options(title=self.title, lowest_wins=bool(self.lowest_wins), target=self.target, rounds=self.rounds)

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
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
