"""Shared fixtures for Pickomino's keeper: the contract's client of tests/tables, for Pickomino.

- `api`: an `Api` (tests/tables/conftest.py) bound to Django's test client. `api.new_match()`
  creates a Pickomino match through `POST /api/v1/matches`; `api.act`, `api.play`,
  `api.refused`, `api.state`, `api.claims` as there.
- `match`: a fresh three-player match (Ada, Ben, Cy; Ada starts), no action yet.
- `take(total, worm, source)`, `take_dice(dice, source)`, `BUST`, `UNDO`, `body_of(action)`:
  the bodies of Pickomino's actions; `tiles_in_place(state)`: every tile with where it lies.
- `error_of(response, code, status)`: the contract's error shape checked, the message returned.

The bodies are defined in tests/tables/conftest.py, where the core's tests still play
Pickomino as "some game"; this room re-exports them so its tests name no other room.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tables.conftest import (
    BUST,
    MATCHES,
    UNDO,
    Api,
    Created,
    body_of,
    error_of,
    take,
    take_dice,
    tiles_in_place,
)

__all__ = [
    "BUST",
    "MATCHES",
    "UNDO",
    "Api",
    "Created",
    "body_of",
    "error_of",
    "take",
    "take_dice",
    "tiles_in_place",
]


@pytest.fixture
def api(client: Client, db: None) -> Api:
    return Api(client)


@pytest.fixture
def match(api: Api) -> Created:
    return api.new_match()
