"""Pickomino's part of the API probed as an attacker would: a bust reason that is no text, and
``/advice`` queries built to make the server work (a roll of ten million dice, digits that
are not ASCII) are refused in the contract's error shape, before any work is done.

The core's part is held by tests/tables/test_api_hostile.py.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from django.test import Client

from marquoir.keepers.pickomino import turn as turn_module

from .conftest import MATCHES, Api, Created, error_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("reason", [{"a": 1}, [1], 7, None, True], ids=["object", "array", "number", "null", "bool"])
def test_a_bust_reason_that_is_not_text_is_invalid(api: Api, match: Created, reason: object):
    message = api.refused(match, {"type": "bust", "reason": reason}, "invalid", 422)
    assert message == "Unknown reason for a bust."


def test_a_huge_roll_count_on_the_advice_is_refused_before_any_die_is_built(
    client: Client, match: Created, monkeypatch: pytest.MonkeyPatch
):
    built: list[int] = []

    def counting_tuple(items: Iterable[object]) -> tuple[object, ...]:
        result = tuple(items)
        built.append(len(result))
        return result

    monkeypatch.setattr(turn_module, "tuple", counting_tuple, raising=False)
    # The measure works: a roll of the eight dice is built as eight dice.
    assert client.get(f"{MATCHES}/{match.id}/advice", {"roll": "1:8"}).status_code == 200
    assert built == [8]

    response = client.get(f"{MATCHES}/{match.id}/advice", {"roll": "1:10000000"})

    error_of(response, "invalid", 422)
    assert built == [8]  # refused on its count: no roll of ten million dice was ever made


@pytest.mark.parametrize("query", [{"dice": "worm:²"}, {"roll": "1:²"}, {"dice": "worm:٣"}, {"roll": "worm:１"}])
def test_unicode_digits_in_the_advice_query_are_refused(client: Client, match: Created, query: dict[str, str]):
    error_of(client.get(f"{MATCHES}/{match.id}/advice", query), "invalid", 422)
