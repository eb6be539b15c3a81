"""A match: its starting set-up plus the log of actions in force.

The state is never stored on its own: it is the fold of the actions over the set-up, so
a match can be replayed, undone step by step, audited and charted from its log alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .engine import Action, GameState, Options, Outcome, apply, new_game
from .errors import INVALID, NOTHING_TO_UNDO, RuleError


@dataclass(frozen=True, slots=True)
class Setup:
    """What a match starts from: the number of players, who starts, the table options."""

    player_count: int
    first: int = 0
    options: Options = Options()

    def initial_state(self) -> GameState:
        """The table before the first action."""
        return new_game(self.player_count, self.first, self.options)


@dataclass(frozen=True, slots=True)
class Step:
    """One action in force, with the account of what it did and the state it left."""

    action: Action
    outcome: Outcome
    state: GameState


@dataclass(frozen=True, slots=True)
class Match:
    """A match as a value: ``apply`` and ``undo`` return a new match, the old one stays valid."""

    setup: Setup
    initial: GameState
    steps: tuple[Step, ...] = ()

    @classmethod
    def start(cls, setup: Setup) -> Match:
        """A new match with no action yet."""
        return cls(setup, setup.initial_state())

    @classmethod
    def replay(cls, setup: Setup, actions: Iterable[Action]) -> Match:
        """The match that ``actions`` make from ``setup``, each checked by the rules."""
        initial = state = setup.initial_state()
        steps: list[Step] = []
        for action in actions:
            state, outcome = apply(state, action)
            steps.append(Step(action, outcome, state))
        return cls(setup, initial, tuple(steps))

    @property
    def state(self) -> GameState:
        """The table now."""
        return self.steps[-1].state if self.steps else self.initial

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions in force, oldest first."""
        return tuple(step.action for step in self.steps)

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """What each action in force did, oldest first."""
        return tuple(step.outcome for step in self.steps)

    def states(self) -> tuple[GameState, ...]:
        """The table before the first action and after each one: for charts and audits."""
        return (self.initial, *(step.state for step in self.steps))

    def apply(self, action: Action) -> Match:
        """This match with ``action`` played; ``RuleError`` if the rules forbid it."""
        state, outcome = apply(self.state, action)
        return Match(self.setup, self.initial, self.steps + (Step(action, outcome, state),))

    def undo(self, steps: int = 1) -> Match:
        """This match with its last ``steps`` actions taken back; the earlier state exactly."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise RuleError(INVALID, "bad_undo_steps", steps=steps)
        if steps > len(self.steps):
            raise RuleError(NOTHING_TO_UNDO)
        return Match(self.setup, self.initial, self.steps[: len(self.steps) - steps])


def fold(setup: Setup, actions: Iterable[Action]) -> GameState:
    """The state ``actions`` lead to from ``setup``, keeping nothing else: the fast path."""
    state = setup.initial_state()
    for action in actions:
        state = apply(state, action)[0]
    return state
