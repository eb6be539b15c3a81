"""Random legal play, for property tests, benchmarks and load tests.

The engine stays free of chance: the caller passes ``choose`` (``random.Random.choice``
of a seeded generator, or hypothesis's), and this module only asks it to pick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from .engine import Action, End, GameState, Pass, apply
from .scoring import BOUTS, CARD_POINTS, TRUMPS, Chelem, Contract, Deal, Poignee, PoigneeSize, Side, points_needed

Chooser: TypeAlias = Callable[[Sequence[Any]], Any]

# One deal in ten is passed; once a deal is scored, the players stop one time in twenty.
_NEXT = ("deal",) * 18 + ("pass",) * 2
_NEXT_OR_END = (*_NEXT, "end")
# Most deals show no handful and no chelem; a chelem is rare, announced or not.
_HANDFUL_COUNTS = (0,) * 6 + (1,) * 3 + (2,)
_PETITS = (None,) * 4 + (Side.TAKER, Side.DEFENCE)
_CHELEMS = (None,) * 30 + (Chelem.ANNOUNCED_MADE, Chelem.MADE, Chelem.ANNOUNCED_FAILED)


def random_deal(player_count: int, choose: Chooser) -> Deal:
    """One legal played deal at a table of ``player_count`` (3 to 5)."""
    taker = choose(range(player_count))
    partner = choose(range(player_count)) if player_count == 5 else None
    attackers = 1 if partner is None or partner == taker else 2
    bouts = choose(range(BOUTS + 1))
    chelem = choose(_CHELEMS)
    low, high = 9 * bouts, 2 * CARD_POINTS - 9 * (BOUTS - bouts)
    if chelem is not None and chelem.made:
        # Every trick taken: the contract is made and the last trick is the taker's side's.
        low = max(low, 2 * points_needed(bouts))
    halves = choose(range(low, high + 1))
    petit_choices = [side for side in _PETITS if not _petit_impossible(side, bouts)]
    if chelem is not None and chelem.made:
        petit_choices = [side for side in petit_choices if side is not Side.DEFENCE]
    points = halves // 2 if halves % 2 == 0 else halves / 2
    as_defence = choose((False,) * 4 + (True,))
    return Deal(
        taker=taker,
        contract=choose(tuple(Contract)),
        partner=partner,
        bouts=bouts,
        points=None if as_defence else points,
        defence_points=CARD_POINTS - points if as_defence else None,
        petit_au_bout=choose(petit_choices),
        poignees=random_poignees(player_count, attackers, choose),
        chelem=chelem,
    )


def _petit_impossible(side: Side | None, bouts: int) -> bool:
    return (side is Side.TAKER and bouts == 0) or (side is Side.DEFENCE and bouts == BOUTS)


def random_poignees(player_count: int, attackers: int, choose: Chooser) -> tuple[Poignee, ...]:
    """Legal handfuls: one per player at most, and no more trumps shown than the deck has."""
    seats = {Side.TAKER: attackers, Side.DEFENCE: player_count - attackers}
    shown: list[Poignee] = []
    trumps = 0
    for _ in range(choose(_HANDFUL_COUNTS)):
        sides = [side for side, free in seats.items() if free]
        sizes = [size for size in PoigneeSize if trumps + size.trumps(player_count) <= TRUMPS]
        if not sides or not sizes:
            break
        side, size = choose(sides), choose(sizes)
        seats[side] -= 1
        trumps += size.trumps(player_count)
        shown.append(Poignee(side, size))
    return tuple(shown)


def random_legal_action(state: GameState, choose: Chooser) -> Action:
    """A legal action on a match that is not over: a deal, a pass, or an ``End`` once a deal is scored."""
    step = choose(_NEXT_OR_END if state.played_count else _NEXT)
    if step == "end":
        return End()
    if step == "pass":
        return Pass()
    return random_deal(state.player_count, choose)


def random_game(state: GameState, choose: Chooser, max_actions: int = 200) -> list[Action]:
    """The actions of one random legal game from ``state`` to its end (or ``max_actions``)."""
    actions: list[Action] = []
    while not state.over and len(actions) < max_actions:
        action = random_legal_action(state, choose)
        state = apply(state, action)[0]
        actions.append(action)
    return actions
