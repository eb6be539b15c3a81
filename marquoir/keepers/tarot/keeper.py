"""French Tarot's keeper, as the match core calls it (``marquoir.tables.keepers.ScoreKeeper``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _

from marquoir.games.tarot import MAX_PLAYERS, MIN_PLAYERS, Deal, End, Pass, winners
from marquoir.games.tarot import Match as TarotMatch
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


class TarotKeeper:
    """Deal after deal: the taker's contract, bouts and points scored by the FFT rules; the
    dealer passed on; the end by a number of deals or when the table says so."""

    key = "tarot"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    wordings: Mapping[str, Wording] = WORDINGS
    statuses: Mapping[str, int] = STATUSES
    has_assistant = False
    table_template = "tarot/table.html"
    options_template = "tarot/new_options.html"
    # French Tarot's BoardGameGeek id is left out: it could not be checked offline.
    bgg_id: int | None = None

    def name(self) -> str:
        return _("French Tarot")

    def new_match_title(self) -> str:
        return _("New French Tarot match")

    def first_label(self) -> str:
        return _("deals first")

    def setup_hint(self) -> str:
        return _(
            "Three, four or five players, in playing order (counter-clockwise around the table). "
            "Leave the rows you do not need empty. Tick who deals first."
        )

    # --- set-up

    def clean_options(self, options_: object) -> dict[str, Any]:
        return options.clean_options(options_)

    def options_form_fields(self) -> dict[str, forms.Field]:
        return options.options_form_fields()

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        return options.options_from_form(cleaned)

    # --- the log

    def start(self, row: Match) -> TarotMatch:
        return state.start(row)

    def parse_action(self, body: Mapping[str, Any]) -> dict[str, Any]:
        return parse_payload(body)

    def engine_action(self, payload: Mapping[str, Any]) -> Deal | Pass | End:
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
        return table_context(request, view, query, can_edit=can_edit)

    # --- the API

    @property
    def state_schema(self) -> type[BaseModel]:
        from .api import TarotStateOut

        return TarotStateOut

    @property
    def action_models(self) -> tuple[type[ActionBody], ...]:
        from .api import DealIn, EndIn, PassIn

        return (DealIn, PassIn, EndIn)

    @property
    def api_endpoints(self) -> tuple[GameEndpoint, ...]:
        """Tarot has no endpoint of its own: the preview of a deal is the table page's."""
        return ()


KEEPER = TarotKeeper()


def parse_request(body: object) -> ActionRequest:
    """A request for a Tarot match, parsed as the core does (for scripts and tests)."""
    return parse_action(body, KEEPER)
