"""Pickomino's one definition: its box, engine, quick reference and score keeping, as the
match core and the catalog read them (``marquoir.tables.keepers.Keeper``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from marquoir.games.pickomino.meta import META
from marquoir.tables.kit import Keeper

from . import state, summary
from .actions import ACTIONS
from .api import ENDPOINTS, StateOut
from .messages import STATUSES, WORDINGS
from .narration import LOG_WORDS
from .options import OptionsSchema
from .presenters import table_context
from .reference import pickomino_reference


class PickominoKeeper(Keeper):
    """The grill, every stack, takes, steals and busts; the turn pad and the assistant."""

    meta = META
    action_models = ACTIONS
    state_schema = StateOut
    options = OptionsSchema
    log_words = LOG_WORDS
    start = staticmethod(state.start)
    state_json = staticmethod(state.state_json)
    summarise = staticmethod(summary.summarise)
    table_context = staticmethod(table_context)
    reference = staticmethod(pickomino_reference)
    wordings = WORDINGS
    statuses = STATUSES
    has_assistant = True
    api_endpoints = ENDPOINTS
    stat_figures = summary.STAT_FIGURES

    def setup_hint(self) -> str:
        return _(
            "Two to seven players. Leave the rows you do not need empty. Tick who starts: the youngest, by the rules."
        )


KEEPER = PickominoKeeper()
