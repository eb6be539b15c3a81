"""The rules of Pickomino as pure functions over immutable values.

``new_game`` sets the table, ``apply`` plays one action (a take or a bust) and returns the
new state with an account of what happened, ``legal_claims`` says what a total may win,
``standings`` and ``winners`` read the score. Nothing here knows about Django, I/O, clocks
or chance: the dice are rolled at the real table, and the engine is told the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias, overload

from .dice import DICE_COUNT, Face
from .errors import INVALID, MATCH_OVER, NO_WORM, NOT_STEALABLE, NOTHING_TO_TAKE, RuleError
from .tiles import TILES, worms_in, worms_on

MIN_PLAYERS = 2
MAX_PLAYERS = 7
MAX_TOTAL = DICE_COUNT * Face.WORM.points  # eight worms: 40
MIN_TOTAL_WITH_WORM = Face.WORM.points  # a single worm kept: 5

GRILL: Literal["grill"] = "grill"
Source: TypeAlias = Literal["grill"] | int
"""Where a tile comes from: the grill, or the index of the opponent it is stolen from."""


@dataclass(frozen=True, slots=True)
class Options:
    """The two table options of the rules file; both off by default."""

    shorter_game: bool = False
    """After a bust, turn the highest face-up tile down even if it is the one just returned."""
    flip_without_return: bool = False
    """A bust with an empty stack still turns the highest face-up tile down."""


class BustReason(StrEnum):
    """Why a turn failed, when the score keeper knows it; the penalty is the same."""

    DECLARED = "declared"
    NO_NEW_FACE = "no_new_face"
    NO_WORM = "no_worm"
    NOTHING_TO_CLAIM = "nothing_to_claim"


@dataclass(frozen=True, slots=True)
class Take:
    """The current player stopped with ``total`` (and a worm if ``worm``) and claims a tile.

    ``source`` is ``GRILL`` (the tile the rules give: ``total`` if face up, else the
    highest face-up tile below) or the index of the opponent whose top tile, exactly
    ``total``, is stolen.
    """

    total: int
    worm: bool
    source: Source = GRILL


@dataclass(frozen=True, slots=True)
class Bust:
    """The current player's turn failed; they pay the penalty."""

    reason: BustReason = BustReason.DECLARED


Action: TypeAlias = Take | Bust


@dataclass(frozen=True, slots=True)
class Claim:
    """One tile a total may win, and where it comes from."""

    tile: int
    source: Source


@dataclass(frozen=True, slots=True)
class Took:
    """The account of a take: ``player`` won ``tile`` from ``source``.

    On a steal the victim (``source``) loses the same ``worms`` the player gains.
    """

    player: int
    total: int
    tile: int
    source: Source
    worms: int
    game_over: bool

    @property
    def is_steal(self) -> bool:
        """Whether the tile came from an opponent's stack."""
        return self.source != GRILL

    def worm_changes(self) -> dict[int, int]:
        """Worms gained (+) or lost (−) by each player whose count changed."""
        changes = {self.player: self.worms}
        if isinstance(self.source, int):
            changes[self.source] = -self.worms
        return changes


@dataclass(frozen=True, slots=True)
class Busted:
    """The account of a bust: the tile returned (if any) and the tile turned face down (if any)."""

    player: int
    reason: BustReason
    returned: int | None
    worms_lost: int
    turned_down: int | None
    game_over: bool

    def worm_changes(self) -> dict[int, int]:
        """Worms lost (−) by the player, if they returned a tile."""
        return {self.player: -self.worms_lost} if self.returned is not None else {}


Outcome: TypeAlias = Took | Busted


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole table: the grill, every stack (bottom first), whose turn it is.

    A tile is in exactly one place: ``face_up`` or ``face_down`` on the grill, or in
    one of ``stacks``.
    """

    options: Options
    stacks: tuple[tuple[int, ...], ...]
    face_up: frozenset[int]
    face_down: frozenset[int]
    current: int

    @property
    def player_count(self) -> int:
        """How many players sit at the table."""
        return len(self.stacks)

    @property
    def over(self) -> bool:
        """The game ends as soon as no face-up tile is left on the grill."""
        return not self.face_up

    def top(self, player: int) -> int | None:
        """The visible (and stealable) tile of ``player``'s stack, if any."""
        stack = self.stacks[player]
        return stack[-1] if stack else None

    def worms(self, player: int) -> int:
        """``player``'s score: the worms on every tile of their stack."""
        return worms_in(self.stacks[player])

    def grill(self) -> tuple[tuple[int, bool], ...]:
        """Every tile still on the grill, ascending, with whether it lies face up."""
        return tuple((tile, tile in self.face_up) for tile in TILES if tile in self.face_up or tile in self.face_down)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place: ``rank`` 1 for the leaders after the tie-break."""

    player: int
    worms: int
    best_tile: int | None
    rank: int


def new_game(player_count: int, first: int = 0, options: Options | None = None) -> GameState:
    """The table at the start: all 16 tiles face up on the grill, every stack empty."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise RuleError(INVALID, "player_count", count=player_count)
    if not 0 <= first < player_count:
        raise RuleError(INVALID, "first_player", first=first)
    return GameState(
        options=options or Options(),
        stacks=((),) * player_count,
        face_up=frozenset(TILES),
        face_down=frozenset(),
        current=first,
    )


def grill_claim(state: GameState, total: int) -> int | None:
    """The grill tile a total wins: ``total`` if face up, else the highest face-up tile below.

    A total above 36 works the same way. None when no face-up tile is at or below it.
    """
    if total in state.face_up:
        return total
    below = [tile for tile in state.face_up if tile < total]
    return max(below) if below else None


def steal_victim(state: GameState, total: int) -> int | None:
    """The opponent of the current player whose top tile is exactly ``total``, if one is."""
    for player, stack in enumerate(state.stacks):
        if player != state.current and stack and stack[-1] == total:
            return player
    return None


def legal_claims(state: GameState, total: int, worm: bool) -> tuple[Claim, ...]:
    """Every tile the current player may claim with ``total``: a steal first, then the grill.

    Empty when the turn is a bust (no worm, nothing to claim) or the game is over. The
    player's own top tile is never a claim.
    """
    if state.over or not worm:
        return ()
    claims: list[Claim] = []
    victim = steal_victim(state, total)
    if victim is not None:
        claims.append(Claim(total, victim))
    tile = grill_claim(state, total)
    if tile is not None:
        claims.append(Claim(tile, GRILL))
    return tuple(claims)


@overload
def apply(state: GameState, action: Take) -> tuple[GameState, Took]: ...
@overload
def apply(state: GameState, action: Bust) -> tuple[GameState, Busted]: ...
@overload
def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]: ...


def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]:
    """Play ``action`` for the current player; the new state and an account of what happened.

    Raises ``RuleError`` (the state is a value, so it is left as it was) when the rules
    forbid the action: ``match_over``, ``invalid``, ``no_worm``, ``nothing_to_take``,
    ``not_stealable``.
    """
    if state.over:
        raise RuleError(MATCH_OVER)
    if isinstance(action, Take):
        return _take(state, action)
    if isinstance(action, Bust):
        return _bust(state, action.reason)
    raise RuleError(INVALID, "unknown_action")


def _next_player(state: GameState) -> int:
    return (state.current + 1) % len(state.stacks)


def _check_total(action: Take) -> None:
    total = action.total
    if not isinstance(total, int) or isinstance(total, bool) or not 1 <= total <= MAX_TOTAL:
        raise RuleError(INVALID, "bad_total", total=total)
    if not isinstance(action.worm, bool):
        raise RuleError(INVALID, "bad_worm")
    if not action.worm:
        raise RuleError(NO_WORM, total=total)
    if total < MIN_TOTAL_WITH_WORM:
        raise RuleError(INVALID, "bad_total", total=total)


def _take(state: GameState, action: Take) -> tuple[GameState, Took]:
    _check_total(action)
    total, source, player = action.total, action.source, state.current
    stacks = list(state.stacks)
    face_up = state.face_up
    if source == GRILL:
        tile = grill_claim(state, total)
        if tile is None:
            raise RuleError(NOTHING_TO_TAKE, total=total)
        face_up = face_up - {tile}
    elif isinstance(source, int) and not isinstance(source, bool) and 0 <= source < len(stacks):
        if source == player:
            raise RuleError(NOT_STEALABLE, "own_tile", total=total, player=source)
        victim_stack = stacks[source]
        if not victim_stack or victim_stack[-1] != total:
            raise RuleError(
                NOT_STEALABLE, "top_differs", total=total, player=source, top=victim_stack[-1] if victim_stack else None
            )
        tile = total
        stacks[source] = victim_stack[:-1]
    else:
        raise RuleError(INVALID, "bad_source", source=source)
    stacks[player] = stacks[player] + (tile,)
    new_state = GameState(state.options, tuple(stacks), face_up, state.face_down, _next_player(state))
    return new_state, Took(player, total, tile, source, worms_on(tile), new_state.over)


def _bust(state: GameState, reason: BustReason) -> tuple[GameState, Busted]:
    player = state.current
    stack = state.stacks[player]
    face_up, face_down, stacks = state.face_up, state.face_down, state.stacks
    returned: int | None = None
    turned_down: int | None = None
    if stack:
        returned = stack[-1]
        stacks = stacks[:player] + (stack[:-1],) + stacks[player + 1 :]
        face_up = face_up | {returned}
    # The rulebook turns a tile as part of returning one; the options widen when it happens.
    if returned is not None or state.options.flip_without_return:
        highest = max(face_up, default=None)
        if highest is not None and (highest != returned or state.options.shorter_game):
            turned_down = highest
            face_up = face_up - {highest}
            face_down = face_down | {highest}
    new_state = GameState(state.options, stacks, face_up, face_down, _next_player(state))
    worms_lost = worms_on(returned) if returned is not None else 0
    return new_state, Busted(player, reason, returned, worms_lost, turned_down, new_state.over)


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players best first: most worms, then the highest-numbered tile breaks a tie.

    Tied players with no tile at all share their rank (and the win, at the end).
    """
    scored = [(state.worms(player), max(stack) if stack else None, player) for player, stack in enumerate(state.stacks)]
    scored.sort(key=lambda row: (-row[0], -(row[1] or 0), row[2]))
    result: list[Standing] = []
    for position, (worms, best, player) in enumerate(scored):
        previous = result[-1] if result else None
        if previous is not None and (previous.worms, previous.best_tile) == (worms, best):
            rank = previous.rank
        else:
            rank = position + 1
        result.append(Standing(player, worms, best, rank))
    return tuple(result)


def winners(state: GameState) -> tuple[int, ...]:
    """The winning players, in seating order, once the game is over; empty before."""
    if not state.over:
        return ()
    return tuple(sorted(standing.player for standing in standings(state) if standing.rank == 1))


def tie_break_decided(state: GameState) -> bool:
    """Whether the highest tile, not the worms alone, decided first place."""
    table = standings(state)
    return len(table) > 1 and table[0].worms == table[1].worms and table[0].rank != table[1].rank
