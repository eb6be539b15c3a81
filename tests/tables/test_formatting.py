"""Numbers as the table screens write them: rounded, with the language's decimal mark."""

from __future__ import annotations

from django.utils import translation

from marquoir.tables.formatting import MINUS, decimal, signed


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
