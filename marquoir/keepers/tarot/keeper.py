"""French Tarot's one definition: its deck's facts, engine, quick reference and score keeping,
as the match core and the catalog read them (``marquoir.tables.keepers.Keeper``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from marquoir.games.tarot.meta import META
from marquoir.tables.kit import Keeper

from . import state, summary
from .actions import ACTIONS
from .api import TarotStateOut
from .messages import STATUSES, WORDINGS
from .narration import LOG_WORDS
from .options import TarotOptions
from .presenters import table_context
from .reference import tarot_reference


class TarotKeeper(Keeper):
    """Deal after deal: the taker's contract, bouts and points scored by the FFT rules; the
    dealer passed on; the end by a number of deals or when the table says so. Its
    BoardGameGeek id is left out: it could not be checked offline."""

    meta = META
    action_models = ACTIONS
    state_schema = TarotStateOut
    options = TarotOptions
    options_template = "tarot/new_options.html"
    log_words = LOG_WORDS
    start = staticmethod(state.start)
    state_json = staticmethod(state.state_json)
    summarise = staticmethod(summary.summarise)
    table_context = staticmethod(table_context)
    reference = staticmethod(tarot_reference)
    wordings = WORDINGS
    statuses = STATUSES
    stat_figures = summary.STAT_FIGURES

    def new_match_title(self) -> str:
        return _("New French Tarot match")

    def first_label(self) -> str:
        return _("deals first")

    def setup_hint(self) -> str:
        return _(
            "Three, four or five players, in playing order (counter-clockwise around the table). "
            "Leave the rows you do not need empty. Tick who deals first."
        )


KEEPER = TarotKeeper()
