"""Shared fixtures for groups: a group made through the services, and quick finished matches
of every game, played through ``marquoir.tables.services.match_act`` with API-shaped bodies.

- `made` (fixture): a fresh group "Thursday" of Ada, Ben and Cy, with its edit key
  (``made.group``, ``made.key``); `group` is ``made.group``.
- `new_match(game, players, options)`: a match made by ``services.match_create``; `act(match,
  *bodies)` plays bodies on it, each accepted.
- `finished_sheet(players, scores, title)`: a sheet with ``rounds`` 1, over after one round.
- `finished_pickomino(players)`: two players take the 16 tiles in turn (the first takes the
  odd ones), over; `finished_yahtzee(player)`: one player's 13 turns, over;
  `finished_tarot(players)`: four players, ``deals`` 1, over after one deal.
- `take`, `steal`, `BUST`, `UNDO`, `round_`, `box`, `deal`: the actions' bodies.
- `counts()`: the rows of every table a group touches, to compare before and after.
- `api_json(...)`: a request with a JSON body through Django's test client.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client, TestCase

from marquoir.groups import services
from marquoir.groups.models import DeviceGroup, Group, Member, Play
from marquoir.tables import services as match_services
from marquoir.tables.models import LogEntry, Match

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

GROUPS = "/api/v1/groups"
PLAYERS = ("Ada", "Ben", "Cy")

BUST: dict[str, Any] = {"type": "bust"}
UNDO: dict[str, Any] = {"type": "undo"}
END: dict[str, Any] = {"type": "end"}


def take(total: int, **extra: Any) -> dict[str, Any]:
    """Pickomino: take the tile ``total`` from the grill (a worm kept)."""
    return {"type": "take", "total": total, "worm": True, "from": "grill", **extra}


def steal(total: int, seat: int) -> dict[str, Any]:
    """Pickomino: take the tile ``total`` from the top of ``seat``'s stack."""
    return {"type": "take", "total": total, "worm": True, "from": seat}


def round_(*scores: int) -> dict[str, Any]:
    """A score sheet's round."""
    return {"type": "round", "scores": list(scores)}


def box(name: str, *dice: int) -> dict[str, Any]:
    """Yahtzee: score the five ``dice`` in the box ``name``."""
    return {"type": "score", "box": name, "dice": list(dice)}


def deal(taker: int, contract: str, bouts: int, points: int) -> dict[str, Any]:
    """Tarot: a deal taken by ``taker`` with ``points`` for the taker's side."""
    return {"type": "deal", "taker": taker, "contract": contract, "bouts": bouts, "points": points}


@dataclass(frozen=True)
class Made:
    group: Group
    key: str


def new_match(
    game: str, players: Sequence[str] = PLAYERS, options: Mapping[str, Any] | None = None, first: int = 0
) -> Match:
    match, _token = match_services.match_create(
        game=game, players=list(players), first=first, options=dict(options) if options is not None else None
    )
    return match


def act(match: Match | str, *bodies: Mapping[str, Any]) -> None:
    """Each body played on the match, as the API would (refusals raise ServiceError), and
    committed: what follows a match's writes (a group's plays) is told then."""
    match_id = match if isinstance(match, str) else match.id
    for body in bodies:
        with TestCase.captureOnCommitCallbacks(execute=True):
            match_services.match_act(match_id=match_id, body=dict(body)).or_raise()


def is_over(match: Match | str) -> bool:
    return Match.objects.get(pk=match if isinstance(match, str) else match.id).over


def finished_sheet(
    players: Sequence[str] = PLAYERS,
    scores: Sequence[int] = (10, 7, 3),
    title: str | None = "Skyjo",
    *,
    lowest_wins: bool = False,
    first: int = 0,
) -> Match:
    """A sheet over after its one round (``rounds`` 1)."""
    match = new_match("sheet", players, {"title": title, "rounds": 1, "lowest_wins": lowest_wins}, first=first)
    act(match, round_(*scores))
    assert is_over(match)
    return match


# The sixteen tiles, 21 to 36, taken in turn: the first player every odd tile, the second
# every even one (worms: 21–24 one, 25–28 two, 29–32 three, 33–36 four; 20 each, the
# tie goes to the highest tile: the second player's 36).
ALL_TILES = [take(tile) for tile in range(21, 37)]


def finished_pickomino(players: Sequence[str] = ("Ada", "Ben")) -> Match:
    """Two players take the 16 tiles in turn: 20 worms each, the second wins by the 36."""
    match = new_match("pickomino", players)
    act(match, *ALL_TILES)
    assert is_over(match)
    return match


# One player's 13 turns: every upper box with three of its face (63: the bonus), every
# lower box made, a Yahtzee of 4s. Upper 3+6+9+12+15+18 = 63, +35; lower 27 + 22 + 25 +
# 30 + 40 + 50 + 26 = 220: 318.
SOLO_YAHTZEE = [
    box("ones", 1, 1, 1, 2, 3),
    box("twos", 2, 2, 2, 1, 3),
    box("threes", 3, 3, 3, 1, 2),
    box("fours", 4, 4, 4, 1, 2),
    box("fives", 5, 5, 5, 1, 2),
    box("sixes", 6, 6, 6, 1, 2),
    box("three_of_a_kind", 6, 6, 6, 5, 4),
    box("four_of_a_kind", 5, 5, 5, 5, 2),
    box("full_house", 3, 3, 2, 2, 2),
    box("small_straight", 1, 2, 3, 4, 6),
    box("large_straight", 2, 3, 4, 5, 6),
    box("yahtzee", 4, 4, 4, 4, 4),
    box("chance", 6, 6, 5, 5, 4),
]
SOLO_YAHTZEE_TOTAL = 318


def finished_yahtzee(player: str = "Ada") -> Match:
    """One player's 13 turns (``SOLO_YAHTZEE``): over, 318."""
    match = new_match("yahtzee", [player])
    act(match, *SOLO_YAHTZEE)
    assert is_over(match)
    return match


def finished_tarot(players: Sequence[str] = ("Ada", "Ben", "Cy", "Dee")) -> Match:
    """Four players, one deal (``deals`` 1): Ada takes a garde with 2 bouts and 47 points."""
    match = new_match("tarot", players, {"deals": 1})
    act(match, deal(0, "garde", 2, 47))
    assert is_over(match)
    return match


def counts() -> dict[str, int]:
    """The rows of every table a group touches."""
    return {
        "groups": Group.objects.count(),
        "members": Member.objects.count(),
        "plays": Play.objects.count(),
        "devices": DeviceGroup.objects.count(),
        "matches": Match.objects.count(),
        "log": LogEntry.objects.count(),
    }


def api_json(
    client: Client,
    method: str,
    path: str,
    body: object = None,
    *,
    token: str | None = None,
    language: str | None = None,
    content_type: str = "application/json",
) -> Response:
    """A request with ``body`` as JSON (a ``str`` or ``bytes`` body sent as is), the group's
    bearer ``token`` if given, and ``Accept-Language`` if given."""
    headers: dict[str, str] = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if language is not None:
        headers["Accept-Language"] = language
    data: str | bytes = "" if body is None else body if isinstance(body, str | bytes) else json.dumps(body)
    call = getattr(client, method.lower())
    response: Response = call(path, data=data, content_type=content_type, headers=headers)
    return response


@pytest.fixture
def made(db: None) -> Made:
    group, key = services.group_create(name="Thursday", players=list(PLAYERS))
    return Made(group, key)


@pytest.fixture
def group(made: Made) -> Group:
    return made.group
