"""A declared game's table options: the set-up page's fields and what a match stores, from
the game file (its kinds, bounds, defaults and checks: ``engine.resolve_options``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.declared import Game, resolve_options
from marquoir.games.declared.engine import check_teams, form_teams
from marquoir.rules import INVALID, RuleError
from marquoir.tables.kit import SeatChoiceField, message_for

from .words import local, wordings


class NumbersField(forms.CharField):
    """A list of whole numbers, typed "1, 2, 3" (a rematch's stored list shows so too)."""

    def prepare_value(self, value: Any) -> Any:
        return ", ".join(str(number) for number in value) if isinstance(value, list) else value


def clean(game: Game, given: object, player_count: int) -> dict[str, Any]:
    """The options as stored for ``player_count`` players, or ``RuleError(invalid, …)``."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleError(INVALID, "bad_options")
    given = dict(given)
    teams = given.pop(TEAMS, None)
    if teams is not None and not game.teams:
        raise RuleError(INVALID, "no_teams")
    resolved = resolve_options(game, player_count, given)
    if game.teams:
        # The partnerships are kept with the options: the set-up never changes once a match exists.
        resolved[TEAMS] = [list(team) for team in checked_teams(game, player_count, teams)]
    return resolved


def checked_teams(game: Game, player_count: int, teams: Any) -> tuple[tuple[int, ...], ...]:
    """The teams given, checked, or those the rules form when none are; ``RuleError`` otherwise."""
    return check_teams(game, player_count, teams) if teams is not None else form_teams(game, player_count)


TEAMS = "teams"
"""Where a team game's partnerships are kept among its stored options (no option has this key)."""


def stored_teams(options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
    """A team game's partnerships as stored with its options."""
    teams = options.get(TEAMS)
    return tuple(tuple(team) for team in teams) if isinstance(teams, list) else None


def game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The stored options without the partnerships: what the formulas read as ``options``."""
    return {key: value for key, value in options.items() if key != TEAMS}


class TeamsField(SeatChoiceField):
    """Each row's team on the set-up page ("0" for Team 1…, "" by the rules); the teams of
    a rematch, kept as seats by team, show row by row."""

    def prepare_value(self, value: Any) -> Any:
        if not (isinstance(value, list) and value and all(isinstance(team, list) for team in value)):
            return value
        rows = self.row_values(self.initial)
        offered = {choice for choice, _text in self.choices}
        for index, team in enumerate(value):
            for seat in team:
                if isinstance(seat, int) and 0 <= seat < self.rows and str(index) in offered:
                    rows[seat] = str(index)
        return rows


def teams_field(game: Game) -> TeamsField:
    """The team each row plays in, by default the one the rules form (``teams.formed``) when
    it is the same at every count of players; else, and for a row the rules cannot place,
    "By the rules" (left so, a row takes its team at the count that plays)."""
    rows = game.file.box.players[1]
    least = game.file.teams.size[0] if game.file.teams else 2
    by_rule: list[set[int]] = [set() for _row in range(rows)]
    for count in range(max(game.file.box.players[0], 1), rows + 1):
        try:
            formed = form_teams(game, count)
        except RuleError:  # the rules form no teams at this count: the table must say them
            continue
        for index, team in enumerate(formed):
            for seat in team:
                by_rule[seat].add(index)
    fixed = all(len(teams) <= 1 for teams in by_rule)
    initial = [str(next(iter(teams))) if fixed and teams else "" for teams in by_rule]
    choices = [(str(index), _("Team %(number)s") % {"number": index + 1}) for index in range(max(2, rows // least))]
    if "" in initial:
        choices.insert(0, ("", _("By the rules") if game.team_of is not None else _("Choose a team")))
    return TeamsField(
        rows=rows,
        choices=choices,
        initial=initial,
        label=_("Team"),
        help_text=(
            _("Each player’s team: the one the rules form, unless you change it.")
            if game.team_of is not None
            else _("Choose each player’s team.")
        ),
    )


def form_fields(game: Game) -> dict[str, forms.Field]:
    """The set-up page's fields, one per option, labelled in the page's language, and a
    team game's team on each player's row."""
    fields: dict[str, forms.Field] = {TEAMS: teams_field(game)} if game.teams else {}
    for option in game.file.options:
        label, hint = local(option.label), local(option.hint) if option.hint else ""
        name = option.key
        if option.kind == "flag":
            fields[name] = forms.BooleanField(label=label, help_text=hint, required=False, initial=option.default)
        elif option.kind == "number":
            # Left empty: the option's default (Papayoo's deals: one per player), or off where it may be.
            fields[name] = forms.IntegerField(
                label=label,
                help_text=hint,
                min_value=option.min,
                max_value=option.max,
                initial=option.default,
                required=option.default is not None and not option.nullable,
            )
        elif option.kind == "choice":
            choices = [(str(choice.value), local(choice.label)) for choice in option.choices]
            # A default the rules work out from the table (Mille Bornes' trip: 1000 km at 4
            # players, else 700): "By the rules", until the table picks another.
            by_the_rules = option.default is None
            fields[name] = forms.ChoiceField(
                label=label,
                help_text=hint,
                choices=[("", _("By the rules")), *choices] if by_the_rules else choices,
                initial="" if by_the_rules else str(option.default),
                required=not by_the_rules,
                widget=forms.RadioSelect,
            )
        elif option.kind == "text":
            # Trimmed as typed; left empty: none where the option may be left so, else its default.
            fields[name] = forms.CharField(
                label=label,
                help_text=hint,
                required=False,
                max_length=option.max_length,
                initial=option.default,
            )
        else:
            fields[name] = NumbersField(
                label=label,
                help_text=hint or _("Numbers separated by commas; leave empty for the rules’ own."),
                required=False,
                max_length=200,
            )
    return fields


def from_form(game: Game, cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The options the set-up form gives (a list of numbers left empty takes its default) and
    a team game's teams. Only the teams are refused here, on their field (a team too big, an
    empty one), by the checks ``clean`` makes again; ``clean`` refuses, worded, the rest."""
    given: dict[str, Any] = {}
    if game.teams and "player_rows" in cleaned:
        teams = chosen_teams(game, cleaned["player_rows"], cleaned.get(TEAMS))
        try:
            checked_teams(game, len(cleaned["player_rows"]), teams)
        except RuleError as error:
            raise forms.ValidationError({TEAMS: teams_refusal(game, teams, error)}) from None
        if teams is not None:
            given[TEAMS] = teams
    for option in game.file.options:
        value = cleaned.get(option.key)
        if option.kind == "numbers":
            text = (value or "").replace(" ", "")
            if not text:
                continue
            parts = text.split(",")
            # Anything else than short numbers is given as typed: the engine refuses it, worded.
            readable = all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts)
            given[option.key] = [int(part) for part in parts] if readable else text
        elif option.kind == "choice":
            chosen = next((choice.value for choice in option.choices if str(choice.value) == value), None)
            # None chosen: the option's default, or the one the rules work out (default_formula).
            if chosen is not None or option.default is not None:
                given[option.key] = chosen if chosen is not None else option.default
        elif option.kind == "text":
            text = (value or "").strip()
            if text:
                given[option.key] = text
        elif value is not None:
            given[option.key] = value
    return given


def chosen_teams(game: Game, rows: Sequence[int], picked: object) -> list[list[int]] | None:
    """The teams the rows say, player by player (Team 1 first), a row left "By the rules"
    taking the rules' team at this count; None when no row says one: the rules form them."""
    picks = picked if isinstance(picked, list) else []
    chosen = [str(picks[row]) if row < len(picks) else "" for row in rows]
    if not any(chosen):
        return None
    ruled: dict[int, int] = {}
    if not all(chosen):
        try:
            ruled = {seat: index for index, team in enumerate(form_teams(game, len(rows))) for seat in team}
        except RuleError:  # no team for those rows: refused, said as a team to choose
            ruled = {}
    sides = [int(pick) if pick else ruled.get(seat) for seat, pick in enumerate(chosen)]
    count = max(side for side in sides if side is not None) + 1
    return [[seat for seat, side in enumerate(sides) if side == index] for index in range(count)]


def teams_refusal(game: Game, teams: list[list[int]] | None, error: RuleError) -> str:
    """Why the teams of the set-up page are refused, said of the teams as the rows name them."""
    if teams is None:  # the rules' own teams, at a count they cannot form
        reason = "teams_formed" if error.reason == "teams_size" else error.reason
        if reason == "teams_needed":
            return _("Choose a team for each player.")
        return message_for(INVALID, reason, error.params, (), wordings(game))
    if error.reason == "teams_seats":
        return _("Choose a team for each player.")
    if error.reason != "teams_size":
        return message_for(INVALID, error.reason, error.params, (), wordings(game))
    if sum(1 for team in teams if team) < 2:
        return _("Everyone is in the same team: make two teams at least.")
    empty = next((index for index, team in enumerate(teams) if not team), None)
    if empty is not None:
        return _("Nobody is in Team %(number)s: number the teams from 1, without skipping one.") % {"number": empty + 1}
    least, most = int(error.params.get("least", 0)), int(error.params.get("most", 0))
    index, team = next(
        ((index, team) for index, team in enumerate(teams) if not least <= len(team) <= most), (0, teams[0])
    )
    size = str(least) if least == most else _("%(least)s to %(most)s") % {"least": least, "most": most}
    return ngettext(
        "Team %(number)s has %(count)s player: each team needs %(size)s.",
        "Team %(number)s has %(count)s players: each team needs %(size)s.",
        len(team),
    ) % {"number": index + 1, "count": len(team), "size": size}
