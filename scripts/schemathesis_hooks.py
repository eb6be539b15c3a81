"""schemathesis hooks (scripts/api_check.sh): each match the run creates lends its edit
token to the requests that later name it, as the phone that created it would.

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

_tokens: dict[str, str] = {}


def _pick(value: object, count: int) -> int:
    return zlib.crc32(repr(value).encode("utf-8", "surrogatepass")) % count


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if case.method.upper() == "POST" and case.path.endswith("/matches") and response.status_code == 201:
        created = response.json()
        _tokens[created["id"]] = created["edit_token"]


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: Any) -> Any:
    if not path_parameters or "match_id" not in path_parameters or not _tokens:
        return path_parameters
    match_id = path_parameters["match_id"]
    if match_id not in _tokens and _pick(match_id, 2) == 0:
        known = list(_tokens)
        return {**path_parameters, "match_id": known[_pick(path_parameters, len(known))]}
    return path_parameters


@schemathesis.auth(refresh_interval=None)
class EditToken:
    """The edit token of the match the request names, when the run created it."""

    def get(self, case: Any, context: Any) -> str | None:
        return _tokens.get((case.path_parameters or {}).get("match_id"))

    def set(self, case: Any, data: str | None, context: Any) -> None:
        if data:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
