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


def decode_roll(query: Mapping[str, str], dice_left: int) -> tuple[Face, ...] | None:
    """The roll typed as a count per face (``roll_1`` … ``roll_worm``), or in ``roll`` as
    ``1:2,worm:3``; None when no roll was entered. It must throw every die left."""
    counts: dict[Face, int] = {}
    if query.get("roll"):
        for part in query["roll"].split(","):
            key, _colon, count = part.partition(":")
            if not count.isdigit():
                raise RuleError("invalid", "bad_dice")
            rolled = Face.from_key(key)
            counts[rolled] = counts.get(rolled, 0) + int(count)
    elif any(f"roll_{face.key}" in query for face in Face):
        for face in Face:
            raw = query.get(f"roll_{face.key}", "0") or "0"
            if not raw.isdigit():
                raise RuleError("invalid", "bad_die_count")
            counts[face] = int(raw)
    else:
        return None
    roll = tuple(face for face in Face for _ in range(counts.get(face, 0)))
    if len(roll) != dice_left:
        raise RuleError("invalid", "wrong_roll_size", rolled=len(roll), dice_left=dice_left)
    return roll


def encode_roll(roll: tuple[Face, ...]) -> str:
    """A roll as counts per face, ``1:2,worm:3``, in face order."""
    return ",".join(f"{face.key}:{roll.count(face)}" for face in Face if face in roll)


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
    roll: tuple[Face, ...] | None = None

    @property
    def roll_code(self) -> str:
        return encode_roll(self.roll) if self.roll else ""

    @property
    def roll_counts(self) -> list[tuple[Face, int]]:
        """The roll as (face, dice showing it), in face order."""
        roll = self.roll or ()
        return [(face, roll.count(face)) for face in Face if face in roll]

    @property
    def roll_keeps(self) -> list[tuple[Face, int]]:
        """The faces of the roll that may be kept, with how many dice each keeps."""
        return [(face, count) for face, count in self.roll_counts if face not in self.dice.faces_kept]

    @property
    def roll_busts(self) -> bool:
        return self.roll is not None and not self.roll_keeps

    @property
    def roll_choices(self) -> range:
        """How many dice of one face a roll of the dice left may show."""
        return range(0, self.dice.dice_left + 1)

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
            if not entry.dice.is_finished:
                entry.roll = decode_roll(query, entry.dice.dice_left)
            if entry.roll is not None and query.get("keep"):
                entry.dice = entry.dice.keep_from_roll(entry.roll, query["keep"])
                entry.roll = None
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
