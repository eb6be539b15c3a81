"""Rule errors: every refusal carries a code from the API contract and its parameters.

An engine never words a message for people: the site turns ``code``, ``reason`` and
``params`` into a sentence in the reader's language. ``str()`` gives an English line for logs.
"""

from __future__ import annotations

from typing import Any

# Codes every game shares with the API contract (docs/api-v1); a game adds its own.
INVALID = "invalid"
MATCH_OVER = "match_over"
NOTHING_TO_UNDO = "nothing_to_undo"


class RuleError(Exception):
    """An action the rules forbid; the state it was tried on is unchanged.

    ``code`` is the API error code; ``reason`` narrows it down (for example which dice
    rule was broken) so the site can say precisely what went wrong.
    """

    correction_step: int | None = None
    """Set by ``GameMatch.correct``: the step a corrected history broke at."""

    def __init__(self, code: str, reason: str | None = None, **params: Any) -> None:
        self.code = code
        self.reason = reason or code
        self.params = params
        details = ", ".join(f"{key}={value!r}" for key, value in sorted(params.items()))
        super().__init__(f"{self.reason}" + (f" ({details})" if details else ""))
