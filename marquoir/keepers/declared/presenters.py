"""What a declared game's table screen shows, drawn from its game file: the band, the
round's pad (the right control per kind of input), the grid, the end with its tie-break.

Two layouts of the pad: a game scored round by round gets the round's inputs, then one
card per player (Skyjo, Skull King); a game scored once at the end gets a table, an input
a row and a player a column (7 Wonders, Ticket to Ride), as on the box's score pad.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.declared import Game, GameState, leaders, standings, winners
from marquoir.games.declared.engine import display_bounds, inputs_taken
from marquoir.games.declared.gamefile import InputDef
from marquoir.tables.kit import (
    BandPlayer,
    GridRow,
    LineChart,
    MatchView,
    ScoreGrid,
    StandingRow,
    Standings,
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

from .actions import (
    END,
    FORM_GROUPS,
    ROUND,
    TURN,
    field_name,
    form_groups,
    form_records,
    group_text_length,
    one_digit,
)
from .state import totals_by_round
from .words import local, result_words, round_status, side_names, warning_texts

# Counts up to this many get a stepper (− and +); beyond, the phone's number pad.
STEPPER_MAX = 30


@dataclass(frozen=True)
class PadField:
    """One control of the round's form."""

    name: str
    label: str
    kind: str
    """``stepper``, ``number`` (the number pad, with a minus switch where it can be
    negative), ``flag``, ``choice`` (a row of buttons) or ``player`` (a tap on a name)."""
    value: str = ""
    least: int | None = None
    most: int | None = None
    step: int = 1
    negative_allowed: bool = False
    negative: bool = False
    choices: tuple[tuple[str, str], ...] = ()
    hint: str = ""
    start: bool = False
    """The value is the input's start (its default, a stepper's 0), not one typed before."""
    boxes: tuple[tuple[str, str, bool], ...] = ()
    """``set``: each value's box (field name, text, ticked)."""
    arrangement: tuple[tuple[tuple[str, str, bool], ...], ...] = ()
    """``set``: the boxes in rows as the game draws them (Mölkky's pins as they stand)."""
    records: tuple[tuple[PadField, ...], ...] = ()
    """``records``: a row of fields per record (a property's squares, crowns, terrain)."""
    more: tuple[tuple[PadField, ...], ...] = ()
    """``groups``: the rows behind "More" (a turn of more rolls than most)."""
    more_open: bool = False

    @property
    def id(self) -> str:
        return "f-" + self.name.replace("_", "-")


@dataclass(frozen=True)
class PadPlayer:
    seat: int
    name: str
    fields: tuple[PadField, ...]


@dataclass(frozen=True)
class PadRow:
    """A row of the end-of-game entry: one input (or one count of a group) for each player."""

    label: str
    hint: str
    cells: tuple[PadField, ...]
    group: str = ""


@dataclass(frozen=True)
class Pad:
    round_fields: tuple[PadField, ...]
    players: tuple[PadPlayer, ...] = ()
    rows: tuple[PadRow, ...] = ()
    names: tuple[str, ...] = field(default=())
    drawn: str = ""
    """The inputs the form draws, by key (those the options take): the form sends them."""
    hints: tuple[tuple[str, str], ...] = ()
    """(label, hint) of each per-player input with a hint: said once above the players."""

    @property
    def single(self) -> bool:
        """One input per player (Skyjo's cards): a row per player, the name as its label."""
        fields = self.players[0].fields if self.players else ()
        return len(fields) == 1 and fields[0].kind in ("number", "stepper")


def _set_control(spec: InputDef, label: str, refill: Mapping[str, Any], seat: int | None) -> PadField:
    """A list input as a box per value (Qwixx's rows, Mölkky's pins), drawn as the file arranges them."""
    values = spec.list_values()
    texts = [local(choice.label) for choice in spec.names] or [str(value) for value in values]
    default = spec.default if isinstance(spec.default, list) else []
    boxes = tuple(
        (
            field_name(spec.key, seat, str(value)),
            text,
            bool(refill.get(field_name(spec.key, seat, str(value)))) if refill else value in default,
        )
        for value, text in zip(values, texts, strict=True)
    )
    by_value = dict(zip(values, boxes, strict=True))
    arrangement = tuple(
        tuple(by_value[value] for value in row if value in by_value) for row in (spec.arrangement or [])
    )
    name = field_name(spec.key, seat)
    return PadField(
        name, label, "set", boxes=boxes, arrangement=arrangement, hint=local(spec.hint) if spec.hint else ""
    )


def _groups_control(spec: InputDef, label: str, refill: Mapping[str, Any], seat: int | None) -> PadField:
    """A groups input as a text field per group, its numbers typed in it (Farkle: a roll's
    dice set aside, "115"), named by the file ("Roll 1", "Roll 2"…); the empty ones to fill."""
    group = local(spec.group_label) if spec.group_label is not None else ""
    rows = tuple(
        (
            PadField(
                field_name(spec.key, seat, str(index)),
                # Translators: one group of a groups input on the pad, "Roll 3".
                _("%(group)s %(number)s") % {"group": group, "number": index + 1},
                # Numbers of one digit are typed side by side on the digits' keypad; others need
                # a space or a comma between them, and some a minus: the whole keyboard.
                "number" if one_digit(spec) else "text",
                str(refill.get(field_name(spec.key, seat, str(index))) or "")[: group_text_length(spec)],
                most=group_text_length(spec),
            ),
        )
        for index in range(form_groups(spec))
    )
    return PadField(
        field_name(spec.key, seat),
        label,
        "groups",
        records=rows[:FORM_GROUPS],
        more=rows[FORM_GROUPS:],
        more_open=any(row[0].value for row in rows[FORM_GROUPS:]),
        hint=local(spec.hint) if spec.hint else "",
    )


def _records_control(spec: InputDef, label: str, refill: Mapping[str, Any], seat: int | None) -> PadField:
    """A records input as rows of fields (Kingdomino: a property a row), the empty ones to fill."""
    rows = []
    for index in range(form_records(spec)):
        fields = []
        for part in spec.parts:
            name = field_name(spec.key, seat, f"{index}_{part.key}")
            raw = refill.get(name)
            if part.names:
                fields.append(
                    PadField(
                        name,
                        local(part.label),
                        "select",
                        str(raw or ""),
                        choices=(("", "—"), *((str(c.value), local(c.label)) for c in part.names)),
                    )
                )
            else:
                fields.append(
                    PadField(
                        name, local(part.label), "number", str(raw)[:6] if raw else "", least=part.min, most=part.max
                    )
                )
        rows.append(tuple(fields))
    return PadField(
        field_name(spec.key, seat), label, "records", records=tuple(rows), hint=local(spec.hint) if spec.hint else ""
    )


def _control(
    spec: InputDef,
    name: str,
    label: str,
    least: int | None,
    most: int | None,
    refill: Mapping[str, Any],
    *,
    names: Sequence[str],
    seat: int | None,
    default: int | None = None,
) -> PadField:
    raw = refill.get(name)
    start = default if default is not None else (spec.default if isinstance(spec.default, int) else None)
    if spec.kind == "list":
        return _set_control(spec, label, refill, seat)
    if spec.kind == "records":
        return _records_control(spec, label, refill, seat)
    if spec.kind == "groups":
        return _groups_control(spec, label, refill, seat)
    if spec.kind == "flag":
        checked = bool(raw) if refill else bool(spec.default)
        return PadField(name, label, "flag", "1" if checked else "")
    if spec.kind == "player":
        # An optional one (Papayoo's "who took the Papayoo?") can be left unsaid, and a wrong
        # tap taken back: its default is one more choice.
        words = local(spec.unsaid) if spec.unsaid is not None else _("Not said")
        unsaid = ((str(spec.default), words),) if isinstance(spec.default, int) else ()
        chosen = raw if raw is not None else (spec.default if isinstance(spec.default, int) else "")
        return PadField(
            name,
            label,
            "player",
            str(chosen),
            choices=(*((str(index), player) for index, player in enumerate(names)), *unsaid),
        )
    if spec.kind == "choice" and spec.names:
        first = spec.default if isinstance(spec.default, str) else spec.names[0].value
        return PadField(
            name,
            label,
            "choice",
            str(raw) if raw is not None else str(first),
            choices=tuple((str(choice.value), local(choice.label)) for choice in spec.names),
        )
    if spec.kind == "choice":
        chosen = str(raw) if raw is not None else str(start if start is not None else spec.choices[0])
        return PadField(
            name,
            label,
            "choice",
            chosen,
            choices=tuple((str(choice), total_text(choice)) for choice in spec.choices),
        )
    value = (
        str(raw)[:12]
        if raw is not None
        else ("" if start is None and spec.kind == "points" else str(start or least or 0))
    )
    small = least is not None and most is not None and least >= 0 and most <= STEPPER_MAX and spec.kind != "points"
    return PadField(
        name,
        label,
        "stepper" if small else "number",
        value,
        least=least,
        most=most,
        step=spec.step or 1,
        negative_allowed=least is None or least < 0,
        negative=bool(refill.get(f"minus_{spec.key}_{seat}")) if seat is not None else False,
        hint=local(spec.hint) if spec.hint and seat is None else "",
        start=raw is None and value != "",
    )


def pad(state: GameState, names: Sequence[str], refill: Mapping[str, Any]) -> Pad:
    """The round's form, drawn from the file, refilled with a refused round's values."""
    game = state.game
    keys = inputs_taken(state)
    taken = [spec for spec in game.file.inputs if spec.key in keys]
    bounds = display_bounds(state)
    round_fields = tuple(
        _control(spec, field_name(spec.key), local(spec.label), *bounds[spec.key], refill, names=names, seat=None)
        for spec in taken
        if not spec.per_side
    )
    per_player = [spec for spec in taken if spec.per_side]
    drawn = ",".join(spec.key for spec in taken)
    hints = tuple((local(spec.label), local(spec.hint)) for spec in per_player if spec.hint and spec.kind != "records")
    # A list of records per player (Kingdomino's properties) does not fit a table's cell:
    # such a game's entry is a card per player.
    by_table = game.file.scored == "end" and not any(spec.kind == "records" for spec in per_player)
    if by_table:
        rows: list[PadRow] = []
        for spec in per_player:
            if spec.kind == "counts":
                for part in spec.parts:
                    cells = tuple(
                        _control(
                            spec,
                            field_name(spec.key, seat, part.key),
                            f"{local(part.label)} ({name})",
                            part.min,
                            part.max,
                            refill,
                            names=names,
                            seat=seat,
                            default=part.default if part.default is not None else part.min,
                        )
                        for seat, name in enumerate(names)
                    )
                    rows.append(PadRow(local(part.label), "", cells, group=local(spec.label)))
                continue
            cells = tuple(
                _control(
                    spec,
                    field_name(spec.key, seat),
                    f"{local(spec.label)} ({name})",
                    *bounds[spec.key],
                    refill,
                    names=names,
                    seat=seat,
                )
                for seat, name in enumerate(names)
            )
            rows.append(PadRow(local(spec.label), local(spec.hint) if spec.hint else "", cells))
        return Pad(round_fields, rows=tuple(rows), names=tuple(names), drawn=drawn)
    if not per_player:  # a game played by turns: the thrower's inputs only
        return Pad(round_fields, names=tuple(names), drawn=drawn)
    players = tuple(
        PadPlayer(
            seat,
            name,
            tuple(
                _control(
                    spec,
                    field_name(spec.key, seat),
                    local(spec.label),
                    *bounds[spec.key],
                    refill,
                    names=names,
                    seat=seat,
                )
                for spec in per_player
            ),
        )
        for seat, name in enumerate(names)
    )
    return Pad(round_fields, players=players, names=tuple(names), drawn=drawn, hints=hints)


def chart(state: GameState, names: Sequence[str]) -> LineChart:
    return rounds_chart(totals_by_round(state), names, number=total_text, target=state.target())


def grid(state: GameState, names: Sequence[str], entries: Sequence[int] = ()) -> ScoreGrid:
    """Rounds × players (a game scored round by round), or categories × players (at the end);
    ``entries``: the seq of each action in force, a round's own to correct it."""
    game = state.game
    if game.file.scored == "end":
        counted = state.categories_counted()
        rows = (
            tuple(
                GridRow(
                    number=local(category.label),
                    cells=tuple(total_text(state.breakdown(seat)[category.key]) for seat in range(state.player_count)),
                )
                for category in game.file.points
                if category.key in counted
            )
            if state.rounds
            else ()
        )
        corner, title = _("Category"), _("The score pad")
    else:
        rows = tuple(
            GridRow(
                number=_("End") if scored.closing else scored.number,
                cells=tuple(total_text(points) for points in scored.points),
                correct=entries[index] if index < len(entries) else None,
            )
            for index, scored in enumerate(state.rounds)
        )
        corner, title = (_("Turn") if game.by_turns else _("Round")), _("The score pad")
    return score_grid(
        title=title,
        corner=corner,
        empty=_("No round yet.") if game.file.scored != "end" else _("Nothing recorded yet."),
        names=names,
        rows=rows,
        totals=state.totals,
        ranks={standing.player: standing.rank for standing in standings(state)},
        leaders=set(leaders(state)) if state.rounds else set(),
        number=total_text,
        lead=lead_text(leaders(state), state.totals, names) if state.rounds and not state.over else None,
    )


def table_result(game: Game, state: GameState, names: Sequence[str]) -> Standings:
    """A cooperative game's end: the table won or lost together, with its shared score (where
    the game has one) and the values it tracks (a campaign's mission, its attempts), no rank."""
    tracked = [item for item in game.file.carry if item.track]
    won = bool(winners(state))
    columns = [_("Result")]
    cells = [_("Won") if won else _("Lost")]
    if game.file.cooperative is None or game.file.cooperative.score:
        columns.append(_("Points"))
        cells.append(total_text(state.totals[0]))
    for item in tracked:
        columns.append(local(item.label))
        cells.append(_tracked(state, 0, item.key))
    row = StandingRow(rank=1, name=names[0], winner=won, cells=tuple(cells))
    return Standings(rows=(row,), columns=tuple(columns), ranked=False, mark_winners=False)


def rules_text(game: Game, state: GameState) -> str:
    """The game's win rule and end in one line."""
    if game.cooperative:
        parts = [_("Won or lost together")]
    else:
        parts = [_("Lowest total wins") if state.lowest_wins else _("Highest total wins")]
    target, planned = state.target(), state.rounds_planned()
    if target is not None:
        parts.append(_("ends when a total reaches %(target)s") % {"target": total_text(target)})
    for rule in game.file.end.rules:
        if rule.key == "last_standing":
            parts.append(_("or when one player alone is still in"))
        elif rule.result == "won":
            parts.append(_("won when: %(rule)s") % {"rule": local(rule.label)})
        elif rule.result == "lost":
            parts.append(_("lost when: %(rule)s") % {"rule": local(rule.label)})
        else:
            parts.append(_("or at once: %(rule)s") % {"rule": local(rule.label)})
    if planned is not None and game.file.scored != "end":
        parts.append(ngettext("%(rounds)s round", "%(rounds)s rounds", planned) % {"rounds": planned})
    if game.file.tiebreaks:
        parts.append(
            _("ties: %(chain)s") % {"chain": ", ".join(local(tiebreak.words) for tiebreak in game.file.tiebreaks)}
        )
    return " · ".join(parts)


def _thrower(state: GameState, names: Sequence[str]) -> tuple[str, str]:
    """A game played by turns: whose turn it is, and what stands in a line ("23 · Misses in a
    row: 2 · out: Ben"); empty where anyone enters a round."""
    seat = state.current
    if seat is None:
        return "", ""
    parts = [total_text(state.totals[seat])]
    if state.game.by_turns:
        for item in state.game.file.carry:
            value = state.carried[seat].get(item.key)
            if isinstance(value, bool) or not value:
                continue
            parts.append(_("%(label)s: %(value)s") % {"label": local(item.label), "value": total_text(value)})
    out = [names[other] for other, gone in enumerate(state.out) if gone]
    if out:
        parts.append(_("out: %(names)s") % {"names": ", ".join(out)})
    return names[seat], " · ".join(parts)


def _with_tracks(game: Game, state: GameState, players: list[BandPlayer]) -> list[BandPlayer]:
    """Each side's tile with the values the file tracks beside the points (``carry`` with
    ``track = true``: Phase 10's phase, a campaign's mission), under its score; a team's
    name whole, on two lines if it must."""
    if state.teams is not None:
        players = [replace(player, whole_name=True) for player in players]
    tracked = [item for item in game.file.carry if item.track]
    if not tracked:
        return players
    return [
        replace(
            player,
            note=" · ".join(
                _("%(label)s: %(value)s")
                % {"label": local(item.label), "value": _tracked(state, player.index, item.key)}
                for item in tracked
            ),
        )
        for player in players
    ]


def _tracked(state: GameState, side: int, key: str) -> str:
    value = state.carried[side].get(key)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return total_text(value if isinstance(value, int) else 0)


def table_context(
    game: Game, request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool
) -> dict[str, Any]:
    state: GameState = view.engine.state
    # The sides that score: a team game's band and pad are by team, a cooperative game's the table's.
    names = side_names(game, state.teams, view.row.players)
    name = local(game.file.box.names)
    thrower, standing = _thrower(state, names)
    context: dict[str, Any] = {
        "players": _with_tracks(
            game, state, band_in_points(names, state.totals, current=state.current, marked=state.first)
        ),
        "result": state.outcome,
        "action_type": TURN if game.by_turns else ROUND,
        "warnings": warning_texts(game, state.rounds[-1], names) if state.rounds else [],
        "thrower": thrower,
        "thrower_standing": standing,
        "game_name": name,
        "rules_text": rules_text(game, state),
        "grid": grid(state, names, view.slots),
        "final_scoring": game.file.scored == "end",
        # The band's totals as they would be (declared.js) where a round's points add to them:
        # not in a game by turns nor where the file works its totals out otherwise (Mölkky's
        # drop to 25), whose preview would show a total the round will not give.
        "band_pending": not game.by_turns and "total" not in game.file.after,
        "words": TableWords(
            title=_("%(game)s table") % {"game": name},
            watching=_("You are watching this match. Only the devices keeping score can record rounds."),
            watch=_("Follows the scores live; cannot record rounds."),
            keep=_("Lets that phone record rounds and undo: show it only at the table."),
            stylesheets=("css/grid.css", "declared/declared.css"),
        ),
        "entry_dropped": False,
    }
    correction = correcting_entry(request) if can_edit else None
    if correction is not None:
        # The pad as it was for that round (its bounds and inputs may depend on the round:
        # Skull King's bids), refilled with the round as it stands.
        engine = view.engine
        before: GameState = engine.state_before(correction.step)
        if game.final is not None and correction.values.get("type") == END:
            # The end's count, corrected on its own pad.
            context.update(
                closing=True,
                action_type=END,
                thrower=None,
                thrower_standing=None,
                status_text=_("The end’s count"),
                pad=pad(replace(before, game=game.final), names, refused_entry(request, view.row.seq, END)),
            )
            return context
        thrower, standing = _thrower(before, names)
        context.update(
            thrower=thrower,
            thrower_standing=standing,
            status_text=round_status(before),
            round_number=before.round_count + 1,
            pad=pad(before, names, refused_entry(request, view.row.seq, TURN if game.by_turns else ROUND)),
        )
        return context
    if state.over and game.cooperative:
        headline, _tie = result_words(state, names)
        context.update(
            status_text=headline,
            results_title=_("The table’s result"),
            standings=table_result(game, state, names),
            chart=chart(state, names) if game.file.scored != "end" else None,
        )
        return context
    if state.over:
        headline, tie = result_words(state, names)
        context.update(
            status_text=headline,
            standings=replace(
                standings_by_total(
                    ((standing.rank, standing.player, standing.score) for standing in standings(state)),
                    names,
                    winners(state),
                    number=total_text,
                    tie_break=tie,
                ),
                who=_("Team") if state.teams is not None else "",
            ),
            chart=chart(state, names) if game.file.scored != "end" else None,
        )
        return context
    context.update(status_text=round_status(state), round_number=state.round_count + 1)
    if can_edit:
        context["pad"] = pad(state, names, refused_entry(request, view.row.seq, TURN if game.by_turns else ROUND))
        if game.file.end.table_decides and state.rounds:
            context["end_now"] = result_text(leaders(state), state.totals, names)
        if game.final is not None and state.rounds:
            refused = refused_entry(request, view.row.seq, END)
            context["end_count"] = pad(replace(state, game=game.final), names, refused)
            context["end_count_refused"] = bool(refused)
    return context
