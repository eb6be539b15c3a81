"""Dates in each language's own order: the day first in English as in French."""

from __future__ import annotations

import datetime

from django.template import Context, Template
from django.utils import translation

WHEN = datetime.datetime(2026, 12, 1, 12, 28, tzinfo=datetime.UTC)


def written(language: str, fmt: str) -> str:
    with translation.override(language):
        return Template("{{ when|date:'" + fmt + "' }}").render(Context({"when": WHEN}))


def test_english_dates_put_the_day_first_with_a_24_hour_clock() -> None:
    assert written("en", "SHORT_DATETIME_FORMAT") == "1 Dec 2026, 12:28"
    assert written("en", "SHORT_DATE_FORMAT") == "1 Dec 2026"
    assert written("en", "DATE_FORMAT") == "1 December 2026"


def test_french_dates_put_the_day_first_too() -> None:
    assert written("fr", "SHORT_DATETIME_FORMAT") == "01/12/2026 12:28"
    assert written("fr", "DATE_FORMAT") == "1 décembre 2026"
