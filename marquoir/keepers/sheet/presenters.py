"""What the sheet's table screen shows, worked out from a match view (no template logic
beyond loops): the band, the round being entered, the grid as on a paper pad, the end."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.sheet import GameState, RuleError, leaders, standings, winners
from marquoir.tables.actions import FreshIds
from marquoir.tables.log_words import LogWords, log_in_words
from marquoir.tables.selectors import MatchView, in_force

from .actions import ROUND, form_action, parse_payload
from .narration import (
    describe,
    describe_short,
    describe_undo,
    describe_undo_short,
    lead_text,
    result_text,
    round_status,
    score_text,
)
from .state import totals_by_round

# From this many players the band packs the scores tighter and scrolls away with the page:
# a band of twenty scores kept in view would leave no room for the sheet under it.
MANY_PLAYERS = 9
WIDE_SCORE = 5
# The chart's colours (chart__line--N in tables/table.css); past them, dashes tell lines apart.
CHART_COLOURS = 7
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 24


LOG_WORDS = LogWords(describe, describe_short, describe_undo, describe_undo_short)


@dataclass(frozen=True)
class BandPlayer:
    """A player as the core's band shows them: the total, and no one's turn in particular."""

    index: int
    name: str
    score: str
    current: bool = False
    score_unit: str = ""  # said to a screen reader after the score: "1 point", "12 points"


@dataclass(frozen=True)
class ScoreField:
    """One player's field in the round being entered (refilled after a refusal)."""

    index: int
    name: str
    value: str = ""
    negative: bool = False
    refused: bool = False


@dataclass(frozen=True)
class Cell:
    """A number of the grid; ``leader`` marks the totals ranked first."""

    text: str
    leader: bool = False


def _cell(value: int, *, leader: bool = False) -> Cell:
    return Cell(score_text(value), leader)


def rules_text(state: GameState) -> str:
    """The sheet's rules in one line: who wins, and when the game ends."""
    options = state.options
    parts = [_("Lowest total wins") if options.lowest_wins else _("Highest total wins")]
    if options.target is not None:
        parts.append(_("ends when a total reaches %(target)s") % {"target": score_text(options.target)})
    if options.rounds is not None:
        parts.append(ngettext("%(rounds)s round", "%(rounds)s rounds", options.rounds) % {"rounds": options.rounds})
    if options.target is None and options.rounds is None:
        parts.append(_("ends when you say so"))
    return " · ".join(parts)


def _refused_entry(request: HttpRequest, seq: int) -> Mapping[str, Any]:
    """What a refused round form sent, to show it again: only a round posted on the table as
    it still is (a recorded one moved the seq; one made on an older table is dropped)."""
    if request.method != "POST":
        return {}
    posted = request.POST
    if posted.get("type") != ROUND or posted.get("expected_seq") != str(seq):
        return {}
    return posted


def _refused_player(refused: Mapping[str, Any]) -> object:
    """The player whose field the form's refusal named (read again from what it sent)."""
    if not refused:
        return None
    try:
        parse_payload(form_action(refused))
    except RuleError as error:
        return error.params.get("player")
    return None


def _fields(names: Sequence[str], refused: Mapping[str, Any]) -> list[ScoreField]:
    wrong = _refused_player(refused)
    return [
        ScoreField(
            index,
            name,
            str(refused.get(f"score_{index}", ""))[:12],
            bool(refused.get(f"minus_{index}")),
            refused=index == wrong,
        )
        for index, name in enumerate(names)
    ]


def chart(state: GameState, names: Sequence[str]) -> dict[str, Any]:
    """Each player's total after every round as a polyline, scaled into the chart box, with
    the zero line when a total went below it and the target's line when it is in range."""
    series = totals_by_round(state)
    steps = max(len(series[0]) - 1, 1)
    low = min(min(values) for values in series)
    high = max(max(max(values) for values in series), low + 1)
    top, bottom = score_text(high), score_text(low)
    # Room on the left for the longer of the two labels (about 6 units a character at 10 px).
    left = max(CHART_PAD, 6 * max(len(top), len(bottom)) + 8)
    inner_w, inner_h = CHART_WIDTH - left - CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD

    def y(value: int) -> float:
        return CHART_HEIGHT - CHART_PAD - inner_h * (value - low) / (high - low)

    lines = []
    for player, values in enumerate(series):
        points = " ".join(f"{left + inner_w * step / steps:.1f},{y(value):.1f}" for step, value in enumerate(values))
        lines.append(
            {
                "player": player,
                "colour": player % CHART_COLOURS,
                "dashes": player // CHART_COLOURS,
                "name": names[player],
                "points": points,
                "last": score_text(values[-1]),
            }
        )
    target = state.options.target
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "pad": CHART_PAD,
        "left": left,
        "label_x": left - 4,
        "right_x": CHART_WIDTH - CHART_PAD,
        "bottom_y": CHART_HEIGHT - CHART_PAD,
        "lines": lines,
        "top": top,
        "bottom": bottom,
        "zero_y": f"{y(0):.1f}" if low < 0 < high else None,
        "zero_label_y": f"{y(0) + 3:.1f}",
        "target_y": f"{y(target):.1f}" if target is not None and low <= target <= high else None,
        "target": score_text(target) if target is not None else None,
        "steps": steps,
    }


def table_context(request: HttpRequest, view: MatchView, *, can_edit: bool) -> dict[str, Any]:
    """Everything sheet/table.html needs."""
    state, names = view.engine.state, list(view.row.players)
    totals = state.totals
    leading = set(leaders(state)) if state.rounds else set()
    rank_of = {standing.player: standing.rank for standing in standings(state)}
    log, last_action = log_in_words(view, LOG_WORDS)
    number = state.round_count + 1
    context: dict[str, Any] = {
        "match": view.row,
        "state": state,
        "players": [
            BandPlayer(
                index, name, score_text(totals[index]), score_unit=ngettext("point", "points", abs(totals[index]))
            )
            for index, name in enumerate(names)
        ],
        "many_players": len(names) >= MANY_PLAYERS,
        # Totals of five characters and more (−1234, 10000) need wider tiles in the band.
        "wide_scores": max(len(score_text(total)) for total in totals) >= WIDE_SCORE,
        "rules_text": rules_text(state),
        "grid_rows": [
            {"number": index + 1, "cells": [_cell(score) for score in scores]}
            for index, scores in enumerate(state.rounds)
        ],
        "grid_columns": len(names) + 1,
        "totals": [_cell(total, leader=index in leading) for index, total in enumerate(totals)],
        "ranks": [rank_of[index] for index in range(len(names))],
        "log": log,
        "last_action": last_action,
        "can_edit": can_edit,
        # From the whole log: the lines shown are only the last ones (log_words.LOG_SHOWN).
        "can_undo": can_edit and bool(in_force(view.log)),
        "action_ids": FreshIds(),
        # A second key for Undo, so that a round recorded and then Undo are two actions.
        "undo_action_id": uuid.uuid4().hex,
        "score_unit": _("points"),
        "entry_dropped": False,
    }
    if state.over:
        won = winners(state)
        headline = result_text(won, totals, names)
        context.update(
            status_text=headline,
            standings=[
                {
                    "rank": standing.rank,
                    "name": names[standing.player],
                    "score": score_text(standing.score),
                    "winner": standing.player in won,
                }
                for standing in standings(state)
            ],
            chart=chart(state, names),
        )
        return context
    context.update(status_text=round_status(number, state.options.rounds), round_number=number)
    if state.rounds:
        context["lead_now"] = lead_text(leaders(state), totals, names)
    if can_edit:
        context["fields"] = _fields(names, _refused_entry(request, view.row.seq))
        if state.rounds:
            # What ending now would say, under the button that does it.
            context["end_now"] = result_text(leaders(state), totals, names)
    return context
