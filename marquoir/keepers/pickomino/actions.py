"""Pickomino's actions as the API and the pages send them: take (by total and worm, or by
the kept dice) and bust. The body is checked here for shape (the API's ``invalid``); the
rules themselves are the engine's to check. The stored payload is the normalised request,
so the log can be folded back into engine actions at any time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marquoir.games.pickomino import GRILL, Bust, BustReason, RuleError, Take, TurnDice
from marquoir.games.pickomino.errors import INVALID
from marquoir.rules.values import is_whole_number
from marquoir.tables.actions import ascii_number, form_number, shorten

from .turn import decode_dice


def parse_payload(body: Mapping[str, Any]) -> dict[str, Any]:
    """The stored payload of a take or a bust, or ``RuleError(invalid, reason)``."""
    if body.get("type") == "take":
        return _take_payload(body)
    reason = body.get("reason", BustReason.DECLARED.value)
    if not isinstance(reason, str) or reason not in {member.value for member in BustReason}:
        raise RuleError(INVALID, "bad_reason", given=shorten(reason))
    return {"type": "bust", "reason": reason}


def _take_payload(body: Mapping[str, Any]) -> dict[str, Any]:
    source = body.get("from", GRILL)
    if source != GRILL and not is_whole_number(source):
        raise RuleError(INVALID, "bad_source", source=shorten(source))
    if "dice" in body:
        if "total" in body or "worm" in body:
            raise RuleError(INVALID, "dice_and_total")
        dice = TurnDice.from_counts(body["dice"])
        counts = {face.key: count for face, count in dice.counts().items()}
        return {"type": "take", "total": dice.total, "worm": dice.has_worm, "from": source, "dice": counts}
    total, worm = body.get("total"), body.get("worm")
    if not is_whole_number(total):
        raise RuleError(INVALID, "bad_total", total=shorten(total))
    if not isinstance(worm, bool):
        raise RuleError(INVALID, "bad_worm")
    return {"type": "take", "total": total, "worm": worm, "from": source}


def engine_action(payload: Mapping[str, Any]) -> Take | Bust:
    """The engine's action for a stored take or bust payload."""
    if payload["type"] == "take":
        return Take(payload["total"], payload["worm"], payload["from"])
    return Bust(BustReason(payload.get("reason", BustReason.DECLARED.value)))


def form_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The API-shaped body of a take or bust sent by the table screen's forms.

    A claim button sends ``claim=<total>:<source>`` (``27:grill``, ``30:2``); the dice pad
    adds the kept dice, from which the server works the total out itself.
    """
    body: dict[str, Any] = {"type": data.get("type")}
    if body["type"] == "take":
        claim = data.get("claim")
        total: int | None
        source: Any
        if claim is not None:
            total_text, _colon, source_text = str(claim).partition(":")
            total = ascii_number(total_text, reason="bad_total")
            source = GRILL if source_text == GRILL else ascii_number(source_text, reason="bad_source")
        else:
            total = form_number(data, "total", reason="bad_total")
            source_text = data.get("from", GRILL)
            source = GRILL if source_text == GRILL else ascii_number(source_text, reason="bad_source")
        if data.get("dice"):
            body["dice"] = {face.key: count for face, count in decode_dice(data["dice"]).counts().items()}
        else:
            body["total"] = total
            body["worm"] = claim is not None or data.get("worm") == "1"
        body["from"] = source
    elif body["type"] == "bust" and data.get("reason"):
        body["reason"] = data["reason"]
    return body
