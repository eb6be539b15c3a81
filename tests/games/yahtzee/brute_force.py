"""Optimal play of the last turns of a sheet, by exhaustive enumeration in plain Python.

An independent check of the solver: no numpy, no table, the dice enumerated as ordered
outcomes of ``itertools.product`` (6^n for n dice rerolled), every keep tried as a subset
of the dice's positions, and every box scored by the engine's ``apply`` (a refused box is
one the rules forbid). Memoised on the multiset of dice, so a turn takes a fraction of a
second; meant for sheets with one or two boxes open.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product

from marquoir.games.yahtzee import BOXES, Box, GameState, Options, RuleError, Score, Sheet, apply


@cache
def outcomes(dice_rolled: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every multiset ``dice_rolled`` dice can show, with its chance, from the 6^n ordered rolls."""
    counts = Counter(tuple(sorted(roll)) for roll in product(range(1, 7), repeat=dice_rolled))
    return tuple((roll, count / 6**dice_rolled) for roll, count in counts.items())


def keeps_of(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every multiset of dice that may be kept from ``dice``, as subsets of their positions."""
    return {tuple(sorted(die for i, die in enumerate(dice) if bits >> i & 1)) for bits in range(32)}


def scored(sheet: Sheet, box: Box, dice: tuple[int, ...]) -> Sheet | None:
    """The sheet after the engine scores ``dice`` in ``box``, or None when the rules refuse it."""
    state = GameState(Options(), 0, (sheet,), turns=sheet.filled_count)
    try:
        return apply(state, Score(box, dice))[0].sheets[0]
    except RuleError:
        return None


@cache
def sheet_value(sheet: Sheet) -> float:
    """The expected final total of ``sheet`` with optimal play, before a turn."""
    if sheet.is_full:
        return float(sheet.total)
    turn = Turn(sheet)
    return sum(chance * turn.roll_value(roll, 2) for roll, chance in outcomes(5))


class Turn:
    """One turn from ``sheet``: the value of each roll and of each keep, with optimal play."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.roll_value = cache(self._roll_value)
        self.keep_value = cache(self._keep_value)

    def box_values(self, dice: tuple[int, ...]) -> dict[str, float]:
        """For each box the rules allow: the expected final total of scoring ``dice`` there."""
        values = {}
        for box in BOXES:
            after = scored(self.sheet, box, dice)
            if after is not None:
                values[box.value] = sheet_value(after)
        return values

    def _roll_value(self, dice: tuple[int, ...], rolls_left: int) -> float:
        best = max(self.box_values(dice).values())
        if rolls_left:
            best = max(best, *(self.keep_value(keep, rolls_left) for keep in keeps_of(dice)))
        return best

    def _keep_value(self, keep: tuple[int, ...], rolls_left: int) -> float:
        """Keeping ``keep`` and rolling the other dice, with ``rolls_left`` rolls before it."""
        return sum(
            chance * self.roll_value(tuple(sorted(keep + rolled)), rolls_left - 1)
            for rolled, chance in outcomes(5 - len(keep))
        )
