"""What every game's rules share: refusals with the API's codes, and a match as its set-up
plus the log of actions in force. Pure Python, like every engine: no Django, no I/O."""

from .errors import INVALID, MATCH_OVER, NOTHING_TO_UNDO, RuleError
from .match import GameMatch, Step
from .standings import Standing, rank_by_total, ranked_first
from .values import is_whole_number

__all__ = [
    "INVALID",
    "MATCH_OVER",
    "NOTHING_TO_UNDO",
    "GameMatch",
    "RuleError",
    "Standing",
    "Step",
    "is_whole_number",
    "rank_by_total",
    "ranked_first",
]
