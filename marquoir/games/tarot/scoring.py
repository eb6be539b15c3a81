"""What one deal of French Tarot scores (FFT rules), as pure functions over immutable values.

The table reports a played deal (``Deal``): the taker, the contract, the partner at 5
players, the bouts and card points of the taker's side, the Petit au bout, the handfuls,
the chelem. ``score_deal`` checks it and works out each player's score with the numbers
behind it (``DealScore``). The rules are docs/rules-tarot.md; the names follow the API
contract (docs/api-v1, "French Tarot").

Decisions the rules file leaves open, taken here:

- Points are counted in halves (the API says so; at 3 and 5 players a side may hold an odd
  number of cards). A half point goes to the side that wins the deal, as the FFT rulebook
  says for 3 and 5 players: 40.5 with 2 bouts fails by 1, 41.5 makes it by 1. Whether the
  contract is made is read on the points as counted (40.5 < 41 fails).
- At 5 players the partner is required; the taker's own index means the taker plays alone
  (the rules file: a taker holding the called king, or finding it in the dog, plays alone).
  At 3 and 4 players there is no partner, and one given is refused.
- The points may be given for the defence instead (``defence_points``): the taker's side
  then has 91 − x. ``bouts`` is always the taker's side's.
- Input the cards make impossible is refused, not scored: fewer points than the bouts held
  (4.5 each) or more than 91 less the bouts not held; the Petit au bout for a side that
  holds no Petit (the taker's side with 0 bouts, the defence when the taker has all 3);
  more handfuls on a side than it has players, or handfuls showing more than the deck's 22
  trumps; a chelem made (every trick to the taker's side) with the contract failed, or
  with the defence taking the last trick with the Petit.
- Contracts, sides, sizes and chelems may be given as their keys ("garde"), as the API
  sends them; the deal is recorded with the enums.

Nothing here knows about Django, I/O, clocks or chance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TypeAlias, TypeVar

from marquoir.rules.errors import INVALID, RuleError
from marquoir.rules.values import is_whole_number

MIN_PLAYERS = 3
MAX_PLAYERS = 5
CARD_POINTS = 91
"""The card points in the deck, shared between the taker's side and the defence."""
BOUT_POINTS = 4.5
"""What one bout counts (the Petit, the 21, the Excuse)."""
BOUTS = 3
TRUMPS = 22
"""The 21 trumps and the Excuse: the most a handful, or all handfuls together, may show."""
BASE = 25
"""The contract's arbitrary value, added to the gap before the multiplier."""
PETIT_AU_BOUT = 10
"""The Petit au bout bonus, before the multiplier."""

Points: TypeAlias = int | float
"""Card points, whole or in halves (47, 40.5)."""

# What the taker's side needs by the number of bouts it holds: 0, 1, 2, 3.
_NEEDED = (56, 51, 41, 36)


class Contract(StrEnum):
    """The taker's contract, lowest to highest, with its multiplier."""

    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def multiplier(self) -> int:
        """×1, ×2, ×4, ×6."""
        return _MULTIPLIERS[self]


_MULTIPLIERS = {Contract.PETITE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}


class Side(StrEnum):
    """One of the two sides of a deal: the taker's (with the partner at 5) or the defence."""

    TAKER = "taker"
    DEFENCE = "defence"


class PoigneeSize(StrEnum):
    """A handful's size: its bonus, and the trumps it shows by the number of players."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def bonus(self) -> int:
        """20, 30 or 40, to the side that wins the deal."""
        return _POIGNEE_BONUSES[self]

    def trumps(self, player_count: int) -> int:
        """The trumps it shows: 13/15/18 at 3 players, 10/13/15 at 4, 8/10/13 at 5."""
        return _POIGNEE_TRUMPS[player_count][self]


_POIGNEE_BONUSES = {PoigneeSize.SIMPLE: 20, PoigneeSize.DOUBLE: 30, PoigneeSize.TRIPLE: 40}
_POIGNEE_TRUMPS = {
    3: {PoigneeSize.SIMPLE: 13, PoigneeSize.DOUBLE: 15, PoigneeSize.TRIPLE: 18},
    4: {PoigneeSize.SIMPLE: 10, PoigneeSize.DOUBLE: 13, PoigneeSize.TRIPLE: 15},
    5: {PoigneeSize.SIMPLE: 8, PoigneeSize.DOUBLE: 10, PoigneeSize.TRIPLE: 13},
}


class Chelem(StrEnum):
    """Every trick to the taker's side, announced or not, or announced and failed."""

    ANNOUNCED_MADE = "announced_made"
    MADE = "made"
    """Made without announcing it."""
    ANNOUNCED_FAILED = "announced_failed"

    @property
    def bonus(self) -> int:
        """+400, +200 or −200 per defender, whatever the contract."""
        return _CHELEM_BONUSES[self]

    @property
    def made(self) -> bool:
        """Whether the taker's side took every trick."""
        return self is not Chelem.ANNOUNCED_FAILED


_CHELEM_BONUSES = {Chelem.ANNOUNCED_MADE: 400, Chelem.MADE: 200, Chelem.ANNOUNCED_FAILED: -200}


@dataclass(frozen=True, slots=True)
class Poignee:
    """A handful shown: by which side (the partner's counts for the taker's), and its size."""

    side: Side
    size: PoigneeSize


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """A played deal, as the table reports it.

    ``taker`` and ``partner`` are player indexes; ``partner`` is required at 5 players (the
    taker's own index when playing alone) and absent at 3 and 4. ``bouts`` (0–3) are the
    taker's side's; give its card ``points`` (0–91, in halves), or the defence's as
    ``defence_points`` (the taker's side then has 91 − x), not both.
    """

    taker: int
    contract: Contract
    bouts: int
    points: Points | None = None
    defence_points: Points | None = None
    partner: int | None = None
    petit_au_bout: Side | None = None
    """The side that took the last trick with the Petit in it, or None."""
    poignees: tuple[Poignee, ...] = ()
    chelem: Chelem | None = None


@dataclass(frozen=True, slots=True)
class DealScore:
    """A deal's score and the numbers behind it, for the site to explain it in words.

    Per defender the taker's side wins ``per_defender`` (negative: loses it) =
    ``contract_points`` + ``petit_au_bout`` + ``poignees`` + ``chelem``, where
    ``contract_points`` = ±(``base`` + ``gap``) × ``multiplier``. ``scores`` is what each
    player gets, in seating order; they add up to 0.
    """

    needed: int
    """The points the taker's side needed for its bouts: 56, 51, 41 or 36."""
    points: Points
    """The taker's side's card points."""
    difference: Points
    """``points`` − ``needed``: made by that much if 0 or more, failed by it if negative."""
    made: bool
    gap: int
    """The difference counted in whole points: a half point goes to the winning side."""
    base: int
    multiplier: int
    contract_points: int
    petit_au_bout: int
    """+10 × multiplier for the taker's side, −10 × multiplier for the defence, else 0."""
    poignees: int
    """The handfuls' bonuses, to the side that won: + if the taker's side made it."""
    chelem: int
    per_defender: int
    scores: tuple[int, ...]

    @property
    def won(self) -> int:
        """+1 if the contract was made, −1 if not."""
        return 1 if self.made else -1


def points_needed(bouts: int) -> int:
    """What the taker's side needs with ``bouts`` bouts (0–3): 56, 51, 41 or 36."""
    return _NEEDED[bouts]


def points_range(bouts: int) -> tuple[Points, Points]:
    """The least and the most card points a side holding ``bouts`` bouts can have.

    Each bout counts 4.5: 0 to 77.5 with none, 13.5 to 91 with all three.
    """
    return _points(9 * bouts), _points(2 * CARD_POINTS - 9 * (BOUTS - bouts))


def score_deal(deal: Deal, player_count: int) -> DealScore:
    """What ``deal`` scores at a table of ``player_count``: a preview, or the rules on their own.

    ``RuleError`` as ``check_deal`` says for a deal the rules or the cards make impossible.
    """
    return check_deal(deal, player_count).score


@dataclass(frozen=True, slots=True)
class CheckedDeal:
    """A deal checked and put in normal form (enums, points from the taker's side), with its score.

    ``partner`` is as given: the taker's own index for a taker alone at 5, None at 3 and 4.
    """

    taker: int
    contract: Contract
    partner: int | None
    bouts: int
    points: Points
    petit_au_bout: Side | None
    poignees: tuple[Poignee, ...]
    chelem: Chelem | None
    score: DealScore


def check_deal(deal: Deal, player_count: int) -> CheckedDeal:
    """``deal`` checked for a table of ``player_count`` (3 to 5), in normal form with its score.

    ``RuleError(invalid, reason)`` for a deal the rules or the cards make impossible:

    - ``player_count``: not 3, 4 or 5; ``unknown_action``: not a ``Deal``;
    - ``unknown_player`` (``role`` taker or partner): not an index of a player;
    - ``bad_contract``: not one of the four contracts;
    - ``partner_not_allowed``: a partner at 3 or 4 players; ``partner_missing`` at 5;
    - ``bad_bouts``: not a whole number from 0 to 3;
    - ``points_missing`` (neither ``points`` nor ``defence_points``), ``points_twice`` (both);
    - ``bad_points`` (not a number: a bool, a string, NaN…), ``points_range`` (outside
      0–91), ``points_halves`` (not in halves), each with the ``side`` it was given for;
    - ``points_for_bouts``: fewer than 4.5 per bout held or more than 91 − 4.5 per bout not held;
    - ``bad_petit_au_bout``; ``petit_au_bout_bouts``: for a side that holds no Petit;
    - ``bad_poignees`` (not a tuple), ``bad_poignee`` (not a side and a size),
      ``too_many_poignees`` (more than the players, or than a side has), ``poignee_trumps``
      (more trumps shown than the deck's 22);
    - ``bad_chelem``; ``chelem_contract_failed`` and ``petit_au_bout_after_chelem``: a chelem
      made cannot fail the contract nor lose the last trick.
    """
    if not is_whole_number(player_count) or not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise RuleError(INVALID, "player_count", count=player_count, min=MIN_PLAYERS, max=MAX_PLAYERS)
    if not isinstance(deal, Deal):
        raise RuleError(INVALID, "unknown_action")
    taker = _player(deal.taker, player_count, "taker")
    contract = _member(Contract, deal.contract)
    if contract is None:
        raise RuleError(INVALID, "bad_contract", contract=deal.contract)
    teammate = _teammate(deal, taker, player_count)
    bouts = deal.bouts
    if not is_whole_number(bouts) or not 0 <= bouts <= BOUTS:
        raise RuleError(INVALID, "bad_bouts", bouts=bouts, min=0, max=BOUTS)
    halves = _taker_halves(deal)
    low, high = 9 * bouts, 2 * CARD_POINTS - 9 * (BOUTS - bouts)
    if not low <= halves <= high:
        raise RuleError(
            INVALID, "points_for_bouts", points=_points(halves), bouts=bouts, min=_points(low), max=_points(high)
        )
    petit = _petit_au_bout(deal.petit_au_bout, bouts)
    attackers = 1 if teammate is None else 2
    poignees = _poignees(deal.poignees, player_count, attackers)
    chelem = _chelem(deal.chelem, petit)
    made = halves >= 2 * points_needed(bouts)
    if chelem is not None and chelem.made and not made:
        raise RuleError(INVALID, "chelem_contract_failed", chelem=chelem, points=_points(halves), bouts=bouts)
    score = _score(player_count, taker, teammate, contract, bouts, halves, petit, poignees, chelem)
    return CheckedDeal(taker, contract, deal.partner, bouts, _points(halves), petit, poignees, chelem, score)


def _player(value: object, player_count: int, role: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < player_count:
        raise RuleError(INVALID, "unknown_player", role=role, player=value, player_count=player_count)
    return value


def _teammate(deal: Deal, taker: int, player_count: int) -> int | None:
    """The taker's partner at 5 players, None for a taker alone (at 3, 4, or alone at 5)."""
    if player_count < MAX_PLAYERS:
        if deal.partner is not None:
            raise RuleError(INVALID, "partner_not_allowed", partner=deal.partner, player_count=player_count)
        return None
    if deal.partner is None:
        raise RuleError(INVALID, "partner_missing", player_count=player_count)
    partner = _player(deal.partner, player_count, "partner")
    return None if partner == taker else partner


def _taker_halves(deal: Deal) -> int:
    """The taker's side's points, counted in half points (so every sum stays exact)."""
    if deal.points is None and deal.defence_points is None:
        raise RuleError(INVALID, "points_missing")
    if deal.points is not None and deal.defence_points is not None:
        raise RuleError(INVALID, "points_twice", points=deal.points, defence_points=deal.defence_points)
    if deal.points is not None:
        return _halves(deal.points, Side.TAKER)
    return 2 * CARD_POINTS - _halves(deal.defence_points, Side.DEFENCE)


def _halves(value: object, side: Side) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleError(INVALID, "bad_points", side=side, points=value)
    if isinstance(value, float) and not math.isfinite(value):
        raise RuleError(INVALID, "bad_points", side=side, points=value)
    if not 0 <= value <= CARD_POINTS:
        raise RuleError(INVALID, "points_range", side=side, points=value, min=0, max=CARD_POINTS)
    doubled = value * 2
    if isinstance(doubled, float) and not doubled.is_integer():
        raise RuleError(INVALID, "points_halves", side=side, points=value)
    return int(doubled)


def _points(halves: int) -> Points:
    """Half points back to points: whole as an int, a half as a float (47, 40.5)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def _petit_au_bout(value: object, bouts: int) -> Side | None:
    if value is None:
        return None
    side = _member(Side, value)
    if side is None:
        raise RuleError(INVALID, "bad_petit_au_bout", petit_au_bout=value)
    # The side that took the last trick with the Petit holds the Petit, which is a bout.
    if (side is Side.TAKER and bouts == 0) or (side is Side.DEFENCE and bouts == BOUTS):
        raise RuleError(INVALID, "petit_au_bout_bouts", petit_au_bout=side, bouts=bouts)
    return side


def _poignees(value: object, player_count: int, attackers: int) -> tuple[Poignee, ...]:
    if not isinstance(value, tuple):
        raise RuleError(INVALID, "bad_poignees", poignees=value)
    if len(value) > player_count:
        raise RuleError(INVALID, "too_many_poignees", count=len(value), max=player_count)
    poignees: list[Poignee] = []
    for index, poignee in enumerate(value):
        if not isinstance(poignee, Poignee):
            raise RuleError(INVALID, "bad_poignee", index=index, poignee=poignee)
        side, size = _member(Side, poignee.side), _member(PoigneeSize, poignee.size)
        if side is None or size is None:
            raise RuleError(INVALID, "bad_poignee", index=index, poignee=poignee)
        poignees.append(Poignee(side, size))
    # One handful at most per player: each side shows no more than it has players.
    for side, players in ((Side.TAKER, attackers), (Side.DEFENCE, player_count - attackers)):
        count = sum(poignee.side is side for poignee in poignees)
        if count > players:
            raise RuleError(INVALID, "too_many_poignees", side=side, count=count, max=players)
    trumps = sum(poignee.size.trumps(player_count) for poignee in poignees)
    if trumps > TRUMPS:
        raise RuleError(INVALID, "poignee_trumps", trumps=trumps, max=TRUMPS)
    return tuple(poignees)


def _chelem(value: object, petit: Side | None) -> Chelem | None:
    if value is None:
        return None
    chelem = _member(Chelem, value)
    if chelem is None:
        raise RuleError(INVALID, "bad_chelem", chelem=value)
    if chelem.made and petit is Side.DEFENCE:
        raise RuleError(INVALID, "petit_au_bout_after_chelem", chelem=chelem, petit_au_bout=petit)
    return chelem


E = TypeVar("E", bound=Enum)


def _member(kind: type[E], value: object) -> E | None:
    """``value`` as a member of ``kind`` (its key as a string will do), or None."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            return None
    return None


def _score(
    player_count: int,
    taker: int,
    teammate: int | None,
    contract: Contract,
    bouts: int,
    halves: int,
    petit: Side | None,
    poignees: tuple[Poignee, ...],
    chelem: Chelem | None,
) -> DealScore:
    needed = points_needed(bouts)
    difference = halves - 2 * needed
    made = difference >= 0
    won = 1 if made else -1
    gap = (abs(difference) + 1) // 2  # a half point goes to the side that wins
    multiplier = contract.multiplier
    contract_points = won * (BASE + gap) * multiplier
    petit_points = 0 if petit is None else (1 if petit is Side.TAKER else -1) * PETIT_AU_BOUT * multiplier
    poignee_points = won * sum(poignee.size.bonus for poignee in poignees)
    chelem_points = 0 if chelem is None else chelem.bonus
    per_defender = contract_points + petit_points + poignee_points + chelem_points
    defenders = player_count - (1 if teammate is None else 2)
    scores = [-per_defender] * player_count
    # The taker's side wins from each defender; at 5 the partner keeps one share of it.
    scores[taker] = defenders * per_defender - (0 if teammate is None else per_defender)
    if teammate is not None:
        scores[teammate] = per_defender
    return DealScore(
        needed=needed,
        points=_points(halves),
        difference=_points(difference),
        made=made,
        gap=gap,
        base=BASE,
        multiplier=multiplier,
        contract_points=contract_points,
        petit_au_bout=petit_points,
        poignees=poignee_points,
        chelem=chelem_points,
        per_defender=per_defender,
        scores=tuple(scores),
    )
