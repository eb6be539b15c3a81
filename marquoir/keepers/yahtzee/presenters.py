"""What Yahtzee's table screen shows, worked out from a match view (no template logic beyond
loops): the band, the dice pad, the box list with what each box would take, every sheet
side by side, the assistant, the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.yahtzee import (
    BOXES,
    DICE_COUNT,
    FACES,
    JOKER_UPPER,
    LOWER_BOXES,
    ROUNDS,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    UPPER_BOXES,
    Box,
    BoxChoice,
    GameState,
    Scored,
    Sheet,
    box_choices,
    leaders,
    standings,
    winners,
)
from marquoir.tables.kit import (
    Correction,
    LineChart,
    MatchView,
    TableWords,
    band_in_points,
    correcting_entry,
    join_names,
    last_words,
    message_for,
    refused_entry,
    rounds_chart,
    standings_by_total,
)

from .actions import SCORE
from .assistant import AssistantView, before_the_roll, for_the_dice
from .messages import WORDINGS, box_name, five_alike_text
from .narration import LOG_WORDS, dice_text
from .state import totals_by_round
from .turn import TurnEntry, carries_entry, read_turn

# From this many players the band packs the scores tighter (as the score sheet's does).
MANY_PLAYERS = 6


@dataclass(frozen=True)
class BoxCell:
    """A box of the current player's sheet on the pad: filled (its points), open, or with
    five dice in, a button with the points it would take, or refused with the rule's reason."""

    key: str
    name: str
    points: str = ""
    filled: bool = False
    choice: bool = False  # a button: the rules let the dice go here
    refused: str = ""  # the short reason it may not take the dice
    joker: bool = False
    bonus: int = 0
    advised: bool = False
    pending: str = ""  # what the bar says while the tap is sent


@dataclass(frozen=True)
class FaceButton:
    face: int
    query: str
    label: str


def _status(state: GameState, names: Sequence[str]) -> str:
    current = state.current
    if current is None:
        return ""
    return _("%(name)s’s turn · round %(number)s of %(rounds)s") % {
        "number": state.round,
        "rounds": ROUNDS,
        "name": names[current],
    }


def result_text(state: GameState, names: Sequence[str]) -> str:
    """``Ada wins with 254.``; ``Ada and Ben share the win with 230.``; alone, ``Ada finishes with 254.``"""
    won = winners(state) or leaders(state)
    score = state.total(won[0])
    if len(names) == 1:
        return _("%(name)s finishes with %(score)s.") % {"name": names[0], "score": score}
    if len(won) == 1:
        return _("%(name)s wins with %(score)s.") % {"name": names[won[0]], "score": score}
    return _("%(names)s share the win with %(score)s.") % {
        "names": join_names([names[player] for player in won]),
        "score": score,
    }


def upper_progress(sheet: Sheet) -> str:
    """The upper section's bonus in words: earned, out of reach, or how many points it needs."""
    total = sheet.upper_total
    if sheet.upper_bonus:
        return _("Upper section %(total)s: bonus +%(bonus)s earned.") % {"total": total, "bonus": UPPER_BONUS}
    if all(not sheet.is_open(box) for box in UPPER_BOXES):
        return _("Upper section %(total)s: no bonus (it needs %(threshold)s).") % {
            "total": total,
            "threshold": UPPER_BONUS_THRESHOLD,
        }
    return _("Upper section %(total)s: needs %(needed)s more for the %(bonus)s bonus.") % {
        "total": total,
        "needed": UPPER_BONUS_THRESHOLD - total,
        "bonus": UPPER_BONUS,
    }


def _box_cells(sheet: Sheet, dice: tuple[int, ...] | None, name: str, advised: str | None) -> list[BoxCell]:
    """The thirteen boxes of ``sheet`` in sheet order (with five dice in: what each would take)."""
    choices: dict[Box, BoxChoice] = {}
    if dice is not None:
        choices = {choice.box: choice for choice in box_choices(sheet, dice)}
    cells = []
    for box in BOXES:
        points = sheet.points(box)
        label = box_name(box)
        if points is not None:
            cells.append(BoxCell(box.value, label, str(points), filled=True))
            continue
        choice = choices.get(box)
        if choice is None:
            cells.append(BoxCell(box.value, label))
        elif choice.allowed:
            cells.append(
                BoxCell(
                    box.value,
                    label,
                    str(choice.points),
                    choice=True,
                    joker=choice.joker,
                    bonus=choice.yahtzee_bonus,
                    advised=box.value == advised,
                    pending=_("%(name)s: %(box)s %(points)s") % {"name": name, "box": label, "points": choice.points},
                )
            )
        else:
            assert dice is not None  # noqa: S101 (a refusal needs dice)
            upper = box_name(Box.upper_for(dice[0]))
            short = (
                _("joker: %(box)s first") % {"box": upper}
                if choice.refusal == JOKER_UPPER
                else _("joker: a lower box first")
            )
            cells.append(BoxCell(box.value, label, refused=short))
    return cells


def _joker_note(sheet: Sheet, dice: tuple[int, ...]) -> str:
    """Five alike with the Yahtzee box filled: where the rules send them (the refused boxes
    explained), and the bonus they earn."""
    words = {"dice": five_alike_text(dice[0]), "upper": box_name(Box.upper_for(dice[0]))}
    if sheet.is_open(Box.upper_for(dice[0])):
        text = _("Joker rule: with the Yahtzee box filled, %(dice)s must go in %(upper)s while it is open.") % words
    elif any(sheet.is_open(box) for box in LOWER_BOXES):
        text = (
            _(
                "Joker rule: %(upper)s is filled, so %(dice)s go in an open lower box; "
                "the full house and the straights count in full."
            )
            % words
        )
    else:
        text = _("Joker rule: %(upper)s and every lower box are filled: %(dice)s score 0 in an upper box.") % words
    bonus = sheet.bonus_for(dice)
    if bonus:
        text += " " + _("Yahtzee bonus: +%(points)s.") % {"points": bonus}
    return text


def _pad(turn: TurnEntry, table_url: str) -> dict[str, Any]:
    dice = turn.dice
    faces = [
        FaceButton(
            face,
            table_url + turn.query((*dice, face)) if not turn.complete else "",
            _("A die showing %(face)s") % {"face": face},
        )
        for face in FACES
    ]
    return {
        "slots": [dice[index] if index < len(dice) else None for index in range(DICE_COUNT)],
        "faces": faces,
        "remove_query": table_url + turn.query(dice[:-1]) if dice else None,
        "clear_query": table_url + turn.query((), roll=1) if dice or turn.roll != 1 else None,
    }


def _prompt(turn: TurnEntry, sheet: Sheet, name: str, assistant: bool) -> str:
    """The line over the dice: what to tap next, and with five alike, where the joker sends them."""
    if turn.complete:
        words = {"name": name, "dice": dice_text(turn.dice), "box": box_name(Box.upper_for(turn.dice[0]))}
        if sheet.joker_applies(turn.dice):
            if sheet.is_open(Box.upper_for(turn.dice[0])):
                return _("%(name)s: %(dice)s. Joker rule: %(box)s only.") % words
            if any(sheet.is_open(box) for box in LOWER_BOXES):
                return _("%(name)s: %(dice)s. Joker rule: a lower box, in full.") % words
            return _("%(name)s: %(dice)s. Joker rule: 0 in an upper box.") % words
        if assistant and turn.rolls_left:
            return _("%(name)s: %(dice)s. Score them in a box, or roll again.") % words
        return _("%(name)s: %(dice)s. Tap the box to score them in.") % words
    left = DICE_COUNT - len(turn.dice)
    if assistant:
        return _("%(name)s, roll %(roll)s of 3: tap the dice shown (%(count)s of 5).") % {
            "name": name,
            "roll": turn.roll,
            "count": len(turn.dice),
        }
    if not turn.dice:
        return _("%(name)s: tap the five dice of the last roll.") % {"name": name}
    return ngettext("%(name)s: %(left)s more die to tap.", "%(name)s: %(left)s more dice to tap.", left) % {
        "name": name,
        "left": left,
    }


def _sheets(
    state: GameState,
    names: Sequence[str],
    fresh: tuple[int, Box] | None,
    filled_by: Mapping[tuple[int, Box], int] | None = None,
) -> dict[str, Any]:
    """Every sheet side by side: a row per box, the upper total and bonus, the Yahtzee bonus,
    the total; ``filled_by``: the seq of the turn that filled each box, to correct it."""
    entries = filled_by or {}

    def row(box: Box) -> dict[str, Any]:
        cells = []
        for player in range(state.player_count):
            points = state.sheet(player).points(box)
            cells.append(
                {
                    "text": "" if points is None else str(points),
                    "fresh": fresh == (player, box),
                    "current": player == state.current,
                    "correct": entries.get((player, box)) if points is not None else None,
                    "label": _("Correct %(name)s’s %(box)s") % {"name": names[player], "box": box_name(box)},
                }
            )
        return {"key": box.value, "name": box_name(box), "cells": cells}

    sheets = [state.sheet(player) for player in range(state.player_count)]
    upper_cells = []
    for sheet in sheets:
        open_upper = any(sheet.is_open(box) for box in UPPER_BOXES)
        needed = UPPER_BONUS_THRESHOLD - sheet.upper_total
        to_go = _("%(needed)s to go") % {"needed": needed} if open_upper and not sheet.upper_bonus else ""
        upper_cells.append({"text": str(sheet.upper_total), "note": to_go})
    best = set(leaders(state)) if state.turns else set()
    return {
        "upper": [row(box) for box in UPPER_BOXES],
        "lower": [row(box) for box in LOWER_BOXES],
        "upper_totals": upper_cells,
        "upper_bonuses": [str(sheet.upper_bonus) if sheet.upper_bonus else "–" for sheet in sheets],
        "yahtzee_bonuses": [str(sheet.yahtzee_bonus) if sheet.yahtzee_bonus else "–" for sheet in sheets],
        "totals": [{"text": str(sheet.total), "leader": index in best} for index, sheet in enumerate(sheets)],
        "names": [{"name": name, "current": index == state.current} for index, name in enumerate(names)],
    }


def chart(view: MatchView) -> LineChart:
    """Each player's total after every round."""
    return rounds_chart(totals_by_round(view), view.players)


def _fresh(view: MatchView) -> tuple[int, Box] | None:
    """The box the last turn in force filled, to mark it on the sheets."""
    outcomes = view.engine.outcomes
    if not outcomes or not isinstance(outcomes[-1], Scored):
        return None
    return outcomes[-1].player, outcomes[-1].box


def _filled_by(view: MatchView) -> dict[tuple[int, Box], int]:
    """The seq of the turn in force that filled each box, by (player, box)."""
    return {
        (outcome.player, outcome.box): seq
        for outcome, seq in zip(view.engine.outcomes, view.slots, strict=False)
        if isinstance(outcome, Scored)
    }


def _turn_context(view: MatchView, turn: TurnEntry, table_url: str, state: GameState | None = None) -> dict[str, Any]:
    """The dice pad, the box list and the assistant for the current player's turn (of
    ``state``, the table as it was before a turn being corrected; the match's by default)."""
    state = view.engine.state if state is None else state
    names = view.players
    current = state.current
    assert current is not None  # noqa: S101 (no turn once over)
    sheet, name = state.sheet(current), names[current]
    dice = turn.dice if turn.complete else None
    advice: AssistantView | None = None
    if view.row.assistant and turn.error is None:
        if dice is None:
            advice = before_the_roll(sheet, name) if not turn.dice and turn.roll == 1 else None
        else:
            advice = for_the_dice(
                sheet, dice, turn.roll, lambda keep: table_url + turn.query(tuple(keep), roll=turn.roll + 1)
            )
    cells = _box_cells(sheet, dice, name, advice.best_box if advice else None)
    context: dict[str, Any] = {
        "pad": _pad(turn, table_url),
        "prompt": _prompt(turn, sheet, name, view.row.assistant),
        "upper_cells": cells[: len(UPPER_BOXES)],
        "lower_cells": cells[len(UPPER_BOXES) :],
        "upper_progress": upper_progress(sheet),
        "open_boxes": [{"key": box.value, "name": box_name(box)} for box in sheet.open_boxes],
        "assistant_view": advice,
    }
    if dice is not None and sheet.joker_applies(dice):
        context["joker_note"] = _joker_note(sheet, dice)
    elif dice is not None and sheet.bonus_for(dice):
        context["joker_note"] = _("Yahtzee bonus: +%(points)s.") % {"points": sheet.bonus_for(dice)}
    if turn.error is not None:
        context["turn_error"] = message_for(turn.error.code, turn.error.reason, turn.error.params, names, WORDINGS)
    return context


def _points_refill(values: Mapping[str, Any]) -> dict[str, Any]:
    """The points form as it was sent (a refused entry) or as a turn corrected stands."""
    return {
        "box": str(values.get("box", "")),
        "points": str(values.get("points", ""))[:2],
        "five_alike": values.get("five_alike"),
    }


def _correcting(view: MatchView, query: Mapping[str, str], correction: Correction, table_url: str) -> dict[str, Any]:
    """The pad opened on a past turn, as the table was before it: that player's sheet, the
    turn's dice tapped in (or its points in the points form), then as the taps change them."""
    engine, names = view.engine, view.players
    before: GameState = engine.state_before(correction.step)
    values = correction.values
    shown = query if carries_entry(query) else {"seq": str(view.row.seq), "dice": values.get("dice", "")}
    turn = read_turn(shown, view.row.seq)
    turn.correct = correction.seq
    context = _turn_context(view, turn, table_url, before)
    current = before.current if before.current is not None else 0
    context.update(
        turn=turn,
        current_name=names[current],
        points_refill=_points_refill(values),
        points_open="points" in values,
        status_text=_status(before, names),
    )
    return context


def table_context(request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool) -> dict[str, Any]:
    """Everything yahtzee/table.html needs."""
    state, names = view.engine.state, view.players
    table_url = reverse("tables:table", args=[view.row.id])
    correction = correcting_entry(request) if can_edit else None
    turn = read_turn(query, view.row.seq) if can_edit and not state.over and correction is None else None
    context: dict[str, Any] = {
        "table_url": table_url,
        "players": band_in_points(
            names, [state.total(index) for index in range(len(names))], current=state.current, marked=view.row.first
        ),
        "many_players": len(names) >= MANY_PLAYERS,
        "current_name": names[state.current] if state.current is not None else "",
        "status_text": _status(state, names) if not state.over else result_text(state, names),
        "sheets": _sheets(state, names, _fresh(view), _filled_by(view) if can_edit else None),
        "turn": turn,
        "entry_dropped": turn is not None and turn.dropped,
        "words": TableWords(
            title=_("Yahtzee table"),
            watching=_("You are watching this match. Only the devices keeping score can record turns."),
            watch=_("Follows the sheets live; cannot record turns."),
            keep=_("Lets that phone record turns and undo: show it only at the table."),
            stylesheets=("yahtzee/yahtzee.css",),
        ),
    }
    if correction is not None:
        context.update(_correcting(view, query, correction, table_url))
    elif turn is not None:
        context.update(_turn_context(view, turn, table_url))
        refused = refused_entry(request, view.row.seq, SCORE)
        if "points" in refused:  # a refused typed entry: its panel stays open, as typed
            context.update(points_refill=_points_refill(refused), points_open=True)
        if turn.overtaken:
            context["notice"] = _(
                "The table changed on another phone (%(what)s): the dice entered here were dropped."
            ) % {"what": last_words(view, LOG_WORDS) or _("an undo")}
        elif turn.dropped:
            context["notice"] = _(
                "This address holds dice that were not entered on this table as it is now: they were dropped."
            )
    if state.over and correction is None:
        won = set(winners(state))
        context.update(
            standings=standings_by_total(
                ((standing.rank, standing.player, standing.score) for standing in standings(state)), names, won
            ),
            chart=chart(view),
        )
    return context
