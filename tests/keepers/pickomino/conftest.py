"""Shared fixtures for Pickomino's keeper: the contract's client of tests/tables, for Pickomino.

- `api`: an `Api` (tests/tables/conftest.py) bound to Django's test client. `api.new_match()`
  creates a Pickomino match through `POST /api/v1/matches`; `api.act`, `api.play`,
  `api.refused`, `api.state`, `api.claims` as there.
- `match`: a fresh three-player match (Ada, Ben, Cy; Ada starts), no action yet.
- `take(total, worm, source)`, `take_dice(dice, source)`, `BUST`, `UNDO`, `body_of(action)`:
  the bodies of Pickomino's actions; `tiles_in_place(state)`: every tile with where it lies.
- `error_of(response, code, status)`: the contract's error shape checked, the message returned.
- `without_seq`, `grill_faces`, `play_to_the_end_in_order`, `ENGLISH_AND_FRENCH`: what the API's
  tests of both rooms read a State with.

The bodies are defined in tests/tables/conftest.py, where the core's tests still play
Pickomino as "some game"; this room re-exports them so its tests name no other room.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tables.conftest import (
    BUST,
    ENGLISH_AND_FRENCH,
    MATCHES,
    UNDO,
    Api,
    Created,
    body_of,
    error_of,
    grill_faces,
    play_to_the_end_in_order,
    take,
    take_dice,
    tiles_in_place,
    without_seq,
)

__all__ = [
    "BUST",
    "ENGLISH_AND_FRENCH",
    "MATCHES",
    "UNDO",
    "Api",
    "Created",
    "body_of",
    "error_of",
    "grill_faces",
    "play_to_the_end_in_order",
    "take",
    "take_dice",
    "tiles_in_place",
    "without_seq",
]


@pytest.fixture
def api(client: Client, db: None) -> Api:
    return Api(client)


@pytest.fixture
def match(api: Api) -> Created:
    return api.new_match()
