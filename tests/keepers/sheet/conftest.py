"""Shared fixtures for the score sheet's keeper: the contract's client of tests/tables, for sheets.

- `api`: a `SheetApi` (the `Api` of tests/tables/conftest.py) bound to Django's test client.
  `api.new_sheet(players, options)` creates a sheet through `POST /api/v1/matches` and returns
  its id, edit token and State; `api.create_sheet(...)` answers the raw response (to test
  refusals); `api.act`, `api.play`, `api.refused`, `api.state` as for any game.
- `sheet`: a fresh three-player sheet (Ada, Ben, Cy), no option, no round yet.
- `round_(*scores, **guards)`, `END`, `UNDO`: the bodies of the sheet's actions.
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

__all__ = ["END", "MATCHES", "UNDO", "Created", "SheetApi", "error_of", "round_"]

END: dict[str, Any] = {"type": "end"}
UNDO: dict[str, Any] = {"type": "undo"}


def round_(*scores: object, **guards: Any) -> dict[str, Any]:
    """The body of a round with these scores (any JSON values, to test refusals)."""
    return {"type": "round", "scores": list(scores), **guards}


class SheetApi(Api):
    """The JSON API v1 through Django's test client, creating score sheets."""

    def create_sheet(
        self,
        players: object = ("Ada", "Ben", "Cy"),
        options: object = None,
        language: str | None = None,
        **fields: Any,
    ) -> Response:
        """``POST /api/v1/matches`` for a sheet (``options`` left out when None)."""
        body: dict[str, Any] = {
            "game": "sheet",
            "players": list(players) if isinstance(players, tuple) else players,
            **fields,
        }
        if options is not None:
            body["options"] = options
        return self.create(body, language)

    def new_sheet(
        self, players: Sequence[str] = ("Ada", "Ben", "Cy"), options: Mapping[str, Any] | None = None, first: int = 0
    ) -> Created:
        """A sheet created through the API; fails the test unless it answers 201."""
        response = self.create_sheet(list(players), dict(options) if options is not None else None, first=first)
        assert response.status_code == 201, response.content
        created = response.json()
        return Created(created["id"], created["edit_token"], created["state"])


@pytest.fixture
def api(client: Client, db: None) -> SheetApi:
    return SheetApi(client)


@pytest.fixture
def sheet(api: SheetApi) -> Created:
    return api.new_sheet()
