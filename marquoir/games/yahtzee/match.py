"""A match: its starting set-up plus the log of actions in force.

The state is never stored on its own: it is the fold of the actions over the set-up, so
a match can be replayed, undone step by step, audited and charted from its log alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from marquoir.rules.errors import INVALID, RuleError
from marquoir.rules.match import GameMatch
from marquoir.rules.match import Step as CommonStep

from .engine import MAX_PLAYERS, MIN_PLAYERS, Action, GameState, Options, Outcome, apply, new_game


@dataclass(frozen=True, slots=True)
class Setup:
    """What a match starts from: the players' names in seating order (1 to 8), the index of
    the player who plays first, the table options.

    The site cleans the names (trimmed, 1 to 40 characters, unique ignoring case); here
    they are only checked to be distinct non-empty strings. Refused as the set-up is
    made: ``RuleError(invalid)`` with ``bad_players``, ``player_count``, ``name_twice``,
    ``first_player`` or ``bad_options``.
    """

    players: tuple[str, ...]
    first: int = 0
    options: Options = Options()

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, tuple) or not all(isinstance(name, str) and name for name in players):
            raise RuleError(INVALID, "bad_players")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RuleError(INVALID, "player_count", count=len(players), least=MIN_PLAYERS, most=MAX_PLAYERS)
        if len({name.casefold() for name in players}) != len(players):
            raise RuleError(INVALID, "name_twice")
        new_game(len(players), self.first, self.options)  # checks ``first`` and ``options``

    @property
    def player_count(self) -> int:
        """How many players sit at the table."""
        return len(self.players)

    def initial_state(self) -> GameState:
        """Blank sheets, before the first turn."""
        return new_game(len(self.players), self.first, self.options)


class YahtzeeMatch(GameMatch[GameState, Action, Outcome]):
    """A Yahtzee match as a value: ``apply`` and ``undo`` return a new match, the old one stays valid."""

    rules = staticmethod(apply)


Match = YahtzeeMatch
Step = CommonStep

# The state ``actions`` lead to from a set-up, keeping nothing else: the fast path.
fold = YahtzeeMatch.fold
