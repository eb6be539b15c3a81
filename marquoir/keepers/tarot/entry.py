"""The deal being entered on a page, carried in the address (nothing is stored until it is recorded).

Each tap of the pad is a link that adds one choice to the address: the taker, the contract,
the partner at 5 players, the bouts; then a form holds the points and the extras, and the
server shows the deal's score before it is recorded (the page asks again as they change).
The address keeps the entry through a reload; and the server judges the entry, so the
preview is the score the deal will get.

An entry is bound to the table it started from: every address that carries one carries
the match's ``seq`` too. When the match has moved on since (another phone recorded a deal,
an undo), the entry is dropped rather than shown for the next deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from marquoir.games.tarot import (
    BOUTS,
    MAX_PLAYERS,
    CheckedDeal,
    Chelem,
    Contract,
    PoigneeSize,
    RuleError,
    Side,
    check_deal,
)
from marquoir.rules import INVALID

from .actions import deal_body, deal_of, deal_payload

TAKER, CONTRACT, PARTNER, BOUTS_STEP, POINTS = "taker", "contract", "partner", "bouts", "points"
POIGNEE_FIELDS = tuple(f"poignee_{player}" for player in range(MAX_PLAYERS))
# The address parameters that make up an entry, in the order they are chosen.
ENTRY_PARAMETERS = ("taker", "contract", "partner", "bouts", "counted", "points", "petit", *POIGNEE_FIELDS, "chelem")
# More than any valid value: such a parameter is dropped before anything reads it.
_MAX_LENGTH = 16
_MAX_SEQ_DIGITS = 9


def carries_entry(query: Mapping[str, str]) -> bool:
    return any(query.get(name) for name in ENTRY_PARAMETERS)


@dataclass
class DealEntry:
    """The deal so far: each choice as the address gives it (only valid ones are kept)."""

    seq: int
    player_count: int
    values: dict[str, str] = field(default_factory=dict)
    # The address carried an entry made on an older table (or on none): it was not shown.
    dropped: bool = False
    # The entry was made on this match at an earlier seq: another phone or an undo moved it on.
    overtaken: bool = False
    checked: CheckedDeal | None = None
    error: RuleError | None = None
    # The past deal this entry corrects (its seq), carried by every address of the entry.
    correct: int | None = None

    def _index(self, name: str) -> int | None:
        text = self.values.get(name)
        return int(text) if text is not None else None

    @property
    def taker(self) -> int | None:
        return self._index("taker")

    @property
    def partner(self) -> int | None:
        return self._index("partner")

    @property
    def bouts(self) -> int | None:
        return self._index("bouts")

    @property
    def contract(self) -> Contract | None:
        text = self.values.get("contract")
        return Contract(text) if text else None

    @property
    def counted(self) -> str:
        return self.values.get("counted", Side.TAKER.value)

    @property
    def points(self) -> str:
        return self.values.get("points", "")

    @property
    def needs_partner(self) -> bool:
        return self.player_count == MAX_PLAYERS

    @property
    def step(self) -> str:
        """What the pad asks for next."""
        if self.taker is None:
            return TAKER
        if self.contract is None:
            return CONTRACT
        if self.needs_partner and self.partner is None:
            return PARTNER
        if self.bouts is None:
            return BOUTS_STEP
        return POINTS

    @property
    def has_extras(self) -> bool:
        return any(self.values.get(name) for name in ("petit", *POIGNEE_FIELDS, "chelem"))

    def query(self, **changes: object) -> str:
        """The address of this entry with ``changes`` (None removes a choice), seq included."""
        values: dict[str, object] = {"seq": self.seq, **self.values}
        if self.correct is not None:
            values["correct"] = self.correct
        for name, value in changes.items():
            if value is None:
                values.pop(name, None)
            else:
                values[name] = value
        return "?" + urlencode(values)

    def fields(self) -> list[tuple[str, str]]:
        """The entry as hidden fields of the form that records it."""
        return list(self.values.items())


def _valid(name: str, text: str, player_count: int) -> bool:
    if len(text) > _MAX_LENGTH:
        return False
    if name in {"taker", "partner"}:
        return text.isascii() and text.isdigit() and int(text) < player_count
    if name == "contract":
        return text in tuple(Contract)
    if name == "bouts":
        return text.isascii() and text.isdigit() and int(text) <= BOUTS
    if name in {"counted", "petit"}:
        return text in tuple(Side)
    if name == "chelem":
        return text in tuple(Chelem)
    if name.startswith("poignee_"):
        return text in tuple(PoigneeSize) and int(name.removeprefix("poignee_")) < player_count
    return name == "points"  # as typed: judged with the deal


def read_entry(query: Mapping[str, str], seq: int, player_count: int) -> DealEntry:
    """The deal pad for the address's query, on the match as it is at ``seq``."""
    entry = DealEntry(seq, player_count)
    if not carries_entry(query):
        return entry
    if query.get("seq") != str(seq):
        entry.dropped = True
        given = query.get("seq") or ""
        entry.overtaken = given.isascii() and given.isdigit() and len(given) <= _MAX_SEQ_DIGITS and int(given) < seq
        return entry
    for name in ENTRY_PARAMETERS:
        text = (query.get(name) or "").strip()
        if text and _valid(name, text, player_count):
            entry.values[name] = text
    if player_count < MAX_PLAYERS:
        entry.values.pop("partner", None)
    if entry.step == POINTS and entry.points:
        judge(entry)
    return entry


def judge(entry: DealEntry) -> None:
    """The deal's score as it would be recorded, or the engine's reason it cannot be."""
    try:
        body = deal_body(entry.values)
        if "points" not in body and "defence_points" not in body:
            raise RuleError(INVALID, "points_missing")
        entry.checked = check_deal(deal_of(deal_payload(body)), entry.player_count)
    except RuleError as error:
        entry.error = error
