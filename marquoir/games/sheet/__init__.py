"""A score sheet for any game: rounds × players, for a game Marquoir has no rules for.

No Django, no I/O, no randomness here; an import-linter contract keeps it so.
"""

from marquoir.rules.errors import RuleError

from .engine import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_TARGET,
    MAX_TITLE_LENGTH,
    MIN_PLAYERS,
    MIN_SCORE,
    NO_ROUND,
    Action,
    End,
    Ended,
    EndReason,
    GameState,
    Options,
    Outcome,
    Round,
    RoundScored,
    Standing,
    apply,
    check_scores,
    leaders,
    new_game,
    standings,
    valid_title,
    winners,
)
from .match import Match, Setup, Step, fold

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_SCORE",
    "MAX_TARGET",
    "MAX_TITLE_LENGTH",
    "MIN_PLAYERS",
    "MIN_SCORE",
    "NO_ROUND",
    "Action",
    "End",
    "EndReason",
    "Ended",
    "GameState",
    "Match",
    "Options",
    "Outcome",
    "Round",
    "RoundScored",
    "RuleError",
    "Setup",
    "Standing",
    "Step",
    "apply",
    "check_scores",
    "fold",
    "leaders",
    "new_game",
    "standings",
    "valid_title",
    "winners",
]
