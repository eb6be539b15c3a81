"""The score keepers: what the match core needs from each game, and where to find them.

The core (matches, the log, the one write path, live updates, sharing, the API envelope,
the page shell) never imports a game. Each game's score keeper is a Django app of its own
(``marquoir/keepers/<game>/``) whose ``AppConfig`` names its keeper object in
``score_keeper``; adding a game is its package plus one line in ``INSTALLED_APPS``.

The protocol below was drawn from the games themselves (Pickomino first, the score sheet
next), not in the abstract: every method is one the core calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .models import Match
    from .schemas import ActionBody
    from .selectors import MatchView
    from .summary import MatchSummary, StatFigure

# A refusal put into words: (params, the match's player names) -> a sentence.
Wording = Callable[[Mapping[str, Any], Sequence[str]], str]


@dataclass(frozen=True)
class GameEndpoint:
    """One of a game's own API endpoints, under a match: ``GET /api/v1{path}``.

    Two games may serve the same address (Pickomino's and Yahtzee's ``/advice``): the core
    serves it once, finds the match, and hands the request to the endpoint of the match's
    game; a match of a game without it answers 404 ``not_found`` (``wrong_game``). The
    OpenAPI documents the address once, with each game's query parameters and answers.
    """

    path: str
    """Under /api/v1, with ``{match_id}``: ``"/matches/{match_id}/advice"``."""
    view: Callable[[HttpRequest, Match], HttpResponse]
    """The answer for a match of this game (found, and of this game): build it with
    ``api_errors.answer(response, …)``, refuse with ``api_errors.error_response``."""
    response: type[BaseModel]
    """The schema of the 200 answer."""
    query: type[BaseModel] | None = None
    """The query parameters, as a schema: documented in the OpenAPI; the view reads them
    with ``query.model_validate(request.GET.dict())``."""
    summary: str = ""
    description: str = ""


class ScoreKeeper(Protocol):
    """One game's score keeping, as the core sees it."""

    key: str
    """The game's key in the API (``"game": "pickomino"``) and in addresses."""
    min_players: int
    max_players: int

    @property
    def action_models(self) -> tuple[type[ActionBody], ...]:
        """One schema per action type of the game (``undo`` and the guards ``expected_seq``
        and ``action_id`` are the core's): they parse the bodies and document them."""

    wordings: Mapping[str, Wording]
    """Refusals of this game, by reason or code, in the reader's language."""
    statuses: Mapping[str, int]
    """The HTTP status of each error code of this game's own (422 unless said)."""
    table_template: str
    """The table screen: a template defining the partial ``table`` (pickomino/table.html is one)."""
    options_template: str
    """The set-up page's part for this game's table options (``form`` in its context)."""
    has_assistant: bool
    """Whether the game has a turn assistant a table may switch on."""

    @property
    def state_schema(self) -> type[BaseModel]:
        """The State's schema, for the OpenAPI."""

    def name(self) -> str:
        """The game's name in the current language."""

    def new_match_title(self) -> str:
        """The set-up page's heading ("New Pickomino match")."""

    def setup_hint(self) -> str:
        """The line under "Players" on the set-up page: how many, in which order, and who starts."""

    def first_label(self) -> str:
        """The set-up page's word beside the player who begins ("starts"; Tarot: "deals first")."""

    def clean_options(self, options: object) -> dict[str, Any]:
        """The table options as stored, or ``RuleError(invalid, …)``; None means the defaults."""

    def options_form_fields(self) -> dict[str, Any]:
        """Django form fields for the table options on the set-up page, by name."""

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """The options (API-shaped) from the set-up form's cleaned data."""

    def start(self, row: Match) -> Any:
        """The engine's match (a ``GameMatch``) for a stored set-up, before any action."""

    def parse_action(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The normalised payload of a game action (with its ``type``), or ``RuleError``.
        The body holds the fields the action's schema read, by their JSON names, guards left
        out: their types and bounds are checked, what they mean together is the game's."""

    def engine_action(self, payload: Mapping[str, Any]) -> Any:
        """The engine's action for a stored payload."""

    def form_action(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The API-shaped body of an action sent by the table screen's forms (not undo)."""

    def state_json(self, view: MatchView) -> dict[str, Any]:
        """The State of the API for this match."""

    def winners(self, view: MatchView) -> tuple[int, ...]:
        """The winning seats, once the match is over (empty before)."""

    def table_context(
        self, request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool
    ) -> dict[str, Any]:
        """What the table screen shows: the game's band, pad and log. The core reads three
        keys of it: ``entry_dropped`` (the address held a turn entry made on an older table:
        it goes bare), ``cookies`` (name -> (value, max age) to set) and ``match``."""

    @property
    def api_endpoints(self) -> tuple[GameEndpoint, ...]:
        """The game's own API endpoints, if any (Pickomino's /claims and /advice)."""

    bgg_id: int | None
    """The game's id on BoardGameGeek, for BG Stats (None for the score sheet, which keeps
    score for any game)."""

    @property
    def stat_figures(self) -> tuple[StatFigure, ...]:
        """The game's own figures in a group's stats (Pickomino: busts per game, steals, best
        tile), in the order they are shown; each seat of a summary gives them by key."""

    def summarise(self, view: MatchView) -> MatchSummary:
        """What the match comes to so far (over or not), from the entries in force."""


def _keepers() -> dict[str, ScoreKeeper]:
    found: dict[str, ScoreKeeper] = {}
    for config in apps.get_app_configs():
        path = getattr(config, "score_keeper", None)
        if path:
            keeper: ScoreKeeper = import_string(path)
            if getattr(config, "game", None) != keeper.key:
                raise ImproperlyConfigured(f"{config.name}: its AppConfig.game must be {keeper.key!r}")
            found[keeper.key] = keeper
    return found


@cache
def all_keepers() -> dict[str, ScoreKeeper]:
    """Every registered game's keeper, by key, in ``INSTALLED_APPS`` order."""
    return _keepers()


def keeper_for(game: object) -> ScoreKeeper | None:
    """The keeper of ``game`` (a key), or None if Marquoir keeps no score for it."""
    return all_keepers().get(game) if isinstance(game, str) else None
