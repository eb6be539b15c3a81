"""What a client asks a match to do, parsed once for the pages and the API alike, for any game.

The game's action schemas read the body (``schemas.read_action``): the ``type`` (one of the
game's action types, or the core's ``undo``, ``redo`` and ``correct``), unknown fields, each field's type
and bounds, what the fields mean together, and the guards ``expected_seq`` and
``action_id``; the schema read is then the payload the log keeps (``ActionBody.payload``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from marquoir.rules import INVALID, RuleError

from .schemas import CORRECT, REDO, UNDO, read_action, shorten

if TYPE_CHECKING:
    from .keepers import ScoreKeeper

__all__ = ["ActionRequest", "FreshIds", "ascii_number", "form_body", "form_number", "parse_action", "shorten"]

GUARDS = frozenset({"expected_seq", "action_id"})


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A parsed request: ``kind`` (the game's action type, or the core's: ``undo``,
    ``redo``, ``correct``), its stored ``payload``, and the guards."""

    kind: str
    payload: dict[str, Any]
    expected_seq: int | None = None
    action_id: str | None = None

    @property
    def is_undo(self) -> bool:
        return self.kind == UNDO


class FreshIds:
    """A new ``action_id`` for each form of a page, by name (``{{ action_ids.claim }}``).

    One key per form, not per page: a page kept on the phone (a reload offline, the Back
    button) whose one form was used must not have its other forms answered as that use.
    """

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        return self._ids.setdefault(name, uuid.uuid4().hex)


def parse_action(body: object, keeper: ScoreKeeper) -> ActionRequest:
    """The request in ``body`` (decoded JSON) for ``keeper``'s game, or ``RuleError(invalid, reason)``:
    read by the game's action schemas (types, bounds, unknown fields, what the fields mean
    together), whose dump is the payload the log keeps."""
    action = read_action(body, keeper.action_models)
    return ActionRequest(action.action_type(), action.payload(), action.expected_seq, action.action_id)


def ascii_number(text: object, *, reason: str, digits: int = 3) -> int:
    """A whole number written with the ASCII digits 0–9, at most ``digits`` of them.

    ``str.isdigit`` accepts ``²`` and ``٣``, which ``int`` then refuses or reads as a
    number nobody typed: both are refused here with ``RuleError(invalid, reason)``, as is
    anything longer than a number a page could need.
    """
    if not isinstance(text, str) or not 0 < len(text) <= digits or not (text.isascii() and text.isdigit()):
        raise RuleError(INVALID, reason)
    return int(text)


def form_number(data: Mapping[str, Any], name: str, *, reason: str, digits: int = 3) -> int | None:
    """A whole number from a form field in ASCII digits; None when absent; RuleError otherwise."""
    raw = data.get(name)
    return None if raw is None or raw == "" else ascii_number(raw, reason=reason, digits=digits)


def form_body(data: Mapping[str, Any], keeper: ScoreKeeper) -> dict[str, Any]:
    """The API-shaped body of a page's action form (RuleError ``invalid`` if malformed): the
    game reads its own fields, the core the guards, undo, redo, and ``correct`` (the seq of
    the entry the game's fields correct, on a pad opened to correct it)."""
    body: dict[str, Any]
    if data.get("type") in (UNDO, REDO):
        body = {"type": data["type"]}
    else:
        body = keeper.form_action(data)
        corrected = form_number(data, "correct", reason="bad_correction_seq", digits=9)
        if corrected is not None:
            body = {"type": CORRECT, "seq": corrected, "action": body}
    expected_seq = form_number(data, "expected_seq", reason="bad_expected_seq", digits=9)
    if expected_seq is not None:
        body["expected_seq"] = expected_seq
    if data.get("action_id"):
        body["action_id"] = data["action_id"]
    return body
