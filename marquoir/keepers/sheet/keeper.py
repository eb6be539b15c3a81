"""The score sheet's keeper, as the match core calls it (``marquoir.tables.keepers.ScoreKeeper``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _

from marquoir.games.sheet import MAX_PLAYERS, MIN_PLAYERS, End, Round, winners
from marquoir.games.sheet import Match as SheetMatch
from marquoir.tables.actions import ActionRequest, parse_action
from marquoir.tables.keepers import GameEndpoint, Wording
from marquoir.tables.models import Match
from marquoir.tables.schemas import ActionBody
from marquoir.tables.selectors import MatchView
from marquoir.tables.summary import MatchSummary, StatFigure

from . import options, state, summary
from .actions import engine_action, form_action, parse_payload
from .messages import STATUSES, WORDINGS
from .presenters import table_context

if TYPE_CHECKING:
    from pydantic import BaseModel


class SheetKeeper:
    """Rounds × players for any game: totals, ranks with ties, the end by target, rounds or say-so."""

    key = "sheet"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    wordings: Mapping[str, Wording] = WORDINGS
    statuses: Mapping[str, int] = STATUSES
    has_assistant = False
    table_template = "sheet/table.html"
    options_template = "sheet/new_options.html"
    # A sheet keeps score for any game: no one BoardGameGeek id.
    bgg_id: int | None = None

    def name(self) -> str:
        return _("Score sheet")

    def new_match_title(self) -> str:
        return _("New score sheet")

    def first_label(self) -> str:
        return _("starts")

    def setup_hint(self) -> str:
        return _(
            "One to twenty players, in the order of the sheet’s columns. Leave the rows you do not need empty. "
            "Who starts is kept for the record."
        )

    # --- set-up

    def clean_options(self, options_: object) -> dict[str, Any]:
        return options.clean_options(options_)

    def options_form_fields(self) -> dict[str, forms.Field]:
        return options.options_form_fields()

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        return options.options_from_form(cleaned)

    # --- the log

    def start(self, row: Match) -> SheetMatch:
        return state.start(row)

    def parse_action(self, body: Mapping[str, Any]) -> dict[str, Any]:
        return parse_payload(body)

    def engine_action(self, payload: Mapping[str, Any]) -> Round | End:
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
        # The round being entered lives in its form, not in the address: ``query`` holds nothing
        # for the sheet, and the address never carries an entry to drop.
        context = table_context(request, view, can_edit=can_edit)
        context["game_name"] = view.engine.state.options.title or self.name()
        return context

    # --- the API

    @property
    def state_schema(self) -> type[BaseModel]:
        from .api import SheetStateOut

        return SheetStateOut

    @property
    def action_models(self) -> tuple[type[ActionBody], ...]:
        from .api import EndIn, RoundIn

        return (RoundIn, EndIn)

    @property
    def api_endpoints(self) -> tuple[GameEndpoint, ...]:
        return ()


KEEPER = SheetKeeper()


def parse_request(body: object) -> ActionRequest:
    """A request for a sheet match, parsed as the core does (for scripts and tests)."""
    return parse_action(body, KEEPER)
