"""A turn's dice: the faces kept so far, validated against the rules of a turn.

A turn is a sequence of keeps. After each roll the player keeps every die showing one
face they have not kept before in this turn; faces 1–5 count their value, the worm 5.
The turn stops by itself when all 8 dice or all 6 faces are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum

from .errors import INVALID, RuleError

DICE_COUNT = 8


class Face(IntEnum):
    """A die face. The worm is the sixth face and counts 5."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    WORM = 6

    @property
    def points(self) -> int:
        """What one die showing this face adds to the total."""
        return 5 if self is Face.WORM else int(self)

    @property
    def key(self) -> str:
        """The face's name in the API: ``"1"``–``"5"`` or ``"worm"``."""
        return "worm" if self is Face.WORM else str(int(self))

    @classmethod
    def from_key(cls, key: object) -> Face:
        """The face named ``key`` (``"1"``–``"5"``, ``"worm"``, or a Face); RuleError otherwise."""
        if isinstance(key, Face):
            return key
        face = _FACES_BY_KEY.get(key) if isinstance(key, str) else None
        if face is None:
            raise RuleError(INVALID, "unknown_face", face=key)
        return face


_FACES_BY_KEY: dict[str, Face] = {face.key: face for face in Face}
ALL_FACES: tuple[Face, ...] = tuple(Face)


@dataclass(frozen=True, slots=True)
class Keep:
    """The dice of one face set aside after one roll."""

    face: Face
    count: int


@dataclass(frozen=True, slots=True)
class TurnDice:
    """The dice kept so far in one turn, in the order they were kept."""

    keeps: tuple[Keep, ...] = ()

    @property
    def dice_kept(self) -> int:
        """How many of the 8 dice are set aside."""
        return sum(keep.count for keep in self.keeps)

    @property
    def dice_left(self) -> int:
        """How many dice the next roll would throw."""
        return DICE_COUNT - self.dice_kept

    @property
    def faces_kept(self) -> frozenset[Face]:
        """The faces already kept this turn (each may be kept once)."""
        return frozenset(keep.face for keep in self.keeps)

    @property
    def total(self) -> int:
        """The turn's total: faces 1–5 count their value, each worm 5."""
        return sum(keep.face.points * keep.count for keep in self.keeps)

    @property
    def has_worm(self) -> bool:
        """Whether a worm is among the kept dice (needed to claim a tile)."""
        return any(keep.face is Face.WORM for keep in self.keeps)

    @property
    def is_finished(self) -> bool:
        """Whether the turn stopped by itself: all 8 dice or all 6 faces kept."""
        return self.dice_left == 0 or len(self.keeps) == len(ALL_FACES)

    def counts(self) -> dict[Face, int]:
        """How many dice of each face are kept (faces not kept are left out)."""
        return {keep.face: keep.count for keep in self.keeps}

    def keep(self, face: Face | str, count: int) -> TurnDice:
        """These dice with ``count`` dice of ``face`` set aside after the next roll.

        Refused (``RuleError`` with code ``invalid``) when the turn is over, the face was
        already kept this turn, no die is kept, or more dice are kept than are left.
        """
        face = Face.from_key(face)
        if self.is_finished:
            raise RuleError(INVALID, "turn_finished")
        if face in self.faces_kept:
            raise RuleError(INVALID, "face_already_kept", face=face.key)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise RuleError(INVALID, "no_die_kept", face=face.key)
        if count > self.dice_left:
            raise RuleError(INVALID, "too_many_dice", face=face.key, dice_left=self.dice_left)
        return TurnDice(self.keeps + (Keep(face, count),))

    def keepable_faces(self, roll: Iterable[Face]) -> frozenset[Face]:
        """The faces of ``roll`` that may be kept: those not kept before this turn.

        An empty answer means the roll is a bust (no new face to keep).
        """
        return frozenset(roll) - self.faces_kept

    def keep_from_roll(self, roll: tuple[Face, ...], face: Face | str) -> TurnDice:
        """Keep every die of ``roll`` that shows ``face``; the roll must throw every die left."""
        face = Face.from_key(face)
        if len(roll) != self.dice_left:
            raise RuleError(INVALID, "wrong_roll_size", rolled=len(roll), dice_left=self.dice_left)
        if face not in roll:
            raise RuleError(INVALID, "face_not_rolled", face=face.key)
        return self.keep(face, roll.count(face))

    @classmethod
    def from_counts(cls, counts: Mapping[object, object]) -> TurnDice:
        """The kept dice given as counts per face, as the API sends them.

        Keys are ``"1"``–``"5"`` and ``"worm"``; counts 0–8, 8 dice at most, at least one.
        The order of keeps is not known from counts, only what they add up to.
        """
        if not isinstance(counts, Mapping):
            raise RuleError(INVALID, "bad_dice")
        keeps: list[Keep] = []
        for key, count in counts.items():
            face = Face.from_key(key)
            if any(keep.face is face for keep in keeps):
                raise RuleError(INVALID, "face_already_kept", face=face.key)
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= DICE_COUNT:
                raise RuleError(INVALID, "bad_die_count", face=face.key, count=count)
            if count:
                keeps.append(Keep(face, count))
        keeps.sort(key=lambda keep: keep.face)
        kept = sum(keep.count for keep in keeps)
        if kept > DICE_COUNT:
            raise RuleError(INVALID, "too_many_dice", kept=kept)
        if kept == 0:
            raise RuleError(INVALID, "no_dice")
        return cls(tuple(keeps))
