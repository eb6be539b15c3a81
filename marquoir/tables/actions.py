"""What a client asks a match to do, parsed once for the pages and the API alike.

A request is checked here for shape (the API's ``invalid``); the rules themselves are the
engine's to check. The stored payload is the normalised request, so the log can be folded
back into engine actions at any time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marquoir.games.pickomino import GRILL, Bust, BustReason, RuleError, Take, TurnDice
from marquoir.games.pickomino.errors import INVALID

ACTION_ID_MAX_LENGTH = 64
_TAKE_FIELDS = {"type", "total", "worm", "dice", "from", "expected_seq", "action_id"}
_BUST_FIELDS = {"type", "reason", "expected_seq", "action_id"}
_UNDO_FIELDS = {"type", "expected_seq", "action_id"}


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A parsed request: ``kind`` take, bust or undo, its stored ``payload``, and the guards."""

    kind: str
    payload: dict[str, Any]
    expected_seq: int | None = None
    action_id: str | None = None


def shorten(text: object, limit: int = 40) -> str:
    """Text quoted back in a message, cut short: a refusal never echoes a megabyte."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def _bad_character(char: str) -> bool:
    # Control characters are no use in an id, PostgreSQL refuses a NUL outright, and a lone
    # surrogate (JSON's "\ud800") cannot be stored as UTF-8 at all.
    return char < " " or char == "\x7f" or "\ud800" <= char <= "\udfff"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_action(body: object) -> ActionRequest:
    """The request in ``body`` (decoded JSON), or ``RuleError(invalid, reason)`` saying what is wrong."""
    if not isinstance(body, Mapping):
        raise RuleError(INVALID, "not_an_object")
    kind = body.get("type")
    allowed = (
        {"take": _TAKE_FIELDS, "bust": _BUST_FIELDS, "undo": _UNDO_FIELDS}.get(kind) if isinstance(kind, str) else None
    )
    if allowed is None:
        raise RuleError(INVALID, "bad_type", type=kind)
    unknown = sorted(str(key) for key in body if key not in allowed)
    if unknown:
        raise RuleError(INVALID, "unknown_field", field=shorten(unknown[0]))
    expected_seq = body.get("expected_seq")
    if expected_seq is not None and (not _is_int(expected_seq) or expected_seq < 0):
        raise RuleError(INVALID, "bad_expected_seq")
    action_id = body.get("action_id")
    if action_id is not None and (
        not isinstance(action_id, str)
        or not 1 <= len(action_id) <= ACTION_ID_MAX_LENGTH
        or any(_bad_character(char) for char in action_id)
    ):
        raise RuleError(INVALID, "bad_action_id")
    payload: dict[str, Any]
    if kind == "take":
        payload = _take_payload(body)
    elif kind == "bust":
        reason = body.get("reason", BustReason.DECLARED.value)
        if not isinstance(reason, str) or reason not in {member.value for member in BustReason}:
            raise RuleError(INVALID, "bad_reason", given=shorten(reason))
        payload = {"type": "bust", "reason": reason}
    else:
        payload = {"type": "undo"}
    return ActionRequest(str(kind), payload, expected_seq, action_id)


def _take_payload(body: Mapping[str, Any]) -> dict[str, Any]:
    source = body.get("from", GRILL)
    if source != GRILL and not _is_int(source):
        raise RuleError(INVALID, "bad_source", source=source)
    if "dice" in body:
        if "total" in body or "worm" in body:
            raise RuleError(INVALID, "dice_and_total")
        dice = TurnDice.from_counts(body["dice"])
        counts = {face.key: count for face, count in dice.counts().items()}
        return {"type": "take", "total": dice.total, "worm": dice.has_worm, "from": source, "dice": counts}
    total, worm = body.get("total"), body.get("worm")
    if not _is_int(total):
        raise RuleError(INVALID, "bad_total", total=total)
    if not isinstance(worm, bool):
        raise RuleError(INVALID, "bad_worm")
    return {"type": "take", "total": total, "worm": worm, "from": source}


def engine_action(payload: Mapping[str, Any]) -> Take | Bust:
    """The engine's action for a stored take or bust payload."""
    if payload["type"] == "take":
        return Take(payload["total"], payload["worm"], payload["from"])
    return Bust(BustReason(payload.get("reason", BustReason.DECLARED.value)))
