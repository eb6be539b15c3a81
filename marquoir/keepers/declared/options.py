"""A declared game's table options: the set-up page's fields and what a match stores, from
the game file (its kinds, bounds, defaults and checks: ``engine.resolve_options``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from marquoir.games.declared import Game, resolve_options
from marquoir.games.declared.engine import check_teams, form_teams
from marquoir.rules import INVALID, RuleError

from .words import local


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
        formed = check_teams(game, player_count, teams) if teams is not None else form_teams(game, player_count)
        resolved[TEAMS] = [list(team) for team in formed]
    return resolved


TEAMS = "teams"
"""Where a team game's partnerships are kept among its stored options (no option has this key)."""


def stored_teams(options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
    """A team game's partnerships as stored with its options."""
    teams = options.get(TEAMS)
    return tuple(tuple(team) for team in teams) if isinstance(teams, list) else None


def game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The stored options without the partnerships: what the formulas read as ``options``."""
    return {key: value for key, value in options.items() if key != TEAMS}


def form_fields(game: Game) -> dict[str, forms.Field]:
    """The set-up page's fields, one per option, labelled in the page's language."""
    fields: dict[str, forms.Field] = {}
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
            fields[name] = forms.ChoiceField(
                label=label,
                help_text=hint,
                choices=[(str(choice.value), local(choice.label)) for choice in option.choices],
                initial=str(option.default),
                widget=forms.RadioSelect,
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
    """The options the set-up form gives (a list of numbers left empty takes its default);
    never a refusal here: ``clean`` refuses, worded, what is wrong."""
    given: dict[str, Any] = {}
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
            given[option.key] = chosen if chosen is not None else option.default
        elif value is not None:
            given[option.key] = value
    return given
