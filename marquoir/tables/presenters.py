"""What the table screen shows, worked out from a match view (no template logic beyond loops)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.pickomino import GRILL, TILES, BustReason, Face, standings, tie_break_decided, winners, worms_on

from .assistant import advice_for, face_name
from .messages import message_for
from .narration import describe, describe_undo
from .selectors import MatchView, worms_over_time
from .turn import read_turn


@dataclass(frozen=True)
class GrillSlot:
    tile: int
    worms: int
    place: str  # "up", "down" or "held"
    holder: str | None = None


@dataclass(frozen=True)
class PlayerCard:
    index: int
    name: str
    worms: int
    top: int | None
    top_worms: int
    tiles: int
    current: bool


@dataclass(frozen=True)
class LogLine:
    seq: int
    text: str
    undone: bool
    is_undo: bool


CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 24


def _chart(view: MatchView) -> dict[str, Any]:
    """Polylines of each player's worms after every action in force, scaled into the chart box."""
    series = worms_over_time(view)
    steps = max(len(series[0]) - 1, 1)
    top = max(max(max(s) for s in series), 1)
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    lines = []
    for player, values in enumerate(series):
        points = " ".join(
            f"{CHART_PAD + inner_w * step / steps:.1f},{CHART_HEIGHT - CHART_PAD - inner_h * value / top:.1f}"
            for step, value in enumerate(values)
        )
        lines.append({"player": player, "name": view.row.players[player], "points": points, "last": values[-1]})
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "pad": CHART_PAD,
        "lines": lines,
        "top": top,
        "steps": steps,
        "bottom_y": CHART_HEIGHT - CHART_PAD,
        "right_x": CHART_WIDTH - CHART_PAD,
    }


def _result_text(view: MatchView) -> tuple[str, str | None]:
    """The winner sentence, and the tie-break explained when it decided."""
    state, names = view.engine.state, view.row.players
    won = winners(state)
    table = standings(state)
    if len(won) > 1:
        together = ", ".join(names[p] for p in won)
        return _("%(names)s share the win.") % {"names": together}, _("Tied players with no tile share the win.")
    leader = table[0]
    headline = ngettext("%(name)s wins with %(count)s worm.", "%(name)s wins with %(count)s worms.", leader.worms) % {
        "name": names[leader.player],
        "count": leader.worms,
    }
    if not tie_break_decided(state):
        return headline, None
    tied = [row for row in table if row.worms == leader.worms]
    explanation = _(
        "%(names)s are tied on worms; %(winner)s holds the highest tile, %(tile)s, and wins the tie-break."
    ) % {
        "names": ", ".join(names[row.player] for row in tied),
        "winner": names[leader.player],
        "tile": leader.best_tile,
    }
    return headline, explanation


def table_context(view: MatchView, query: Mapping[str, str], *, can_edit: bool) -> dict[str, Any]:
    """Everything tables/table.html needs."""
    state, names = view.engine.state, view.row.players
    holders = {tile: index for index, stack in enumerate(state.stacks) for tile in stack}
    grill = [
        GrillSlot(
            tile,
            worms_on(tile),
            "up" if tile in state.face_up else "down" if tile in state.face_down else "held",
            names[holders[tile]] if tile in holders else None,
        )
        for tile in TILES
    ]
    players = []
    for index, name in enumerate(names):
        top = state.top(index)
        players.append(
            PlayerCard(
                index=index,
                name=name,
                worms=state.worms(index),
                top=top,
                top_worms=worms_on(top) if top is not None else 0,
                tiles=len(state.stacks[index]),
                current=index == state.current and not state.over,
            )
        )
    log: list[LogLine] = []
    outcomes_by_seq = {logged.seq: logged.outcome for logged in view.log}
    for logged in view.log:
        if logged.outcome is not None:
            text = describe(logged.outcome, names)
        else:
            text = describe_undo(outcomes_by_seq.get(logged.undoes or -1), names)
        log.append(LogLine(logged.seq, text, logged.undone, logged.outcome is None))
    log.reverse()
    last_in_force = next((line for line in log if not line.undone and not line.is_undo), None)
    context: dict[str, Any] = {
        "match": view.row,
        "state": state,
        "grill": grill,
        "players": players,
        "current_name": names[state.current],
        "log": log,
        "undo_line": last_in_force,
        "can_edit": can_edit,
        "turn": read_turn(query, state) if can_edit and not state.over else None,
        "action_id": uuid.uuid4().hex,
        "face_up_count": len(state.face_up),
        "all_faces": list(Face),
    }
    turn = context["turn"]
    if turn is not None and turn.mode == "dice" and view.row.assistant and not turn.asked and turn.error is None:
        context["assistant_view"] = advice_for(turn, state, names)
    if turn is not None and turn.roll is not None:
        best_keep = context["assistant_view"].best_keep if "assistant_view" in context else None
        context["roll_keep_choices"] = [
            {
                "label": _("Keep %(dice)s") % {"dice": face_name(face, count)},
                "query": "?"
                + urlencode({"mode": "dice", "dice": turn.dice_code, "roll": turn.roll_code, "keep": face.key}),
                "advised": face.key == best_keep,
            }
            for face, count in turn.roll_keeps
        ]
    if turn is not None:
        context["claim_choices"] = [
            {
                "source": claim.source,
                "label": _("Take %(tile)s from the grill") % {"tile": claim.tile}
                if claim.source == GRILL
                else _("Steal %(tile)s from %(name)s") % {"tile": claim.tile, "name": names[int(claim.source)]},
            }
            for claim in turn.claims
        ]
        if turn.bust_reason is not None:
            context["turn_bust_text"] = (
                _("Bust: no worm was kept, so no tile can be claimed.")
                if turn.bust_reason == BustReason.NO_WORM
                else _(
                    "Bust: no face-up tile on the grill at or below %(total)s, and no opponent’s top tile is %(total)s."
                )
                % {"total": turn.total}
            )
        if turn.error is not None:
            context["turn_error"] = message_for(turn.error.code, turn.error.reason, turn.error.params, names)
    if state.over:
        headline, tie_break = _result_text(view)
        context.update(
            result_headline=headline,
            tie_break=tie_break,
            standings=[
                {"rank": row.rank, "name": names[row.player], "worms": row.worms, "best_tile": row.best_tile}
                for row in standings(state)
            ],
            chart=_chart(view),
        )
    return context
