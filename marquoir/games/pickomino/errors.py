"""Pickomino's rule errors: the codes of its refusals (the API contract lists them).

``RuleError`` and the codes every game shares live in ``marquoir.rules``.
"""

from __future__ import annotations

from marquoir.rules.errors import INVALID, MATCH_OVER, NOTHING_TO_UNDO, RuleError

NO_WORM = "no_worm"
NOTHING_TO_TAKE = "nothing_to_take"
NOT_STEALABLE = "not_stealable"

__all__ = ["INVALID", "MATCH_OVER", "NOTHING_TO_TAKE", "NOTHING_TO_UNDO", "NOT_STEALABLE", "NO_WORM", "RuleError"]
