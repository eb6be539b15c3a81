"""Yahtzee's quick reference on its rules page: each box with a roll that fills it, the
bonuses and the joker (drawn by ``yahtzee/reference.html``). The points are the engine's,
never typed here; the words are built in the page's language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_noop

from marquoir.games.yahtzee import (
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    Box,
    joker_points,
    plain_points,
)

from .messages import box_name


@dataclass(frozen=True, slots=True)
class YahtzeeBox:
    """A box of the sheet: its name and what it takes, with a roll that fills it and its points."""

    key: str
    name: str
    rule: str
    dice: tuple[int, ...]
    points: int
    idle: tuple[int, ...] = ()
    """Positions of the dice the box leaves out (a 4 in Ones, the odd die of a straight),
    drawn faded."""


@dataclass(frozen=True, slots=True)
class YahtzeeJoker:
    """An extra Yahtzee scored as a joker: the roll, where the sheet stands, the box it goes
    in, its points and the bonus (the Yahtzee box holding 50)."""

    dice: tuple[int, ...]
    when: str
    box: str
    points: int
    bonus: int


@dataclass(frozen=True, slots=True)
class YahtzeeReference:
    """The sheet's thirteen boxes with an example each, the two bonuses, two jokers."""

    upper: tuple[YahtzeeBox, ...]
    lower: tuple[YahtzeeBox, ...]
    upper_bonus: int
    upper_bonus_threshold: int
    yahtzee_bonus: int
    jokers: tuple[YahtzeeJoker, ...]


# One roll per box, chosen so each shows what its box asks for (3 3 5 5 5 is the rules'
# own full house); the points are the engine's, never typed here.
_YAHTZEE_EXAMPLES: dict[Box, tuple[int, ...]] = {
    Box.ONES: (1, 1, 1, 4, 6),
    Box.TWOS: (2, 2, 3, 4, 5),
    Box.THREES: (3, 3, 3, 3, 6),
    Box.FOURS: (1, 4, 4, 5, 6),
    Box.FIVES: (3, 3, 5, 5, 5),
    Box.SIXES: (2, 6, 6, 6, 6),
    Box.THREE_OF_A_KIND: (2, 4, 4, 4, 6),
    Box.FOUR_OF_A_KIND: (1, 4, 4, 4, 4),
    Box.FULL_HOUSE: (3, 3, 5, 5, 5),
    Box.SMALL_STRAIGHT: (1, 2, 3, 4, 6),
    Box.LARGE_STRAIGHT: (2, 3, 4, 5, 6),
    Box.YAHTZEE: (2, 2, 2, 2, 2),
    Box.CHANCE: (2, 3, 5, 6, 6),
}
# The rules' joker examples (the Yahtzee box holding 50): five 4s with Fours open must go
# there; five 6s with Sixes filled may take a lower box, a straight in full.
_YAHTZEE_JOKERS: tuple[tuple[tuple[int, ...], str, Box], ...] = (
    ((4, 4, 4, 4, 4), gettext_noop("Fours still open"), Box.FOURS),
    ((6, 6, 6, 6, 6), gettext_noop("Sixes already filled"), Box.LARGE_STRAIGHT),
)


def _box_rules() -> dict[Box, str]:
    """What each box takes, in the active language."""
    return {
        Box.ONES: gettext("the sum of the 1s"),
        Box.TWOS: gettext("the sum of the 2s"),
        Box.THREES: gettext("the sum of the 3s"),
        Box.FOURS: gettext("the sum of the 4s"),
        Box.FIVES: gettext("the sum of the 5s"),
        Box.SIXES: gettext("the sum of the 6s"),
        Box.THREE_OF_A_KIND: gettext("at least three alike: the sum of all five dice"),
        Box.FOUR_OF_A_KIND: gettext("at least four alike: the sum of all five dice"),
        Box.FULL_HOUSE: gettext("three of one number, two of another: 25"),
        Box.SMALL_STRAIGHT: gettext("four numbers in a row: 30"),
        Box.LARGE_STRAIGHT: gettext("five numbers in a row: 40"),
        Box.YAHTZEE: gettext("five alike: 50"),
        Box.CHANCE: gettext("any five dice: their sum"),
    }


def _idle_dice(box: Box, dice: tuple[int, ...]) -> tuple[int, ...]:
    """Where ``dice`` has dice that ``box`` leaves out: other numbers in an upper box, the
    dice outside the run in a straight; every die counts in the other lower boxes."""
    if box.face is not None:
        return tuple(position for position, die in enumerate(dice) if die != box.face)
    if box in (Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT) and plain_points(box, dice):
        length = 4 if box is Box.SMALL_STRAIGHT else 5
        run = next(
            set(range(low, low + length)) for low in range(1, 8 - length) if set(range(low, low + length)) <= set(dice)
        )
        used: set[int] = set()
        idle = []
        for position, die in enumerate(dice):
            if die in run and die not in used:
                used.add(die)
            else:
                idle.append(position)
        return tuple(idle)
    return ()


def yahtzee_reference() -> YahtzeeReference:
    """Yahtzee's quick reference: each box with a roll that fills it, the bonuses, the joker."""
    rules = _box_rules()
    boxes = [
        YahtzeeBox(box.value, box_name(box), rules[box], dice, plain_points(box, dice), _idle_dice(box, dice))
        for box, dice in _YAHTZEE_EXAMPLES.items()
    ]
    return YahtzeeReference(
        upper=tuple(entry for entry in boxes if Box(entry.key).is_upper),
        lower=tuple(entry for entry in boxes if not Box(entry.key).is_upper),
        upper_bonus=UPPER_BONUS,
        upper_bonus_threshold=UPPER_BONUS_THRESHOLD,
        yahtzee_bonus=YAHTZEE_BONUS,
        jokers=tuple(
            YahtzeeJoker(dice, gettext(when), box_name(box), joker_points(box, dice), YAHTZEE_BONUS)
            for dice, when, box in _YAHTZEE_JOKERS
        ),
    )
