"""The score keepers: what the match core needs from each game, and where to find them.

The core (matches, the log, the one write path, live updates, sharing, the API envelope,
the page shell) never imports a game. Each game is a Django app of its own
(``marquoir/keepers/<game>/``) whose ``keeper.py`` holds ``KEEPER``, an instance of a
``Keeper`` subclass: the game's one definition (its box facts, engine, quick reference and
score keeping). Adding a game is its packages plus its app's line in ``INSTALLED_APPS``;
``marquoir.registry`` finds the keepers there, once, for the core and the catalog alike.

``Keeper`` gives every member a default but the few only the game can write (see
``Keeper.REQUIRED``), so a game overrides only what differs. The members were drawn from
the games themselves (Pickomino first, the score sheet next), not in the abstract: every
one is read by the core, the catalog or the groups.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.registry import installed_games, keeper_finders

from .schemas import ActionBody, TableOptions

if TYPE_CHECKING:
    from django import forms
    from pydantic import BaseModel

    from .fold import MatchView
    from .log_words import LogWords
    from .models import Match
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


class BoxFacts(Protocol):
    """What the core reads of a game's box facts (``marquoir.games.meta.GameMeta``, which
    the core may not import: it is the game's)."""

    @property
    def slug(self) -> str: ...

    @property
    def names(self) -> Mapping[str, str]: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def bgg_id(self) -> int | None: ...


class Keeper:
    """One game's score keeping, as the core sees it: subclass it, write the members of
    ``REQUIRED``, override any other where the game differs, and make one instance,
    ``KEEPER``, in the game app's ``keeper.py``."""

    REQUIRED: ClassVar[tuple[str, ...]] = (
        "meta",
        "action_models",
        "state_schema",
        "log_words",
        "start",
        "state_json",
        "summarise",
        "table_context",
    )
    """What every game writes (``meta`` may be None, as the sheet's, which then gives its
    ``key``, player counts and ``name``)."""

    # --- who the game is

    meta: BoxFacts | None
    """The game's box facts (``marquoir.games.<game>.meta.META``): its key, name, player
    counts and BoardGameGeek id come from them, and the catalog lists a game that has them."""

    @property
    def key(self) -> str:
        """The game's key in the API (``"game": "pickomino"``) and in addresses."""
        return self._meta.slug

    @property
    def min_players(self) -> int:
        return self._meta.min_players

    @property
    def max_players(self) -> int:
        return self._meta.max_players

    @property
    def bgg_id(self) -> int | None:
        """The game's id on BoardGameGeek, for BG Stats (None: unknown, or no one game)."""
        return self._meta.bgg_id if self.meta is not None else None

    def name(self) -> str:
        """The game's name in the current language (its box's, by default)."""
        names = self._meta.names
        return names.get(translation.get_language() or "en") or names["en"]

    @property
    def _meta(self) -> BoxFacts:
        if self.meta is None:
            raise TypeError(f"{type(self).__name__} has no meta: it must give key, player counts and name")
        return self.meta

    # --- the set-up page

    options: ClassVar[type[TableOptions]] = TableOptions
    """The table options, one model for the API, the set-up form, the store and the engine
    (none by default)."""
    has_assistant: ClassVar[bool] = False
    """Whether the game has a turn assistant a table may switch on."""

    @property
    def options_template(self) -> str:
        """The set-up page's part for the table options (``form`` in its context)."""
        return "tables/_options.html"

    def new_match_title(self) -> str:
        """The set-up page's heading ("New Pickomino match")."""
        return _("New %(game)s match") % {"game": self.name()}

    def setup_hint(self) -> str:
        """The line under "Players" on the set-up page: how many, in which order, and who starts."""
        least, most = self.min_players, self.max_players
        return ngettext(
            "%(least)s to %(most)s player, in seating order. Leave the rows you do not need empty. Tick who starts.",
            "%(least)s to %(most)s players, in seating order. Leave the rows you do not need empty. Tick who starts.",
            most,
        ) % {"least": least, "most": most}

    def first_label(self) -> str:
        """The set-up page's word beside the player who begins ("starts"; Tarot: "deals first")."""
        return _("starts")

    def clean_options(self, options: object) -> dict[str, Any]:
        """The table options as stored, or ``RuleError(invalid, …)``; None means the defaults."""
        return self.options.clean(options)

    def clean_options_for(self, options: object, player_count: int) -> dict[str, Any]:
        """The table options as stored for a table of ``player_count`` (a declared game's
        defaults and checks may depend on it: Skull King's deal at 8); ``clean_options`` by default."""
        return self.clean_options(options)

    def options_form_fields(self) -> dict[str, forms.Field]:
        """Django form fields for the table options on the set-up page, by name."""
        return self.options.form_fields()

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """The options as stored, from the set-up form's cleaned data (with ``player_rows``,
        the players' rows, for a ``SeatChoiceField``); ``forms.ValidationError({field: …})``
        refuses the form at that field."""
        return self.options.from_form(cleaned)

    # --- the log

    action_models: tuple[type[ActionBody], ...]
    """One schema per action type of the game (``undo`` and the guards ``expected_seq``
    and ``action_id`` are the core's): each parses its bodies, documents them, gives the
    payload the log keeps and the engine's action for it."""

    def start(self, row: Match) -> Any:
        """The engine's match (a ``GameMatch``) for a stored set-up, before any action."""
        raise NotImplementedError

    def rematch_order(self, view: MatchView) -> list[int] | None:
        """The seats of ``view``'s match in the order the next game seats them, the first of
        them starting (Mölkky: the lowest score throws first); None: as they sat, the same
        player starting."""
        return None

    @cached_property
    def _actions_by_type(self) -> dict[str, type[ActionBody]]:
        return {model.action_type(): model for model in self.action_models}

    def engine_action(self, payload: Mapping[str, Any]) -> Any:
        """The engine's action for a stored payload (its schema's ``engine_action``)."""
        return self._actions_by_type[payload["type"]].engine_action(payload)

    def form_action(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The API-shaped body of an action sent by the table screen's forms (not undo): read
        by the schema its ``type`` names; a type the game lacks is left for the schemas to refuse."""
        model = self._actions_by_type.get(str(data.get("type")))
        return model.from_form(data) if model is not None else {"type": data.get("type")}

    def correction_form(self, payload: Mapping[str, Any]) -> Mapping[str, str] | None:
        """The table screen's form fields that send this stored action (its ``type``
        included), for the pad to open on it to correct it in place; None: the pad cannot
        show it, and the entry is corrected through the API alone. By default its schema's
        (``ActionBody.form_values``)."""
        model = self._actions_by_type.get(str(payload.get("type")))
        return model.form_values(payload) if model is not None else None

    log_words: LogWords
    """The game's words for its log: each action and each undo, in a sentence and in short."""

    wordings: ClassVar[Mapping[str, Wording]] = {}
    """Refusals of this game, by reason or code, in the reader's language."""
    statuses: ClassVar[Mapping[str, int]] = {}
    """The HTTP status of each error code of this game's own (422 unless said)."""

    def refused_fields(self, code: str, reason: str, params: Mapping[str, Any]) -> tuple[str, ...]:
        """The inputs a refusal is about, for a screen to mark them: by default the field the
        action's schema named (a body's field, by its JSON name); a game whose forms have
        other names says its own (the sheet's ``score_2``)."""
        named = params.get("field")
        return (named,) if isinstance(named, str) and named else ()

    # --- the API

    state_schema: type[BaseModel]
    """The State's schema, for the OpenAPI."""
    api_endpoints: tuple[GameEndpoint, ...] = ()
    """The game's own API endpoints, if any (Pickomino's /claims and /advice)."""

    def state_json(self, view: MatchView) -> dict[str, Any]:
        """The State of the API for this match."""
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """What ``GET /api/v1/games/{key}`` adds to the key, names and player counts: a game
        declared as data publishes its inputs, options and end (nothing by default)."""
        return {}

    # --- what a match comes to

    stat_figures: tuple[StatFigure, ...] = ()
    """The game's own figures in a group's stats (Pickomino: busts per game, steals, best
    tile), in the order they are shown; each seat of a summary gives them by key."""

    def summarise(self, view: MatchView) -> MatchSummary:
        """What the match comes to so far (over or not), from the entries in force."""
        raise NotImplementedError

    def winners(self, view: MatchView) -> tuple[int, ...]:
        """The winning seats, once the match is over (empty before): the summary's."""
        return self.summarise(view).winners

    # --- the screens

    @property
    def table_template(self) -> str:
        """The table screen (``<key>/table.html``): it extends the core's shell,
        ``tables/table.html``, and fills its blocks (docs/adding-a-game.md)."""
        return f"{self.key}/table.html"

    def table_context(
        self, request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool
    ) -> dict[str, Any]:
        """What the game's part of the table screen shows (its band, pad and board), beside
        the core's own (``tables.screen.TableShell``: the match, the log, Undo). The core
        reads two keys of it: ``entry_dropped`` (the address held a turn entry made on an
        older table: it goes bare) and ``cookies`` (name -> (value, max age) to set)."""
        raise NotImplementedError

    # --- the catalog

    @property
    def game_family(self) -> str:
        """The game a group's history and stats count this match under: the key, but for a
        user's own game, whose versions are one game (``own.<id>``)."""
        return self.key

    def rules_address(self) -> str | None:
        """Where the table's "Rules of the game" link goes: the catalog's page of the game
        (None: no page, no link). A user's own game links to its own page."""
        return reverse("catalog:game", kwargs={"slug": self.meta.slug}) if self.meta is not None else None

    def reference(self) -> object | None:
        """The data of the game's quick reference on its rules page, built in the page's
        language (None: the game has none)."""
        return None

    @property
    def reference_template(self) -> str:
        """The quick reference's template (``<key>/reference.html``), given ``reference``."""
        return f"{self.key}/reference.html"

    def __init__(self) -> None:
        missing = [name for name in self.REQUIRED if not hasattr(self, name)]
        missing += [
            name
            for name in ("start", "state_json", "summarise", "table_context")
            if getattr(type(self), name) is getattr(Keeper, name)
        ]
        if missing:
            raise TypeError(f"{type(self).__name__} must write {', '.join(missing)} (marquoir.tables.keepers.Keeper)")


ScoreKeeper = Keeper
"""The name the core types its keepers with."""


def all_keepers() -> Mapping[str, ScoreKeeper]:
    """Every registered game's keeper, by key, in ``INSTALLED_APPS`` order."""
    return cast("Mapping[str, ScoreKeeper]", installed_games())


def keeper_for(game: object) -> ScoreKeeper | None:
    """The keeper of ``game`` (a key), or None if Marquoir keeps no score for it: an
    installed game's, else one a finder knows (a user's own game, ``own.<id>``)."""
    if not isinstance(game, str):
        return None
    installed = all_keepers().get(game)
    if installed is not None:
        return installed
    for finder, _pattern, _state in keeper_finders():
        found = finder(game)
        if found is not None:
            return cast("ScoreKeeper", found)
    return None


def found_key_patterns() -> tuple[str, ...]:
    """The patterns of the keys the finders know (the API's creation body takes them)."""
    return tuple(pattern for _finder, pattern, _state in keeper_finders())


def found_state_schemas() -> tuple[type[BaseModel], ...]:
    """The State schemas of the games the finders know (the API's answers document them)."""
    return tuple(state for _finder, _pattern, state in keeper_finders())
