"""Tarot's table options: how many scored deals the game lasts (none: until the table says so).

One model for all they are: the API sends ``{"deals": 10}`` (or ``null``, or nothing) and
the State gives it back so, the set-up page one form field; both end up as the same stored
dict, and the engine's ``Options`` from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy
from ninja import Field

from marquoir.games.tarot import MAX_DEALS, Options
from marquoir.tables.kit import TableOptions


class DealCountField(forms.CharField):
    """An optional number of deals, 1 to 300, written with the ASCII digits (``٣`` is refused)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))
        super().__init__(required=False, strip=True, **kwargs)

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        if len(text) > 4 or not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_DEALS:
            raise ValidationError(
                gettext_lazy("Leave it empty, or write a whole number of deals from 1 to %(most)s."),
                code="range",
                params={"most": MAX_DEALS},
            )
        return int(text)


class TarotOptions(TableOptions):
    """Tarot's table options; all optional. Reason: ``bad_deals`` (not null nor a whole
    number from 1 to 300: a float or a bool is refused)."""

    deals: int | None = Field(
        None, ge=1, le=MAX_DEALS, description="the game ends after this many scored deals (passed ones do not count)"
    )

    reasons: ClassVar[Mapping[str, str]] = {"deals": "bad_deals"}

    def engine(self) -> Options:
        return Options(deals=self.deals)

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        return {
            "deals": DealCountField(
                label=gettext_lazy("Number of deals"),
                help_text=gettext_lazy(
                    "The game ends after this many deals are scored (a deal everyone passed does not count). "
                    "Leave it empty to stop when you say so."
                ),
            )
        }
