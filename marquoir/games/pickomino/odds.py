"""Exact odds for a Pickomino turn in progress, and the best way to play it on.

``advise`` says what stopping now is worth, what rolling on is worth with the best play
after it, how likely the turn is to fail, and, for dice just rolled, what keeping each
face is worth. ``tile_chances`` says how likely each claimable tile is when playing for it.

The turn is a finite game against the dice, so it is solved exactly by backward
induction over the states (faces kept, dice left, total): the order of past keeps never
matters. A roll of n dice is enumerated as multisets, and seen from a state only the
faces not yet kept matter, so the outcomes are projected onto those faces (the kept ones
pooled as "no use"): a roll of 4 dice with 2 faces kept has 70 outcomes, not 1296.
Probabilities are exact integers over 6^n until the last step, which divides in floats.

Everything is pure: the dice are chances here, never rolled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from math import factorial

from .dice import ALL_FACES, Face, TurnDice
from .engine import MAX_TOTAL, GameState
from .errors import INVALID, RuleError
from .tiles import is_tile, worms_on

DEFAULT_STEAL_WEIGHT = 2.0
"""A steal counts twice its worms: the player gains them and the opponent loses them."""

_ALL_KEPT = (1 << len(ALL_FACES)) - 1
_WORM_BIT = 1 << (Face.WORM - 1)
_POINTS: tuple[int, ...] = tuple(face.points for face in ALL_FACES)
# How many solved tables (and policies) to remember; a game sees a few new ones per turn.
_SOLVER_CACHE_SIZE = 64


@dataclass(frozen=True, slots=True)
class Table:
    """What the current player's tiles can be: the grill and the tops of every stack.

    ``face_up`` are the face-up grill tiles; ``opponent_tops`` the top tiles of the
    opponents' stacks (stealable with the exact total); ``own_top`` the top of the
    player's own stack, returned on a bust (None when the stack is empty).
    """

    face_up: frozenset[int]
    opponent_tops: frozenset[int] = frozenset()
    own_top: int | None = None

    def __post_init__(self) -> None:
        tiles = [*self.face_up, *self.opponent_tops, *([] if self.own_top is None else [self.own_top])]
        if not all(is_tile(tile) for tile in tiles):
            raise RuleError(INVALID, "not_a_tile", tiles=tiles)
        if len(set(tiles)) != len(tiles):
            # A tile lies in exactly one place; a table that says otherwise is a mistake upstream.
            raise RuleError(INVALID, "tile_in_two_places", tiles=sorted(tiles))

    @classmethod
    def of(cls, state: GameState) -> Table:
        """The table as the current player of ``state`` sees it."""
        opponents = frozenset(
            stack[-1] for player, stack in enumerate(state.stacks) if player != state.current and stack
        )
        return cls(frozenset(state.face_up), opponents, state.top(state.current))

    def grill_tile(self, total: int) -> int | None:
        """The grill tile ``total`` wins: itself if face up, else the highest face-up below; None if none."""
        if total in self.face_up:
            return total
        return max((tile for tile in self.face_up if tile < total), default=None)

    @property
    def bust_value(self) -> float:
        """What a bust is worth: minus the worms of the player's top tile (0 with an empty stack)."""
        return -float(worms_on(self.own_top)) if self.own_top is not None else 0.0

    def claim(self, total: int, steal_weight: float = DEFAULT_STEAL_WEIGHT) -> tuple[int, bool, float] | None:
        """The best claim for stopping with a worm and ``total``: (tile, is a steal, value), or None.

        A grill tile is worth its worms, a steal ``steal_weight`` times its worms. None
        means stopping is a bust; always so once the grill is empty (the game is over,
        as the engine's ``legal_claims`` says).
        """
        best: tuple[int, bool, float] | None = None
        if not self.face_up:
            return None
        tile = self.grill_tile(total)
        if tile is not None:
            best = (tile, False, float(worms_on(tile)))
        if total in self.opponent_tops:
            steal = (total, True, steal_weight * worms_on(total))
            if best is None or steal[2] > best[2]:
                best = steal
        return best


@dataclass(frozen=True, slots=True)
class KeepAdvice:
    """Keeping every die of one face from the roll, then playing on as well as possible."""

    face: Face
    count: int
    value: float
    """The expected value of the turn after this keep, with the best play after it."""
    stop_after: bool
    """Whether to stop right after this keep (True too when the keep ends the turn by itself)."""
    bust_chance: float
    """The chance the turn fails after this keep, with the best play after it."""


@dataclass(frozen=True, slots=True)
class Advice:
    """What the turn is worth from here, and how to play it.

    Values are expected worms (see ``advise``), or chances of the target tile when the
    advice plays for one tile.
    """

    value: float
    """The expected value of the turn from here with the best play: the better of stop and roll."""
    stop_value: float
    """What stopping now is worth; the bust value when stopping now is a bust."""
    stop_tile: int | None
    """The tile stopping now claims (the best one), or None: stopping now is a bust."""
    stop_steals: bool
    """Whether that claim is a steal from an opponent."""
    roll_value: float | None
    """The expected value of rolling on with the best play; None when the turn is over."""
    roll_bust_chance: float | None
    """The chance the turn fails if the player rolls on (then plays well); None when over."""
    should_stop: bool
    """Whether to stop now (never without a claim; always when the turn is over)."""
    bust_chance: float
    """The chance the turn fails from here, playing as advised."""
    bust_value: float
    """What a bust is worth."""
    keeps: tuple[KeepAdvice, ...] = ()
    """For the roll given: one entry per face that may be kept, best first."""
    roll_busts: bool = False
    """Whether the roll given is a bust: it shows no face that may be kept."""

    @property
    def best_face(self) -> Face | None:
        """The face to keep from the roll given (None without a roll, or when the roll busts)."""
        return self.keeps[0].face if self.keeps else None


def advise(
    table: Table,
    dice: TurnDice,
    roll: tuple[Face, ...] | None = None,
    *,
    steal_weight: float = DEFAULT_STEAL_WEIGHT,
    target: int | None = None,
) -> Advice:
    """The exact odds of the turn in progress and the best play, for the current player.

    The value of ending the turn is the worms of the grill tile taken, ``steal_weight``
    times the worms of a tile stolen (the best claim when both are possible), or, on a
    bust, minus the worms of the player's top tile. Play maximises the expected value.

    ``dice`` are the dice kept so far. ``roll``, when given, is the roll just thrown
    (one face per die left); the advice then weighs keeping each new face it shows.

    With ``target`` (a face-up grill tile or an opponent's top tile) the advice plays for
    that tile alone: values are chances of ending the turn able to claim it, and any
    other ending counts as a bust.

    Raises ``RuleError`` (``invalid``) for a roll of the wrong size, a roll after the turn
    is over, or a target that cannot be claimed.
    """
    solver = _solver_for(table, steal_weight, target)
    mask, left, total = _state_of(dice)
    stop_value, stop_ok = solver.stop(mask, total)
    value, bust_chance, should_stop = solver.state(mask, left, total)
    finished = left == 0 or mask == _ALL_KEPT
    roll_value, roll_bust_chance = (None, None) if finished else solver.roll(mask, left, total)
    stop_tile: int | None = None
    stop_steals = False
    if stop_ok and target is not None:
        stop_tile, stop_steals = target, target in table.opponent_tops
    elif stop_ok:
        claim = table.claim(total, steal_weight)
        if claim is not None:  # always, since stopping claims
            stop_tile, stop_steals = claim[0], claim[1]
    keeps: tuple[KeepAdvice, ...] = ()
    roll_busts = False
    if roll is not None:
        if finished:
            raise RuleError(INVALID, "turn_finished")
        if len(roll) != left:
            raise RuleError(INVALID, "wrong_roll_size", rolled=len(roll), dice_left=left)
        keeps = _keeps(solver, mask, left, total, roll)
        roll_busts = not keeps
    return Advice(
        value=value,
        stop_value=stop_value,
        stop_tile=stop_tile,
        stop_steals=stop_steals,
        roll_value=roll_value,
        roll_bust_chance=roll_bust_chance,
        should_stop=should_stop,
        bust_chance=bust_chance,
        bust_value=solver.bust,
        keeps=keeps,
        roll_busts=roll_busts,
    )


def tile_chances(table: Table, dice: TurnDice) -> dict[int, float]:
    """For each tile the player could claim, the chance of ending the turn able to claim it.

    Each chance assumes the player plays for that tile alone (the best play for it, which
    ``advise(..., target=tile)`` gives). The tiles are every face-up grill tile and every
    opponent's top tile; a grill tile is claimed by stopping with a worm and a total the
    grill turns into it, a top tile by the exact total.
    """
    mask, left, total = _state_of(dice)
    # Once the grill is empty the game is over and nothing can be claimed.
    targets = sorted(table.face_up | table.opponent_tops) if table.face_up else []
    return {tile: _solver_for(table, DEFAULT_STEAL_WEIGHT, tile).state(mask, left, total)[0] for tile in targets}


def clear_cache() -> None:
    """Forget every solved table (the roll tables stay): for benchmarks and tests."""
    _solver_for.cache_clear()
    _solver.cache_clear()


def _state_of(dice: TurnDice) -> tuple[int, int, int]:
    mask = 0
    for face in dice.faces_kept:
        mask |= 1 << (face - 1)
    return mask, dice.dice_left, dice.total


def _keeps(solver: _Solver, mask: int, left: int, total: int, roll: Iterable[Face]) -> tuple[KeepAdvice, ...]:
    counts = [0] * len(ALL_FACES)
    for face in roll:
        counts[Face(face) - 1] += 1
    keeps = []
    for index, count in enumerate(counts):
        bit = 1 << index
        if count and not mask & bit:
            value, bust, stop = solver.state(mask | bit, left - count, total + _POINTS[index] * count)
            keeps.append(KeepAdvice(ALL_FACES[index], count, value, stop, bust))
    # The same order as the solver's choice: best value, then the safer, then the lower face.
    keeps.sort(key=lambda keep: (-keep.value, keep.bust_chance, keep.face))
    return tuple(keeps)


@lru_cache(maxsize=_SOLVER_CACHE_SIZE)
def _solver_for(table: Table, steal_weight: float, target: int | None) -> _Solver:
    rewards: list[float | None] = []
    if target is None:
        for total in range(MAX_TOTAL + 1):
            claim = table.claim(total, steal_weight)
            rewards.append(None if claim is None else claim[2])
        return _solver(tuple(rewards), table.bust_value)
    if not table.face_up:
        raise RuleError(INVALID, "not_a_target", tile=target)  # the game is over: nothing to claim
    if target in table.opponent_tops:
        rewards = [1.0 if total == target else None for total in range(MAX_TOTAL + 1)]
    elif target in table.face_up:
        rewards = [1.0 if table.grill_tile(total) == target else None for total in range(MAX_TOTAL + 1)]
    else:
        raise RuleError(INVALID, "not_a_target", tile=target)
    # Playing for one tile, any other ending is worth nothing, so the solver never stops there.
    return _solver(tuple(rewards), 0.0)


@lru_cache(maxsize=_SOLVER_CACHE_SIZE)
def _solver(rewards: tuple[float | None, ...], bust: float) -> _Solver:
    # Tables that differ only where no total reaches (say, in tiles no total can win) share one.
    return _Solver(rewards, bust)


class _Solver:
    """The turn solved for one scoring of its endings, lazily: a state is solved when asked.

    ``rewards[total]`` is what stopping with a worm and ``total`` is worth (None: nothing
    to claim, a bust), ``bust`` what a bust is worth; every reward must be at least
    ``bust``. A state is (mask of kept faces, dice left, total), packed in one int.
    """

    def __init__(self, rewards: tuple[float | None, ...], bust: float) -> None:
        self.rewards = rewards
        self.bust = bust
        # Filled as states are asked for. Threads may race to fill an entry: they compute
        # the same value, so the dict needs no lock.
        # (value, bust chance, stop?) of a state where the player may stop or roll.
        self._states: dict[int, tuple[float, float, bool]] = {}
        # (value, bust chance) of rolling from a state, with the best keep after the roll.
        self._rolls: dict[int, tuple[float, float]] = {}

    def stop(self, mask: int, total: int) -> tuple[float, bool]:
        """What stopping is worth, and whether it claims a tile."""
        if mask & _WORM_BIT:
            reward = self.rewards[total]
            if reward is not None:
                return reward, True
        return self.bust, False

    def state(self, mask: int, left: int, total: int) -> tuple[float, float, bool]:
        """(value, bust chance, whether to stop) of a state, with the best play from it."""
        key = mask | left << 6 | total << 10
        known = self._states.get(key)
        if known is not None:
            return known
        stop_value, stop_ok = self.stop(mask, total)
        if left == 0 or mask == _ALL_KEPT:
            known = (stop_value, 0.0 if stop_ok else 1.0, True)
        else:
            roll_value, roll_bust = self.roll(mask, left, total)
            # On a tie stopping is as good and certain; without a claim stopping is a bust,
            # never better than rolling (every ending is worth at least a bust).
            stops = stop_ok and stop_value >= roll_value
            known = (stop_value, 0.0, True) if stops else (roll_value, roll_bust, False)
        self._states[key] = known
        return known

    def roll(self, mask: int, left: int, total: int) -> tuple[float, float]:
        """(value, bust chance) of rolling the ``left`` dice and keeping the best face."""
        key = mask | left << 6 | total << 10
        known = self._rolls.get(key)
        if known is not None:
            return known
        rolls = _rolls(mask, left)
        values: list[float] = []
        busts: list[float] = []
        for index, count in rolls.options:
            value, bust, _ = self.state(mask | 1 << index, left - count, total + _POINTS[index] * count)
            values.append(value)
            busts.append(bust)
        # Rank the options once; in each outcome the chosen one is then the best-ranked shown.
        order = sorted(range(len(values)), key=lambda option: (-values[option], busts[option], option))
        rank = [0] * len(order)
        for position, option in enumerate(order):
            rank[option] = position
        chosen = [0] * len(order)
        rank_of = rank.__getitem__
        for weight, shown in rolls.outcomes:
            chosen[min(map(rank_of, shown))] += weight
        scale = rolls.scale
        value = rolls.no_new_face * scale * self.bust
        bust = rolls.no_new_face * scale
        for position, option in enumerate(order):
            if chosen[position]:
                share = chosen[position] * scale
                value += share * values[option]
                bust += share * busts[option]
        known = (value, bust)
        self._rolls[key] = known
        return known


@dataclass(frozen=True, slots=True)
class _Rolls:
    """The outcomes of rolling ``left`` dice, seen from a state that kept the faces of a mask.

    Only the counts of faces not kept matter; dice showing kept faces are pooled. Weights
    are numbers of ordered rolls (exact integers); ``scale`` is 1 / 6^left.
    """

    options: tuple[tuple[int, int], ...]
    """Every (face index, count) a keep could take: each face not kept, 1 to ``left`` dice."""
    outcomes: tuple[tuple[int, tuple[int, ...]], ...]
    """(ordered rolls, indices into ``options`` of the keeps the outcome allows)."""
    no_new_face: int
    """Ordered rolls showing only kept faces: a bust."""
    scale: float


@cache  # at most 64 masks × 9 dice counts
def _rolls(mask: int, left: int) -> _Rolls:
    free = [index for index in range(len(ALL_FACES)) if not mask & 1 << index]
    options = tuple((index, count) for index in free for count in range(1, left + 1))
    outcomes, no_new_face = _outcomes(len(free), left)
    return _Rolls(options, outcomes, no_new_face, 1.0 / len(ALL_FACES) ** left)


@cache  # at most 6 × 9: the outcomes depend on how many faces are free, not on which
def _outcomes(free: int, left: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int]:
    """The outcomes of ``left`` dice over ``free`` faces that may be kept and the rest pooled.

    Each outcome is (ordered rolls, option indices shown), option ``slot * left + count - 1``
    being ``count`` dice of the free face in ``slot``; then the ordered rolls showing no
    free face.
    """
    pooled = len(ALL_FACES) - free  # how many faces a die may show without use
    outcomes: list[tuple[int, tuple[int, ...]]] = []
    no_new_face = 0
    for counts in _compositions(free, left, pooled == 0):
        rest = left - sum(counts)
        # Ordered rolls with these counts: the multinomial coefficient, times the ways
        # the pooled dice can show any of the kept faces.
        ways = factorial(left) // factorial(rest)
        for count in counts:
            ways //= factorial(count)
        ways *= pooled**rest
        shown = tuple(slot * left + count - 1 for slot, count in enumerate(counts) if count)
        if shown:
            outcomes.append((ways, shown))
        else:
            no_new_face += ways
    return tuple(outcomes), no_new_face


@cache
def _compositions(parts: int, most: int, exact: bool) -> tuple[tuple[int, ...], ...]:
    """Every tuple of ``parts`` counts summing to ``most`` (``exact``) or at most ``most``."""
    if parts == 0:
        return ((),) if not exact or most == 0 else ()
    return tuple((first, *rest) for first in range(most + 1) for rest in _compositions(parts - 1, most - first, exact))
