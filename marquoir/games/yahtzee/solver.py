"""The optimal solitaire strategy for Yahtzee: expected final scores, best keeps, best boxes.

The advice (``sheet_value``, ``best_keeps``, ``best_boxes``) is the strategy that always
makes the choice with the highest expected final score, the upper bonus, the 100-point
Yahtzee bonuses and the forced joker of docs/rules-yahtzee.md included, for one player's
sheet (in a game of several, each sheet is advised as if alone).

Its value for an empty sheet is 254.5877. The 254.5896 of the literature (Verhoeff 1999,
Glenn 2006) is for Verhoeff's reading of the joker: a later Yahtzee may go in any open
box, the straights and the full house counting in full once the face's upper box is
filled. The box's forced joker (upper box first, then a lower box, then 0 in an upper
box) takes choices away: 0.0019 point less. Both are built here (``JokerRule``); the
literature's figure checks the solver, the forced one is what the advice plays.

Between turns only three things about a sheet matter for what is still to come: which
boxes are filled (13 bits), the upper total capped at 63 (past 63 the bonus is earned and
nothing changes), and whether the ``yahtzee`` box holds 50 (later five alike earn 100).
The table holds, for each of those 8192 × 64 × 2 states, the expected points still to
come with optimal play. It is built backwards from the full sheet, a level (sets of boxes
with as many filled) at a time: for each set of filled boxes, one turn is solved for every
upper total and flag at once, as numpy columns: the best box for each of the 252 final
rolls, then twice "keep the best multiset of dice, roll the rest". A keep is worth the
mean over the six faces of the keep with one more die of that face (1260 row operations,
not a 462 × 252 matrix); the best keep of each roll comes from the lattice of multisets
with one die fewer. Only the upper totals a set of filled upper boxes can make are
solved; the others stay NaN in the table, as no sheet can reach them.

The table is a file, built once (10 to 15 s on one core) and read in a few milliseconds:
float32, 8192 × 64 × 2, 4 MiB. Its path is ``$MARQUOIR_YAHTZEE_TABLE``, by default
``var/yahtzee-values-v1.npy`` at the root of the checkout (the directory is created with
a ``.gitignore`` that keeps it out of git); Verhoeff's table lies beside it
(``…-free-choice.npy``). ``build_table()`` writes it (``python -m
marquoir.games.yahtzee.solver`` builds the game's); ``load_table()`` reads it, building
it first if it is missing or not a table of the right shape. This module writes only
those files; everything else here is pure.
"""

from __future__ import annotations

import os
import tempfile
import threading
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path
from typing import NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from marquoir.rules.errors import INVALID, RuleError
from marquoir.rules.values import is_whole_number

from .engine import (
    ALL_ROLLS,
    BOXES,
    DICE_COUNT,
    FACES,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    UPPER_BOXES,
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
    Box,
    Dice,
    Sheet,
    box_choices,
    check_dice,
    is_five_alike,
    joker_boxes,
    joker_points,
    plain_points,
)

TABLE_ENV = "MARQUOIR_YAHTZEE_TABLE"
"""The environment variable that names the table's file."""
TABLE_VERSION = 1
"""Bumped whenever the rules or the layout of the table change: a new file name."""
DEFAULT_TABLE_PATH = Path(__file__).resolve().parents[3] / "var" / f"yahtzee-values-v{TABLE_VERSION}.npy"
"""Where the table lives when ``$MARQUOIR_YAHTZEE_TABLE`` is unset: ``var/`` in the checkout."""

EMPTY_SHEET_VALUE = 254.5896
"""The expected final score of an empty sheet under optimal play (Verhoeff 1999; Glenn 2006),
with Verhoeff's free joker (``JokerRule.FREE_CHOICE``)."""
EMPTY_SHEET_VALUE_FORCED = 254.5877
"""The same with the forced joker Marquoir keeps (``JokerRule.FORCED``): what the advice plays for."""

FloatArray: TypeAlias = npt.NDArray[np.float64]
TableArray: TypeAlias = npt.NDArray[np.float32]
"""The table as read from its file: float32, read-only."""
IntArray: TypeAlias = npt.NDArray[np.int64]

_MASKS = 1 << len(BOXES)  # each set of filled boxes, one bit per box in sheet order
_FULL = _MASKS - 1
_UPPER_TOTALS = UPPER_BONUS_THRESHOLD + 1  # 0 to 62, and 63 for "63 or more"
_SHAPE = (_MASKS, _UPPER_TOTALS, 2)
_YAHTZEE_BIT = 1 << Box.YAHTZEE.position
_UPPER_MASK = (1 << len(UPPER_BOXES)) - 1
_STATE_BITS = _UPPER_MASK | _YAHTZEE_BIT  # the filled boxes that decide a sheet's possible states


class KeepValue(NamedTuple):
    """Keeping these dice (sorted; all five: roll no more), and the expected final score."""

    keep: Dice
    value: float


class BoxValue(NamedTuple):
    """Scoring the dice in this box, and the expected final score."""

    box: Box
    value: float


# The dice, as multisets: rolls of five (252), keeps of 0 to 5 dice (462) by size.

_ROLL_INDEX: dict[Dice, int] = {roll: index for index, roll in enumerate(ALL_ROLLS)}
_KEEPS: tuple[Dice, ...] = tuple(
    keep for size in range(DICE_COUNT + 1) for keep in combinations_with_replacement(FACES, size)
)
_KEEP_INDEX: dict[Dice, int] = {keep: index for index, keep in enumerate(_KEEPS)}
# Where each size starts in _KEEPS: the keeps of five dice are the 252 rolls, in the same order.
_SIZE_START = tuple(
    sum(1 for keep in _KEEPS if len(keep) < size) for size in range(DICE_COUNT + 2)
)  # (0, 1, 7, 28, 84, 210, 462)
_ALIKE_ROWS: tuple[tuple[int, int], ...] = tuple(
    (index, roll[0]) for index, roll in enumerate(ALL_ROLLS) if is_five_alike(roll)
)


def _multinomial_chance(dice: Dice) -> float:
    """The chance that rolling len(dice) dice gives this multiset."""
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(dice.count(face))
    return ways / float(len(FACES) ** len(dice))


def _plus_one_die() -> tuple[IntArray, ...]:
    """For each size 0 to 4, [keep of that size, face - 1]: the keep with one die of that face more."""
    return tuple(
        np.array(
            [[_KEEP_INDEX[tuple(sorted((*keep, face)))] for face in FACES] for keep in _keeps_of(size)],
            dtype=np.intp,
        )
        for size in range(DICE_COUNT)
    )


def _one_die_fewer() -> tuple[IntArray, ...]:
    """For each size 0 to 5, [keep of that size, i]: the keeps with one die fewer (the distinct
    ones, the first repeated to make ``size`` of them)."""
    levels: list[IntArray] = [np.zeros((1, 0), dtype=np.intp)]
    for size in range(1, DICE_COUNT + 1):
        rows = []
        for keep in _keeps_of(size):
            smaller = sorted({_KEEP_INDEX[keep[:i] + keep[i + 1 :]] for i in range(size)})
            rows.append(smaller + [smaller[0]] * (size - len(smaller)))
        levels.append(np.array(rows, dtype=np.intp))
    return tuple(levels)


def _keeps_of(size: int) -> tuple[Dice, ...]:
    return _KEEPS[_SIZE_START[size] : _SIZE_START[size + 1]]


def _sub_keeps(roll: Dice) -> tuple[int, ...]:
    """The index of every distinct multiset of dice one may keep from ``roll``."""
    return tuple(
        sorted(
            {_KEEP_INDEX[tuple(die for i, die in enumerate(roll) if bits >> i & 1)] for bits in range(1 << DICE_COUNT)}
        )
    )


_FIRST_ROLL_ODDS = np.array([_multinomial_chance(roll) for roll in ALL_ROLLS])
_PLUS_ONE_DIE = _plus_one_die()
_ONE_DIE_FEWER = _one_die_fewer()
_SUB_KEEPS: tuple[tuple[int, ...], ...] = tuple(_sub_keeps(roll) for roll in ALL_ROLLS)

# [box, roll]: the points, by the table of boxes, and as a joker would score five alike.
_PLAIN = np.array([[plain_points(box, roll) for roll in ALL_ROLLS] for box in BOXES], dtype=np.float64)
_JOKER = np.array(
    [[(joker_points if is_five_alike(roll) else plain_points)(box, roll) for roll in ALL_ROLLS] for box in BOXES],
    dtype=np.float64,
)
_FIFTY = _PLAIN[Box.YAHTZEE.position][:, None] == YAHTZEE_POINTS  # [roll, 1]: the yahtzee box takes 50


def _reachable_upper_totals() -> tuple[IntArray, ...]:
    """For each set of filled upper boxes (6 bits), the upper totals they can hold (capped at 63)."""
    reach = []
    for filled in range(1 << len(UPPER_BOXES)):
        totals = {0}
        for face in FACES:
            if filled >> (face - 1) & 1:
                totals = {min(UPPER_BONUS_THRESHOLD, t + face * count) for t in totals for count in range(6)}
        reach.append(np.array(sorted(totals), dtype=np.intp))
    return tuple(reach)


_REACHABLE = _reachable_upper_totals()


# One turn, solved for many (upper total, bonus flag) states at once.


class JokerRule(StrEnum):
    """How five alike are scored once the ``yahtzee`` box is filled."""

    FORCED = "forced"
    """The rules Marquoir keeps (docs/rules-yahtzee.md, the box's): their upper box if open,
    else an open lower box (straights and full house in full), else 0 in an upper box."""
    FREE_CHOICE = "free_choice"
    """Verhoeff's Optimal Solitaire Yahtzee Player (the 254.5896 of the literature): any open
    box; the straights and the full house count in full only when their upper box is filled."""


def _columns(mask: int) -> IntArray:
    """The states a sheet with ``mask`` filled can be in, as indexes into ``values[mask].ravel()``
    (upper total × 2 + flag), ascending: every reachable upper total, each with the flag 0, and
    with 1 too once the ``yahtzee`` box is filled."""
    return _columns_of(mask & _STATE_BITS)


@cache
def _columns_of(mask: int) -> IntArray:
    totals = _REACHABLE[mask & _UPPER_MASK]
    flags = np.array([0, 1] if mask & _YAHTZEE_BIT else [0], dtype=np.intp)
    return (totals[:, None] * 2 + flags[None, :]).ravel()


@cache
def _upper_move(box_index: int, mask: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int32]]:
    """Scoring in upper box ``box_index`` from the states of ``_columns(mask)``: [roll, column]
    the points (the upper bonus included the turn the total reaches 63), and the state after
    it, as an index into ``values[mask].ravel()``. Call it with ``mask & _STATE_BITS``."""
    columns = _columns(mask)
    totals, flags = columns // 2, columns % 2
    points = _PLAIN[box_index][:, None]
    new_totals = np.minimum(UPPER_BONUS_THRESHOLD, totals[None, :] + points.astype(np.intp))
    bonus = (totals[None, :] < UPPER_BONUS_THRESHOLD) & (new_totals >= UPPER_BONUS_THRESHOLD)
    # Compact types: the build keeps one pair for each upper box and set of filled boxes.
    gain = (points + UPPER_BONUS * bonus).astype(np.float32)
    return gain, (new_totals * 2 + flags[None, :]).astype(np.int32)


def _scoring_values(values: FloatArray | TableArray, mask: int, joker: JokerRule = JokerRule.FORCED) -> FloatArray:
    """[roll, column]: what each final roll is worth from now on, scored in the best box the
    rules allow: its points, the bonuses it earns and the value of the sheet after it.

    The columns are the states of ``_columns(mask)``.
    """
    columns = _columns(mask)
    yahtzee_filled = bool(mask & _YAHTZEE_BIT)
    open_boxes = [index for index in range(len(BOXES)) if not mask >> index & 1]
    banned: dict[int, list[int]] = {}
    lower_points = _JOKER if yahtzee_filled else _PLAIN
    if yahtzee_filled and joker is JokerRule.FORCED:
        # The forced joker: five alike go where joker_boxes says, nowhere else.
        open_keys = [BOXES[index] for index in open_boxes]
        for row, face in _ALIKE_ROWS:
            allowed = joker_boxes(open_keys, face)
            for index in open_boxes:
                if BOXES[index] not in allowed:
                    banned.setdefault(index, []).append(row)
    elif yahtzee_filled:
        # Free choice: the joker's fixed points only once the upper box of the face is filled.
        lower_points = _PLAIN.copy()
        for row, face in _ALIKE_ROWS:
            if mask >> (face - 1) & 1:
                lower_points[:, row] = _JOKER[:, row]
    best: FloatArray | None = None
    flat = values.reshape(_MASKS, -1)
    for index in open_boxes:
        after = flat[mask | 1 << index]  # the sheet's states with this box filled
        if index < len(UPPER_BOXES):
            points, moved = _upper_move(index, mask & _STATE_BITS)
            worth = points + after[moved]
        elif index == Box.YAHTZEE.position:
            # Open, so the flag is 0 now (the columns are even); it becomes 1 with the 50.
            worth = _PLAIN[index][:, None] + np.where(_FIFTY, after[columns + 1], after[columns])
        else:
            worth = lower_points[index][:, None] + after[columns]
        if index in banned:
            worth[banned[index]] = -np.inf
        best = worth if best is None else np.maximum(best, worth, out=best)
    if best is None:
        raise ValueError("a full sheet has no turn to play")
    if yahtzee_filled:
        rows = [row for row, _ in _ALIKE_ROWS]
        best[rows, 1::2] += YAHTZEE_BONUS  # the odd columns: the yahtzee box holds 50
    return best


def _reroll(values: FloatArray, *, keep_values: bool = True) -> tuple[FloatArray, FloatArray]:
    """From [roll, column] values with one roll fewer: [keep, column], what keeping each multiset
    and rolling the other dice is worth, and [roll, column], what each roll is worth with its
    best keep (keeping all five: rolling no more). Without ``keep_values`` the first array is
    overwritten by the second's work (the build needs only the second).

    Rolling n dice is rolling one, then n - 1: a keep is worth the mean, over the six faces,
    of the keep with one more die of that face. The best keep of a multiset is the better of
    itself and the best keeps of the multisets with one die fewer.
    """
    keeps = np.empty((len(_KEEPS), values.shape[1]))
    keeps[_SIZE_START[DICE_COUNT] :] = values
    for size in range(DICE_COUNT - 1, -1, -1):
        larger = _PLUS_ONE_DIE[size]
        level = keeps[larger[:, 0]]
        for face in range(1, len(FACES)):
            level += keeps[larger[:, face]]
        level *= 1 / len(FACES)
        keeps[_SIZE_START[size] : _SIZE_START[size + 1]] = level
    best = keeps.copy() if keep_values else keeps
    for size in range(1, DICE_COUNT + 1):
        level = best[_SIZE_START[size] : _SIZE_START[size + 1]]
        for smaller in _ONE_DIE_FEWER[size].T:
            np.maximum(level, best[smaller], out=level)
    return keeps, best[_SIZE_START[DICE_COUNT] :]


_LEVELS: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask for mask in range(_MASKS) if mask.bit_count() == filled) for filled in range(len(BOXES) + 1)
)
# A few hundred states at a time keep the working arrays in the processor's cache: measured
# several times faster than large matrix products over thousands of states.
_CHUNK_COLUMNS = 256


def build_values(joker: JokerRule = JokerRule.FORCED) -> FloatArray:
    """The table in float64: [filled boxes, upper total, holds 50], the expected points still
    to come with optimal play (NaN where no sheet can be).

    Sheets with as many boxes filled depend only on sheets with more, so each such level is
    solved in chunks of sets of open boxes, for all their states at once.
    """
    values = np.full(_SHAPE, np.nan)
    values[_FULL] = 0.0
    for filled in range(len(BOXES) - 1, -1, -1):
        chunk: list[int] = []
        width = 0
        for mask in _LEVELS[filled]:
            chunk.append(mask)
            width += len(_columns(mask))
            if width >= _CHUNK_COLUMNS:
                _solve_chunk(values, chunk, joker)
                chunk, width = [], 0
        if chunk:
            _solve_chunk(values, chunk, joker)
    return values


def _solve_chunk(values: FloatArray, masks: list[int], joker: JokerRule) -> None:
    scoring = np.concatenate([_scoring_values(values, mask, joker) for mask in masks], axis=1)
    _, one_roll_left = _reroll(scoring, keep_values=False)
    _, two_rolls_left = _reroll(one_roll_left, keep_values=False)
    turns = _FIRST_ROLL_ODDS @ two_rolls_left
    flat = values.reshape(_MASKS, -1)
    start = 0
    for mask in masks:
        columns = _columns(mask)
        flat[mask, columns] = turns[start : start + len(columns)]
        start += len(columns)


# The table's file.


def table_path(joker: JokerRule = JokerRule.FORCED) -> Path:
    """Where the table is read and written: ``$MARQUOIR_YAHTZEE_TABLE``, else ``DEFAULT_TABLE_PATH``;
    the table of another joker rule lies beside it (``…-free-choice.npy``)."""
    named = os.environ.get(TABLE_ENV)
    path = Path(named) if named else DEFAULT_TABLE_PATH
    if joker is JokerRule.FORCED:
        return path
    return path.with_name(f"{path.stem}-{joker.value.replace('_', '-')}{path.suffix}")


def build_table(path: Path | None = None, joker: JokerRule = JokerRule.FORCED) -> Path:
    """Solve the game and write the table (float32) to ``path`` (default ``table_path(joker)``).

    The file is written beside its final name and renamed into place, so a reader never
    sees half a table, and two processes building at once do no harm. Returns the path.
    """
    target = path or table_path(joker)
    values = build_values(joker).astype(np.float32)
    new_directory = not target.parent.exists()
    target.parent.mkdir(parents=True, exist_ok=True)
    if new_directory and target.parent == DEFAULT_TABLE_PATH.parent:
        (target.parent / ".gitignore").write_text("# Built files (the Yahtzee tables): never committed.\n*\n")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            np.save(file, values)
        os.chmod(temporary, 0o644)  # mkstemp makes it private; the site's user reads it too
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


_loaded: dict[Path, TableArray] = {}
_loading = threading.Lock()


def load_table(path: Path | None = None, joker: JokerRule = JokerRule.FORCED) -> TableArray:
    """The table, read once per process from ``path`` (default ``table_path(joker)``), built
    first if the file is missing or is not a table of the right shape. Read-only."""
    target = path or table_path(joker)
    table = _loaded.get(target)
    if table is not None:
        return table
    with _loading:
        table = _loaded.get(target)
        if table is None:
            table = _read(target)
            if table is None:
                build_table(target, joker)
                table = _read(target)
                if table is None:
                    raise OSError(f"the Yahtzee table just built at {target} cannot be read")
            _loaded[target] = table
    return table


def _read(path: Path) -> TableArray | None:
    try:
        table = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if table.shape != _SHAPE or table.dtype != np.float32:
        return None
    table.flags.writeable = False
    return table  # type: ignore[no-any-return]


def clear_cache() -> None:
    """Forget the tables read and the turns solved: for benchmarks and tests."""
    _loaded.clear()
    _turn.cache_clear()
    _upper_move.cache_clear()


# Advice.


@dataclass(frozen=True, slots=True)
class _State:
    mask: int
    total: int
    flag: int
    scored: int


_POSSIBLE: tuple[frozenset[int], ...] = tuple(
    frozenset(int(points) for points in np.concatenate([_PLAIN[box.position], _JOKER[box.position]])) for box in BOXES
)


def _state_of(sheet: Sheet) -> _State:
    if (
        not isinstance(sheet, Sheet)
        or not isinstance(sheet.boxes, tuple)
        or len(sheet.boxes) != len(BOXES)
        or not is_whole_number(sheet.yahtzee_bonuses)
        or sheet.yahtzee_bonuses < 0
        or any(
            points is not None and not (is_whole_number(points) and points in _POSSIBLE[index])
            for index, points in enumerate(sheet.boxes)
        )
    ):
        raise RuleError(INVALID, "bad_sheet")
    mask = sum(1 << index for index, points in enumerate(sheet.boxes) if points is not None)
    return _State(mask, min(sheet.upper_total, UPPER_BONUS_THRESHOLD), int(sheet.yahtzee_holds_fifty), sheet.total)


def _open_state(sheet: Sheet) -> _State:
    state = _state_of(sheet)
    if state.mask == _FULL:
        raise RuleError(INVALID, "sheet_full")
    return state


class _Turn(NamedTuple):
    one_roll_left: FloatArray  # [keep]: keeping it, rolling the rest once more, then scoring
    two_rolls_left: FloatArray  # [keep]: keeping it, then two more rolls


@lru_cache(maxsize=256)
def _turn(mask: int, total: int, flag: int) -> _Turn:
    columns = _columns(mask)
    column = int(np.searchsorted(columns, total * 2 + flag))
    scoring = _scoring_values(load_table(), mask)[:, column : column + 1]
    keeps_once, one_roll_left = _reroll(scoring)
    keeps_twice, _ = _reroll(one_roll_left)
    return _Turn(keeps_once[:, 0], keeps_twice[:, 0])


def sheet_value(sheet: Sheet) -> float:
    """The expected final score of ``sheet`` with optimal play, before a turn's first roll:
    the points already scored (bonuses included) plus the expected points to come."""
    state = _state_of(sheet)
    return state.scored + float(load_table()[state.mask, state.total, state.flag])


def best_keeps(sheet: Sheet, dice: object, rolls_left: int) -> list[KeepValue]:
    """Every distinct set of dice to keep from ``dice`` with ``rolls_left`` (1 or 2) rolls to
    go, with the expected final score of keeping it and playing on optimally; best first.

    Keeping all five means rolling no more. ``RuleError(invalid)``: bad dice, ``bad_rolls_left``,
    ``sheet_full``, ``bad_sheet``.
    """
    checked = tuple(sorted(check_dice(dice)))
    if not is_whole_number(rolls_left) or rolls_left not in (1, 2):
        raise RuleError(INVALID, "bad_rolls_left", rolls_left=rolls_left if is_whole_number(rolls_left) else None)
    state = _open_state(sheet)
    turn = _turn(state.mask, state.total, state.flag)
    worth = turn.one_roll_left if rolls_left == 1 else turn.two_rolls_left
    keeps = [KeepValue(_KEEPS[k], state.scored + float(worth[k])) for k in _SUB_KEEPS[_ROLL_INDEX[checked]]]
    keeps.sort(key=lambda keep: (-keep.value, -len(keep.keep), keep.keep))
    return keeps


def best_boxes(sheet: Sheet, dice: object) -> list[BoxValue]:
    """Every box the rules let ``dice`` (the turn's last roll) go in, with the expected final
    score of scoring them there and playing on optimally; best first.

    ``RuleError(invalid)``: bad dice, ``sheet_full``, ``bad_sheet``.
    """
    checked = check_dice(dice)
    state = _open_state(sheet)
    values = load_table()
    result = []
    for choice in box_choices(sheet, checked):
        if not choice.allowed:
            continue
        points = choice.points or 0
        total, flag, gain = state.total, state.flag, points + choice.yahtzee_bonus
        if choice.box.is_upper:
            total = min(UPPER_BONUS_THRESHOLD, state.total + points)
            gain += UPPER_BONUS if state.total < UPPER_BONUS_THRESHOLD <= state.total + points else 0
        elif choice.box is Box.YAHTZEE:
            flag = int(points == YAHTZEE_POINTS)
        after = float(values[state.mask | 1 << choice.box.position, total, flag])
        result.append(BoxValue(choice.box, state.scored + gain + after))
    result.sort(key=lambda item: (-item.value, item.box.position))
    return result


if __name__ == "__main__":
    print(f"Yahtzee table written to {build_table()}")
