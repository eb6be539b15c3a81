"""Random legal play, for property tests, benchmarks and load tests.

The engine stays free of chance: the caller passes ``choose`` (``random.Random.choice``
of a seeded generator, or hypothesis's), and this module only asks it to pick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from .engine import DICE_COUNT, FACES, Action, Dice, GameState, Score, ScorePoints, apply, box_choices

Chooser: TypeAlias = Callable[[Sequence[Any]], Any]

# Five alike come up far more often than at a real table (1 turn in 5, not 1 in 22), so
# the Yahtzee bonus and every branch of the joker get played; 1 score in 5 is typed as points.
_ROLL_KINDS = ("any",) * 4 + ("five_alike",)
_INPUTS = ("dice",) * 4 + ("points",)


def random_dice(choose: Chooser) -> Dice:
    """Five dice as a turn might end, five alike more often than chance gives."""
    if choose(_ROLL_KINDS) == "five_alike":
        return (choose(FACES),) * DICE_COUNT
    return tuple(choose(FACES) for _ in range(DICE_COUNT))


def random_legal_action(state: GameState, choose: Chooser) -> Action:
    """A legal action for the current player of a game that is not over: random dice in a
    box the rules allow, given as the dice or as the points they make there."""
    player = state.current
    if player is None:
        raise ValueError("the game is over: no one plays")
    sheet = state.sheets[player]
    dice = random_dice(choose)
    choice = choose([choice for choice in box_choices(sheet, dice) if choice.allowed])
    if choose(_INPUTS) == "points":
        return ScorePoints(choice.box, choice.points, five_alike=len(set(dice)) == 1)
    return Score(choice.box, dice)


def random_game(state: GameState, choose: Chooser, max_actions: int = 10_000) -> list[Action]:
    """The actions of one random legal game from ``state`` to its end (or ``max_actions``)."""
    actions: list[Action] = []
    while not state.over and len(actions) < max_actions:
        action = random_legal_action(state, choose)
        state = apply(state, action)[0]
        actions.append(action)
    return actions
