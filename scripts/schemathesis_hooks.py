"""schemathesis hooks (scripts/api_check.sh): the run's writes meet real things, with their
real write rights, as the phones that made them would send them.

Without help schemathesis only ever makes up ids and tokens, so every write meets a 404 or a
401 and the checks never see an action, a rename or a deletion being applied. So:

- **Fixtures**: on its first request the run makes, through the API itself, a match of each
  game and a group with players and an attached play (``_Pool``); each later creation the
  run makes (201) joins the pool with its edit token.
- **Real ids** (``map_path_parameters``): half of the made-up ``match_id`` / ``group_id`` are
  replaced by one from the pool, and then the ``player_id`` / ``play_id`` by one of that
  group's; the other half keep their made-up value and still test the 404. An id the pool
  knows already is left alone, with the ids that go with it; in the stateful phase every
  made-up id stays (its ids come from the links, see ``map_path_parameters``).
- **Real tokens** (``EditToken``): schemathesis's own auth mechanism gives the edit token
  (match or group) of the thing the request names, so its checks know the token is real and
  still try each write without it and with a wrong one (``ignored_auth`` expects the 401).
- **Valid bodies** (``map_case``, positive cases only): half the creations and attachments get
  a body the rules accept (schemathesis alone rarely makes a valid match for a game), so
  that the stateful phase gets its 201s and follows the links from them.
- **Links** (``before_load_schema``): the published links lead from a creation to the
  addresses its id alone fills; the run adds those whose other ids the answers also carry
  (a player, a play) and the deletions, so that the stateful phase reaches every write.
- **Deletions**: a group or play the run deletes leaves the pool, and the pool makes another,
  so that later cases keep meeting real things.
- **Reach** (``after_call`` and a CLI event handler): the write requests that got past
  401/404, by operation and status, and the links the stateful phase followed (as
  schemathesis counts them), added up in ``$API_CHECK_REACH`` (JSON) over the runs
  api_check.sh makes, for it to print.
"""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
import zlib
from collections import Counter
from typing import Any

import schemathesis
from schemathesis.cli.commands.run.handlers.base import EventHandler
from schemathesis.cli.ext.handlers import handler
from schemathesis.engine import events

BASE_URL = os.environ.get("API_CHECK_URL", "").rstrip("/")  # set by api_check.sh: http://127.0.0.1:port
REACH_PATH = os.environ.get("API_CHECK_REACH", "")
WRITE_METHODS = {"POST", "PATCH", "PUT", "DELETE"}
CREATIONS = {"/matches", "/groups", "/groups/import", "/own-games", "/own-games/check"}  # no 401/404 to pass

# A body each game accepts (docs/api.md), and a group's.
MATCH_BODIES: list[dict[str, Any]] = [
    {"game": "pickomino", "players": ["Ada", "Ben", "Cy"]},
    {"game": "sheet", "players": ["Ada", "Ben", "Cy"], "options": {"title": "Skat"}},
    {"game": "yahtzee", "players": ["Ada", "Ben"]},
    {"game": "tarot", "players": ["Ada", "Ben", "Cy", "Dee"]},
]
GROUP_BODY: dict[str, Any] = {"name": "Thursday night", "players": ["Ada", "Ben", "Cy"]}
# A user's own game (docs/api.md, "Your own games"): each player's points, doubled on a flag.
OWN_GAME_BODY: dict[str, Any] = {
    "file": {
        "scored": "rounds",
        "winner": "highest",
        "box": {"names": {"en": "House game"}, "players": [2, 6]},
        "inputs": [
            {"key": "points", "per": "player", "kind": "points", "label": {"en": "Points"}, "min": -99, "max": 99},
            {"key": "double", "per": "player", "kind": "flag", "label": {"en": "Doubled"}},
        ],
        "points": [{"key": "points", "label": {"en": "Points"}, "formula": "double ? 2 * points : points"}],
        "end": {"table_decides": True},
    }
}
# Actions each game accepts on a new match: a real action gets applied (200), not only refused.
FIRST_ACTIONS: dict[str, list[dict[str, Any]]] = {
    "pickomino": [{"type": "bust"}, {"type": "undo"}],
    "sheet": [{"type": "round", "scores": [10, 20, 30]}, {"type": "undo"}],
    "yahtzee": [{"type": "score", "box": "chance", "dice": [1, 2, 3, 4, 5]}, {"type": "undo"}],
    "tarot": [{"type": "pass"}, {"type": "undo"}],
}


def _pick(value: object, count: int) -> int:
    """A choice among ``count`` that depends only on ``value``: Hypothesis may replay a case."""
    return zlib.crc32(repr(value).encode("utf-8", "surrogatepass")) % count


def _api(method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, Any]:
    """One request to the server under test (loopback), outside schemathesis: (status, JSON or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{BASE_URL}/api/v1{path}", data=data, method=method)  # noqa: S310
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (loopback, our server)
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw) if raw else None
        except ValueError:
            return error.code, None


class _Pool:
    """The real matches and groups the run knows, with their tokens, and a group's players and plays."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.matches: dict[str, str] = {}  # match id -> edit token
        self.games: dict[str, str] = {}  # match id -> game, for the ones the pool made
        self.groups: dict[str, str] = {}  # group id -> edit token
        self.players: dict[str, list[int]] = {}  # group id -> its players' ids
        self.plays: dict[str, list[str]] = {}  # group id -> its plays' ids
        self.own_games: dict[str, str] = {}  # own game id -> edit token
        self.ready = False

    def setup(self) -> None:
        """The fixtures, once, when the first case is drawn (the server is up by then)."""
        with self.lock:
            if self.ready or not BASE_URL:
                return
            self.ready = True
            for body in MATCH_BODIES:
                self.new_match(body)
            for _group in range(3):
                self.new_group()
            for _own in range(2):
                status, created = _api("POST", "/own-games", OWN_GAME_BODY)
                if status == 201:
                    self.own_games[created["id"]] = created["edit_token"]

    def new_match(self, body: dict[str, Any] | None = None) -> tuple[str, str] | None:
        body = body or MATCH_BODIES[len(self.games) % 2]  # Pickomino and the sheet: any names fit
        status, created = _api("POST", "/matches", body)
        if status != 201:
            return None
        with self.lock:
            self.matches[created["id"]] = created["edit_token"]
            self.games[created["id"]] = body["game"]
        return created["id"], created["edit_token"]

    def new_group(self) -> None:
        status, created = _api("POST", "/groups", GROUP_BODY)
        if status != 201:
            return
        self.add_group(created)
        self.attach_new_play(created["id"])

    def add_group(self, created: dict[str, Any]) -> None:
        with self.lock:
            self.groups[created["id"]] = created["edit_token"]
            self.players[created["id"]] = [player["id"] for player in created["group"].get("players", [])]
            self.plays.setdefault(created["id"], [])

    def attach_new_play(self, group_id: str) -> None:
        """A new match attached to the group, with both write rights (the group's, the match's)."""
        made = self.new_match()
        if made is None:
            return
        match_id, match_token = made
        status, play = _api(
            "POST",
            f"/groups/{group_id}/matches",
            {"match_id": match_id, **({"match_edit_token": match_token} if ATTACH_TAKES_TOKEN else {})},
            self.groups.get(group_id),
        )
        if status == 201:
            with self.lock:
                self.plays.setdefault(group_id, []).append(play["id"])

    def group_gone(self, group_id: str) -> None:
        with self.lock:
            self.groups.pop(group_id, None)
            self.players.pop(group_id, None)
            self.plays.pop(group_id, None)
            few = len(self.groups) < 3
        if few:
            self.new_group()

    def play_gone(self, group_id: str, play_id: str) -> None:
        with self.lock:
            plays = self.plays.get(group_id, [])
            if play_id in plays:
                plays.remove(play_id)
            empty = not plays and group_id in self.groups
        if empty:
            self.attach_new_play(group_id)


_pool = _Pool()
ATTACH_TAKES_TOKEN = False  # whether the attachment's body has the match's token (read from the schema)


def _read_reach() -> tuple[Counter[str], Counter[str], set[str], int]:
    """What earlier runs of this api-check counted (api_check.sh runs schemathesis more than once)."""
    try:
        with open(REACH_PATH, encoding="utf-8") as saved:
            data = json.load(saved)
    except (OSError, ValueError):
        return Counter(), Counter(), set(), 0
    return Counter(data["past"]), Counter(data["sent"]), set(data["links"]), int(data["links_total"])


# "METHOD path status" of each write request past 401/404; every write request by "METHOD
# path"; the ids of the links followed; how many links the schema has (published and inferred).
_reach, _writes, _links, _links_total = _read_reach()


def _write_reach() -> None:
    if REACH_PATH:
        with open(REACH_PATH, "w", encoding="utf-8") as out:
            data = {"past": _reach, "sent": _writes, "links": sorted(_links), "links_total": _links_total}
            json.dump(data, out)


@handler()
class LinkCoverage(EventHandler[Any]):
    """The links each stateful scenario followed, as schemathesis's own summary counts them."""

    def handle_event(self, ctx: Any, event: events.EngineEvent) -> None:
        global _links_total  # one figure per schema: the same in every run
        if isinstance(event, events.PhaseStarted) and event.payload is not None:
            _links_total = max(_links_total, event.payload.transitions_total)
        elif isinstance(event, events.ScenarioFinished) and event.recorder is not None:
            _links.update(
                case.transition.id
                for case in event.recorder.cases.values()
                if case.transition is not None and case.is_transition_applied
            )
        elif isinstance(event, events.EngineFinished):
            _write_reach()


# --- links ------------------------------------------------------------------------------------

# Links the stateful phase needs beyond the published ones (marquoir/tables/api.py publishes a
# creation's links to the addresses its id alone fills, and none to a deletion): from a
# creation (or any group answer) to the addresses whose other ids the answer carries too, and
# to the deletions, which end a scenario. By operationId suffix: {source: {status: {target: parameters}}}.
_GROUP_FROM_CREATION = {"group_id": "$response.body#/id"}
_GROUP_FROM_PATH = {"group_id": "$request.path.group_id"}
EXTRA_LINKS: dict[str, dict[str, dict[str, dict[str, str]]]] = {
    "create_group": {
        "201": {
            "rename_player": {**_GROUP_FROM_CREATION, "player_id": "$response.body#/group/players/0/id"},
            "delete_group": _GROUP_FROM_CREATION,
        }
    },
    "import_group": {"201": {"delete_group": _GROUP_FROM_CREATION}},
    "add_player": {
        "201": {
            "rename_player": {**_GROUP_FROM_PATH, "player_id": "$response.body#/players/0/id"},
            "delete_group": _GROUP_FROM_PATH,
        }
    },
    "rename_player": {"200": {"add_player": _GROUP_FROM_PATH, "delete_group": _GROUP_FROM_PATH}},
    "attach_match": {
        "201": {
            "delete_match": {**_GROUP_FROM_PATH, "play_id": "$response.body#/id"},
            "group_matches": _GROUP_FROM_PATH,
            "group_stats": _GROUP_FROM_PATH,
        }
    },
    "delete_match": {"204": {"group_matches": _GROUP_FROM_PATH}},
}


@schemathesis.hook
def before_load_schema(context: Any, raw_schema: dict[str, Any]) -> None:
    global ATTACH_TAKES_TOKEN  # read once, from the schema the run tests
    operations = {
        operation["operationId"]: operation
        for methods in raw_schema.get("paths", {}).values()
        for operation in methods.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    by_suffix = {operation_id.rsplit("_api_", 1)[-1]: operation_id for operation_id in operations}
    for source, by_status in EXTRA_LINKS.items():
        if source not in by_suffix:
            continue
        responses = operations[by_suffix[source]].get("responses", {})
        for status, targets in by_status.items():
            if status not in responses:
                continue
            links = responses[status].setdefault("links", {})
            for target, parameters in targets.items():
                if target in by_suffix:
                    links.setdefault(by_suffix[target], {"operationId": by_suffix[target], "parameters": parameters})
    attach = operations.get(by_suffix.get("attach_match", ""), {})
    ATTACH_TAKES_TOKEN = "match_edit_token" in json.dumps(attach.get("requestBody", {}))


# --- ids, tokens, bodies --------------------------------------------------------------------------


def _short(path: str) -> str:
    return path.removeprefix("/api/v1")


_stateful = False  # set once the stateful phase has begun (it runs last)


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: Any) -> Any:
    # Not in the stateful phase: its ids come from the links, and an id taken from the pool
    # (which other scenarios change) makes Hypothesis see the same draws lead elsewhere
    # ("inconsistent data generation"), which ends the phase early.
    if not path_parameters or _stateful:
        return path_parameters
    _pool.setup()
    chosen = dict(path_parameters)
    with _pool.lock:
        match_id = chosen.get("match_id")
        if match_id is not None and match_id not in _pool.matches and _pool.matches and _pick(match_id, 2) == 0:
            known = sorted(_pool.matches)
            chosen["match_id"] = known[_pick(chosen, len(known))]
        own_id = chosen.get("game_id")
        if own_id is not None and own_id not in _pool.own_games and _pool.own_games and _pick(own_id, 2) == 0:
            known = sorted(_pool.own_games)
            chosen["game_id"] = known[_pick(chosen, len(known))]
        group_id = chosen.get("group_id")
        if group_id is not None and group_id not in _pool.groups and _pool.groups and _pick(group_id, 2) == 0:
            known = sorted(_pool.groups)
            group_id = chosen["group_id"] = known[_pick(chosen, len(known))]
            # The other ids follow the group chosen (most of the time: a made-up one still tests the 404).
            for name, ids in (("player_id", _pool.players.get(group_id)), ("play_id", _pool.plays.get(group_id))):
                if name in chosen and ids and _pick((name, chosen[name]), 4) != 0:
                    chosen[name] = ids[_pick(chosen[name], len(ids))]
    return chosen


def _positive(case: Any) -> bool:
    meta = getattr(case, "_meta", None)
    mode = getattr(getattr(meta, "generation", None), "mode", None)
    return mode is not None and str(getattr(mode, "value", mode)) == "positive"


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    """Half the positive creations, attachments and actions get a body the rules accept."""
    global _stateful  # a phase flag: the phases run one after the other
    phase = getattr(getattr(getattr(case, "_meta", None), "phase", None), "name", None)
    if phase is not None and str(getattr(phase, "value", phase)) == "stateful":
        _stateful = True
    if case.method.upper() != "POST" or not _positive(case):
        return case
    path = _short(case.operation.path)
    choice = _pick((path, case.body, case.path_parameters), 4)
    if choice >= 2:
        return case
    if path == "/matches":
        case.body = dict(MATCH_BODIES[_pick(case.body, len(MATCH_BODIES))])
    elif path == "/groups":
        case.body = dict(GROUP_BODY)
    elif path in ("/own-games", "/own-games/check"):
        case.body = dict(OWN_GAME_BODY)
    elif path == "/groups/{group_id}/matches":
        made = _pool.new_match()
        if made is not None:
            case.body = {"match_id": made[0], **({"match_edit_token": made[1]} if ATTACH_TAKES_TOKEN else {})}
    elif path == "/matches/{match_id}/actions":
        match_id = str((case.path_parameters or {}).get("match_id", ""))
        actions = FIRST_ACTIONS.get(_pool.games.get(match_id, ""))
        if actions:
            case.body = dict(actions[choice % len(actions)])
    return case


@schemathesis.auth(refresh_interval=None)
class EditToken:
    """The edit token of the match (or group) the request names, when the run knows it."""

    def get(self, case: Any, context: Any) -> str | None:
        parameters = case.path_parameters or {}
        with _pool.lock:
            if _short(case.path).startswith("/groups"):
                return _pool.groups.get(str(parameters.get("group_id", "")))
            if _short(case.path).startswith("/own-games"):
                return _pool.own_games.get(str(parameters.get("game_id", "")))
            return _pool.matches.get(str(parameters.get("match_id", "")))

    def set(self, case: Any, data: str | None, context: Any) -> None:
        if data:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    method, path = case.method.upper(), _short(case.path)
    status = response.status_code
    # The operation's own method only: a check sending another one (405) reaches nothing.
    if method in WRITE_METHODS and path not in CREATIONS and method == case.operation.method.upper():
        _writes[f"{method} {path}"] += 1
        if status not in (401, 404):
            _reach[f"{method} {path} {status}"] += 1
    parameters = case.path_parameters or {}
    if method == "POST" and status == 201:
        if path == "/matches":
            created = response.json()
            with _pool.lock:
                _pool.matches[created["id"]] = created["edit_token"]
        elif path in ("/groups", "/groups/import"):
            _pool.add_group(response.json())
        elif path == "/own-games":
            created = response.json()
            with _pool.lock:
                _pool.own_games[created["id"]] = created["edit_token"]
        elif path == "/groups/{group_id}/matches" and parameters.get("group_id") in _pool.plays:
            with _pool.lock:
                _pool.plays[parameters["group_id"]].append(response.json()["id"])
        elif path == "/groups/{group_id}/players" and parameters.get("group_id") in _pool.players:
            with _pool.lock:
                _pool.players[parameters["group_id"]] = [player["id"] for player in response.json()["players"]]
    elif method == "DELETE" and status == 204:
        if path == "/groups/{group_id}":
            _pool.group_gone(parameters.get("group_id", ""))
        elif path == "/groups/{group_id}/matches/{play_id}":
            _pool.play_gone(parameters.get("group_id", ""), parameters.get("play_id", ""))
