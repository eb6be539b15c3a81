"""The turn being entered on a page, carried in the address (nothing is stored until it is recorded).

Two ways in: the total and whether a worm was kept; or the kept dice, face by face. Both end
with the claims the rules allow, or a bust with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from marquoir.games.pickomino import BustReason, Claim, Face, GameState, RuleError, TurnDice, legal_claims
from marquoir.games.pickomino.engine import MAX_TOTAL, MIN_TOTAL_WITH_WORM


def encode_dice(dice: TurnDice) -> str:
    """Keeps in order as ``worm:2,5:3``: short enough for an address, readable in a log."""
    return ",".join(f"{keep.face.key}:{keep.count}" for keep in dice.keeps)


def decode_dice(text: str) -> TurnDice:
    """The keeps of ``encode_dice``, each checked by the dice rules (RuleError otherwise)."""
    dice = TurnDice()
    for part in filter(None, text.split(",")):
        face, _colon, count = part.partition(":")
        if not count.isdigit():
            raise RuleError("invalid", "bad_dice")
        dice = dice.keep(Face.from_key(face), int(count))
    return dice


@dataclass
class TurnEntry:
    """What the turn panel shows: the mode, the dice or total so far, and the verdict if asked."""

    mode: str = "total"
    dice: TurnDice = field(default_factory=TurnDice)
    total: int | None = None
    worm: bool = False
    asked: bool = False
    claims: tuple[Claim, ...] = ()
    bust_reason: BustReason | None = None
    error: RuleError | None = None

    @property
    def dice_code(self) -> str:
        return encode_dice(self.dice)

    @property
    def keepable_faces(self) -> list[Face]:
        return [face for face in Face if face not in self.dice.faces_kept]

    @property
    def counts_left(self) -> range:
        return range(1, self.dice.dice_left + 1)


def read_turn(query: Mapping[str, str], state: GameState) -> TurnEntry:
    """The turn panel for the address's query: entering dice, or asking what a total may claim."""
    entry = TurnEntry(mode="dice" if query.get("mode") == "dice" else "total")
    try:
        if entry.mode == "dice":
            entry.dice = decode_dice(query.get("dice", ""))
            if query.get("face"):
                count = query.get("count", "")
                if not count.isdigit():
                    raise RuleError("invalid", "no_die_kept")
                entry.dice = entry.dice.keep(Face.from_key(query["face"]), int(count))
            if query.get("stop") or entry.dice.is_finished:
                if not entry.dice.keeps:
                    raise RuleError("invalid", "no_dice")
                _judge(entry, state, entry.dice.total, entry.dice.has_worm)
        elif "total" in query:
            raw_total = query.get("total", "")
            if not raw_total.isdigit() or not MIN_TOTAL_WITH_WORM <= int(raw_total) <= MAX_TOTAL:
                raise RuleError("invalid", "bad_total")
            _judge(entry, state, int(raw_total), query.get("worm") in {"1", "on", "true"})
    except RuleError as error:
        entry.error = error
    return entry


def _judge(entry: TurnEntry, state: GameState, total: int, worm: bool) -> None:
    entry.asked, entry.total, entry.worm = True, total, worm
    entry.claims = legal_claims(state, total, worm)
    if not worm:
        entry.bust_reason = BustReason.NO_WORM
    elif not entry.claims:
        entry.bust_reason = BustReason.NOTHING_TO_CLAIM
