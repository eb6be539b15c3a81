"""What a client asks a match to do, parsed once for the pages and the API alike, for any game.

The core checks what every game shares: the shape of the body, the ``type`` (one of the
game's action types, or ``undo``, which is the core's), unknown fields, and the guards
``expected_seq`` and ``action_id``; the game's keeper parses its own action's fields.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from marquoir.rules import INVALID, RuleError
from marquoir.rules.values import is_whole_number

if TYPE_CHECKING:
    from .keepers import ScoreKeeper

ACTION_ID_MAX_LENGTH = 64
UNDO = "undo"
GUARDS = frozenset({"expected_seq", "action_id"})
_UNDO_FIELDS = frozenset({"type"})


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A parsed request: ``kind`` (the game's action type, or ``undo``), its stored
    ``payload``, and the guards."""

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


def shorten(text: object, limit: int = 40) -> str:
    """Text quoted back in a message, cut short: a refusal never echoes a megabyte."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def _bad_character(char: str) -> bool:
    # Control characters are no use in an id, PostgreSQL refuses a NUL outright, and a lone
    # surrogate (JSON's "\ud800") cannot be stored as UTF-8 at all.
    return char < " " or char == "\x7f" or "\ud800" <= char <= "\udfff"


def parse_action(body: object, keeper: ScoreKeeper) -> ActionRequest:
    """The request in ``body`` (decoded JSON) for ``keeper``'s game, or ``RuleError(invalid, reason)``."""
    if not isinstance(body, Mapping):
        raise RuleError(INVALID, "not_an_object")
    kind = body.get("type")
    fields = _UNDO_FIELDS if kind == UNDO else keeper.action_fields.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise RuleError(INVALID, "bad_type", type=shorten(kind), types=[*keeper.action_fields, UNDO])
    unknown = sorted(str(key) for key in body if key not in fields and key not in GUARDS)
    if unknown:
        raise RuleError(INVALID, "unknown_field", field=shorten(unknown[0]))
    expected_seq = body.get("expected_seq")
    if expected_seq is not None and (not is_whole_number(expected_seq) or expected_seq < 0):
        raise RuleError(INVALID, "bad_expected_seq")
    action_id = body.get("action_id")
    if action_id is not None and (
        not isinstance(action_id, str)
        or not 1 <= len(action_id) <= ACTION_ID_MAX_LENGTH
        or any(_bad_character(char) for char in action_id)
    ):
        raise RuleError(INVALID, "bad_action_id")
    if kind == UNDO:
        return ActionRequest(UNDO, {"type": UNDO}, expected_seq, action_id)
    payload = keeper.parse_action({key: value for key, value in body.items() if key not in GUARDS})
    return ActionRequest(str(kind), payload, expected_seq, action_id)


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
    game reads its own fields, the core the guards and undo."""
    body: dict[str, Any] = {"type": UNDO} if data.get("type") == UNDO else keeper.form_action(data)
    expected_seq = form_number(data, "expected_seq", reason="bad_expected_seq", digits=9)
    if expected_seq is not None:
        body["expected_seq"] = expected_seq
    if data.get("action_id"):
        body["action_id"] = data["action_id"]
    return body
