"""A match: its starting set-up plus the log of actions in force, for any game.

The state is never stored on its own: it is the fold of the actions over the set-up, so
a match can be replayed, undone step by step, audited and charted from its log alone. A
game gives its set-up (anything with ``initial_state()``) and its rules (``apply(state,
action) -> (state, outcome)``, raising ``RuleError``) by subclassing ``GameMatch``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from .errors import INVALID, NOTHING_TO_UNDO, RuleError

S = TypeVar("S")
A = TypeVar("A")
O = TypeVar("O")  # noqa: E741 (the outcome type, as in the engines' own names)
S_co = TypeVar("S_co", covariant=True)


class SetUp(Protocol[S_co]):
    """What a match starts from: a game knows its own (players, who starts, options)."""

    def initial_state(self) -> S_co: ...


@dataclass(frozen=True, slots=True)
class Step(Generic[S, A, O]):
    """One action in force, with the account of what it did and the state it left."""

    action: A
    outcome: O
    state: S


@dataclass(frozen=True)
class GameMatch(Generic[S, A, O]):
    """A match as a value: ``apply`` and ``undo`` return a new match, the old one stays valid."""

    setup: Any
    initial: S
    steps: tuple[Step[S, A, O], ...] = ()

    # The game's rules: ``apply(state, action) -> (state, outcome)``, RuleError if forbidden.
    rules: ClassVar[Callable[..., tuple[Any, Any]]]

    @classmethod
    def start(cls, setup: SetUp[S]) -> Self:
        """A new match with no action yet."""
        return cls(setup, setup.initial_state())

    @classmethod
    def replay(cls, setup: SetUp[S], actions: Iterable[A]) -> Self:
        """The match that ``actions`` make from ``setup``, each checked by the rules."""
        match = cls.start(setup)
        for action in actions:
            match = match.apply(action)
        return match

    @classmethod
    def fold(cls, setup: SetUp[S], actions: Iterable[A]) -> S:
        """The state ``actions`` lead to from ``setup``, keeping nothing else: the fast path
        (no steps kept, so nothing to undo or chart)."""
        state, rules = setup.initial_state(), cls.rules
        for action in actions:
            state = rules(state, action)[0]
        return state

    @property
    def state(self) -> S:
        """The table now."""
        return self.steps[-1].state if self.steps else self.initial

    @property
    def actions(self) -> tuple[A, ...]:
        """The actions in force, oldest first."""
        return tuple(step.action for step in self.steps)

    @property
    def outcomes(self) -> tuple[O, ...]:
        """What each action in force did, oldest first."""
        return tuple(step.outcome for step in self.steps)

    def states(self) -> tuple[S, ...]:
        """The table before the first action and after each one: for charts and audits."""
        return (self.initial, *(step.state for step in self.steps))

    def apply(self, action: A) -> Self:
        """This match with ``action`` played; ``RuleError`` if the rules forbid it."""
        state, outcome = type(self).rules(self.state, action)
        return type(self)(self.setup, self.initial, (*self.steps, Step(action, outcome, state)))

    def correct(self, index: int, action: A) -> Self:
        """This match with the action of step ``index`` (0 for the first in force) replaced by
        ``action`` and every later action played again on what it now leaves, each checked by
        the rules: a past entry fixed in place. ``RuleError`` if the corrected action or any
        later one breaks a rule, its ``correction_step`` the index of the first that does. The later
        actions are played as they were given, not adjusted: a Pickomino steal names whom it
        steals from, so a steal whose tile a correction moved is refused, not moved with it."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.steps):
            raise RuleError(INVALID, "bad_correction_step", index=index)
        rules = type(self).rules
        state = self.state_before(index)
        steps = list(self.steps[:index])
        for at, played in enumerate((action, *(step.action for step in self.steps[index + 1 :])), start=index):
            try:
                state, outcome = rules(state, played)
            except RuleError as error:
                # Not in ``params``: a rule's own may hold a "step" (a declared game's input steps).
                error.correction_step = at
                raise
            steps.append(Step(played, outcome, state))
        return type(self)(self.setup, self.initial, tuple(steps))

    def state_before(self, index: int) -> S:
        """The table before the action of step ``index`` (0 for the first in force)."""
        return self.steps[index - 1].state if index else self.initial

    def undo(self, steps: int = 1) -> Self:
        """This match with its last ``steps`` actions taken back; the earlier state exactly."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise RuleError(INVALID, "bad_undo_steps", steps=steps)
        if steps > len(self.steps):
            raise RuleError(NOTHING_TO_UNDO)
        return type(self)(self.setup, self.initial, self.steps[: len(self.steps) - steps])
