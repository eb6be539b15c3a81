"""One keeper for every game declared as data: ``KEEPERS`` holds one per game file
(``marquoir.games.declared.declared_games``), each drawn from its file alone. Adding a
declared game is its file and its two rules pages: nothing here changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from django import forms
from django.http import HttpRequest

from marquoir.games.declared import Game, GameState, declared_games
from marquoir.games.declared.engine import option_context
from marquoir.games.declared.gamefile import InputDef
from marquoir.games.meta import GameMeta
from marquoir.tables.kit import (
    ActionBody,
    Keeper,
    LogWords,
    MatchSummary,
    MatchView,
    OutSchema,
    StatFigure,
    Wording,
)
from marquoir.tables.kit import Match as MatchRow

from . import options, presenters, state
from .actions import action_models, field_name
from .api import POINTS_ENDPOINT
from .words import lazy_local, local, log_words, wordings


def box_facts(game: Game) -> GameMeta:
    """The catalog's facts of a declared game, from its file."""
    box = game.file.box
    return GameMeta(
        slug=game.key,
        names={"en": box.names.en, "fr": box.names.fr},
        original_name=box.original_name,
        category=box.category,
        min_players=box.players[0],
        max_players=box.players[1],
        minutes=box.minutes,
        min_age=box.age,
        released=box.released,
        designers=tuple(box.designers),
        publishers=tuple(box.publishers),
        bgg_id=box.bgg_id,
        other_names=tuple(box.other_names),
        sources=tuple(box.sources),
    )


class DeclaredKeeper(Keeper):
    """A game declared as data, kept by its file: inputs, formulas, checks, end, tie-breaks."""

    api_endpoints = (POINTS_ENDPOINT,)

    def __init__(self, game: Game, *, key: str | None = None) -> None:
        """``key``: the game's key where it is not its file's (a user's own game, ``own.<id>.<version>``)."""
        self.game = game
        self.meta = box_facts(game)
        self._key = key
        self.action_models: tuple[type[ActionBody], ...] = action_models(game)
        self.state_schema: type[OutSchema] = state.state_schema(game, key)
        self.log_words: LogWords = log_words(game)
        super().__init__()

    @property
    def key(self) -> str:
        return self._key or self.game.key

    @cached_property
    def wordings(self) -> Mapping[str, Wording]:  # type: ignore[override]
        return wordings(self.game)

    @property
    def stat_figures(self) -> tuple[StatFigure, ...]:  # type: ignore[override]
        return tuple(StatFigure(figure.key, lazy_local(figure.label), figure.kind) for figure in self.game.file.figures)

    # --- the set-up page

    def clean_options(self, given: object) -> dict[str, Any]:
        return options.clean(self.game, given, self.min_players)

    def clean_options_for(self, given: object, player_count: int) -> dict[str, Any]:
        return options.clean(self.game, given, player_count)

    def options_form_fields(self) -> dict[str, forms.Field]:
        return options.form_fields(self.game)

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        return options.from_form(self.game, cleaned)

    # --- the match

    def start(self, row: MatchRow) -> Any:
        return state.start(self.game, row)

    def state_json(self, view: MatchView) -> dict[str, Any]:
        return state.state_json(view)

    def summarise(self, view: MatchView) -> MatchSummary:
        return state.summarise(view)

    def refused_fields(self, code: str, reason: str, params: Mapping[str, Any]) -> tuple[str, ...]:
        """A refused input points at its field on the pad (a player's, or the round's)."""
        key, seat, part = params.get("input"), params.get("player"), params.get("part")
        final = self.game.final
        if isinstance(key, str) and (key in self.game.input_keys or (final is not None and key in final.input_keys)):
            return (field_name(key, seat if isinstance(seat, int) else None, part if isinstance(part, str) else None),)
        return super().refused_fields(code, reason, params)

    # --- the screens

    @property
    def table_template(self) -> str:
        return "declared/table.html"

    def table_context(
        self, request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool
    ) -> dict[str, Any]:
        return presenters.table_context(self.game, request, view, query, can_edit=can_edit)

    def reference(self) -> Sequence[tuple[str, str]] | None:
        rows = self.game.file.reference
        return [(local(row.label), local(row.value)) for row in rows] if rows else None

    @property
    def reference_template(self) -> str:
        return "declared/reference.html"

    def rematch_order(self, view: MatchView) -> list[int] | None:
        """``[rematch]``: sorted on its formula (Mölkky: the lowest total first, and starting),
        ties as they sat; otherwise as they sat."""
        return rematch_order(self.game, view.engine.state)

    def describe(self) -> dict[str, Any]:
        """What ``GET /api/v1/games/{key}`` publishes: the inputs, options and end."""
        return describe_game(self.game)


def describe_game(game: Game) -> dict[str, Any]:
    file = game.file
    total_order = file.ranking[file.total_rank].order
    return {
        "schema_version": file.schema_version,
        # The first version's fields, said from the second (docs/api-v1.md: extended, never changed).
        "scored": "turns" if file.by_turns else file.scored,
        "winner": file.winner,
        "lowest_wins_when": None if total_order in ("highest", "lowest") else f"({total_order}) == 'lowest'",
        "entry": file.entry,
        "play": file.play,
        "teams": {"size": list(file.teams.size), "formed": file.teams.formed} if file.teams else None,
        "cooperative": {"score": file.cooperative.score} if file.cooperative else None,
        "carried": [
            {"key": item.key, "label": {"en": item.label.en, "fr": item.label.fr}, "track": item.track}
            for item in file.carry
        ],
        "ranking": [
            {
                "key": key.key,
                "value": key.formula,
                "order": key.order,
                "label": {"en": key.label.en, "fr": key.label.fr} if key.label else None,
            }
            for key in file.ranking
        ],
        "inputs": _describe_inputs(file.inputs),
        # The end's count (docs/api.md): what {"type": "end", "inputs": …} takes; null: a bare end.
        "final": {"inputs": _describe_inputs(file.final.inputs)} if file.final else None,
        "options": [
            {
                "key": option.key,
                "kind": option.kind,
                "label": {"en": option.label.en, "fr": option.label.fr},
                "default": option.default,
                "nullable": option.nullable,
                "default_formula": option.default_formula,
                "min": option.min,
                "max": option.max,
                "choices": [choice.value for choice in option.choices] or None,
            }
            for option in file.options
        ],
        "end": {
            "rounds": file.end.rounds,
            "target": file.end.target,
            "table_decides": file.end.table_decides,
            "untied": file.end.unless is not None,
            "last_standing": any(rule.key == "last_standing" for rule in file.end.rules),
            "unless": file.end.unless,
            "rules": [
                {
                    "key": rule.key,
                    "label": {"en": rule.label.en, "fr": rule.label.fr},
                    "when": rule.when,
                    "winners": rule.winners,
                    "result": rule.result,
                }
                for rule in file.end.rules
            ],
        },
        "tiebreaks": [{"key": tiebreak.key, "higher": tiebreak.higher} for tiebreak in file.tiebreaks],
        "categories": [category.key for category in [*file.points, *(file.final.points if file.final else ())]],
    }


def rematch_order(game: Game, state: GameState) -> list[int] | None:
    """The seats of the next match by ``[rematch]`` (each side's value at the end, ``order``
    first; ties as they sat), or None: as they sat (a team game keeps its seats)."""
    if game.rematch_by is None or game.file.rematch is None or state.teams is not None or game.cooperative:
        return None
    base = option_context(state)
    values = [
        game.rematch_by.whole_number(
            {**base, "seat": seat, "total": state.totals[seat], "out": state.out[seat], **state.carried[seat]}
        )
        for seat in range(state.player_count)
    ]
    sign = 1 if game.file.rematch.order == "lowest" else -1
    return sorted(range(state.player_count), key=lambda seat: (sign * values[seat], seat))


KEEPERS = tuple(DeclaredKeeper(game) for game in declared_games())


def _describe_inputs(inputs: Sequence[InputDef]) -> list[dict[str, Any]]:
    """Each input as ``GET /api/v1/games/{key}`` publishes it: key, per, kind, bounds, parts."""
    return [
        {
            "key": item.key,
            "per": item.per,
            "kind": item.kind,
            "label": {"en": item.label.en, "fr": item.label.fr},
            "min": item.min,
            "max": item.max,
            "step": item.step,
            "choices": list(item.choices) or [choice.value for choice in item.names] or None,
            "parts": [
                {
                    "key": part.key,
                    "min": part.min,
                    "max": part.max,
                    "default": part.default,
                    "names": [choice.value for choice in part.names] or None,
                    "optional": part.optional,
                }
                for part in item.parts
            ]
            or None,
            "max_length": item.max_length,
            "group_length": item.group_length,
            "default": item.default,
            "when": item.when,
        }
        for item in inputs
    ]
