"""Shared fixtures for Yahtzee's keeper: the contract's client of tests/tables, for Yahtzee.

- `api`: a `YahtzeeApi` (the `Api` of tests/tables/conftest.py) bound to Django's test client.
  `api.new_yahtzee(players)` creates a match through `POST /api/v1/matches` and returns its id,
  edit token and State; `api.create_yahtzee(...)` answers the raw response (to test refusals);
  `api.advice(match, **query)` reads `GET /api/v1/matches/{id}/advice`; `api.act`, `api.play`,
  `api.refused`, `api.state` as for any game.
- `duel`: a fresh two-player match (Ada, Ben; Ada starts), no turn yet.
- `score(box, *dice)`, `points(box, n)`, `UNDO`: the bodies of Yahtzee's actions.
- `error_of(response, code, status)`: the contract's error shape checked, the message returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from tests.tables.conftest import MATCHES, Api, Created, error_of

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

__all__ = ["MATCHES", "UNDO", "Created", "YahtzeeApi", "error_of", "points", "score"]

UNDO: dict[str, Any] = {"type": "undo"}


def score(box: object, *dice: object, **extra: Any) -> dict[str, Any]:
    """The body of a turn scored with the five dice shown."""
    return {"type": "score", "box": box, "dice": list(dice), **extra}


def points(box: object, value: object, **extra: Any) -> dict[str, Any]:
    """The body of a turn scored with the points typed (the extension)."""
    return {"type": "score", "box": box, "points": value, **extra}


class YahtzeeApi(Api):
    """The JSON API v1 through Django's test client, for Yahtzee matches."""

    def create_yahtzee(
        self, players: object = ("Ada", "Ben"), options: object = None, language: str | None = None, **fields: Any
    ) -> Response:
        body: dict[str, Any] = {
            "game": "yahtzee",
            "players": list(players) if isinstance(players, tuple) else players,
            **fields,
        }
        if options is not None:
            body["options"] = options
        return self.create(body, language)

    def new_yahtzee(self, players: Sequence[str] = ("Ada", "Ben"), first: int = 0) -> Created:
        response = self.create_yahtzee(list(players), first=first)
        assert response.status_code == 201, response.content
        created = response.json()
        return Created(created["id"], created["edit_token"], created["state"])

    def advice(self, match: Created | str, language: str | None = None, **query: str | int) -> Response:
        match_id = match.id if isinstance(match, Created) else match
        headers = {"Accept-Language": language} if language else {}
        return self.client.get(f"{MATCHES}/{match_id}/advice", {k: str(v) for k, v in query.items()}, headers=headers)


@pytest.fixture
def api(client: Client, db: None) -> YahtzeeApi:
    return YahtzeeApi(client)


@pytest.fixture
def duel(api: YahtzeeApi) -> Created:
    return api.new_yahtzee()
