"""Numbers and names as the table screens write them: rounded, with the language's decimal mark,
its minus, its per cent sign and its "and"."""

from __future__ import annotations

import pytest
from django.utils import translation

from marquoir.tables.formatting import MINUS, decimal, join_names, percent, signed

NNBSP = "\u202f"


def test_decimals_are_rounded_not_cut():
    with translation.override("en"):
        assert decimal(254.5877, 1) == "254.6"
        assert decimal(0.129) == "0.13"
        assert decimal(2.004) == "2.00"


def test_a_loss_that_rounds_to_nothing_has_no_minus_sign():
    with translation.override("en"):
        assert decimal(-0.001) == "0.00"
        assert signed(-0.001) == "+0.00"
        assert signed(-0.5) == f"{MINUS}0.50"


def test_french_numbers_take_a_decimal_comma():
    with translation.override("fr"):
        assert decimal(254.5877, 1) == "254,6"
        assert signed(3.6449) == "+3,64"


@pytest.mark.parametrize(
    ("language", "value", "expected"),
    [
        ("en", 3.644, "+3.64"),
        ("fr", 3.644, "+3,64"),
        ("en", -0.5, f"{MINUS}0.50"),
        ("fr", -0.5, f"{MINUS}0,50"),
        ("en", -4.0, f"{MINUS}4.00"),
        ("en", 0.0, "+0.00"),
        ("en", -0.004, "+0.00"),  # a loss too small to show has no minus
    ],
)
def test_signed_writes_a_gain_or_a_loss_with_the_true_minus(language, value, expected):
    with translation.override(language):
        text = signed(value)
    assert text == expected
    assert "-" not in text


@pytest.mark.parametrize(
    ("language", "chance", "expected"),
    [
        ("en", 0.15, "15%"),
        ("fr", 0.15, f"15{NNBSP}%"),
        ("en", 0.001, "<1%"),
        ("fr", 0.001, f"<1{NNBSP}%"),
        ("en", 0.999, ">99%"),
        ("fr", 0.999, f">99{NNBSP}%"),
        ("en", 0.0, "0%"),
        ("en", 1.0, "100%"),
        ("en", 0.005, "<1%"),  # rounds to 0 but is not impossible
        ("en", 0.994, "99%"),
    ],
)
def test_percent_writes_a_chance_as_the_language_does(language, chance, expected):
    with translation.override(language):
        assert percent(chance) == expected


@pytest.mark.parametrize(
    ("language", "names", "expected"),
    [
        ("en", [], ""),
        ("en", ["Ada"], "Ada"),
        ("en", ["Ada", "Ben"], "Ada and Ben"),
        ("en", ["Ada", "Ben", "Cy"], "Ada, Ben and Cy"),
        ("fr", ["Ada", "Ben"], "Ada et Ben"),
        ("fr", ["Ada", "Ben", "Cy"], "Ada, Ben et Cy"),
    ],
)
def test_join_names_lists_names_as_the_language_does(language, names, expected):
    with translation.override(language):
        assert join_names(names) == expected
