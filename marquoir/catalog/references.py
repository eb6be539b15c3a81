"""The data each game's quick reference draws (tiles, dice faces), taken from its pure package.

A game with a quick reference has a template ``catalog/reference/<slug>.html`` and, here, a
function returning what that template needs. The functions run for each page, in the
page's language, so the words they hold are translated as they are built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext, gettext_noop, pgettext

from marquoir.games import tarot
from marquoir.games.pickomino.dice import ALL_FACES
from marquoir.games.pickomino.tiles import TILE_BANDS
from marquoir.games.yahtzee import (
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    Box,
    joker_points,
    plain_points,
)


@dataclass(frozen=True, slots=True)
class TileBand:
    """Four tiles in a row that carry the same number of worms."""

    first: int
    last: int
    worms: int

    @property
    def tiles(self) -> range:
        """The tile numbers of the band, lowest first."""
        return range(self.first, self.last + 1)


@dataclass(frozen=True, slots=True)
class DieFace:
    """A die face by its key ("1"–"5", "worm") and what it adds to a total."""

    key: str
    points: int


@dataclass(frozen=True, slots=True)
class PickominoReference:
    """The tile bands and the die faces."""

    bands: tuple[TileBand, ...]
    faces: tuple[DieFace, ...]


def pickomino_reference() -> PickominoReference:
    """Pickomino's quick reference: the 16 tiles in their worm bands, the six die faces."""
    return PickominoReference(
        bands=tuple(TileBand(first, last, worms) for first, last, worms in TILE_BANDS),
        faces=tuple(DieFace(face.key, face.points) for face in ALL_FACES),
    )


@dataclass(frozen=True, slots=True)
class YahtzeeBox:
    """A box of the sheet: its name and what it takes, with a roll that fills it and its points."""

    key: str
    name: str
    rule: str
    dice: tuple[int, ...]
    points: int
    idle: tuple[int, ...] = ()
    """Positions of the dice the box leaves out (a 4 in Ones, the odd die of a straight),
    drawn faded."""


@dataclass(frozen=True, slots=True)
class YahtzeeJoker:
    """An extra Yahtzee scored as a joker: the roll, where the sheet stands, the box it goes
    in, its points and the bonus (the Yahtzee box holding 50)."""

    dice: tuple[int, ...]
    when: str
    box: str
    points: int
    bonus: int


@dataclass(frozen=True, slots=True)
class YahtzeeReference:
    """The sheet's thirteen boxes with an example each, the two bonuses, two jokers."""

    upper: tuple[YahtzeeBox, ...]
    lower: tuple[YahtzeeBox, ...]
    upper_bonus: int
    upper_bonus_threshold: int
    yahtzee_bonus: int
    jokers: tuple[YahtzeeJoker, ...]


# One roll per box, chosen so each shows what its box asks for (3 3 5 5 5 is the rules'
# own full house); the points are the engine's, never typed here.
_YAHTZEE_EXAMPLES: dict[Box, tuple[int, ...]] = {
    Box.ONES: (1, 1, 1, 4, 6),
    Box.TWOS: (2, 2, 3, 4, 5),
    Box.THREES: (3, 3, 3, 3, 6),
    Box.FOURS: (1, 4, 4, 5, 6),
    Box.FIVES: (3, 3, 5, 5, 5),
    Box.SIXES: (2, 6, 6, 6, 6),
    Box.THREE_OF_A_KIND: (2, 4, 4, 4, 6),
    Box.FOUR_OF_A_KIND: (1, 4, 4, 4, 4),
    Box.FULL_HOUSE: (3, 3, 5, 5, 5),
    Box.SMALL_STRAIGHT: (1, 2, 3, 4, 6),
    Box.LARGE_STRAIGHT: (2, 3, 4, 5, 6),
    Box.YAHTZEE: (2, 2, 2, 2, 2),
    Box.CHANCE: (2, 3, 5, 6, 6),
}
# The rules' joker examples (the Yahtzee box holding 50): five 4s with Fours open must go
# there; five 6s with Sixes filled may take a lower box, a straight in full.
_YAHTZEE_JOKERS: tuple[tuple[tuple[int, ...], str, Box], ...] = (
    ((4, 4, 4, 4, 4), gettext_noop("Fours still open"), Box.FOURS),
    ((6, 6, 6, 6, 6), gettext_noop("Sixes already filled"), Box.LARGE_STRAIGHT),
)


def _yahtzee_words() -> dict[Box, tuple[str, str]]:
    """Each box's name as the sheet prints it, and what it takes, in the active language."""
    return {
        Box.ONES: (pgettext("yahtzee box", "Ones"), gettext("the sum of the 1s")),
        Box.TWOS: (pgettext("yahtzee box", "Twos"), gettext("the sum of the 2s")),
        Box.THREES: (pgettext("yahtzee box", "Threes"), gettext("the sum of the 3s")),
        Box.FOURS: (pgettext("yahtzee box", "Fours"), gettext("the sum of the 4s")),
        Box.FIVES: (pgettext("yahtzee box", "Fives"), gettext("the sum of the 5s")),
        Box.SIXES: (pgettext("yahtzee box", "Sixes"), gettext("the sum of the 6s")),
        Box.THREE_OF_A_KIND: (
            pgettext("yahtzee box", "Three of a kind"),
            gettext("at least three alike: the sum of all five dice"),
        ),
        Box.FOUR_OF_A_KIND: (
            pgettext("yahtzee box", "Four of a kind"),
            gettext("at least four alike: the sum of all five dice"),
        ),
        Box.FULL_HOUSE: (
            pgettext("yahtzee box", "Full house"),
            gettext("three of one number, two of another: 25"),
        ),
        Box.SMALL_STRAIGHT: (
            pgettext("yahtzee box", "Small straight"),
            gettext("four numbers in a row: 30"),
        ),
        Box.LARGE_STRAIGHT: (
            pgettext("yahtzee box", "Large straight"),
            gettext("five numbers in a row: 40"),
        ),
        Box.YAHTZEE: (pgettext("yahtzee box", "Yahtzee"), gettext("five alike: 50")),
        Box.CHANCE: (pgettext("yahtzee box", "Chance"), gettext("any five dice: their sum")),
    }


def _idle_dice(box: Box, dice: tuple[int, ...]) -> tuple[int, ...]:
    """Where ``dice`` has dice that ``box`` leaves out: other numbers in an upper box, the
    dice outside the run in a straight; every die counts in the other lower boxes."""
    if box.face is not None:
        return tuple(position for position, die in enumerate(dice) if die != box.face)
    if box in (Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT) and plain_points(box, dice):
        length = 4 if box is Box.SMALL_STRAIGHT else 5
        run = next(
            set(range(low, low + length)) for low in range(1, 8 - length) if set(range(low, low + length)) <= set(dice)
        )
        used: set[int] = set()
        idle = []
        for position, die in enumerate(dice):
            if die in run and die not in used:
                used.add(die)
            else:
                idle.append(position)
        return tuple(idle)
    return ()


def yahtzee_reference() -> YahtzeeReference:
    """Yahtzee's quick reference: each box with a roll that fills it, the bonuses, the joker."""
    words = _yahtzee_words()
    boxes = [
        YahtzeeBox(box.value, *words[box], dice, plain_points(box, dice), _idle_dice(box, dice))
        for box, dice in _YAHTZEE_EXAMPLES.items()
    ]
    return YahtzeeReference(
        upper=tuple(entry for entry in boxes if Box(entry.key).is_upper),
        lower=tuple(entry for entry in boxes if not Box(entry.key).is_upper),
        upper_bonus=UPPER_BONUS,
        upper_bonus_threshold=UPPER_BONUS_THRESHOLD,
        yahtzee_bonus=YAHTZEE_BONUS,
        jokers=tuple(
            YahtzeeJoker(dice, gettext(when), words[box][0], joker_points(box, dice), YAHTZEE_BONUS)
            for dice, when, box in _YAHTZEE_JOKERS
        ),
    )


@dataclass(frozen=True, slots=True)
class CardValue:
    """A kind of card: how many the deck holds, what one counts, what it makes with a low card."""

    name: str
    count: int
    points: float
    with_low_card: int | None
    """None for the low cards themselves: two of them make 1."""


@dataclass(frozen=True, slots=True)
class TarotContract:
    """A contract with its multiplier and what becomes of the dog."""

    key: str
    name: str
    multiplier: int
    dog: str


@dataclass(frozen=True, slots=True)
class Handful:
    """A size of handful: the trumps it shows at each number of players, and its bonus."""

    name: str
    trumps: tuple[int, ...]
    """At 3, 4 and 5 players (``TarotReference.players``)."""
    bonus: int


@dataclass(frozen=True, slots=True)
class TarotReference:
    """What a tarot table looks up: card points, points needed, contracts, bonuses."""

    cards: tuple[CardValue, ...]
    total: int
    base: int
    """What a contract is worth before the gap and the multiplier: 25."""
    needed: tuple[tuple[int, int], ...]
    """(bouts, points needed), 0 to 3 bouts."""
    contracts: tuple[TarotContract, ...]
    players: tuple[int, ...]
    handfuls: tuple[Handful, ...]
    petit_au_bout: int
    chelem_announced_made: int
    chelem_made: int
    chelem_failed_loss: int
    """What an announced chelem that fails costs the taker's side per defender (200)."""


def tarot_reference() -> TarotReference:
    """French Tarot's quick reference, from the scoring engine where it holds the number."""
    # The engine counts only the bouts' value; the court cards' and the low cards' are the
    # deck's (the FFT's table), and a test checks that they add up to the engine's 91.
    cards = (
        CardValue(gettext("Bout (the 21, the Petit, the Excuse)"), tarot.BOUTS, tarot.BOUT_POINTS, 5),
        CardValue(gettext("King"), 4, 4.5, 5),
        CardValue(gettext("Queen"), 4, 3.5, 4),
        CardValue(gettext("Knight"), 4, 2.5, 3),
        CardValue(gettext("Jack"), 4, 1.5, 2),
        CardValue(gettext("Any other card"), 59, 0.5, None),
    )
    contract_words = {
        tarot.Contract.PETITE: (gettext("Petite (or prise)"), gettext("shown, then taken by the taker")),
        tarot.Contract.GARDE: (gettext("Garde"), gettext("shown, then taken by the taker")),
        tarot.Contract.GARDE_SANS: (gettext("Garde sans"), gettext("unseen, counts for the taker")),
        tarot.Contract.GARDE_CONTRE: (gettext("Garde contre"), gettext("unseen, counts for the defence")),
    }
    players = tuple(range(tarot.MIN_PLAYERS, tarot.MAX_PLAYERS + 1))
    return TarotReference(
        cards=cards,
        total=tarot.CARD_POINTS,
        base=tarot.BASE,
        needed=tuple((bouts, tarot.points_needed(bouts)) for bouts in range(tarot.BOUTS + 1)),
        contracts=tuple(
            TarotContract(contract.value, name, contract.multiplier, dog)
            for contract, (name, dog) in contract_words.items()
        ),
        players=players,
        handfuls=tuple(
            Handful(name, tuple(size.trumps(count) for count in players), size.bonus)
            for size, name in (
                (tarot.PoigneeSize.SIMPLE, gettext("Simple")),
                (tarot.PoigneeSize.DOUBLE, gettext("Double")),
                (tarot.PoigneeSize.TRIPLE, gettext("Triple")),
            )
        ),
        petit_au_bout=tarot.PETIT_AU_BOUT,
        chelem_announced_made=tarot.Chelem.ANNOUNCED_MADE.bonus,
        chelem_made=tarot.Chelem.MADE.bonus,
        chelem_failed_loss=-tarot.Chelem.ANNOUNCED_FAILED.bonus,
    )


REFERENCES: dict[str, Callable[[], object]] = {
    "pickomino": pickomino_reference,
    "yahtzee": yahtzee_reference,
    "tarot": tarot_reference,
}


def reference_for(slug: str) -> tuple[str, object] | None:
    """The quick reference template and its data for game ``slug``, or None if it has none."""
    build = REFERENCES.get(slug)
    if build is None:
        return None
    return f"catalog/reference/{slug}.html", build()
