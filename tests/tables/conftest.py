"""Shared fixtures for the score keeper: an API client that speaks the contract of docs/api-v1.md.

- `api`: an `Api` bound to Django's test client on the test database. `api.new_match()`
  creates a match through `POST /api/v1/matches` and returns its id, edit token and State;
  `api.act(match, body)` posts an action with the match's bearer token; `api.play(match,
  *bodies)` posts several and insists each is accepted; `api.read`, `api.claims` read.
- `match`: a fresh three-player match (Ada, Ben, Cy; Ada starts), no action yet.
- `api.refused(match, body, code, status)`: posts a body that must be refused and checks the
  State read afterwards is the one read before.
- `error_of(response, code, status)`: checks the contract's error shape and returns the message.
- `create_row(...)`, `act_on(row, body)`: the services called directly (a refusal raised);
  `row` is a fresh three-player match made that way (Ada, Ben, Cy; Ada starts).
- `body_of(action)`: an engine action (from `playout.random_game`) as the contract's body.
- `tiles_in_place(state)`: every tile of a State with where it lies, for the one-place invariant.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from marquoir.games.pickomino import TILES, Action, Bust, Take
from marquoir.tables import services
from marquoir.tables.models import Match
from marquoir.tables.outcome import Accepted

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

MATCHES = "/api/v1/matches"
NO_TOKEN = object()
"""Pass as ``token`` to send no Authorization header at all."""


@dataclass(frozen=True)
class Created:
    """A match created through the API: what the 201 answered."""

    id: str
    token: str
    state: dict[str, Any]


def take(total: object, worm: object = True, source: object = "grill", **extra: Any) -> dict[str, Any]:
    """The body of a take with a total and whether a worm was kept (any JSON value, to test refusals)."""
    return {"type": "take", "total": total, "worm": worm, "from": source, **extra}


def take_dice(dice: Mapping[str, object], source: object = "grill", **extra: Any) -> dict[str, Any]:
    """The body of a take with the kept dice."""
    return {"type": "take", "dice": dict(dice), "from": source, **extra}


BUST: dict[str, Any] = {"type": "bust"}
UNDO: dict[str, Any] = {"type": "undo"}


def body_of(action: Action) -> dict[str, Any]:
    """An engine action as the contract's body (a bust is sent in its plain form)."""
    if isinstance(action, Take):
        return take(action.total, action.worm, action.source)
    assert isinstance(action, Bust)
    return dict(BUST)


def error_of(response: Response, code: str, status: int) -> str:
    """The message of a refusal, once its status and the contract's error shape are checked."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    message = body["error"]["message"]
    assert isinstance(message, str)
    assert message.strip()
    return message


def tiles_in_place(state: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Every tile of a State with its place: ``up``, ``down`` or ``player <index>``."""
    places = [(tile["tile"], tile["face"]) for tile in state["grill"]]
    for index, player in enumerate(state["players"]):
        places += [(tile, f"player {index}") for tile in player["stack"]]
    return sorted(places)


class Api:
    """The JSON API v1 through Django's test client."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def post_json(self, path: str, body: object, language: str | None = None, **headers: str) -> Response:
        """POST ``body`` encoded as JSON (a ``str`` or ``bytes`` body is sent as is)."""
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        if language:
            headers["Accept-Language"] = language
        return self.client.post(path, data=data, content_type="application/json", headers=headers)

    def create(self, body: object = None, language: str | None = None, **fields: Any) -> Response:
        """``POST /api/v1/matches`` with ``body``, or with three players and ``fields``."""
        if body is None:
            body = {"game": "pickomino", "players": ["Ada", "Ben", "Cy"], **fields}
        return self.post_json(MATCHES, body, language)

    def new_match(
        self,
        players: Sequence[str] = ("Ada", "Ben", "Cy"),
        first: int = 0,
        options: Mapping[str, bool] | None = None,
    ) -> Created:
        """A match created through the API; fails the test unless it answers 201."""
        body: dict[str, Any] = {"game": "pickomino", "players": list(players), "first": first}
        if options is not None:
            body["options"] = dict(options)
        response = self.create(body)
        assert response.status_code == 201, response.content
        created = response.json()
        return Created(created["id"], created["edit_token"], created["state"])

    def read(self, match: Created | str, language: str | None = None) -> Response:
        """``GET /api/v1/matches/{id}``, with no token."""
        match_id = match.id if isinstance(match, Created) else match
        headers = {"Accept-Language": language} if language else {}
        return self.client.get(f"{MATCHES}/{match_id}", headers=headers)

    def state(self, match: Created) -> dict[str, Any]:
        """The match's State as read now."""
        response = self.read(match)
        assert response.status_code == 200, response.content
        state: dict[str, Any] = response.json()
        return state

    def act(
        self,
        match: Created | str,
        body: object,
        token: object = None,
        language: str | None = None,
        authorization: str | None = None,
    ) -> Response:
        """``POST /api/v1/matches/{id}/actions`` with ``Authorization: Bearer <token>``.

        ``token`` defaults to the match's own; ``NO_TOKEN`` sends no header, and
        ``authorization`` sends that header value verbatim.
        """
        match_id = match.id if isinstance(match, Created) else match
        headers: dict[str, str] = {}
        if authorization is not None:
            headers["Authorization"] = authorization
        elif token is not NO_TOKEN:
            if token is None:
                assert isinstance(match, Created), "give the token of a match known by id only"
                token = match.token
            headers["Authorization"] = f"Bearer {token}"
        return self.post_json(f"{MATCHES}/{match_id}/actions", body, language, **headers)

    def play(self, match: Created, *bodies: object) -> dict[str, Any]:
        """Post each body in turn, each one accepted; the last State answered."""
        state: dict[str, Any] = {}
        for body in bodies:
            response = self.act(match, body)
            assert response.status_code == 200, (body, response.content)
            state = response.json()
        return state

    def refused(self, match: Created, body: object, code: str, status: int, **act_options: Any) -> str:
        """Post ``body``, check it is refused with ``code`` and ``status`` and that nothing changed.

        The State read afterwards must equal the State read before (same ``seq`` included).
        Returns the message of the refusal.
        """
        before = self.state(match)
        message = error_of(self.act(match, body, **act_options), code, status)
        assert self.state(match) == before, "a refused action changes nothing"
        return message

    def claims(self, match: Created | str, language: str | None = None, **params: str | int | bool) -> Response:
        """``GET /api/v1/matches/{id}/claims`` with ``params`` (booleans sent as true/false)."""
        match_id = match.id if isinstance(match, Created) else match
        query: dict[str, str | int] = {
            key: (str(value).lower() if isinstance(value, bool) else value) for key, value in params.items()
        }
        headers = {"Accept-Language": language} if language else {}
        return self.client.get(f"{MATCHES}/{match_id}/claims", query, headers=headers)


ENGLISH_AND_FRENCH = pytest.mark.parametrize("language", ["en", "fr"])
"""A test run in each of the two languages."""


def without_seq(state: dict[str, Any]) -> dict[str, Any]:
    """The State but its seq (which every action and undo moves)."""
    return {key: value for key, value in state.items() if key != "seq"}


def grill_faces(state: dict[str, Any]) -> dict[int, str]:
    """Each tile of the grill, and whether it lies face up or down."""
    return {tile["tile"]: tile["face"] for tile in state["grill"]}


def play_to_the_end_in_order(api: Api, match: Created) -> dict[str, Any]:
    """Two players take 36, 35, … 21 in turn: the first player wins 20 worms to 20 on the 36."""
    return api.play(match, *(take(tile) for tile in reversed(TILES)))


def create_row(
    players: Sequence[str] = ("Ada", "Ben", "Cy"), first: int = 0, options: Mapping[str, bool] | None = None
) -> tuple[Match, str]:
    """A match made by ``services.match_create``, with its edit token."""
    return services.match_create(game="pickomino", players=list(players), first=first, options=options)


def act_on(row: Match, body: object) -> Accepted:
    """``services.match_act`` with ``body``, parsed by the match's game as the API's are; its
    refusal raised (``ServiceError``)."""
    return services.match_act(match_id=row.id, body=body).or_raise()


@pytest.fixture
def row(db: None) -> Match:
    return create_row()[0]


@pytest.fixture
def api(client: Client, db: None) -> Api:
    return Api(client)


@pytest.fixture
def match(api: Api) -> Created:
    return api.new_match()
