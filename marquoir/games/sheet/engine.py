"""A score sheet for any game: rounds × players, as pure functions over immutable values.

For a game Marquoir has no rules for, the sheet knows only what every such game shares:
each round gives every player one integer score (negative allowed), totals add up, and
the game ends after the round in which a total reaches ``target``, after ``rounds``
rounds, or when the players say so with ``End``, whichever comes first. The best total
wins, the lowest one if ``lowest_wins``; ties share the rank, and all tied best win.

Decisions the contract leaves open, taken here:

- ``End`` before any round is refused with ``no_round``: a sheet with no score on it
  has no result to keep (Tarot's ``end`` likewise needs a deal first). ``End`` once the
  target or the round count has ended the game is ``match_over``, like any action.
- ``target`` is a positive total: the game ends once a total is at or above it, for a
  highest-wins game (first to 10 000) as for a lowest-wins one (Skyjo, Hearts: out at 100).
  With both ``target`` and ``rounds`` set, whichever is met first ends the game.
- Ranks are competition ranks (1, 1, 3): tied players share the better rank and the next
  rank skips as many places as players tied.
- ``title`` is taken as given, so the site trims it first: 1 to 60 characters, not blank,
  no whitespace at either end, no control characters (it is one line on the table screen).

Nothing here knows about Django, I/O, clocks or chance.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias, overload

from marquoir.rules.errors import INVALID, MATCH_OVER, RuleError
from marquoir.rules.standings import Standing as Standing  # the games export it as their own
from marquoir.rules.standings import rank_by_total, ranked_first
from marquoir.rules.values import is_whole_number

MIN_PLAYERS = 1
MAX_PLAYERS = 20
MIN_SCORE = -100_000
MAX_SCORE = 100_000
MAX_TITLE_LENGTH = 60
MAX_TARGET = 10_000_000
# A match's log keeps each round, and each answer the whole sheet: a bound on both.
MAX_ROUNDS = 200

NO_ROUND = "no_round"
"""The sheet's own refusal code: ``End`` with no round recorded."""


@dataclass(frozen=True, slots=True)
class Options:
    """The sheet's table options; all off by default (no title, highest wins, ends on ``End``).

    An invalid value is refused as the options are made: ``RuleError(invalid, reason)``
    with ``bad_title``, ``bad_lowest_wins``, ``bad_target`` or ``bad_rounds``.
    """

    title: str | None = None
    """The game's name on the sheet ("Skyjo"), or None."""
    lowest_wins: bool = False
    """The lowest total wins instead of the highest."""
    target: int | None = None
    """The game ends after the round in which a total reaches or passes it (1 or more)."""
    rounds: int | None = None
    """The game ends after this many rounds (1 or more)."""

    def __post_init__(self) -> None:
        if self.title is not None and not valid_title(self.title):
            raise RuleError(INVALID, "bad_title", title=self.title)
        if not isinstance(self.lowest_wins, bool):
            raise RuleError(INVALID, "bad_lowest_wins", lowest_wins=self.lowest_wins)
        if self.target is not None and not (is_whole_number(self.target) and 1 <= self.target <= MAX_TARGET):
            raise RuleError(INVALID, "bad_target", target=self.target, min=1, max=MAX_TARGET)
        if self.rounds is not None and not (is_whole_number(self.rounds) and 1 <= self.rounds <= MAX_ROUNDS):
            raise RuleError(INVALID, "bad_rounds", rounds=self.rounds, min=1, max=MAX_ROUNDS)


def valid_title(title: object) -> bool:
    """Whether ``title`` may name a sheet: a trimmed line of 1 to 60 characters, not blank."""
    return (
        isinstance(title, str)
        and 1 <= len(title) <= MAX_TITLE_LENGTH
        and title == title.strip()
        and not any(unicodedata.category(char) == "Cc" for char in title)
    )


class EndReason(StrEnum):
    """Why the game ended."""

    TARGET = "target"
    """A total reached or passed the target (said first when the last round was due too)."""
    ROUNDS = "rounds"
    """The set number of rounds was played."""
    DECLARED = "declared"
    """The players said so (``End``)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One round: the score of each player, in seating order (negative allowed)."""

    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class End:
    """The players stop: the game ends on the totals as they stand."""


Action: TypeAlias = Round | End


@dataclass(frozen=True, slots=True)
class RoundScored:
    """The account of a round: its number (1 for the first), the scores, the totals after it.

    ``leaders`` are the players ranked first after it (the winners if it ended the game).
    """

    number: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    leaders: tuple[int, ...]
    game_over: bool
    end_reason: EndReason | None

    def score_changes(self) -> dict[int, int]:
        """Points gained (+) or lost (−) by each player whose total changed."""
        return {player: score for player, score in enumerate(self.scores) if score}


@dataclass(frozen=True, slots=True)
class Ended:
    """The account of an ``End``: after how many rounds, on which totals, who won."""

    rounds: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    game_over: bool = True
    end_reason: EndReason = EndReason.DECLARED

    def score_changes(self) -> dict[int, int]:
        """No total changes when the players stop."""
        return {}


Outcome: TypeAlias = RoundScored | Ended


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole sheet: every round's scores (one row per round), the totals, who started.

    ``totals[p]`` is the sum of ``rounds[r][p]`` over the rounds; ``ended`` says the
    players stopped with ``End`` (the target and the round count are read from the rest).
    """

    options: Options
    first: int
    rounds: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    ended: bool = False

    @property
    def player_count(self) -> int:
        """How many players the sheet has a column for."""
        return len(self.totals)

    @property
    def round_count(self) -> int:
        """How many rounds are recorded."""
        return len(self.rounds)

    @property
    def current(self) -> None:
        """No one in particular acts next on a sheet: any player may write the round."""
        return None

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game is over, or None while it goes on."""
        target, rounds = self.options.target, self.options.rounds
        if target is not None and any(total >= target for total in self.totals):
            return EndReason.TARGET
        if rounds is not None and len(self.rounds) >= rounds:
            return EndReason.ROUNDS
        if self.ended:
            return EndReason.DECLARED
        return None

    @property
    def over(self) -> bool:
        """Whether the game has ended: target reached, rounds played, or ``End`` recorded."""
        return self.end_reason is not None

    def player_rounds(self, player: int) -> tuple[int, ...]:
        """``player``'s score in each round, in order."""
        return tuple(row[player] for row in self.rounds)

    def total(self, player: int) -> int:
        """``player``'s score: the sum of their rounds."""
        return self.totals[player]


def new_game(player_count: int, first: int = 0, options: Options | None = None) -> GameState:
    """A blank sheet for ``player_count`` players (1 to 20); ``first`` starts (shown only)."""
    if not is_whole_number(player_count) or not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise RuleError(INVALID, "player_count", count=player_count, min=MIN_PLAYERS, max=MAX_PLAYERS)
    if not is_whole_number(first) or not 0 <= first < player_count:
        raise RuleError(INVALID, "first_player", first=first)
    if options is not None and not isinstance(options, Options):
        raise RuleError(INVALID, "bad_options")
    return GameState(options=options or Options(), first=first, rounds=(), totals=(0,) * player_count)


@overload
def apply(state: GameState, action: Round) -> tuple[GameState, RoundScored]: ...
@overload
def apply(state: GameState, action: End) -> tuple[GameState, Ended]: ...
@overload
def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]: ...


def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]:
    """Record ``action`` on the sheet; the new state and an account of what happened.

    Raises ``RuleError`` (the state is a value, so it is left as it was) when the rules
    forbid it: ``match_over`` after the end, ``no_round`` for an ``End`` before any round,
    ``invalid`` for scores that are not one integer per player within ±100 000.
    """
    if state.over:
        raise RuleError(MATCH_OVER)
    if isinstance(action, Round):
        return _round(state, action)
    if isinstance(action, End):
        return _end(state)
    raise RuleError(INVALID, "unknown_action")


def check_scores(scores: object, player_count: int) -> tuple[int, ...]:
    """``scores`` if they are a round's scores for ``player_count`` players, else ``RuleError``.

    Reasons: ``bad_scores`` (not a tuple, or a score that is not an integer: a bool or a
    float is refused), ``score_count`` (not one per player), ``score_range`` (beyond ±100 000).
    """
    if not isinstance(scores, tuple):
        raise RuleError(INVALID, "bad_scores", scores=scores)
    if len(scores) != player_count:
        raise RuleError(INVALID, "score_count", count=len(scores), expected=player_count)
    for player, score in enumerate(scores):
        if not is_whole_number(score):
            raise RuleError(INVALID, "bad_scores", player=player, score=score)
    for player, score in enumerate(scores):
        if not MIN_SCORE <= score <= MAX_SCORE:
            raise RuleError(INVALID, "score_range", player=player, score=score, min=MIN_SCORE, max=MAX_SCORE)
    return scores


def _round(state: GameState, action: Round) -> tuple[GameState, RoundScored]:
    if len(state.rounds) >= MAX_ROUNDS:
        raise RuleError(INVALID, "too_many_rounds", max=MAX_ROUNDS)
    scores = check_scores(action.scores, state.player_count)
    totals = tuple(total + score for total, score in zip(state.totals, scores, strict=True))
    new_state = GameState(state.options, state.first, (*state.rounds, scores), totals)
    reason = new_state.end_reason
    return new_state, RoundScored(len(new_state.rounds), scores, totals, leaders(new_state), reason is not None, reason)


def _end(state: GameState) -> tuple[GameState, Ended]:
    if not state.rounds:
        raise RuleError(NO_ROUND)
    new_state = GameState(state.options, state.first, state.rounds, state.totals, ended=True)
    return new_state, Ended(len(new_state.rounds), new_state.totals, winners(new_state))


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players best first (highest total, or lowest if ``lowest_wins``), ties in seating order.

    Tied players share the rank, and the next rank skips past them (1, 1, 3).
    """
    return rank_by_total(state.totals, lowest_wins=state.options.lowest_wins)


def leaders(state: GameState) -> tuple[int, ...]:
    """The players ranked first now, in seating order: who leads (everyone before a round)."""
    return ranked_first(standings(state))


def winners(state: GameState) -> tuple[int, ...]:
    """The winning players, in seating order, once the game is over; empty before."""
    return leaders(state) if state.over else ()
