"""A match of French Tarot (FFT rules) as pure functions over immutable values.

After each deal the table says what happened: a ``Deal`` played (scored by
``score_deal``, see scoring.py), a ``Pass`` when everyone passed, an ``End`` when the
players stop. ``apply`` keeps the totals, the dealer and the history of deals;
``standings``, ``leaders`` and ``winners`` read the score. The rules are
docs/rules-tarot.md; the names follow the API contract (docs/api-v1, "French Tarot").

Decisions the rules file leaves open, taken here:

- ``Options(deals=N)`` ends the game after N scored deals: a passed deal scores nothing
  and does not count (the API contract). The dealer passes on after every deal, passed or
  played, to the next player in playing order (the rules file).
- ``End`` needs a scored deal first: a match with no score has no result to keep (the
  score sheet's ``no_round`` likewise).
- Ranks are competition ranks (1, 1, 3); all tied best win (the rules file: equal totals
  share the win).
- A match records at most ``MAX_DEALS`` deals, passed ones included: a bound on the log
  and on every answer that carries the history.

Nothing here knows about Django, I/O, clocks or chance.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias, overload

from marquoir.rules.errors import INVALID, MATCH_OVER, RuleError
from marquoir.rules.standings import Standing as Standing  # the games export it as their own
from marquoir.rules.standings import rank_by_total, ranked_first
from marquoir.rules.values import is_whole_number

from .scoring import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Chelem,
    Contract,
    Deal,
    DealScore,
    Poignee,
    Points,
    Side,
    check_deal,
)

MAX_DEALS = 300
"""The most deals a match records (passed ones included), and the most ``Options.deals``."""

NO_DEAL = "no_deal"
"""Tarot's own refusal code: ``End`` with no scored deal."""


@dataclass(frozen=True, slots=True)
class Options:
    """The table options: ``deals`` ends the game after that many scored deals (None: on ``End``).

    An invalid value is refused as the options are made: ``RuleError(invalid, "bad_deals")``.
    """

    deals: int | None = None

    def __post_init__(self) -> None:
        if self.deals is not None and not (is_whole_number(self.deals) and 1 <= self.deals <= MAX_DEALS):
            raise RuleError(INVALID, "bad_deals", deals=self.deals, min=1, max=MAX_DEALS)


# Actions


@dataclass(frozen=True, slots=True)
class Pass:
    """Every player passed: nothing is scored, the next player deals."""


@dataclass(frozen=True, slots=True)
class End:
    """The players stop: the game ends on the totals as they stand."""


Action: TypeAlias = Deal | Pass | End


# The history a match keeps


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A scored deal in the match's history: what the table said, and what it scored.

    ``number`` counts every deal from 1, passed ones included; ``dealer`` dealt it.
    ``partner`` is as given (the taker's own index for a taker alone at 5, None at 3 and 4).
    """

    number: int
    dealer: int
    taker: int
    contract: Contract
    partner: int | None
    bouts: int
    points: Points
    petit_au_bout: Side | None
    poignees: tuple[Poignee, ...]
    chelem: Chelem | None
    score: DealScore

    @property
    def teammate(self) -> int | None:
        """The taker's partner, or None when the taker plays alone (always at 3 and 4)."""
        return None if self.partner == self.taker else self.partner

    @property
    def made(self) -> bool:
        """Whether the taker's side made its contract."""
        return self.score.made

    @property
    def scores(self) -> tuple[int, ...]:
        """What each player got from the deal."""
        return self.score.scores


@dataclass(frozen=True, slots=True)
class PassedDeal:
    """A deal everyone passed: ``dealer`` dealt it, it scored nothing."""

    number: int
    dealer: int
    scores: tuple[int, ...]


DealRecord: TypeAlias = PlayedDeal | PassedDeal


class EndReason(StrEnum):
    """Why the game ended."""

    DEALS = "deals"
    """The agreed number of scored deals was played."""
    DECLARED = "declared"
    """The players said so (``End``)."""


@dataclass(frozen=True, slots=True)
class GameState:
    """The score of a match: every deal in order, the totals, who deals next.

    ``totals[p]`` is the sum of ``deals[d].scores[p]``; ``dealer`` deals next; ``ended``
    says the players stopped with ``End`` (the deal count is read from ``deals``).
    """

    options: Options
    first_dealer: int
    dealer: int
    deals: tuple[DealRecord, ...]
    totals: tuple[int, ...]
    ended: bool = False

    @property
    def player_count(self) -> int:
        """3, 4 or 5."""
        return len(self.totals)

    @property
    def deal_count(self) -> int:
        """Deals recorded, passed ones included."""
        return len(self.deals)

    @property
    def played_count(self) -> int:
        """Scored deals: what ``Options.deals`` counts."""
        return sum(isinstance(deal, PlayedDeal) for deal in self.deals)

    @property
    def played(self) -> tuple[PlayedDeal, ...]:
        """The scored deals, in order: for stats (takers, contracts, made or not, by how much)."""
        return tuple(deal for deal in self.deals if isinstance(deal, PlayedDeal))

    @property
    def current(self) -> None:
        """No one in particular acts next: any player may report the deal."""
        return None

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game is over, or None while it goes on."""
        if self.options.deals is not None and self.played_count >= self.options.deals:
            return EndReason.DEALS
        if self.ended:
            return EndReason.DECLARED
        return None

    @property
    def over(self) -> bool:
        """Whether the game has ended: the agreed deals played, or ``End`` recorded."""
        return self.end_reason is not None

    def player_scores(self, player: int) -> tuple[int, ...]:
        """``player``'s score from each deal, in order (0 for a passed one)."""
        return tuple(deal.scores[player] for deal in self.deals)

    def totals_by_deal(self) -> tuple[tuple[int, ...], ...]:
        """The totals before any deal and after each one: the points of a chart."""
        return tuple(_running_totals(self))

    def total(self, player: int) -> int:
        """``player``'s score: the sum of their deals."""
        return self.totals[player]


def _running_totals(state: GameState) -> Iterator[tuple[int, ...]]:
    totals = (0,) * state.player_count
    yield totals
    for deal in state.deals:
        totals = tuple(total + score for total, score in zip(totals, deal.scores, strict=True))
        yield totals


# Outcomes: the account of each action


@dataclass(frozen=True, slots=True)
class DealScored:
    """The account of a played deal: the deal with its score, the totals and leaders after it."""

    deal: PlayedDeal
    totals: tuple[int, ...]
    leaders: tuple[int, ...]
    game_over: bool
    end_reason: EndReason | None

    def score_changes(self) -> dict[int, int]:
        """Points gained (+) or lost (−) by each player whose total changed."""
        return {player: score for player, score in enumerate(self.deal.scores) if score}


@dataclass(frozen=True, slots=True)
class DealPassed:
    """The account of a passed deal: who dealt it and who deals next; no total changes."""

    deal: PassedDeal
    next_dealer: int
    totals: tuple[int, ...]
    game_over: bool = False
    end_reason: EndReason | None = None

    def score_changes(self) -> dict[int, int]:
        """No total changes when everyone passed."""
        return {}


@dataclass(frozen=True, slots=True)
class Ended:
    """The account of an ``End``: after how many scored deals, on which totals, who won."""

    played: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    game_over: bool = True
    end_reason: EndReason = EndReason.DECLARED

    def score_changes(self) -> dict[int, int]:
        """No total changes when the players stop."""
        return {}


Outcome: TypeAlias = DealScored | DealPassed | Ended


# The rules


def new_game(player_count: int, first: int = 0, options: Options | None = None) -> GameState:
    """A new match for ``player_count`` players (3 to 5) seated in playing order; ``first`` deals first."""
    if not is_whole_number(player_count) or not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise RuleError(INVALID, "player_count", count=player_count, min=MIN_PLAYERS, max=MAX_PLAYERS)
    if not is_whole_number(first) or not 0 <= first < player_count:
        raise RuleError(INVALID, "first_dealer", first=first)
    if options is not None and not isinstance(options, Options):
        raise RuleError(INVALID, "bad_options")
    return GameState(options or Options(), first, first, (), (0,) * player_count)


@overload
def apply(state: GameState, action: Deal) -> tuple[GameState, DealScored]: ...
@overload
def apply(state: GameState, action: Pass) -> tuple[GameState, DealPassed]: ...
@overload
def apply(state: GameState, action: End) -> tuple[GameState, Ended]: ...
@overload
def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]: ...


def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]:
    """Record ``action``; the new state and an account of what happened.

    Raises ``RuleError`` (the state is a value, so it is left as it was): ``match_over``
    for any action after the end, ``no_deal`` for an ``End`` before any scored deal,
    ``invalid`` with a ``reason`` for a deal the rules or the cards make impossible (see
    ``check_deal``), ``too_many_deals`` past ``MAX_DEALS``, ``unknown_action``.
    """
    if state.over:
        raise RuleError(MATCH_OVER)
    if isinstance(action, Deal):
        return _play(state, action)
    if isinstance(action, Pass):
        return _pass(state)
    if isinstance(action, End):
        return _end(state)
    raise RuleError(INVALID, "unknown_action")


def _next_dealer(state: GameState) -> int:
    # Players sit in playing order, and the deal passes on in that order.
    return (state.dealer + 1) % state.player_count


def _check_room(state: GameState) -> None:
    if len(state.deals) >= MAX_DEALS:
        raise RuleError(INVALID, "too_many_deals", max=MAX_DEALS)


def _play(state: GameState, action: Deal) -> tuple[GameState, DealScored]:
    _check_room(state)
    checked = check_deal(action, state.player_count)
    deal = PlayedDeal(
        number=len(state.deals) + 1,
        dealer=state.dealer,
        taker=checked.taker,
        contract=checked.contract,
        partner=checked.partner,
        bouts=checked.bouts,
        points=checked.points,
        petit_au_bout=checked.petit_au_bout,
        poignees=checked.poignees,
        chelem=checked.chelem,
        score=checked.score,
    )
    totals = tuple(total + score for total, score in zip(state.totals, deal.scores, strict=True))
    new_state = GameState(state.options, state.first_dealer, _next_dealer(state), (*state.deals, deal), totals)
    reason = new_state.end_reason
    return new_state, DealScored(deal, totals, leaders(new_state), reason is not None, reason)


def _pass(state: GameState) -> tuple[GameState, DealPassed]:
    _check_room(state)
    deal = PassedDeal(len(state.deals) + 1, state.dealer, (0,) * state.player_count)
    dealer = _next_dealer(state)
    new_state = GameState(state.options, state.first_dealer, dealer, (*state.deals, deal), state.totals)
    return new_state, DealPassed(deal, dealer, state.totals)


def _end(state: GameState) -> tuple[GameState, Ended]:
    if not state.played_count:
        raise RuleError(NO_DEAL)
    new_state = GameState(state.options, state.first_dealer, state.dealer, state.deals, state.totals, ended=True)
    return new_state, Ended(new_state.played_count, new_state.totals, winners(new_state))


# Reading the score


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players best first (highest total), ties in seating order.

    Tied players share the rank, and the next rank skips past them (1, 1, 3).
    """
    return rank_by_total(state.totals)


def leaders(state: GameState) -> tuple[int, ...]:
    """The players ranked first now, in seating order (everyone before a deal)."""
    return ranked_first(standings(state))


def winners(state: GameState) -> tuple[int, ...]:
    """The winning players, in seating order, once the game is over; empty before.

    Equal best totals share the win.
    """
    return leaders(state) if state.over else ()
