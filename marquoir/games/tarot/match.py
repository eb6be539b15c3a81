"""A match: its starting set-up plus the log of actions in force.

The state is never stored on its own: it is the fold of the actions over the set-up, so
a match can be replayed, undone step by step, audited and charted from its log alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from marquoir.rules.match import GameMatch
from marquoir.rules.match import Step as CommonStep

from .engine import Action, GameState, Options, Outcome, apply, new_game


@dataclass(frozen=True, slots=True)
class Setup:
    """What a match starts from: the number of players (3 to 5, seated in playing order),
    the first dealer, the table options. The names stay with the site's match."""

    player_count: int
    first: int = 0
    options: Options = Options()

    def initial_state(self) -> GameState:
        """The table before the first deal."""
        return new_game(self.player_count, self.first, self.options)


class Match(GameMatch[GameState, Action, Outcome]):
    """A Tarot match as a value: ``apply`` and ``undo`` return a new match, the old one stays valid."""

    rules = staticmethod(apply)


Step = CommonStep

# The state ``actions`` lead to from a set-up, keeping nothing else: the fast path.
fold = Match.fold
