"""French Tarot's quick reference on its rules page: card points, the points a taker needs,
the contracts and the bonuses (drawn by ``tarot/reference.html``), from the scoring engine
where it holds the number; the words are built in the page's language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from marquoir.games import tarot


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
