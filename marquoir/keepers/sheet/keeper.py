"""The score sheet's one definition, as the match core reads it (``marquoir.tables.keepers.Keeper``).

A sheet keeps score for any game, so it has no box (no ``meta``: it is not in the catalog,
and says its key, player counts and name itself), no figures of its own and no endpoint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from marquoir.games.sheet import MAX_PLAYERS, MIN_PLAYERS
from marquoir.tables.kit import Keeper

from . import state, summary
from .actions import ACTIONS, field_name
from .api import SheetStateOut
from .messages import STATUSES, WORDINGS
from .narration import LOG_WORDS
from .options import SheetOptions
from .presenters import table_context


class SheetKeeper(Keeper):
    """Rounds × players for any game: totals, ranks with ties, the end by target, rounds or say-so."""

    meta = None
    key = "sheet"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    action_models = ACTIONS
    state_schema = SheetStateOut
    options = SheetOptions
    options_template = "sheet/new_options.html"
    log_words = LOG_WORDS
    start = staticmethod(state.start)
    state_json = staticmethod(state.state_json)
    summarise = staticmethod(summary.summarise)
    table_context = staticmethod(table_context)
    wordings = WORDINGS
    statuses = STATUSES

    def name(self) -> str:
        return _("Score sheet")

    def new_match_title(self) -> str:
        return _("New score sheet")

    def refused_fields(self, code: str, reason: str, params: Mapping[str, Any]) -> tuple[str, ...]:
        """A refused score points at that player's field of the round form."""
        player = params.get("player")
        return (field_name(player),) if isinstance(player, int) else super().refused_fields(code, reason, params)

    def setup_hint(self) -> str:
        return _(
            "One to twenty players, in the order of the sheet’s columns. Leave the rows you do not need empty. "
            "Who starts is kept for the record."
        )


KEEPER = SheetKeeper()
