"""Tarot's table options: how many scored deals the game lasts (none: until the table says so).

The API sends ``{"deals": 10}`` (or ``null``, or nothing); the set-up page one form field.
Both end up as the same stored dict, checked by the engine's ``Options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from marquoir.games.tarot import MAX_DEALS, Options, RuleError
from marquoir.rules import INVALID
from marquoir.rules.values import is_whole_number
from marquoir.tables.actions import shorten

OPTION_NAMES = ("deals",)
DEFAULTS: dict[str, Any] = {"deals": None}


def clean_options(options: object) -> dict[str, Any]:
    """The options as stored, or ``RuleError(invalid, reason)``; None means the defaults.

    Reasons: ``bad_options`` (not an object), ``unknown_option``, ``bad_deals`` (not null
    nor a whole number from 1 to 300: a float or a bool is refused).
    """
    if options is None:
        return dict(DEFAULTS)
    if not isinstance(options, Mapping):
        raise RuleError(INVALID, "bad_options")
    unknown = sorted(str(key) for key in options if key not in OPTION_NAMES)
    if unknown:
        raise RuleError(INVALID, "unknown_option", option=shorten(unknown[0]))
    deals = options.get("deals")
    if deals is not None and not is_whole_number(deals):
        raise RuleError(INVALID, "bad_deals", deals=shorten(deals), min=1, max=MAX_DEALS)
    return {"deals": Options(deals=deals).deals}  # the engine checks the range


def options_of(stored: Mapping[str, Any]) -> Options:
    """The engine's options for a stored match (stored options were checked on creation)."""
    return Options(deals=stored.get("deals"))


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


def options_form_fields() -> dict[str, forms.Field]:
    return {
        "deals": DealCountField(
            label=gettext_lazy("Number of deals"),
            help_text=gettext_lazy(
                "The game ends after this many deals are scored (a deal everyone passed does not count). "
                "Leave it empty to stop when you say so."
            ),
        )
    }


def options_from_form(cleaned: Mapping[str, Any]) -> dict[str, Any]:
    return clean_options({"deals": cleaned.get("deals")})
