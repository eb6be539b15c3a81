"""Pickomino's score keeper, as the match core calls it (``marquoir.tables.keepers.ScoreKeeper``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from marquoir.games.pickomino import MAX_PLAYERS, MIN_PLAYERS, Bust, Take, winners
from marquoir.games.pickomino import Match as PickominoMatch
from marquoir.games.pickomino.errors import INVALID, RuleError
from marquoir.tables.actions import ActionRequest, parse_action
from marquoir.tables.keepers import GameEndpoint, Wording
from marquoir.tables.models import Match
from marquoir.tables.schemas import ActionBody
from marquoir.tables.selectors import MatchView
from marquoir.tables.summary import MatchSummary, StatFigure

from . import state, summary
from .actions import engine_action, form_action, parse_payload
from .messages import STATUSES, WORDINGS
from .presenters import table_context
from .turn import PADS, preferred_pad

if TYPE_CHECKING:
    from pydantic import BaseModel

OPTIONS = ("shorter_game", "flip_without_return")
PAD_COOKIE = "marquoir_pad"
PAD_COOKIE_AGE = 365 * 24 * 3600


class PickominoKeeper:
    """The grill, every stack, takes, steals and busts; the turn pad and the assistant."""

    key = "pickomino"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    wordings: Mapping[str, Wording] = WORDINGS
    statuses: Mapping[str, int] = STATUSES
    has_assistant = True
    table_template = "pickomino/table.html"
    options_template = "pickomino/new_options.html"
    bgg_id: int | None = 15818

    def name(self) -> str:
        return "Pickomino"

    def new_match_title(self) -> str:
        return _("New Pickomino match")

    def first_label(self) -> str:
        return _("starts")

    def setup_hint(self) -> str:
        return _(
            "Two to seven players. Leave the rows you do not need empty. Tick who starts: the youngest, by the rules."
        )

    # --- set-up

    def clean_options(self, options: object) -> dict[str, Any]:
        """The two table options, each a boolean; missing ones are off."""
        if options is None:
            return dict.fromkeys(OPTIONS, False)
        if not isinstance(options, Mapping):
            raise RuleError(INVALID, "bad_options")
        unknown = [key for key in options if key not in OPTIONS]
        if unknown:
            raise RuleError(INVALID, "unknown_option", option=str(unknown[0])[:40])
        if not all(isinstance(value, bool) for value in options.values()):
            raise RuleError(INVALID, "bad_options")
        return {key: bool(options.get(key, False)) for key in OPTIONS}

    def options_form_fields(self) -> dict[str, forms.Field]:
        return {
            "shorter_game": forms.BooleanField(
                required=False,
                label=gettext_lazy("Shorter game"),
                help_text=gettext_lazy(
                    "After a bust, the highest tile is turned face down even if it is the one just given back."
                ),
            ),
            "flip_without_return": forms.BooleanField(
                required=False,
                label=gettext_lazy("Turn a tile even with nothing to give back"),
                help_text=gettext_lazy(
                    "A bust with an empty stack still turns the highest tile face down (the rulebook does not)."
                ),
            ),
        }

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        return {key: bool(cleaned.get(key)) for key in OPTIONS}

    # --- the log

    def start(self, row: Match) -> PickominoMatch:
        return state.start(row)

    def parse_action(self, body: Mapping[str, Any]) -> dict[str, Any]:
        return parse_payload(body)

    def engine_action(self, payload: Mapping[str, Any]) -> Take | Bust:
        return engine_action(payload)

    def form_action(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return form_action(data)

    def state_json(self, view: MatchView) -> dict[str, Any]:
        return state.state_json(view)

    def winners(self, view: MatchView) -> tuple[int, ...]:
        return winners(view.engine.state) if view.engine.state.over else ()

    # --- the stats

    @property
    def stat_figures(self) -> tuple[StatFigure, ...]:
        return summary.STAT_FIGURES

    def summarise(self, view: MatchView) -> MatchSummary:
        return summary.summarise(view)

    # --- the screens

    def table_context(
        self, request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool
    ) -> dict[str, Any]:
        pad = preferred_pad(query, request.COOKIES.get(PAD_COOKIE))
        context = table_context(view, query, can_edit=can_edit, pad=pad)
        if query.get("pad") in PADS:
            # The pad chosen stays this device's choice for the next turns (the address goes bare).
            context["cookies"] = {PAD_COOKIE: (query["pad"], PAD_COOKIE_AGE)}
        turn = context.get("turn")
        context["entry_dropped"] = turn is not None and turn.dropped
        return context

    # --- the API

    @property
    def state_schema(self) -> type[BaseModel]:
        from .api import StateOut

        return StateOut

    @property
    def action_models(self) -> tuple[type[ActionBody], ...]:
        from .api import BustIn, TakeIn

        return (TakeIn, BustIn)

    @property
    def api_endpoints(self) -> tuple[GameEndpoint, ...]:
        from .api import ENDPOINTS

        return ENDPOINTS


KEEPER = PickominoKeeper()


def parse_request(body: object) -> ActionRequest:
    """A request for a Pickomino match, parsed as the core does (for scripts and tests)."""
    return parse_action(body, KEEPER)
