"""What the own games' tests share: a small game file, the API's calls, a clean memory."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from marquoir.own_games import keeper as own_keeper
from marquoir.own_games.services import GAME_LINKS

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

OWN_GAMES = "/api/v1/own-games"
MATCHES = "/api/v1/matches"

DOUBLED: dict[str, Any] = {
    "scored": "rounds",
    "winner": "lowest",
    "box": {"names": {"en": "Skyjo doubled", "fr": "Skyjo doublé"}, "players": [2, 6]},
    "inputs": [
        {
            "key": "cards",
            "per": "player",
            "kind": "points",
            "label": {"en": "Cards", "fr": "Cartes"},
            "min": -17,
            "max": 140,
        },
        {"key": "ended_by", "per": "round", "kind": "player", "label": {"en": "Who ended", "fr": "Qui a fini"}},
    ],
    "points": [
        {
            "key": "cards",
            "label": {"en": "Cards", "fr": "Cartes"},
            "formula": "seat == ended_by && cards > 0 ? 2 * cards : cards",
        }
    ],
    "checks": [
        {
            "key": "someone_low",
            "per": "round",
            "holds": "all.cards.exists(c, c < 100)",
            "message": {"en": "Someone has under 100.", "fr": "Quelqu’un a moins de 100."},
            "source": "house rule",
        }
    ],
    "end": {"target": 100},
    "tiebreaks": [
        {
            "key": "last_cards",
            "label": {"en": "Fewest cards", "fr": "Le moins de cartes"},
            "value": "cards",
            "higher": False,
        }
    ],
    "examples": [
        {"name": "The ender doubles", "players": 2, "rounds": [{"cards": [10, 4], "ended_by": 0}], "points": [20, 4]}
    ],
}
"""A small own game: Skyjo's cards, the ender doubled when positive, a check, a tie-break, an example."""


def doubled(**changes: Any) -> dict[str, Any]:
    """A copy of ``DOUBLED`` with top-level ``changes``."""
    data = copy.deepcopy(DOUBLED)
    data.update(changes)
    return data


@pytest.fixture(autouse=True)
def _forget_compiled_versions_and_rights() -> Iterator[None]:
    """Each test compiles its own versions and grants its own rights."""
    own_keeper.forget_all()
    GAME_LINKS.forget_all()
    yield
    own_keeper.forget_all()
    GAME_LINKS.forget_all()


def api(
    client: Client,
    method: str,
    path: str,
    body: object = None,
    *,
    token: str | None = None,
    language: str | None = None,
) -> Response:
    headers: dict[str, str] = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if language is not None:
        headers["Accept-Language"] = language
    payload = body if isinstance(body, str | bytes) else json.dumps(body)
    if method == "get":
        return client.get(path, headers=headers)
    send = getattr(client, method)
    response: Response = send(path, data=payload, content_type="application/json", headers=headers)
    return response


def create(client: Client, data: object = None, **extra: Any) -> dict[str, Any]:
    """A new own game from ``data`` (``DOUBLED`` by default): its creation answer."""
    response = api(client, "post", OWN_GAMES, {"file": DOUBLED if data is None else data}, **extra)
    assert response.status_code == 201, response.content
    answer: dict[str, Any] = response.json()
    return answer


def refusal(response: Response, code: str, status: int) -> dict[str, Any]:
    """A refusal's error body, once its status and shape are checked."""
    assert response.status_code == status, response.content
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code
    assert {"code", "message"} <= set(error) <= {"code", "message", "field"}
    return error
