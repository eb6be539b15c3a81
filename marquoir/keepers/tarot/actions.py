"""Tarot's actions, one schema each: a deal, everyone passed, the end.

A schema reads the API's body (types, bounds, halves, the points given once), gives the
payload the log keeps and, for a stored payload, the engine's action, which checks what
the fields mean together for the match (a partner at 4 players, points the bouts make
impossible…). The table screen's forms, and the entry the address carries for the
preview, are read into the same API-shaped body (``deal_body``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Self

from ninja import Field
from pydantic import ConfigDict, model_validator
from pydantic_core import ErrorDetails

from marquoir.games.tarot import (
    BOUTS,
    CARD_POINTS,
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
from marquoir.tables.kit import ActionBody, StrictBody, ascii_number, shorten

DEAL, PASS, END = "deal", "pass", "end"
GUARDS = {"expected_seq", "action_id"}

# Card points as typed on a phone: digits, then a half written ".5" or ",5" (or "½").
_FORM_POINTS = re.compile(r"([0-9]{1,3})(?:[.,]([05])0*|\s*(½))?")

ContractKey = Literal["petite", "garde", "garde_sans", "garde_contre"]
SideKey = Literal["taker", "defence"]
SizeKey = Literal["simple", "double", "triple"]
ChelemKey = Literal["announced_made", "made", "announced_failed"]
CardPoints = Annotated[int | float, Field(ge=0, le=CARD_POINTS, multiple_of=0.5)]


class PoigneeIn(StrictBody):
    """A handful shown: by which side (the partner's counts for the taker's), and its size."""

    model_config = ConfigDict(extra="forbid", strict=True)

    side: SideKey
    size: SizeKey


class DealIn(ActionBody):
    """A played deal, as the table reports it: Marquoir works out every player's score."""

    type: Literal["deal"]
    taker: int = Field(..., ge=0, lt=MAX_PLAYERS, description="the taker's index")
    contract: ContractKey
    partner: int | None = Field(
        None,
        ge=0,
        lt=MAX_PLAYERS,
        description="5 players only, required there: the called partner, or the taker's own index to play alone",
    )
    bouts: int = Field(..., ge=0, le=BOUTS, description="the taker's side's bouts, 0 to 3")
    points: CardPoints | None = Field(None, description="the taker's side's card points, 0 to 91 in halves")
    defence_points: CardPoints | None = Field(
        None, description="extension: the defence's card points instead of points (the taker's side has 91 − x)"
    )
    petit_au_bout: SideKey | None = Field(None, description="the side that took the last trick with the Petit in it")
    poignees: list[PoigneeIn] = Field(
        default_factory=list, max_length=MAX_PLAYERS, description="each handful shown, with its side and size"
    )
    chelem: ChelemKey | None = None

    reasons: ClassVar[Mapping[str, str]] = {
        "contract": "bad_contract",
        "bouts": "bad_bouts",
        "petit_au_bout": "bad_petit_au_bout",
        "chelem": "bad_chelem",
    }

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        location, kind, given = error["loc"], error["type"], error.get("input")
        if field in {"taker", "partner"}:
            return RuleError(INVALID, "unknown_player", role=field, player=shorten(given))
        if field in {"points", "defence_points"}:
            side = "taker" if field == "points" else "defence"
            if kind in {"greater_than_equal", "less_than_equal"}:
                return RuleError(INVALID, "points_range", side=side, points=shorten(given), min=0, max=CARD_POINTS)
            if kind == "multiple_of":
                return RuleError(INVALID, "points_halves", side=side, points=shorten(given))
            return RuleError(INVALID, "bad_points", side=side, points=shorten(given))
        if field == "poignees":
            if len(location) < 3:  # the list itself
                if kind == "too_long" and isinstance(given, list):
                    return RuleError(INVALID, "too_many_poignees", count=len(given), max=MAX_PLAYERS)
                return RuleError(INVALID, "bad_poignees", poignees=shorten(given))
            return RuleError(INVALID, "bad_poignee", index=location[2], poignee=shorten(given))
        if field in cls.reasons:
            return RuleError(INVALID, cls.reasons[field], **{field: shorten(given)})
        return super().refusal(field, error)

    @model_validator(mode="after")
    def _points_once(self) -> Self:
        """Reasons: ``points_missing`` (neither ``points`` nor ``defence_points``),
        ``points_twice`` (both)."""
        if self.points is None and self.defence_points is None:
            raise RuleError(INVALID, "points_missing")
        if self.points is not None and self.defence_points is not None:
            raise RuleError(INVALID, "points_twice", points=self.points, defence_points=self.defence_points)
        return self

    def payload(self) -> dict[str, Any]:
        """The fields given (the schema checked each one); what they mean together at this
        table is the engine's to check when the deal is applied."""
        return deal_payload(self.model_dump(exclude=GUARDS))

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Deal:
        return deal_of(payload)

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        body = deal_body(data)
        missing = next((name for name in ("taker", "contract", "bouts") if body.get(name) is None), None)
        if missing is not None:
            raise RuleError(INVALID, "choice_missing", choice=missing)
        if "points" not in body and "defence_points" not in body:
            raise RuleError(INVALID, "points_missing")
        return body

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """The deal pad's entry for a stored deal (``deal_body`` reads it back): each choice,
        the points on the side they were counted for, and each handful given to a player of
        its side (the taker's to the taker, the defence's to the defenders in seat order:
        only the side and the size count)."""
        values = {"type": DEAL, "taker": str(payload["taker"]), "contract": str(payload["contract"])}
        if payload.get("partner") is not None:
            values["partner"] = str(payload["partner"])
        values["bouts"] = str(payload["bouts"])
        if payload.get("points") is not None:
            values.update(counted=Side.TAKER.value, points=str(payload["points"]))
        else:
            values.update(counted=Side.DEFENCE.value, points=str(payload["defence_points"]))
        if payload.get("petit_au_bout"):
            values["petit"] = str(payload["petit_au_bout"])
        taker, partner = payload["taker"], payload.get("partner")
        taker_side = [seat for seat in (taker, partner) if seat is not None]
        defence = [seat for seat in range(MAX_PLAYERS) if seat not in taker_side]
        for poignee in payload.get("poignees", ()):
            seats = taker_side if poignee["side"] == Side.TAKER.value else defence
            seat = next((seat for seat in seats if f"poignee_{seat}" not in values), None)
            if seat is not None:
                values[f"poignee_{seat}"] = str(poignee["size"])
        if payload.get("chelem"):
            values["chelem"] = str(payload["chelem"])
        return values


class PassIn(ActionBody):
    """Every player passed: nothing is scored, the next player deals."""

    type: Literal["pass"]

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Pass:
        return Pass()

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """A pass corrected opens the pad on its first step: a deal entered, or the pass again."""
        return {"type": PASS}


class EndIn(ActionBody):
    """The players stop: the game ends on the totals as they stand (after a scored deal)."""

    type: Literal["end"]

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> End:
        return End()


ACTIONS = (DealIn, PassIn, EndIn)


def deal_payload(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The stored payload of a deal from its fields (a schema's, or the preview's entry):
    every choice, null when not made, and the points on the side they were counted for."""
    points, defence = fields.get("points"), fields.get("defence_points")
    payload: dict[str, Any] = {
        "type": DEAL,
        "taker": fields.get("taker"),
        "contract": fields.get("contract"),
        "partner": fields.get("partner"),
        "bouts": fields.get("bouts"),
    }
    if points is not None:
        payload["points"] = _number(points)
    elif defence is not None:
        payload["defence_points"] = _number(defence)
    payload.update(
        petit_au_bout=fields.get("petit_au_bout"),
        poignees=[{"side": str(p["side"]), "size": str(p["size"])} for p in fields.get("poignees") or ()],
        chelem=fields.get("chelem"),
    )
    return payload


def _number(value: int | float) -> int | float:
    """47.0 is kept as 47: the log and the State write whole points without a decimal."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


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
