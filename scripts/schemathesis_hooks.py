"""schemathesis hooks (scripts/api_check.sh): each match (and group) the run creates lends
its edit token to the requests that later name it, as the phone that created it would.

A made-up match id only ever meets a 404, so once the run has created matches, half of the
made-up ids are replaced by one the run created, so that actions, claims and advice meet
real matches of every game; the other half keep their made-up id and still test the 404.
The token is given through schemathesis's own auth mechanism, so that its checks know
it is real and still try each write without it (ST401 expects the 401 then).
"""

from __future__ import annotations

import zlib
from typing import Any

import schemathesis

_tokens: dict[str, str] = {}  # match id -> edit token
_group_tokens: dict[str, str] = {}  # group id -> edit token


def _pick(value: object, count: int) -> int:
    return zlib.crc32(repr(value).encode("utf-8", "surrogatepass")) % count


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if case.method.upper() != "POST" or response.status_code != 201:
        return
    path = case.path.removeprefix("/api/v1")
    if path == "/matches":
        created = response.json()
        _tokens[created["id"]] = created["edit_token"]
    elif path in ("/groups", "/groups/import"):
        created = response.json()
        _group_tokens[created["id"]] = created["edit_token"]


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: Any) -> Any:
    if not path_parameters:
        return path_parameters
    for name, known_tokens in (("match_id", _tokens), ("group_id", _group_tokens)):
        given = path_parameters.get(name)
        if given is not None and known_tokens and given not in known_tokens and _pick(given, 2) == 0:
            known = list(known_tokens)
            path_parameters = {**path_parameters, name: known[_pick(path_parameters, len(known))]}
    return path_parameters


@schemathesis.auth(refresh_interval=None)
class EditToken:
    """The edit token of the match (or group) the request names, when the run created it."""

    def get(self, case: Any, context: Any) -> str | None:
        parameters = case.path_parameters or {}
        if case.path.removeprefix("/api/v1").startswith("/groups"):
            return _group_tokens.get(parameters.get("group_id"))
        return _tokens.get(parameters.get("match_id"))

    def set(self, case: Any, data: str | None, context: Any) -> None:
        if data:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
