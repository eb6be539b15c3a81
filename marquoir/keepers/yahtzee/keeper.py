"""Yahtzee's score keeper, as the match core calls it (``marquoir.tables.keepers.ScoreKeeper``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _

from marquoir.games.yahtzee import MAX_PLAYERS, MIN_PLAYERS, RuleError, Score, ScorePoints, winners
from marquoir.games.yahtzee import Match as YahtzeeMatch
from marquoir.rules import INVALID
from marquoir.tables.actions import ActionRequest, parse_action, shorten
from marquoir.tables.keepers import GameEndpoint, Wording
from marquoir.tables.models import Match
from marquoir.tables.schemas import ActionBody
from marquoir.tables.selectors import MatchView
from marquoir.tables.summary import MatchSummary, StatFigure

from . import state, summary
from .actions import engine_action, form_action, parse_payload
from .messages import STATUSES, WORDINGS

if TYPE_CHECKING:
    from pydantic import BaseModel


class YahtzeeKeeper:
    """A sheet per player, turns in seating order, the joker and both bonuses; the dice pad,
    the box list with what each box would take, and the assistant."""

    key = "yahtzee"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    wordings: Mapping[str, Wording] = WORDINGS
    statuses: Mapping[str, int] = STATUSES
    has_assistant = True
    table_template = "yahtzee/table.html"
    options_template = "yahtzee/new_options.html"
    bgg_id: int | None = 2243

    def name(self) -> str:
        return "Yahtzee"

    def new_match_title(self) -> str:
        return _("New Yahtzee match")

    def first_label(self) -> str:
        return _("starts")

    def setup_hint(self) -> str:
        return _(
            "One to eight players, in seating order: each gets a sheet. Leave the rows you do not need empty. "
            "Tick who starts: the highest roll of the five dice, by the rules."
        )

    # --- set-up

    def clean_options(self, options: object) -> dict[str, Any]:
        """Yahtzee has no table options yet: none, or an empty object."""
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise RuleError(INVALID, "bad_options")
        if options:
            raise RuleError(INVALID, "unknown_option", option=shorten(sorted(str(key) for key in options)[0]))
        return {}

    def options_form_fields(self) -> dict[str, forms.Field]:
        return {}

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    # --- the log

    def start(self, row: Match) -> YahtzeeMatch:
        return state.start(row)

    def parse_action(self, body: Mapping[str, Any]) -> dict[str, Any]:
        return parse_payload(body)

    def engine_action(self, payload: Mapping[str, Any]) -> Score | ScorePoints:
        return engine_action(payload)

    def form_action(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return form_action(data)

    def state_json(self, view: MatchView) -> dict[str, Any]:
        return state.state_json(view)

    def winners(self, view: MatchView) -> tuple[int, ...]:
        return winners(view.engine.state)

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
        from .presenters import table_context

        return table_context(view, query, can_edit=can_edit)

    # --- the API

    @property
    def state_schema(self) -> type[BaseModel]:
        from .api import YahtzeeStateOut

        return YahtzeeStateOut

    @property
    def action_models(self) -> tuple[type[ActionBody], ...]:
        from .api import ScoreIn

        return (ScoreIn,)

    @property
    def api_endpoints(self) -> tuple[GameEndpoint, ...]:
        from .api import ENDPOINTS

        return ENDPOINTS


KEEPER = YahtzeeKeeper()


def parse_request(body: object) -> ActionRequest:
    """A request for a Yahtzee match, parsed as the core does (for scripts and tests)."""
    return parse_action(body, KEEPER)
