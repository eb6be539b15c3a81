"""The turn being entered on the table screen, carried in the address (nothing is stored
until a box is chosen): the dice tapped so far, and with the assistant on, which roll.

``?seq=7&dice=335`` is three dice tapped (3, 3, 5) on the table at seq 7; ``&roll=2`` the
second roll (the kept dice come first). An entry is bound to the table it started from:
when the match has moved on since (another phone, an undo), the entry is dropped rather
than shown to the next player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from marquoir.games.yahtzee import DICE_COUNT, RuleError
from marquoir.tables.kit import ascii_number

from .actions import decode_dice, encode_dice

ENTRY_PARAMETERS = ("dice", "roll")
MAX_ROLLS = 3


@dataclass
class TurnEntry:
    """What the dice pad shows: the dice so far, the roll, and whether the address was stale."""

    seq: int
    dice: tuple[int, ...] = ()
    roll: int = 1
    error: RuleError | None = None
    # The address carried an entry made on another table than this one: it was not shown.
    dropped: bool = False
    # The entry was made on this match at an earlier seq: another phone or an undo moved it on.
    overtaken: bool = False
    # The past turn this entry corrects (its seq), carried by every address of the entry.
    correct: int | None = None

    @property
    def complete(self) -> bool:
        return len(self.dice) == DICE_COUNT

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - self.roll

    @property
    def dice_code(self) -> str:
        return encode_dice(self.dice)

    def query(self, dice: tuple[int, ...], roll: int | None = None) -> str:
        """The query string of this entry with ``dice`` tapped, at ``roll`` ("" for none)."""
        roll = self.roll if roll is None else roll
        if not dice and roll == 1 and self.correct is None:
            return ""
        parameters: dict[str, object] = {"seq": self.seq, "dice": encode_dice(dice)}
        if roll != 1:
            parameters["roll"] = roll
        if self.correct is not None:
            parameters["correct"] = self.correct
        return "?" + urlencode(parameters)


def carries_entry(query: Mapping[str, str]) -> bool:
    return any(name in query for name in ENTRY_PARAMETERS)


def read_turn(query: Mapping[str, str], seq: int) -> TurnEntry:
    """The dice pad for the address's query, on the match as it is at ``seq``."""
    entry = TurnEntry(seq=seq)
    if not carries_entry(query):
        return entry
    if query.get("seq") != str(seq):
        entry.dropped = True
        try:
            entry.overtaken = ascii_number(query.get("seq"), reason="bad_seq", digits=9) < seq
        except RuleError:
            entry.overtaken = False
        return entry
    try:
        entry.dice = decode_dice(query.get("dice", ""), reason="bad_entry")
        roll = query.get("roll")
        entry.roll = 1 if roll is None else ascii_number(roll, reason="bad_entry", digits=1)
        if not 1 <= entry.roll <= MAX_ROLLS:
            raise RuleError("invalid", "bad_entry")
    except RuleError as error:
        entry.error, entry.dice, entry.roll = error, (), 1
    return entry
