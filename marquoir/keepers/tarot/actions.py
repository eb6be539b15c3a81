"""Tarot's actions as the API and the pages send them: a deal, everyone passed, the end.

The schemas of api.py read the API's bodies (types, bounds, halves); ``parse_payload`` turns
what they read into the payload the log keeps, and ``engine_action`` into the engine's
action, which checks what the fields mean together for the match (a partner at 4 players,
points the bouts make impossible…). The table screen's forms, and the entry the address
carries for the preview, are read by ``form_action`` into the same API-shaped body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from marquoir.games.tarot import (
    MAX_PLAYERS,
    Chelem,
    Contract,
    Deal,
    End,
    Pass,
    Poignee,
    PoigneeSize,
    RuleError,
    Side,
)
from marquoir.rules import INVALID
from marquoir.tables.actions import ascii_number, shorten

DEAL, PASS, END = "deal", "pass", "end"

# Card points as typed on a phone: digits, then a half written ".5" or ",5" (or "½").
_FORM_POINTS = re.compile(r"([0-9]{1,3})(?:[.,]([05])0*|\s*(½))?")


def parse_payload(body: Mapping[str, Any]) -> dict[str, Any]:
    """The stored payload of a deal, a pass or the end, or ``RuleError(invalid, reason)``.

    A deal keeps the fields given (the schema checked each one); what they mean together at
    this table is the engine's to check when the deal is applied. Reasons here:
    ``points_missing`` (neither ``points`` nor ``defence_points``), ``points_twice`` (both).
    """
    kind = body.get("type")
    if kind != DEAL:
        return {"type": kind}
    points, defence = body.get("points"), body.get("defence_points")
    if points is None and defence is None:
        raise RuleError(INVALID, "points_missing")
    if points is not None and defence is not None:
        raise RuleError(INVALID, "points_twice", points=points, defence_points=defence)
    payload: dict[str, Any] = {
        "type": DEAL,
        "taker": body.get("taker"),
        "contract": body.get("contract"),
        "partner": body.get("partner"),
        "bouts": body.get("bouts"),
    }
    if points is not None:
        payload["points"] = _number(points)
    elif defence is not None:
        payload["defence_points"] = _number(defence)
    payload.update(
        petit_au_bout=body.get("petit_au_bout"),
        poignees=[{"side": str(p["side"]), "size": str(p["size"])} for p in body.get("poignees") or ()],
        chelem=body.get("chelem"),
    )
    return payload


def _number(value: int | float) -> int | float:
    """47.0 is kept as 47: the log and the State write whole points without a decimal."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def engine_action(payload: Mapping[str, Any]) -> Deal | Pass | End:
    """The engine's action for a stored payload."""
    kind = payload["type"]
    if kind == PASS:
        return Pass()
    if kind == END:
        return End()
    return deal_of(payload)


def deal_of(payload: Mapping[str, Any]) -> Deal:
    """The engine's deal for a deal's payload."""
    return Deal(
        taker=payload["taker"],
        contract=Contract(payload["contract"]),
        partner=payload.get("partner"),
        bouts=payload["bouts"],
        points=payload.get("points"),
        defence_points=payload.get("defence_points"),
        petit_au_bout=Side(payload["petit_au_bout"]) if payload.get("petit_au_bout") else None,
        poignees=tuple(Poignee(Side(p["side"]), PoigneeSize(p["size"])) for p in payload.get("poignees", ())),
        chelem=Chelem(payload["chelem"]) if payload.get("chelem") else None,
    )


# --- the table screen's forms


def form_points(raw: object) -> int | float | None:
    """Card points as typed: ``47``, ``40.5``, ``40,5``, ``40½``; None when empty.

    ``RuleError(invalid, "points_digits")`` for anything else (the range and the halves are
    then the engine's to judge, with their own reasons).
    """
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        return None
    written = _FORM_POINTS.fullmatch(text)
    if written is None:
        raise RuleError(INVALID, "points_digits", given=shorten(text, 12))
    whole, tenth, half_sign = written.groups()
    if tenth == "5" or half_sign:
        return int(whole) + 0.5
    return int(whole)


def _form_index(data: Mapping[str, Any], name: str, role: str) -> int | None:
    raw = data.get(name)
    if raw is None or raw == "":
        return None
    try:
        return ascii_number(raw, reason="unknown_player", digits=1)
    except RuleError:
        raise RuleError(INVALID, "unknown_player", role=role, player=shorten(raw, 12)) from None


def deal_body(data: Mapping[str, Any]) -> dict[str, Any]:
    """The API-shaped body of a deal from the entry's fields (the form, or the address).

    Fields: ``taker``, ``contract``, ``partner`` (5 players: an index, the taker's own when
    alone), ``bouts``, ``points`` as typed with ``counted`` (``taker`` or ``defence``: whose
    points they are), ``petit`` (``taker`` or ``defence``), ``poignee_<i>`` (the size of
    the handful player i showed: its side follows from the taker and the partner),
    ``chelem``. Missing choices are left out, for the engine to name.
    """
    taker = _form_index(data, "taker", "taker")
    partner = _form_index(data, "partner", "partner")
    body: dict[str, Any] = {"type": DEAL, "taker": taker, "contract": data.get("contract") or None}
    if partner is not None:
        body["partner"] = partner
    bouts = data.get("bouts")
    body["bouts"] = ascii_number(bouts, reason="bad_bouts", digits=1) if bouts not in (None, "") else None
    points = form_points(data.get("points"))
    if points is not None:
        body["defence_points" if data.get("counted") == "defence" else "points"] = points
    petit = data.get("petit")
    body["petit_au_bout"] = petit if petit in (Side.TAKER, Side.DEFENCE) else None
    poignees = []
    for player in range(MAX_PLAYERS):
        size = data.get(f"poignee_{player}")
        if size in tuple(PoigneeSize):
            side = Side.TAKER if player in (taker, partner) else Side.DEFENCE
            poignees.append({"side": side.value, "size": str(size)})
    body["poignees"] = poignees
    chelem = data.get("chelem")
    body["chelem"] = chelem if chelem in tuple(Chelem) else None
    return body


def form_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The API-shaped body of a deal, a pass or the end sent by the table screen's forms."""
    kind = data.get("type")
    if kind != DEAL:
        return {"type": kind}
    body = deal_body(data)
    missing = next((name for name in ("taker", "contract", "bouts") if body.get(name) is None), None)
    if missing is not None:
        raise RuleError(INVALID, "choice_missing", choice=missing)
    if "points" not in body and "defence_points" not in body:
        raise RuleError(INVALID, "points_missing")
    return body
