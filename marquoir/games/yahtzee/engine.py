"""The rules of Yahtzee (Yam's) as pure functions over immutable values.

``new_game`` lays out one blank sheet per player, ``apply`` scores one turn (the dice in
a box, or points typed straight into a box) and returns the new state with an account of
what happened; ``box_choices`` says what each open box would take with the dice shown and
why a box is refused; ``standings`` and ``winners`` read the score. The rules are those
of docs/rules-yahtzee.md: the box's rules, with the forced joker.

Decisions the rules leave open, taken here:

- The dice are the five dice of the turn's last roll, in any order; the engine never
  rolls them, it is told the outcome.
- Points typed without dice (``ScorePoints``) are taken when some five dice give exactly
  those points in that box as the sheet stands, the joker included. Whether the dice
  were five alike (which decides the joker and the 100-point bonus) is ``five_alike``;
  left out, it is worked out from the points when only five alike can give them (50 in
  ``yahtzee``, 30 in ``sixes``, 5 in ``chance``…) and taken as "not five alike" otherwise,
  so points alone never earn a bonus they do not prove.
- A Yahtzee bonus is earned by every five alike rolled while the ``yahtzee`` box holds
  50, wherever the dice are scored, a forced 0 in an upper box included.
- The upper bonus counts from the turn the upper boxes reach 63 (the total shown during
  the game includes it); the final score is the same as adding it at the end.
- ``round`` stays at 13 once the game is over; ``current`` is then None.
- Ranks are competition ranks (1, 1, 3): equal totals share the rank and the win.

Nothing here knows about Django, I/O, clocks or chance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import TypeAlias, overload

from marquoir.rules.errors import INVALID, MATCH_OVER, RuleError
from marquoir.rules.standings import Standing as Standing  # the games export it as their own
from marquoir.rules.standings import rank_by_total, ranked_first
from marquoir.rules.values import is_whole_number

MIN_PLAYERS = 1
MAX_PLAYERS = 8
DICE_COUNT = 5
FACES = (1, 2, 3, 4, 5, 6)
ROUNDS = 13

UPPER_BONUS = 35
UPPER_BONUS_THRESHOLD = 63
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
YAHTZEE_POINTS = 50
YAHTZEE_BONUS = 100

# Yahtzee's own refusal codes (docs/api-v1.md); ``invalid`` and ``match_over`` are shared.
BOX_TAKEN = "box_taken"
"""The box already holds a score."""
JOKER_UPPER = "joker_upper"
"""Five alike with the ``yahtzee`` box filled must go in their upper box while it is open."""
JOKER_LOWER = "joker_lower"
"""Their upper box filled, five alike must go in an open lower box while there is one."""


class Box(StrEnum):
    """The thirteen boxes of a sheet, in the sheet's order; the value is the API's key."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"

    @property
    def position(self) -> int:
        """The box's place on the sheet, 0 for ``ones`` to 12 for ``chance``."""
        return _BOX_INDEX[self]

    @property
    def is_upper(self) -> bool:
        """Whether the box is one of ``ones`` to ``sixes`` (they count for the upper bonus)."""
        return self.position < len(FACES)

    @property
    def face(self) -> int | None:
        """The face an upper box counts (1 for ``ones``…), None for a lower box."""
        return self.position + 1 if self.is_upper else None

    @classmethod
    def upper_for(cls, face: int) -> Box:
        """The upper box that counts ``face`` (``fours`` for 4)."""
        return BOXES[face - 1]


BOXES: tuple[Box, ...] = tuple(Box)
UPPER_BOXES: tuple[Box, ...] = BOXES[: len(FACES)]
LOWER_BOXES: tuple[Box, ...] = BOXES[len(FACES) :]
_BOX_INDEX: dict[Box, int] = {box: index for index, box in enumerate(BOXES)}

Dice: TypeAlias = tuple[int, ...]
"""Five dice, 1 to 6 each, in any order."""

ALL_ROLLS: tuple[Dice, ...] = tuple(combinations_with_replacement(FACES, DICE_COUNT))
"""Every roll of five dice as a multiset (sorted): 252 of them."""


# Dice and boxes


def check_dice(dice: object) -> Dice:
    """``dice`` as a tuple if they are five dice, else ``RuleError(invalid)``.

    Reasons: ``bad_dice`` (not a list or tuple), ``dice_count`` (not five),
    ``bad_die`` (a die that is not an integer 1 to 6: bools, floats, strings refused).
    """
    if not isinstance(dice, tuple | list):
        raise RuleError(INVALID, "bad_dice", dice=_shown(dice))
    if len(dice) != DICE_COUNT:
        raise RuleError(INVALID, "dice_count", count=len(dice), expected=DICE_COUNT)
    for position, die in enumerate(dice):
        if not (is_whole_number(die) and 1 <= die <= len(FACES)):
            raise RuleError(INVALID, "bad_die", position=position, die=_shown(die))
    return tuple(dice)


def check_box(box: object) -> Box:
    """The box named ``box`` (its key, such as ``"full_house"``, or a ``Box``), else ``RuleError(invalid)``."""
    if isinstance(box, str):
        try:
            return Box(box)
        except ValueError:
            pass
    raise RuleError(INVALID, "unknown_box", box=_shown(box))


def _shown(value: object) -> object:
    # Parameters go into messages and logs: a huge or odd value is cut to a short line.
    if isinstance(value, int | bool | None):
        return value if not isinstance(value, int) or abs(value) < 10**9 else str(value)[:12] + "…"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def is_five_alike(dice: Dice) -> bool:
    """Whether the five dice show the same face (a Yahtzee roll)."""
    return len(set(dice)) == 1


def plain_points(box: Box, dice: Dice) -> int:
    """What ``box`` scores with ``dice`` by the table of boxes alone, without the joker."""
    counts = Counter(dice)
    most = max(counts.values())
    face = box.face
    if face is not None:
        return face * counts[face]
    if box is Box.THREE_OF_A_KIND:
        return sum(dice) if most >= 3 else 0
    if box is Box.FOUR_OF_A_KIND:
        return sum(dice) if most >= 4 else 0
    if box is Box.FULL_HOUSE:
        return FULL_HOUSE_POINTS if sorted(counts.values()) == [2, 3] else 0
    if box is Box.SMALL_STRAIGHT:
        faces = set(dice)
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return SMALL_STRAIGHT_POINTS if any(run <= faces for run in runs) else 0
    if box is Box.LARGE_STRAIGHT:
        return LARGE_STRAIGHT_POINTS if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box is Box.YAHTZEE:
        return YAHTZEE_POINTS if most == DICE_COUNT else 0
    return sum(dice)  # chance


def joker_points(box: Box, dice: Dice) -> int:
    """What ``box`` scores with five alike played as a joker: the straights and the full
    house in full, every other box as the table says."""
    if box is Box.FULL_HOUSE:
        return FULL_HOUSE_POINTS
    if box is Box.SMALL_STRAIGHT:
        return SMALL_STRAIGHT_POINTS
    if box is Box.LARGE_STRAIGHT:
        return LARGE_STRAIGHT_POINTS
    return plain_points(box, dice)


def joker_boxes(open_boxes: Collection[Box], face: int) -> tuple[Box, ...]:
    """Where five ``face`` may go under the joker rule (the ``yahtzee`` box filled), in sheet order.

    Their upper box if it is open; else any open lower box; else any open upper box (for 0).
    """
    upper = Box.upper_for(face)
    if upper in open_boxes:
        return (upper,)
    lower = tuple(box for box in LOWER_BOXES if box in open_boxes)
    return lower or tuple(box for box in UPPER_BOXES if box in open_boxes)


# One player's sheet


@dataclass(frozen=True, slots=True)
class Sheet:
    """One player's sheet: the points in each box (None while open), in ``BOXES`` order,
    and how many 100-point Yahtzee bonuses they earned."""

    boxes: tuple[int | None, ...] = (None,) * len(BOXES)
    yahtzee_bonuses: int = 0

    def points(self, box: Box) -> int | None:
        """The points ``box`` holds, None while it is open."""
        return self.boxes[box.position]

    def is_open(self, box: Box) -> bool:
        """Whether ``box`` may still take a score."""
        return self.boxes[box.position] is None

    @property
    def open_boxes(self) -> tuple[Box, ...]:
        """The boxes still open, in sheet order."""
        return tuple(box for box, points in zip(BOXES, self.boxes, strict=True) if points is None)

    @property
    def filled_count(self) -> int:
        """How many boxes hold a score (one per turn played)."""
        return sum(points is not None for points in self.boxes)

    @property
    def is_full(self) -> bool:
        """Whether all thirteen boxes are filled: the player's game is over."""
        return self.filled_count == len(BOXES)

    def by_box(self) -> dict[str, int | None]:
        """The points in each box by its key, in sheet order (None while open): the API's ``boxes``."""
        return {box.value: points for box, points in zip(BOXES, self.boxes, strict=True)}

    @property
    def upper_total(self) -> int:
        """The points in ``ones`` to ``sixes``."""
        return sum(points or 0 for points in self.boxes[: len(UPPER_BOXES)])

    @property
    def upper_bonus(self) -> int:
        """35 once the upper boxes add up to 63 or more, else 0."""
        return UPPER_BONUS if self.upper_total >= UPPER_BONUS_THRESHOLD else 0

    @property
    def yahtzee_bonus(self) -> int:
        """The Yahtzee bonuses in points: 100 for each one earned."""
        return YAHTZEE_BONUS * self.yahtzee_bonuses

    @property
    def total(self) -> int:
        """The player's score: every box, the upper bonus and the Yahtzee bonuses."""
        return sum(points or 0 for points in self.boxes) + self.upper_bonus + self.yahtzee_bonus

    @property
    def yahtzee_holds_fifty(self) -> bool:
        """Whether the ``yahtzee`` box holds 50: each later five alike earns a bonus."""
        return self.boxes[Box.YAHTZEE.position] == YAHTZEE_POINTS

    def refusal(self, box: Box, dice: Dice) -> str | None:
        """Why ``box`` may not take ``dice`` (an error code), or None when it may.

        ``box_taken``, or with five alike and the ``yahtzee`` box filled, ``joker_upper``
        (their upper box is open) or ``joker_lower`` (an upper box while a lower one is open).
        """
        if not self.is_open(box):
            return BOX_TAKEN
        if not self.joker_applies(dice) or box in joker_boxes(self.open_boxes, dice[0]):
            return None
        return JOKER_UPPER if self.is_open(Box.upper_for(dice[0])) else JOKER_LOWER

    def points_for(self, box: Box, dice: Dice) -> int:
        """What ``box`` would score with ``dice`` as the sheet stands (the joker included),
        whether or not the rules allow that box now (see ``refusal``)."""
        return joker_points(box, dice) if self.joker_applies(dice) else plain_points(box, dice)

    def bonus_for(self, dice: Dice) -> int:
        """The Yahtzee bonus ``dice`` earn when scored: 100 for five alike while the
        ``yahtzee`` box holds 50, else 0."""
        return YAHTZEE_BONUS if is_five_alike(dice) and self.yahtzee_holds_fifty else 0

    def joker_applies(self, dice: Dice) -> bool:
        """Whether ``dice`` are a joker on this sheet: five alike with the ``yahtzee`` box filled."""
        return is_five_alike(dice) and not self.is_open(Box.YAHTZEE)

    def with_score(self, box: Box, points: int, bonus: int) -> Sheet:
        """This sheet with ``points`` written in ``box`` and ``bonus`` (0 or 100) added."""
        boxes = self.boxes[: box.position] + (points,) + self.boxes[box.position + 1 :]
        return replace(self, boxes=boxes, yahtzee_bonuses=self.yahtzee_bonuses + (bonus // YAHTZEE_BONUS))


@dataclass(frozen=True, slots=True)
class BoxChoice:
    """An open box as the dice shown would fill it: the points, the Yahtzee bonus earned,
    whether the joker scores it, or the code of the rule that refuses it."""

    box: Box
    points: int | None
    """What the box would take; None when it is refused."""
    refusal: str | None
    """``joker_upper`` or ``joker_lower`` when the rules refuse the box, else None."""
    joker: bool = False
    """Whether the dice count as a joker here (five alike, the ``yahtzee`` box filled)."""
    yahtzee_bonus: int = 0
    """100 when scoring these dice earns a Yahtzee bonus (in whichever box)."""

    @property
    def allowed(self) -> bool:
        """Whether the rules let the dice go in this box."""
        return self.refusal is None


def box_choices(sheet: Sheet, dice: object) -> tuple[BoxChoice, ...]:
    """Every open box of ``sheet``, in sheet order, with what ``dice`` would score there or
    why the rules refuse it; ``RuleError(invalid)`` for bad dice."""
    checked = check_dice(dice)
    joker = sheet.joker_applies(checked)
    bonus = sheet.bonus_for(checked)
    choices = []
    for box in sheet.open_boxes:
        refusal = sheet.refusal(box, checked)
        points = None if refusal else sheet.points_for(box, checked)
        choices.append(BoxChoice(box, points, refusal, joker and refusal is None, bonus))
    return tuple(choices)


@lru_cache(maxsize=4096)
def _possible(box: Box, holds_fifty: bool, open_boxes: tuple[Box, ...]) -> dict[tuple[int, bool], Dice]:
    """For a sheet with ``open_boxes`` open: (points, five alike) → a roll the rules let
    ``box`` take for those points. The points in filled boxes play no part, so they are 0
    here (50 in ``yahtzee`` when it holds 50)."""
    fifty = YAHTZEE_POINTS if holds_fifty else 0
    sheet = Sheet(tuple(None if b in open_boxes else fifty if b is Box.YAHTZEE else 0 for b in BOXES))
    found: dict[tuple[int, bool], Dice] = {}
    for roll in ALL_ROLLS:
        if sheet.refusal(box, roll) is None:
            found.setdefault((sheet.points_for(box, roll), is_five_alike(roll)), roll)
    return found


@cache
def _only_five_alike(box: Box) -> frozenset[int]:
    """The points ``box`` can get from five alike (joker or not) and from no other dice."""
    others = {plain_points(box, roll) for roll in ALL_ROLLS if not is_five_alike(roll)}
    alike = {points(box, (face,) * DICE_COUNT) for face in FACES for points in (plain_points, joker_points)}
    return frozenset(alike - others)


def possible_points(sheet: Sheet, box: Box | str, five_alike: bool | None = None) -> tuple[int, ...]:
    """Every score ``box`` can take as ``sheet`` stands, ascending: from five alike only,
    from other dice only, or from either (``five_alike`` None). Empty when it is filled.
    ``RuleError(invalid)`` for an unknown box."""
    box = check_box(box)
    if not sheet.is_open(box):
        return ()
    found = _possible_for(sheet, box)
    return tuple(sorted({points for points, alike in found if five_alike is None or alike == five_alike}))


def _possible_for(sheet: Sheet, box: Box) -> dict[tuple[int, bool], Dice]:
    return _possible(box, sheet.yahtzee_holds_fifty, sheet.open_boxes)


def dice_for_points(sheet: Sheet, box: Box | str, points: object, five_alike: object = None) -> Dice:
    """Five dice that score ``points`` in ``box`` as ``sheet`` stands, the rules allowing.

    ``five_alike`` says whether the dice showed five alike; None works it out: five alike
    when only five alike can give those points there, else not. Raises ``RuleError``:
    ``box_taken``; ``invalid`` with ``bad_points``, ``bad_five_alike`` or
    ``impossible_points``, ``unknown_box``; ``joker_upper``/``joker_lower`` when only five
    alike give those points and the joker sends them elsewhere.
    """
    box = check_box(box)
    if not isinstance(points, int) or isinstance(points, bool):
        raise RuleError(INVALID, "bad_points", box=box.value, points=_shown(points))
    if five_alike is not None and not isinstance(five_alike, bool):
        raise RuleError(INVALID, "bad_five_alike", five_alike=_shown(five_alike))
    if not sheet.is_open(box):
        raise RuleError(BOX_TAKEN, box=box.value)
    if five_alike is None:
        five_alike = points in _only_five_alike(box)
    roll = _possible_for(sheet, box).get((points, five_alike))
    if roll is not None:
        return roll
    if five_alike:
        for face in FACES:
            alike = (face,) * DICE_COUNT
            refusal = sheet.refusal(box, alike)
            if refusal is not None and points in (plain_points(box, alike), joker_points(box, alike)):
                raise RuleError(refusal, box=box.value, points=points, face=face, allowed=_joker_allowed(sheet, face))
    raise RuleError(INVALID, "impossible_points", box=box.value, points=points, five_alike=five_alike)


def _joker_allowed(sheet: Sheet, face: int) -> list[str]:
    # Where the rules send five ``face`` instead: the API message can name the box(es).
    return [box.value for box in joker_boxes(sheet.open_boxes, face)]


# Actions and their accounts


@dataclass(frozen=True, slots=True)
class Score:
    """The current player scores the five dice of their last roll in ``box``."""

    box: Box | str
    dice: Dice


@dataclass(frozen=True, slots=True)
class ScorePoints:
    """The current player writes ``points`` in ``box`` without giving the dice.

    ``five_alike``: whether the dice showed five alike (the joker and the Yahtzee bonus
    depend on it); None lets the engine work it out from the points (see the module).
    """

    box: Box | str
    points: int
    five_alike: bool | None = None


Action: TypeAlias = Score | ScorePoints


@dataclass(frozen=True, slots=True)
class Scored:
    """The account of a turn: ``player`` wrote ``points`` in ``box``.

    ``yahtzee_bonus`` (100 or 0) and ``upper_bonus`` (35 the turn the upper boxes reach
    63, else 0) are what the turn added besides; ``total`` is the player's score after it.
    """

    player: int
    box: Box
    points: int
    dice: Dice | None
    joker: bool
    yahtzee_bonus: int
    upper_bonus: int
    total: int
    round: int
    game_over: bool

    @property
    def gained(self) -> int:
        """Everything the turn added to the player's score."""
        return self.points + self.yahtzee_bonus + self.upper_bonus

    def score_changes(self) -> dict[int, int]:
        """Points gained by the player whose total changed (none for a scratch)."""
        return {self.player: self.gained} if self.gained else {}


Outcome: TypeAlias = Scored


# The game


@dataclass(frozen=True, slots=True)
class Options:
    """The table options: none yet (the box's rules); house variants may come as options."""


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole table: every player's sheet in seating order, who started, how many turns
    have been played (each fills one box)."""

    options: Options
    first: int
    sheets: tuple[Sheet, ...]
    turns: int = 0

    @property
    def player_count(self) -> int:
        """How many players have a sheet."""
        return len(self.sheets)

    @property
    def over(self) -> bool:
        """The game ends after 13 rounds: every sheet full."""
        return self.turns >= ROUNDS * len(self.sheets)

    @property
    def current(self) -> int | None:
        """The player whose turn it is, in seating order from ``first``; None once over."""
        if self.over:
            return None
        return (self.first + self.turns) % len(self.sheets)

    @property
    def round(self) -> int:
        """The round being played, 1 to 13 (13 once the game is over)."""
        return min(self.turns // len(self.sheets) + 1, ROUNDS)

    def sheet(self, player: int) -> Sheet:
        """``player``'s sheet."""
        return self.sheets[player]

    def total(self, player: int) -> int:
        """``player``'s score: boxes, upper bonus, Yahtzee bonuses."""
        return self.sheets[player].total

    @property
    def totals(self) -> tuple[int, ...]:
        """Every player's score, in seating order."""
        return tuple(sheet.total for sheet in self.sheets)


def new_game(player_count: int, first: int = 0, options: Options | None = None) -> GameState:
    """Blank sheets for ``player_count`` players (1 to 8); ``first`` plays the first turn."""
    if not is_whole_number(player_count) or not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise RuleError(INVALID, "player_count", count=_shown(player_count), least=MIN_PLAYERS, most=MAX_PLAYERS)
    if not is_whole_number(first) or not 0 <= first < player_count:
        raise RuleError(INVALID, "first_player", first=_shown(first))
    if options is not None and not isinstance(options, Options):
        raise RuleError(INVALID, "bad_options")
    return GameState(options or Options(), first, (Sheet(),) * player_count)


@overload
def apply(state: GameState, action: Score) -> tuple[GameState, Scored]: ...
@overload
def apply(state: GameState, action: ScorePoints) -> tuple[GameState, Scored]: ...
@overload
def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]: ...


def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]:
    """Score the current player's turn; the new state and an account of what happened.

    Raises ``RuleError`` (the state is a value, so it is left as it was) when the rules
    forbid it: ``match_over``, ``box_taken``, ``joker_upper``, ``joker_lower``, or
    ``invalid`` (``unknown_box``, bad dice, bad or impossible points, ``unknown_action``).
    """
    if state.over:
        raise RuleError(MATCH_OVER)
    player = state.current
    if player is None:  # over, said above; for the type checker
        raise RuleError(MATCH_OVER)
    sheet = state.sheets[player]
    dice: Dice | None
    if isinstance(action, Score):
        box = check_box(action.box)
        dice = check_dice(action.dice)
        refusal = sheet.refusal(box, dice)
        if refusal == BOX_TAKEN:
            raise RuleError(BOX_TAKEN, box=box.value)
        if refusal is not None:
            raise RuleError(refusal, box=box.value, dice=list(dice), allowed=_joker_allowed(sheet, dice[0]))
        roll = dice
    elif isinstance(action, ScorePoints):
        box = check_box(action.box)
        roll = dice_for_points(sheet, box, action.points, action.five_alike)
        dice = None
    else:
        raise RuleError(INVALID, "unknown_action")
    points = sheet.points_for(box, roll)
    bonus = sheet.bonus_for(roll)
    new_sheet = sheet.with_score(box, points, bonus)
    upper_bonus = new_sheet.upper_bonus - sheet.upper_bonus
    sheets = state.sheets[:player] + (new_sheet,) + state.sheets[player + 1 :]
    new_state = replace(state, sheets=sheets, turns=state.turns + 1)
    joker = sheet.joker_applies(roll)
    return new_state, Scored(
        player, box, points, dice, joker, bonus, upper_bonus, new_sheet.total, state.round, new_state.over
    )


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players best first (highest total), ties in seating order; equal totals share the
    rank and the next rank skips past them (1, 1, 3)."""
    return rank_by_total(state.totals)


def leaders(state: GameState) -> tuple[int, ...]:
    """The players ranked first now, in seating order (everyone before the first turn)."""
    return ranked_first(standings(state))


def winners(state: GameState) -> tuple[int, ...]:
    """The winning players, in seating order, once the game is over; empty before."""
    return leaders(state) if state.over else ()


def legal_boxes(state: GameState, dice: Sequence[int]) -> tuple[Box, ...]:
    """The boxes the current player may score ``dice`` in, in sheet order (empty once over)."""
    player = state.current
    if player is None:
        return ()
    return tuple(choice.box for choice in box_choices(state.sheets[player], dice) if choice.allowed)
