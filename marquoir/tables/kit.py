"""The game kit: everything a game's keeper takes from the match core, in one place.

A game's packages import the core from here and from nowhere else (an import-linter
contract says so): what is here is what the core promises games, and the core may change
the rest freely. See docs/adding-a-game.md for how the pieces fit.
"""

from __future__ import annotations

from .actions import ActionRequest, FreshIds, ascii_number, form_number, parse_action
from .api_errors import answer, error_response
from .charts import LineChart, line_chart, rounds_chart, running_totals
from .formatting import MINUS, decimal, join_names, percent, signed
from .forms import SeatChoiceField
from .keepers import BoxFacts, GameEndpoint, Keeper, Wording, keeper_for
from .log_words import LogWords, last_words, log_in_words
from .messages import message_for
from .models import Match
from .schemas import ActionBody, OutSchema, StrictBody, TableOptions, read_action, shorten
from .screen import (
    BandPlayer,
    Correction,
    GridRow,
    ScoreGrid,
    SeatMark,
    StandingRow,
    Standings,
    TableWords,
    band_in_points,
    correcting_entry,
    dealer_mark,
    refused_entry,
    score_grid,
    standings_by_total,
    started_mark,
)
from .selectors import MatchView, in_force, match_view
from .services import ServiceError
from .standing_words import (
    end_taken_back,
    game_over_short,
    game_over_text,
    lead_text,
    result_clause,
    result_text,
    scores_text,
    total_text,
    undo_text,
)
from .summary import MatchSummary, StatFigure, ranks_by_seat

__all__ = [
    "MINUS",
    "ActionBody",
    "ActionRequest",
    "BandPlayer",
    "BoxFacts",
    "Correction",
    "FreshIds",
    "GameEndpoint",
    "GridRow",
    "Keeper",
    "LineChart",
    "LogWords",
    "Match",
    "MatchSummary",
    "MatchView",
    "OutSchema",
    "ScoreGrid",
    "SeatChoiceField",
    "SeatMark",
    "ServiceError",
    "StandingRow",
    "Standings",
    "StatFigure",
    "StrictBody",
    "TableOptions",
    "TableWords",
    "Wording",
    "answer",
    "ascii_number",
    "band_in_points",
    "correcting_entry",
    "dealer_mark",
    "decimal",
    "end_taken_back",
    "error_response",
    "form_number",
    "game_over_short",
    "game_over_text",
    "in_force",
    "join_names",
    "keeper_for",
    "last_words",
    "lead_text",
    "line_chart",
    "log_in_words",
    "match_view",
    "message_for",
    "parse_action",
    "percent",
    "ranks_by_seat",
    "read_action",
    "refused_entry",
    "result_clause",
    "result_text",
    "rounds_chart",
    "running_totals",
    "score_grid",
    "scores_text",
    "shorten",
    "signed",
    "standings_by_total",
    "started_mark",
    "total_text",
    "undo_text",
]
