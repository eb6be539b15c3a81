"""Each game's engine action as the API's body that sends it: what a phone would post for
that action. The benchmarks play random legal actions through the API's parsing with it,
and so do the tests that replay whole games (``keeper.engine_action`` goes the other way)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marquoir.games.pickomino.engine import Take
from marquoir.games.sheet.engine import End as SheetEnd
from marquoir.games.tarot.engine import End as TarotEnd
from marquoir.games.tarot.engine import Pass
from marquoir.games.yahtzee.engine import Score


def pickomino_body(action: Any) -> dict[str, Any]:
    if isinstance(action, Take):
        return {"type": "take", "total": action.total, "worm": action.worm, "from": action.source}
    return {"type": "bust", "reason": action.reason.value}


def sheet_body(action: Any) -> dict[str, Any]:
    if isinstance(action, SheetEnd):
        return {"type": "end"}
    return {"type": "round", "scores": list(action.scores)}


def yahtzee_body(action: Any) -> dict[str, Any]:
    if isinstance(action, Score):
        return {"type": "score", "box": str(action.box), "dice": list(action.dice)}
    body: dict[str, Any] = {"type": "score", "box": str(action.box), "points": action.points}
    if action.five_alike is not None:
        body["five_alike"] = action.five_alike
    return body


def tarot_body(action: Any) -> dict[str, Any]:
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, TarotEnd):
        return {"type": "end"}
    body: dict[str, Any] = {
        "type": "deal",
        "taker": action.taker,
        "contract": action.contract.value,
        "bouts": action.bouts,
        "petit_au_bout": action.petit_au_bout.value if action.petit_au_bout is not None else None,
        "poignees": [{"side": poignee.side.value, "size": poignee.size.value} for poignee in action.poignees],
        "chelem": action.chelem.value if action.chelem is not None else None,
    }
    if action.partner is not None:
        body["partner"] = action.partner
    if action.points is not None:
        body["points"] = action.points
    else:
        body["defence_points"] = action.defence_points
    return body


BODIES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "pickomino": pickomino_body,
    "sheet": sheet_body,
    "tarot": tarot_body,
    "yahtzee": yahtzee_body,
}
