"""A score sheet for any game: rounds × players. Its rules are its game file
(``sheet.toml``: the options, the scores' bounds, the end and the ranking), played by the
declared games' engine (``marquoir.games.declared``); this module is the sheet's own API on
top of it, as the JSON API and the stored matches know it: ``Round(scores)`` and ``End``,
its state's rows and totals, and its own refusals (``bad_title``, ``score_range``…).

What the file says: each round gives every player one whole number (negative allowed, up to
±100 000), totals add up, and the game ends after the round in which a total reaches
``target``, after ``rounds`` rounds, or when the players say so with ``End``, whichever
comes first. The best total wins, the lowest one if ``lowest_wins``; ties share the rank
(1, 1, 3), and all tied best win.

Decisions the contract leaves open, taken here:

- ``End`` before any round is refused with ``no_round``: a sheet with no score on it
  has no result to keep (Tarot's ``end`` likewise needs a deal first). ``End`` once the
  target or the round count has ended the game is ``match_over``, like any action.
- ``target`` is a positive total: the game ends once a total is at or above it, for a
  highest-wins game (first to 10 000) as for a lowest-wins one (Skyjo, Hearts: out at 100).
  With both ``target`` and ``rounds`` set, whichever is met first ends the game.
- ``title`` is a text option of the file: 1 to 60 characters, not blank, no whitespace at
  either end, no control characters (it is one line on the table screen); the site trims it.

Nothing here knows about Django, I/O, clocks or chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any, TypeAlias, overload

from marquoir.games.declared import engine as declared
from marquoir.games.declared.game import load_game
from marquoir.rules.errors import INVALID, MATCH_OVER, RuleError
from marquoir.rules.standings import Standing as Standing  # the games export it as their own
from marquoir.rules.values import is_whole_number

SHEET_FILE = Path(__file__).with_name("sheet.toml")
SHEET = load_game(SHEET_FILE)
"""The sheet's game file, compiled once."""

_OPTIONS = {option.key: option for option in SHEET.file.options}
_SCORES = next(item for item in SHEET.file.inputs if item.key == "scores")

MIN_PLAYERS, MAX_PLAYERS = SHEET.file.box.players
MIN_SCORE: int = _SCORES.min  # type: ignore[assignment]
MAX_SCORE: int = _SCORES.max  # type: ignore[assignment]
MAX_TITLE_LENGTH = _OPTIONS["title"].max_length
MAX_TARGET: int = _OPTIONS["target"].max  # type: ignore[assignment]
# A match's log keeps each round, and each answer the whole sheet: a bound on both.
MAX_ROUNDS = min(_OPTIONS["rounds"].max or declared.MAX_ROUNDS, declared.MAX_ROUNDS)

NO_ROUND = "no_round"
"""The sheet's own refusal code: ``End`` with no round recorded."""


@dataclass(frozen=True, slots=True)
class Options:
    """The sheet's table options; all off by default (no title, highest wins, ends on ``End``).

    An invalid value is refused as the options are made, by the file's bounds:
    ``RuleError(invalid, reason)`` with ``bad_title``, ``bad_lowest_wins``, ``bad_target`` or
    ``bad_rounds``.
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
        self.for_the_file()

    def for_the_file(self) -> dict[str, Any]:
        """The options as the game file's engine holds them (``resolve_options``), each
        checked by the file; a refusal is worded as the sheet's."""
        given = {"title": self.title, "lowest_wins": self.lowest_wins, "target": self.target, "rounds": self.rounds}
        try:
            return declared.resolve_options(SHEET, MIN_PLAYERS, given)
        except RuleError as error:
            key = str(error.params.get("option", ""))
            bounds = {"min": _OPTIONS[key].min, "max": _OPTIONS[key].max} if key in ("target", "rounds") else {}
            raise RuleError(INVALID, f"bad_{key}", **{key: given.get(key)}, **bounds) from None


def valid_title(title: object) -> bool:
    """Whether ``title`` may name a sheet: a trimmed line of 1 to 60 characters, not blank."""
    return declared.is_one_line(title, MAX_TITLE_LENGTH)


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


@dataclass(frozen=True)
class GameState:
    """The whole sheet: every round's scores (one row per round), the totals, who started;
    ``played`` is the game file's match, which holds them all (the rows are read from it).

    ``totals[p]`` is the sum of ``rounds[r][p]`` over the rounds; ``ended`` says the
    players stopped with ``End`` (the target and the round count are read from the rest).
    """

    options: Options
    played: declared.GameState

    @property
    def first(self) -> int:
        return self.played.first

    @cached_property
    def rounds(self) -> tuple[tuple[int, ...], ...]:
        """Each round's scores, in order (a row per round)."""
        return tuple(scored.points for scored in self.played.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        return self.played.totals

    @property
    def ended(self) -> bool:
        return self.played.ended

    @property
    def player_count(self) -> int:
        """How many players the sheet has a column for."""
        return self.played.player_count

    @property
    def round_count(self) -> int:
        """How many rounds are recorded."""
        return len(self.played.rounds)

    @property
    def current(self) -> None:
        """No one in particular acts next on a sheet: any player may write the round."""
        return None

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game is over, or None while it goes on."""
        reason = self.played.end_reason
        return EndReason(reason) if reason is not None else None

    @property
    def over(self) -> bool:
        """Whether the game has ended: target reached, rounds played, or ``End`` recorded."""
        return self.played.over

    def player_rounds(self, player: int) -> tuple[int, ...]:
        """``player``'s score in each round, in order."""
        return self.played.player_rounds(player)

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
    options = options or Options()
    played = declared.Setup(SHEET, player_count, first, options.for_the_file()).initial_state()
    return GameState(options, played)


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
    float is refused), ``score_count`` (not one per player), ``score_range`` (beyond the
    file's bounds, ±100 000). The file's engine checks them again as it plays the round.
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
    if len(state.played.rounds) >= MAX_ROUNDS:
        raise RuleError(INVALID, "too_many_rounds", max=MAX_ROUNDS)
    scores = check_scores(action.scores, state.player_count)
    played, _scored = declared.apply(state.played, declared.Round({"scores": list(scores)}))
    new_state = GameState(state.options, played)
    reason = new_state.end_reason
    number = new_state.round_count
    return new_state, RoundScored(number, scores, played.totals, leaders(new_state), reason is not None, reason)


def _end(state: GameState) -> tuple[GameState, Ended]:
    if not state.played.rounds:
        raise RuleError(NO_ROUND)
    played, _ended = declared.apply(state.played, declared.End())
    new_state = GameState(state.options, played)
    return new_state, Ended(new_state.round_count, new_state.totals, winners(new_state))


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players best first (highest total, or lowest if ``lowest_wins``), ties in seating order.

    Tied players share the rank, and the next rank skips past them (1, 1, 3).
    """
    return declared.standings(state.played)


def leaders(state: GameState) -> tuple[int, ...]:
    """The players ranked first now, in seating order: who leads (everyone before a round)."""
    return declared.leaders(state.played)


def winners(state: GameState) -> tuple[int, ...]:
    """The winning players, in seating order, once the game is over; empty before."""
    return declared.winners(state.played)
