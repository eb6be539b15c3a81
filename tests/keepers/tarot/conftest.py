"""Shared fixtures for French Tarot's keeper: the contract's client of tests/tables, for Tarot.

- `api`: a `TarotApi` (the `Api` of tests/tables/conftest.py) bound to Django's test client.
  `api.new_tarot(players, options, first)` creates a match through `POST /api/v1/matches`
  and returns its id, edit token and State; `api.create_tarot(...)` answers the raw response
  (to test refusals); `api.act`, `api.play`, `api.refused`, `api.state` as for any game.
- `four`: a fresh four-player match (Ada, Ben, Cy, Dee; Ada deals first), no deal yet.
- `deal(taker, contract, bouts, points, **more)`, `PASS`, `END`, `UNDO`: the bodies of Tarot's actions.
- `error_of(response, code, status)`: the contract's error shape checked, the message returned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from tests.tables.conftest import MATCHES, Api, Created, error_of

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

__all__ = ["END", "MATCHES", "PASS", "UNDO", "Created", "TarotApi", "deal", "error_of"]

PASS: dict[str, Any] = {"type": "pass"}
END: dict[str, Any] = {"type": "end"}
UNDO: dict[str, Any] = {"type": "undo"}
FOUR = ("Ada", "Ben", "Cy", "Dee")
FIVE = ("Ada", "Ben", "Cy", "Dee", "Eve")


def deal(taker: object, contract: object, bouts: object, points: object = None, **more: Any) -> dict[str, Any]:
    """The body of a deal (any JSON values, to test refusals); ``points`` left out when None."""
    body: dict[str, Any] = {"type": "deal", "taker": taker, "contract": contract, "bouts": bouts}
    if points is not None:
        body["points"] = points
    return body | more


class TarotApi(Api):
    """The JSON API v1 through Django's test client, creating Tarot matches."""

    def create_tarot(
        self, players: object = FOUR, options: object = None, language: str | None = None, **fields: Any
    ) -> Response:
        body: dict[str, Any] = {
            "game": "tarot",
            "players": list(players) if isinstance(players, tuple) else players,
            **fields,
        }
        if options is not None:
            body["options"] = options
        return self.create(body, language)

    def new_tarot(
        self, players: Sequence[str] = FOUR, options: Mapping[str, Any] | None = None, first: int = 0
    ) -> Created:
        response = self.create_tarot(tuple(players), dict(options) if options is not None else None, first=first)
        assert response.status_code == 201, response.content
        created = response.json()
        return Created(created["id"], created["edit_token"], created["state"])


@pytest.fixture
def api(client: Client, db: None) -> TarotApi:
    return TarotApi(client)


@pytest.fixture
def four(api: TarotApi) -> Created:
    return api.new_tarot()
