"""Pickomino's actions, one schema each: take (by total and worm, or by the kept dice) and
bust. A schema reads the API's body (the ``invalid`` refusals: types, bounds, what the
fields mean together), gives the payload the log keeps, the engine's action for a stored
payload and the body a table screen's form sends. The rules themselves are the engine's
to check; the log can be folded back into engine actions at any time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Self

from ninja import Field
from pydantic import model_validator
from pydantic_core import ErrorDetails

from marquoir.games.pickomino import GRILL, Bust, BustReason, RuleError, Take, TurnDice
from marquoir.games.pickomino.dice import DICE_COUNT
from marquoir.games.pickomino.engine import MAX_TOTAL, MIN_TOTAL_WITH_WORM
from marquoir.games.pickomino.errors import INVALID
from marquoir.tables.kit import ActionBody, ascii_number, form_number, shorten

from .turn import decode_dice

FaceKey = Literal["1", "2", "3", "4", "5", "worm"]


class TakeIn(ActionBody):
    """Take a tile: from the grill or the top of another player's stack, with the turn's
    total and whether a worm was kept, or with the kept dice (the server adds them up)."""

    type: Literal["take"]
    total: int | None = Field(None, ge=MIN_TOTAL_WITH_WORM, le=MAX_TOTAL, description="the turn's total")
    worm: bool | None = Field(None, description="whether a worm was kept")
    dice: dict[FaceKey, Annotated[int, Field(ge=0, le=DICE_COUNT)]] | None = Field(
        None, description="the kept dice per face, instead of total and worm"
    )
    from_: Literal["grill"] | Annotated[int, Field(ge=0)] = Field(
        "grill", alias="from", description='"grill" or the player robbed'
    )

    reasons: ClassVar[Mapping[str, str]] = {"total": "bad_total", "worm": "bad_worm", "from": "bad_source"}

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        if field != "dice":
            return super().refusal(field, error)
        location = error["loc"]
        if len(location) < 3:  # not an object
            return RuleError(INVALID, "bad_dice")
        face = str(location[2])
        if "[key]" in location:
            return RuleError(INVALID, "unknown_face", face=shorten(face))
        return RuleError(INVALID, "bad_die_count", face=face, count=shorten(error.get("input")))

    @model_validator(mode="after")
    def _total_or_dice(self) -> Self:
        """The dice (whose total and worm the server works out, by the dice rules), or the
        total and the worm, not both."""
        if "dice" in self.model_fields_set:
            if self.model_fields_set & {"total", "worm"}:
                raise RuleError(INVALID, "dice_and_total")
            kept = TurnDice.from_counts(self.dice)  # type: ignore[arg-type]  # None is refused there
            self.dice = {face.key: count for face, count in kept.counts().items()}  # type: ignore[misc]
            self.total, self.worm = kept.total, kept.has_worm
        elif self.total is None:
            raise RuleError(INVALID, "bad_total", total=shorten(self.total))
        elif self.worm is None:
            raise RuleError(INVALID, "bad_worm")
        return self

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"type": "take", "total": self.total, "worm": self.worm, "from": self.from_}
        if self.dice is not None:
            payload["dice"] = self.dice
        return payload

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Take:
        return Take(payload["total"], payload["worm"], payload["from"])

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """A claim button sends ``claim=<total>:<source>`` (``27:grill``, ``30:2``); the dice
        pad adds the kept dice, from which the server works the total out itself."""
        body: dict[str, Any] = {"type": "take"}
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
        return body

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """The tile pad's entry for a stored take: its total and worm, for the pad to offer
        the tiles that total could claim (the tile itself is tapped again)."""
        return {"type": "take", "total": str(payload["total"]), "worm": "1" if payload["worm"] else ""}


class BustIn(ActionBody):
    """A failed turn: the player's top tile goes back to the grill."""

    type: Literal["bust"]
    reason: Literal["declared", "no_new_face", "no_worm", "nothing_to_claim"] = Field(
        "declared", description="why the turn failed (extension; the penalty is the same)"
    )

    reasons: ClassVar[Mapping[str, str]] = {"reason": "bad_reason"}

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Bust:
        return Bust(BustReason(payload.get("reason", BustReason.DECLARED.value)))

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """A bust corrected opens the tile pad with no total: a total typed, or a bust again."""
        return {"type": "bust"}

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"type": "bust"}
        if data.get("reason"):
            body["reason"] = data["reason"]
        return body


ACTIONS = (TakeIn, BustIn)
