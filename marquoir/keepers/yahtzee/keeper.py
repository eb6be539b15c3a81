"""Yahtzee's one definition: its box, engine, quick reference and score keeping, as the match
core and the catalog read them (``marquoir.tables.keepers.Keeper``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from marquoir.games.yahtzee.meta import META
from marquoir.tables.kit import Keeper

from . import state, summary
from .actions import ACTIONS
from .api import ENDPOINTS, YahtzeeOptions, YahtzeeStateOut
from .messages import STATUSES, WORDINGS
from .narration import LOG_WORDS
from .presenters import table_context
from .reference import yahtzee_reference


class YahtzeeKeeper(Keeper):
    """A sheet per player, turns in seating order, the joker and both bonuses; the dice pad,
    the box list with what each box would take, and the assistant."""

    meta = META
    action_models = ACTIONS
    state_schema = YahtzeeStateOut
    options = YahtzeeOptions
    options_template = "yahtzee/new_options.html"
    log_words = LOG_WORDS
    start = staticmethod(state.start)
    state_json = staticmethod(state.state_json)
    summarise = staticmethod(summary.summarise)
    table_context = staticmethod(table_context)
    reference = staticmethod(yahtzee_reference)
    wordings = WORDINGS
    statuses = STATUSES
    has_assistant = True
    api_endpoints = ENDPOINTS
    stat_figures = summary.STAT_FIGURES

    def setup_hint(self) -> str:
        return _(
            "One to eight players, in seating order: each gets a sheet. Leave the rows you do not need empty. "
            "Tick who starts: the highest roll of the five dice, by the rules."
        )


KEEPER = YahtzeeKeeper()
