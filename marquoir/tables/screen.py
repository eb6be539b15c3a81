"""The parts of a table screen every game shows alike (``tables/table.html`` and its
partials): what the core knows of any match (``TableShell``: the log in words, Undo, the
forms' keys), and the values a game's presenter builds for the shell to draw (the words of
the page, the final standings, the score grid; the chart is ``tables.charts``).

A game's presenter fills the second kind from its engine's state; it never writes their
markup, and never the first kind at all.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.rules import RuleError

from .actions import FreshIds, ascii_number
from .fold import MatchView
from .keepers import ScoreKeeper
from .log_words import LogLines, log_in_words, undo_and_redo_words
from .models import Match
from .standing_words import total_text


@dataclass(frozen=True, slots=True)
class Correction:
    """A past entry being corrected in place: the pad opens on its action as it stands, and
    what it sends replaces it (``{"type": "correct", "seq": …}``)."""

    seq: int
    """The seq of the entry corrected (an action in force)."""
    step: int
    """Its place among the actions in force (the engine's steps): 0 for the first."""
    payload: Mapping[str, Any]
    """Its action as it stands (a correction's, if one is in force)."""
    values: Mapping[str, str]
    """The pad's form fields that send that action (``Keeper.correction_form``)."""
    text: str
    """The entry as it stands, in words."""


# The request attribute that holds the correction a table screen opens on, for the game's pad
# to refill from (``refused_entry``), as django-htmx's middleware leaves ``request.htmx``.
CORRECTION_ATTRIBUTE = "marquoir_correction"


def correction_of(view: MatchView, keeper: ScoreKeeper, asked: object) -> Correction | None:
    """The correction of entry ``asked`` (a seq, as an address or a form writes it), if it
    is an action in force that the game's pad can show; None otherwise (the table then
    opens as it is)."""
    try:
        seq = ascii_number(asked, reason="bad_correction_seq", digits=9)
    except RuleError:
        return None
    payload = view.payloads.get(seq)
    values = keeper.correction_form(payload) if payload is not None else None
    if payload is None or values is None:
        return None
    step = view.slots.index(seq)
    text = keeper.log_words.describe(view.engine.steps[step].outcome, view.players)
    return Correction(seq, step, payload, values, text)


@dataclass(frozen=True, slots=True)
class TableShell:
    """What the table screen shows of any match, built by the core for every game's page: the
    shell's templates (the bar, the log, the forms' guards) read these, by these names."""

    match: Match
    state: Any
    """The engine's state (its ``over`` ends the pad and opens the results)."""
    can_edit: bool
    """This device keeps score on the match (its pad, Undo); otherwise it watches."""
    can_undo: bool
    """Something is in force to undo: read from the whole log, not only the lines shown."""
    undo_words: str | None
    """What Undo would take back, in a few words ("Ada · Twos 6"): the button names it."""
    redo_words: str | None
    """What Redo would do again (None: nothing to redo, so no Redo)."""
    log: LogLines
    last_action: str | None
    """The last entry in a few words, for the bar (None before any)."""
    action_ids: FreshIds = field(default_factory=FreshIds)
    """A fresh ``action_id`` per form of the page (``{{ action_ids.claim }}``)."""
    undo_action_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    """Undo's own key, so that a tap and then Undo are two actions."""
    redo_action_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    rules_url: str | None = None
    """The game's rules page, linked under the table: a game with box facts has one in the
    catalog; the sheet, which keeps score for any game, has none."""
    refused_fields: tuple[str, ...] = ()
    """The inputs a refused action was about, as its form names them, for the pad to mark:
    none here; the view that renders a refusal gives the write path's
    ``Outcome.refused_fields`` in their place."""
    correcting: Correction | None = None
    """The past entry the pad corrects, when the screen was opened to correct one."""
    correctable: frozenset[int] = frozenset()
    """The seqs of the log's lines that can be corrected in place (a "Correct" link each)."""
    played_minutes: int | None = None
    """A finished match: how long it was played, from its start to its last entry."""

    def as_context(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


# What other apps add to every table screen, as a part of its context (``add_table_part``):
# a group names itself and links back, and offers its own rematch. The core imports none of
# them: each registers its part when it is ready, as the groups follow writes.
TablePart = Callable[[HttpRequest, MatchView, bool], Mapping[str, Any]]
_table_parts: list[TablePart] = []


def add_table_part(part: TablePart) -> None:
    """Have ``part(request, view, can_edit)`` add to every table screen's context: the keys
    the shell reads are ``table_group`` (a ``TableGroup``: the group the match is in, named
    and linked back) and ``rematch_url`` (where "New match with the same players" goes)."""
    if part not in _table_parts:
        _table_parts.append(part)


def table_parts(request: HttpRequest, view: MatchView, *, can_edit: bool) -> dict[str, Any]:
    added: dict[str, Any] = {}
    for part in _table_parts:
        added.update(part(request, view, can_edit))
    return added


@dataclass(frozen=True, slots=True)
class TableGroup:
    """The group a match was played for, as its table names it: its name and its page."""

    name: str
    url: str


def table_shell(view: MatchView, keeper: ScoreKeeper, *, can_edit: bool, correct: object = None) -> TableShell:
    """The core's part of a table screen for ``view``, its log in the words of ``keeper``;
    ``correct``: the seq of an entry to correct, as the address or the form gave it."""
    log, last_action = log_in_words(view, keeper.log_words)
    undo_words, redo_words = undo_and_redo_words(view, keeper.log_words) if can_edit else (None, None)
    correctable: frozenset[int] = frozenset()
    if can_edit:
        correctable = frozenset(
            line.seq
            for line in log
            if line.seq in view.payloads and keeper.correction_form(view.payloads[line.seq]) is not None
        )
        # The links' words made once, not by the template for each of up to 200 lines.
        label = _("Correct entry %(seq)s")
        for index, line in enumerate(log):
            if line.seq in correctable:
                log[index] = dataclasses.replace(line, correct_label=label % {"seq": line.seq})
    return TableShell(
        match=view.row,
        state=view.engine.state,
        can_edit=can_edit,
        can_undo=undo_words is not None,
        undo_words=undo_words,
        redo_words=redo_words,
        log=log,
        last_action=last_action,
        rules_url=keeper.rules_address(),
        correcting=correction_of(view, keeper, correct) if can_edit else None,
        correctable=correctable,
        played_minutes=_played_minutes(view.row) if view.engine.state.over else None,
    )


def _played_minutes(row: Match) -> int | None:
    if row.created_at is None or row.updated_at is None:
        return None
    return max(1, round((row.updated_at - row.created_at).total_seconds() / 60))


@dataclass(frozen=True, slots=True)
class TableWords:
    """What the shared parts of the table screen say that only the game knows."""

    title: str
    """The page's title ("Pickomino table")."""
    watching: str
    """Told to a device that watches: "You are watching this match. Only the devices keeping
    score can record turns." (turns, rounds, deals: the game's word)."""
    watch: str
    """Under the watch link's QR code: what that link lets a phone do."""
    keep: str
    """Under the keep-score link's QR code."""
    stylesheets: tuple[str, ...] = ()
    """The game's own stylesheets, as static paths ("tarot/tarot.css"), after the core's."""


FITTED_SCORE_LENGTHS = range(3, 8)
"""The scores' lengths the band fits to their tile (BandPlayer.score_length): from three
characters ("−42"), which no longer fit a tile of eight players on a 320 px phone at the band's
size, to seven ("−100000"; longer ones are written at seven's size)."""


@dataclass(frozen=True, slots=True)
class BandPlayer:
    """A player as the band shows them (tables/_band.html): the name, the score as the game
    writes it, whose turn it is."""

    index: int
    name: str
    score: str
    current: bool = False
    score_unit: str = ""
    """Said to a screen reader after the score, in the number's plural ("1 point", "12 points")."""
    mark: SeatMark | None = None
    """Who started the match, or deals (Tarot): marked on their tile."""
    note: str = ""
    """A value shown under the score (a declared game's tracked value: "Phase 4")."""
    whole_name: bool = False
    """The name wraps rather than being cut (a team's: "Aïcha et Chloé" at 320 px)."""

    @property
    def score_length(self) -> str:
        """How long the score is, for the band to fit it to its tile (table.css, band__figure--N:
        at most the band's size, smaller in a narrow tile): "3" for "−42" up to "7" for "−100000"
        and longer. Empty for a score of one or two characters, which fits any tile."""
        length = len(self.score)
        if length < FITTED_SCORE_LENGTHS.start:
            return ""
        return str(min(length, FITTED_SCORE_LENGTHS.stop - 1))


@dataclass(frozen=True, slots=True)
class SeatMark:
    """A player's role at the table, marked on the band: a sign shown before the name (one
    glyph: a tile of eight players on a 320 px phone has room for no word more; its words
    are its title, on a pointer's hover) and the words said to a screen reader ("started the
    match")."""

    sign: str
    said: str


def started_mark() -> SeatMark:
    """The player who started the match (every game but Tarot, whose band marks the dealer)."""
    return SeatMark("⚑", _("started the match"))


def dealer_mark() -> SeatMark:
    """The player who deals this round."""
    return SeatMark("♠", _("deals this round"))


def band_in_points(
    names: Sequence[str],
    totals: Sequence[int],
    *,
    current: int | None = None,
    marked: int | None = None,
    mark: SeatMark | None = None,
) -> list[BandPlayer]:
    """The band of a game scored in points: each total as the band writes it (−12 with a
    true minus sign), and "point" or "points" after it for a screen reader; ``marked``: the
    seat ``mark`` goes to (who started, by default)."""
    return [
        BandPlayer(
            index,
            name,
            total_text(total),
            current=index == current,
            score_unit=ngettext("point", "points", abs(total)),
            mark=(mark or started_mark()) if index == marked else None,
        )
        for index, (name, total) in enumerate(zip(names, totals, strict=True))
    ]


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    name: str
    winner: bool
    cells: tuple[str, ...]
    """The game's columns for this player (its total, by default)."""


@dataclass(frozen=True, slots=True)
class Standings:
    """The final standings: best first, with the game's columns after the rank and the name."""

    rows: tuple[StandingRow, ...]
    columns: tuple[str, ...]
    tie_break: str | None = None
    """How the tie-break decided, in a sentence, when it did."""
    who: str = ""
    """The name column's heading where it is not "Player" (a team game's: "Team")."""
    mark_winners: bool = True
    """A "wins" badge beside each winner's name; without it, the winners' rows are only bold
    (for standings of several columns, where the name's column is narrow)."""
    ranked: bool = True
    """The rank column; without it, a result rather than standings (a cooperative game's table,
    which wins or loses together: no rank to give), drawn as a list of its values."""

    def result_items(self) -> list[tuple[str, str]]:
        """A result's values, each with its column's heading (the first row's)."""
        return list(zip(self.columns, self.rows[0].cells, strict=True)) if self.rows else []


def standings_by_total(
    order: Iterable[tuple[int, int, int]],
    names: Sequence[str],
    winners: Collection[int],
    *,
    number: Callable[[int], str] = str,
    tie_break: str | None = None,
) -> Standings:
    """Standings with one column, the total: ``order`` gives (rank, player, total), best first."""
    rows = tuple(
        StandingRow(rank=rank, name=names[player], winner=player in winners, cells=(number(total),))
        for rank, player, total in order
    )
    return Standings(rows=rows, columns=(_("Total"),), tie_break=tie_break)


@dataclass(frozen=True, slots=True)
class GridCell:
    text: str
    leader: bool = False


@dataclass(frozen=True, slots=True)
class GridRow:
    """A round (a deal) of the grid: its number (or, for a game scored at the end, its
    category's name), and each player's points in it."""

    number: int | str
    cells: tuple[str, ...] = ()
    title: str = ""
    """A few words beside the number (a Tarot deal's taker and contract)."""
    failed: bool = False
    """The title in the colour of a failure (a contract lost)."""
    passed: str = ""
    """When no one scored (a deal everyone passed): the words that stand for the cells."""
    correct: int | None = None
    """The seq of the entry this row is, when the pad can correct it in place (the row's
    number then opens the pad on it, for a device keeping score)."""


@dataclass(frozen=True, slots=True)
class ScoreGrid:
    """Rounds × players as on a paper pad, with the totals and ranks under them."""

    title: str
    corner: str
    """The rows' heading ("Round", "Deal")."""
    empty: str
    """Shown before the first row ("No round yet.")."""
    names: tuple[str, ...]
    rows: tuple[GridRow, ...]
    totals: tuple[GridCell, ...]
    ranks: tuple[int, ...]
    lead: str | None = None
    """Who leads, in a sentence, above the grid."""

    @property
    def columns(self) -> int:
        return len(self.names) + 1


def score_grid(
    *,
    title: str,
    corner: str,
    empty: str,
    names: Sequence[str],
    rows: Iterable[GridRow],
    totals: Sequence[int],
    ranks: Mapping[int, int],
    leaders: Collection[int],
    number: Callable[[int], str] = str,
    lead: str | None = None,
) -> ScoreGrid:
    """The grid of a game scored round by round; ``leaders`` are the totals marked first."""
    return ScoreGrid(
        title=title,
        corner=corner,
        empty=empty,
        names=tuple(names),
        rows=tuple(rows),
        totals=tuple(GridCell(number(total), leader=player in leaders) for player, total in enumerate(totals)),
        ranks=tuple(ranks[player] for player in range(len(names))),
        lead=lead,
    )


def correcting_entry(request: HttpRequest) -> Correction | None:
    """The past entry the table screen being drawn corrects, if it was opened to correct one
    (the core found it in the address or the refused form: see ``correction_of``)."""
    correction: Correction | None = getattr(request, CORRECTION_ATTRIBUTE, None)
    return correction


def refused_entry(request: HttpRequest, seq: int, action_type: str) -> Mapping[str, Any]:
    """What a refused form of ``action_type`` sent, to show it again: only one posted on the
    table as it still is (a recorded action moved the seq; one made on an older table is
    dropped); or, on a screen opened to correct an entry of that type, its action as the
    pad's fields send it."""
    if request.method != "POST":
        correction = correcting_entry(request)
        return correction.values if correction is not None and correction.values.get("type") == action_type else {}
    posted = request.POST
    if posted.get("type") != action_type or posted.get("expected_seq") != str(seq):
        return {}
    return posted
