"""What a request to a match comes to: a refusal (``ServiceError``), or an ``Outcome`` of an
action: applied, replayed (a retried ``action_id``, answered with its first answer), or
refused with the rule's error and the inputs it is about.

A refusal carries its code, its reason and the details to word it, nothing of who reads it:
the door that answers (a page, the API) words it with the match the ``Outcome`` holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from marquoir.rules import RuleError

from .fold import MatchView

if TYPE_CHECKING:
    from .keepers import ScoreKeeper
    from .models import LogEntry


class ServiceError(Exception):
    """A refused request, with the API's code and the details to word the message."""

    def __init__(self, code: str, reason: str | None = None, **params: Any) -> None:
        self.code = code
        self.reason = reason or code
        self.params = params
        super().__init__(self.reason)

    @classmethod
    def from_rule(cls, error: RuleError) -> ServiceError:
        return cls(error.code, error.reason, **error.params)


class GameRefusal(ServiceError):
    """A refusal the match's game words its own way: by its rules, its action schemas, its
    names and options (``rule``: the game's error, when a rule said it). A page words every
    refusal with the game's words; the API words only these so."""

    rule: RuleError | None = None

    @classmethod
    def from_rule(cls, error: RuleError) -> GameRefusal:
        refusal = cls(error.code, error.reason, **error.params)
        refusal.rule = error
        return refusal


class Status(Enum):
    APPLIED = "applied"
    REPLAYED = "replayed"
    REFUSED = "refused"


@dataclass(frozen=True)
class Outcome:
    """What an action request came to.

    ``view``: the match after the action (applied), or as it stands (replayed, refused),
    when it was found. ``entry`` and ``state``: the log entry and the State answered
    (applied, replayed; ``answer`` makes the State). ``error``: the refusal; ``refused_fields``: the names of the inputs
    it is about, when the game says so (a form's ``score_2``, a body's ``total``), so that a
    screen can mark them without reading the request again. ``retry_after``: seconds to
    wait, for a refusal of the action budget.
    """

    status: Status
    keeper: ScoreKeeper | None = None
    view: MatchView | None = None
    entry: LogEntry | None = None
    error: ServiceError | None = None
    refused_fields: tuple[str, ...] = field(default=())
    retry_after: int | None = None
    answer: Callable[[], dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def state(self) -> dict[str, Any] | None:
        """The State answered (applied, replayed), made when first asked for: a page that
        only redirects never makes it."""
        return self.answer() if self.answer is not None else None

    @property
    def rule_error(self) -> RuleError | None:
        """The game's own error, when its rules refused the action."""
        return self.error.rule if isinstance(self.error, GameRefusal) else None

    @property
    def words_of_game(self) -> bool:
        """Whether the refusal is one the game words its own way (see ``GameRefusal``)."""
        return isinstance(self.error, GameRefusal)

    @property
    def applied(self) -> bool:
        return self.status is Status.APPLIED

    @property
    def replayed(self) -> bool:
        return self.status is Status.REPLAYED

    @property
    def refused(self) -> bool:
        return self.status is Status.REFUSED

    @property
    def players(self) -> list[str]:
        """The match's seats, to name them in a refusal (none if no match was found)."""
        return self.view.players if self.view is not None else []

    def or_raise(self) -> Accepted:
        """The action applied or replayed, with what it answered; its ``ServiceError`` if
        refused (for callers that play actions known to be legal: tests, benchmarks)."""
        if self.error is not None:
            raise self.error
        if self.keeper is None or self.view is None or self.entry is None or self.state is None:
            raise ValueError(f"an outcome {self.status.value} without its match: {self!r}")
        return Accepted(self.keeper, self.view, self.entry, self.state, replayed=self.replayed)


@dataclass(frozen=True)
class Accepted:
    """An action applied or replayed (``Outcome.or_raise``): the match after it, its entry,
    the State answered."""

    keeper: ScoreKeeper
    view: MatchView
    entry: LogEntry
    state: dict[str, Any]
    replayed: bool = False

    @property
    def applied(self) -> bool:
        return not self.replayed


def refused(
    error: ServiceError,
    *,
    keeper: ScoreKeeper | None = None,
    view: MatchView | None = None,
    retry_after: int | None = None,
) -> Outcome:
    """The outcome of a refusal, with the inputs it names (``refused_fields``)."""
    return Outcome(
        Status.REFUSED,
        keeper,
        view,
        error=error,
        refused_fields=refused_fields(error, keeper),
        retry_after=retry_after,
    )


def refused_fields(error: ServiceError, keeper: ScoreKeeper | None = None) -> tuple[str, ...]:
    """The inputs a refusal is about, as the match's game names them (``Keeper.refused_fields``:
    by default the field its action's schema named); with no game, the field named, if any."""
    if keeper is not None:
        return tuple(keeper.refused_fields(error.code, error.reason, error.params))
    named = error.params.get("field")
    return (named,) if isinstance(named, str) and named else ()
