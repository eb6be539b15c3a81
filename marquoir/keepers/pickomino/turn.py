"""The turn being entered on a page, carried in the address (nothing is stored until it is recorded).

Two pads. The tile pad: the grill's face-up tiles and the opponents' top tiles are the claim
buttons; a total may be typed to narrow them to what it can claim. The dice pad: each roll
entered die by die (one tap per die shown), then one tap keeps a face; once a worm is kept,
the tiles those dice can claim are the buttons. Both end with a claim or a bust with its
reason.

An entry is bound to the table it started from: every address that carries one also
carries the match's ``seq`` then. When the match has moved on since (another phone
recorded a turn, an undo), the entry is dropped rather than shown to the next player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from marquoir.games.pickomino import DICE_COUNT, BustReason, Claim, Face, GameState, RuleError, TurnDice, legal_claims
from marquoir.games.pickomino.engine import MAX_TOTAL, MIN_TOTAL_WITH_WORM
from marquoir.tables.kit import ascii_number

TILE_PAD, DICE_PAD = "tiles", "dice"
PADS = (TILE_PAD, DICE_PAD)
# The address parameters that make up an entry (``pad`` only says which pad is shown).
ENTRY_PARAMETERS = ("total", "worm", "dice", "roll", "keep")
# Longer than any valid value: refused before anything is built from it.
_MAX_PARAMETER_LENGTH = 64


def _parts(text: str, *, reason: str) -> list[tuple[str, str]]:
    if len(text) > _MAX_PARAMETER_LENGTH:
        raise RuleError("invalid", reason)
    return [part.partition(":")[::2] for part in text.split(",") if part]


def encode_dice(dice: TurnDice) -> str:
    """Keeps in order as ``worm:2,5:3``: short enough for an address, readable in a log."""
    return ",".join(f"{keep.face.key}:{keep.count}" for keep in dice.keeps)


def decode_dice(text: str) -> TurnDice:
    """The keeps of ``encode_dice``, each checked by the dice rules (RuleError otherwise)."""
    dice = TurnDice()
    for face, count in _parts(text, reason="bad_dice"):
        dice = dice.keep(Face.from_key(face), ascii_number(count, reason="bad_dice"))
    return dice


def decode_faces(text: str, most: int) -> tuple[Face, ...]:
    """Dice given as counts per face, ``1:2,worm:3``, in face order; at most ``most`` of them.

    Every count is checked before a single die is built, so ``1:10000000`` costs nothing.
    """
    counts: dict[Face, int] = {}
    for key, count in _parts(text, reason="bad_roll"):
        face = Face.from_key(key)
        counts[face] = counts.get(face, 0) + ascii_number(count, reason="bad_die_count")
        if sum(counts.values()) > most:
            raise RuleError("invalid", "wrong_roll_size", rolled=sum(counts.values()), dice_left=most)
    return tuple(face for face in Face for _ in range(counts.get(face, 0)))


def decode_roll(query: Mapping[str, str], dice_left: int) -> tuple[Face, ...] | None:
    """The whole roll in ``roll`` as ``1:2,worm:3`` (it must throw every die left); None if absent."""
    if not query.get("roll"):
        return None
    roll = decode_faces(query["roll"], DICE_COUNT)
    if len(roll) != dice_left:
        raise RuleError("invalid", "wrong_roll_size", rolled=len(roll), dice_left=dice_left)
    return roll


def encode_roll(roll: tuple[Face, ...]) -> str:
    """A roll as counts per face, ``1:2,worm:3``, in face order."""
    return ",".join(f"{face.key}:{roll.count(face)}" for face in Face if face in roll)


@dataclass
class TurnEntry:
    """What the turn pad shows: the pad, the total or dice so far, and what they allow."""

    pad: str = TILE_PAD
    seq: int = 0
    dice: TurnDice = field(default_factory=TurnDice)
    roll: tuple[Face, ...] = ()
    total: int | None = None
    worm: bool = False
    claims: tuple[Claim, ...] = ()
    # Set when the entry so far can only end in a bust: the reason to record, one tap.
    bust_reason: BustReason | None = None
    error: RuleError | None = None
    # The address carried an entry made on an older table (or on none): it was not shown.
    dropped: bool = False
    # The entry was made on this match at an earlier seq: another phone or an undo moved it on.
    overtaken: bool = False

    @property
    def has_total(self) -> bool:
        return self.total is not None

    @property
    def roll_complete(self) -> bool:
        return self.pad == DICE_PAD and not self.dice.is_finished and len(self.roll) == self.dice.dice_left

    @property
    def roll_counts(self) -> list[tuple[Face, int]]:
        """The roll so far as (face, dice showing it), in face order."""
        return [(face, self.roll.count(face)) for face in Face if face in self.roll]

    @property
    def roll_keeps(self) -> list[tuple[Face, int]]:
        """The faces of a whole roll that may be kept, with how many dice each keeps."""
        if not self.roll_complete:
            return []
        return [(face, count) for face, count in self.roll_counts if face not in self.dice.faces_kept]

    @property
    def roll_busts(self) -> bool:
        return self.roll_complete and not self.roll_keeps

    @property
    def rolling(self) -> bool:
        """Dice are being entered for a roll that is not whole yet (no claim until it is kept)."""
        return self.pad == DICE_PAD and 0 < len(self.roll) < self.dice.dice_left

    @property
    def dice_code(self) -> str:
        return encode_dice(self.dice)

    @property
    def roll_code(self) -> str:
        return encode_roll(self.roll)

    @property
    def claim_total(self) -> int | None:
        """The total a claim is recorded with: typed, or the kept dice's; None on the bare tile pad."""
        if self.pad == DICE_PAD:
            return self.dice.total if self.dice.keeps else None
        return self.total


def preferred_pad(query: Mapping[str, str], remembered: str | None) -> str:
    """The pad asked for in the address, else the one this device used last, else the tiles."""
    for pad in (query.get("pad"), remembered):
        if pad in PADS:
            return str(pad)
    return TILE_PAD


def carries_entry(query: Mapping[str, str]) -> bool:
    return any(query.get(name) for name in ENTRY_PARAMETERS)


def read_turn(query: Mapping[str, str], state: GameState, seq: int, *, pad: str = TILE_PAD) -> TurnEntry:
    """The turn pad for the address's query, on the match as it is at ``seq``."""
    if query.get("dice") or query.get("roll"):
        pad = DICE_PAD
    elif query.get("total"):
        pad = TILE_PAD
    entry = TurnEntry(pad=pad, seq=seq)
    if not carries_entry(query):
        _judge_dice(entry, state)
        return entry
    if query.get("seq") != str(seq):
        entry.dropped = True
        try:
            entry.overtaken = ascii_number(query.get("seq"), reason="bad_seq", digits=9) < seq
        except RuleError:
            entry.overtaken = False
        return entry
    try:
        if pad == DICE_PAD:
            _read_dice(entry, query)
            _judge_dice(entry, state)
        elif query.get("total"):
            total = ascii_number(query["total"], reason="bad_total")
            if not MIN_TOTAL_WITH_WORM <= total <= MAX_TOTAL:
                raise RuleError("invalid", "bad_total")
            entry.total, entry.worm = total, query.get("worm") in {"1", "on", "true"}
            entry.claims = legal_claims(state, total, entry.worm)
            if not entry.claims:
                entry.bust_reason = BustReason.NO_WORM if not entry.worm else BustReason.NOTHING_TO_CLAIM
    except RuleError as error:
        entry.error = error
        entry.dice, entry.roll, entry.total = TurnDice(), (), None
        entry.claims, entry.bust_reason = (), None
    return entry


def _read_dice(entry: TurnEntry, query: Mapping[str, str]) -> None:
    entry.dice = decode_dice(query.get("dice", ""))
    if entry.dice.is_finished:
        return
    entry.roll = decode_faces(query.get("roll", ""), entry.dice.dice_left)
    if query.get("keep"):
        entry.dice = entry.dice.keep_from_roll(entry.roll, query["keep"])
        entry.roll = ()


def _judge_dice(entry: TurnEntry, state: GameState) -> None:
    """What the dice kept so far allow: the claims once a worm is kept, or the bust to record."""
    if entry.pad != DICE_PAD:
        return
    if entry.roll_busts:
        entry.bust_reason = BustReason.NO_NEW_FACE
        return
    if entry.roll or not entry.dice.keeps:
        return
    if entry.dice.has_worm:
        entry.claims = legal_claims(state, entry.dice.total, True)
        if not entry.claims and entry.dice.is_finished:
            entry.bust_reason = BustReason.NOTHING_TO_CLAIM
    elif entry.dice.is_finished:
        entry.bust_reason = BustReason.NO_WORM
