"""What the sheet's table screen shows, worked out from a match view (no template logic
beyond loops): the band, the round being entered, the grid as on a paper pad, the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.sheet import GameState, leaders, standings, winners
from marquoir.tables.kit import (
    GridRow,
    LineChart,
    MatchView,
    ScoreGrid,
    TableWords,
    band_in_points,
    correcting_entry,
    lead_text,
    refused_entry,
    result_text,
    rounds_chart,
    score_grid,
    standings_by_total,
    total_text,
)

from .actions import ROUND, field_name
from .narration import (
    round_status,
)
from .state import totals_by_round

# From this many players the band packs the scores tighter and scrolls away with the page:
# a band of twenty scores kept in view would leave no room for the sheet under it.
MANY_PLAYERS = 9
WIDE_SCORE = 5


@dataclass(frozen=True)
class ScoreField:
    """One player's field in the round being entered (refilled after a refusal)."""

    index: int
    name: str
    value: str = ""
    negative: bool = False

    @property
    def input(self) -> str:
        """The field's name in the form, as a refusal names it (``score_2``)."""
        return field_name(self.index)

    refused: bool = False


def rules_text(state: GameState) -> str:
    """The sheet's rules in one line: who wins, and when the game ends."""
    options = state.options
    parts = [_("Lowest total wins") if options.lowest_wins else _("Highest total wins")]
    if options.target is not None:
        parts.append(_("ends when a total reaches %(target)s") % {"target": total_text(options.target)})
    if options.rounds is not None:
        parts.append(ngettext("%(rounds)s round", "%(rounds)s rounds", options.rounds) % {"rounds": options.rounds})
    if options.target is None and options.rounds is None:
        parts.append(_("ends when you say so"))
    return " · ".join(parts)


def _fields(names: Sequence[str], refused: Mapping[str, Any]) -> list[ScoreField]:
    """Each player's field, refilled with what a refused round sent (the refusal's own field
    is marked from the write path's ``refused_fields``: ``score_<player>``)."""
    return [
        ScoreField(index, name, str(refused.get(field_name(index), ""))[:12], bool(refused.get(f"minus_{index}")))
        for index, name in enumerate(names)
    ]


def chart(state: GameState, names: Sequence[str]) -> LineChart:
    """Each player's total after every round, with the target's line when it is in range."""
    return rounds_chart(totals_by_round(state), names, number=total_text, target=state.options.target)


def grid(state: GameState, names: Sequence[str], entries: Sequence[int] = ()) -> ScoreGrid:
    """The sheet as on a paper pad: a row a round, the totals and ranks under them;
    ``entries``: the seq of each action in force, the round's own to correct it."""
    return score_grid(
        title=_("The sheet"),
        corner=_("Round"),
        empty=_("No round yet."),
        names=names,
        rows=(
            GridRow(
                number=index + 1,
                cells=tuple(total_text(score) for score in scores),
                correct=entries[index] if index < len(entries) else None,
            )
            for index, scores in enumerate(state.rounds)
        ),
        totals=state.totals,
        ranks={standing.player: standing.rank for standing in standings(state)},
        leaders=set(leaders(state)) if state.rounds else set(),
        number=total_text,
        lead=lead_text(leaders(state), state.totals, names) if state.rounds and not state.over else None,
    )


def table_context(request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool) -> dict[str, Any]:
    """Everything sheet/table.html needs."""
    state, names = view.engine.state, list(view.row.players)
    totals = state.totals
    number = state.round_count + 1
    context: dict[str, Any] = {
        "players": band_in_points(names, totals, marked=view.row.first),
        "many_players": len(names) >= MANY_PLAYERS,
        # Totals of five characters and more (−1234, 10000) need wider tiles in the band.
        "wide_scores": max(len(total_text(total)) for total in totals) >= WIDE_SCORE,
        # The game the sheet keeps score of, when the table named it.
        "game_name": state.options.title or _("Score sheet"),
        "rules_text": rules_text(state),
        "grid": grid(state, names, view.slots),
        "words": TableWords(
            title=_("Score sheet"),
            watching=_("You are watching this match. Only the devices keeping score can record rounds."),
            watch=_("Follows the sheet live; cannot record rounds."),
            keep=_("Lets that phone record rounds and undo: show it only at the table."),
            stylesheets=("css/grid.css", "sheet/sheet.css"),
        ),
        "entry_dropped": False,
    }
    correction = correcting_entry(request) if can_edit else None
    if correction is not None:  # a past round, its scores in the fields as they stand
        context.update(
            status_text=round_status(correction.step + 1, state.options.rounds),
            round_number=correction.step + 1,
            fields=_fields(names, refused_entry(request, view.row.seq, ROUND)),
        )
        return context
    if state.over:
        won = winners(state)
        headline = result_text(won, totals, names)
        context.update(
            status_text=headline,
            standings=standings_by_total(
                ((standing.rank, standing.player, standing.score) for standing in standings(state)),
                names,
                won,
                number=total_text,
            ),
            chart=chart(state, names),
        )
        return context
    context.update(status_text=round_status(number, state.options.rounds), round_number=number)
    if can_edit:
        context["fields"] = _fields(names, refused_entry(request, view.row.seq, ROUND))
        if state.rounds:
            # What ending now would say, under the button that does it.
            context["end_now"] = result_text(leaders(state), totals, names)
    return context
