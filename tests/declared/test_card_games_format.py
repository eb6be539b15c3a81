"""What the game file gained for the French card games, each held here apart from the games'
own examples: what the log and the bar say of a deal (``said``: Belote's and Coinche's
contract and its outcome; only what has words, its condition bounded as any formula), a
groups input (Farkle's dice set aside roll by roll: read, refused, typed on the pad and read
back, a null drawn as it starts), and a player input's default in words (``unsaid``)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from marquoir.games.declared import Match, Round, Setup, Turn, declared_games, resolve_options
from marquoir.games.declared.cost import game_cost
from marquoir.games.declared.gamefile import GameFileError, parse_game_file
from marquoir.keepers.declared.actions import action_models
from marquoir.keepers.declared.presenters import pad
from marquoir.keepers.declared.words import log_words
from marquoir.rules import RuleError
from marquoir.rules.errors import INVALID

GAMES = {game.key: game for game in declared_games()}
PLAYERS = ["Ada", "Ben", "Cy", "Dee"]


def dealt(key: str, inputs: dict[str, Any]) -> Any:
    game = GAMES[key]
    match = Match.start(Setup(game, 4, 0, resolve_options(game, 4, {}))).apply(Round(inputs))
    return match.steps[-1].outcome


@pytest.mark.parametrize(
    ("language", "sentence", "bar"),
    [
        (
            "en",
            "Round 1: Ada and Cy 130, Ben and Dee 52. Ada and Cy: 110, made. Belote: Ada and Cy.",
            "Ada and Cy: 110, made · Belote: Ada and Cy · ",
        ),
        (
            "fr",
            "Manche 1\u00a0: Ada et Cy 130, Ben et Dee 52. Ada et Cy\u00a0: 110, réussi. Belote\u00a0: Ada et Cy.",
            "Ada et Cy\u00a0: 110, réussi · Belote\u00a0: Ada et Cy · ",
        ),
    ],
)
def test_the_log_and_the_bar_say_the_takers_their_points_and_the_outcome(language: str, sentence: str, bar: str):
    outcome = dealt("belote", {"taker": 0, "points": 110, "belote": 0})
    words = log_words(GAMES["belote"])
    with translation.override(language):
        assert words.describe(outcome, PLAYERS) == sentence
        assert words.describe_short(outcome, PLAYERS).startswith(bar)


def test_a_failed_coinched_contract_is_said_dedans_and_coinched():
    outcome = dealt("coinche", {"taker": 1, "contract": 120, "coinche": 2, "points": 90})
    with translation.override("fr"):
        short = log_words(GAMES["coinche"]).describe_short(outcome, PLAYERS)
    assert short.startswith("Ben et Dee\u00a0: 120, dedans · Coinché · ")


def test_a_sentence_may_name_only_a_round_s_value():
    data = tomllib.loads(Path(GAMES["belote"].source).read_text(encoding="utf-8"))
    data["said"] = [{"text": {"en": "{announcements}", "fr": "{announcements}"}}]
    with pytest.raises(GameFileError, match="no input or derived value of the round"):
        parse_game_file(data)


def test_groups_are_read_as_lists_of_numbers_and_refused_worded_when_malformed():
    farkle = GAMES["farkle"]
    match = Match.start(Setup(farkle, 2, 0, resolve_options(farkle, 2, {"opening": 0})))
    assert match.apply(Turn({"kept": [[1, 5], [2, 2, 2]]})).state.totals == (350, 0)
    for wrong, reason in (
        ([[1, 5], []], "group_length"),
        ([[1, 1, 1, 1, 1, 1, 1]], "group_length"),
        ([[7]], "input_range"),
        ([[1, "5"]], "input_kind"),
        ([1, 5], "input_kind"),
        ([[1]] * 21, "input_length"),
    ):
        with pytest.raises(RuleError) as refusal:
            match.apply(Turn({"kept": wrong}))
        assert (refusal.value.code, refusal.value.reason) == (INVALID, reason)


def test_a_turn_s_groups_typed_on_the_pad_are_read_back_as_sent():
    farkle = GAMES["farkle"]
    schema = next(model for model in action_models(farkle) if model.action_type() == "turn")
    sent = {"type": "turn", "inputs": {"kept": [[1, 1, 1, 5, 5], [5], [3, 3, 3, 4, 4, 4], [5]], "farkle": False}}
    fields: dict[str, Any] = dict(schema.form_values(sent) or {})
    assert fields["in_kept_0"] == "11155"
    read = schema.from_form({**fields, "players": "3", "drawn": "kept,farkle"})
    assert read["inputs"]["kept"] == [[1, 1, 1, 5, 5], [5], [3, 3, 3, 4, 4, 4], [5]]
    # Spaces and commas are taken between faces; a letter is refused, worded as the API's.
    spaced = schema.from_form({"in_kept_0": "1 1, 5", "players": "3", "drawn": "kept"})
    assert spaced["inputs"]["kept"] == [[1, 1, 5]]
    with pytest.raises(RuleError) as refusal:
        schema.from_form({"in_kept_0": "1a5", "players": "3", "drawn": "kept"})
    assert refusal.value.reason == "input_kind"


def test_a_groups_input_shows_six_rows_open_and_the_rest_behind_more():
    farkle = GAMES["farkle"]
    state = Match.start(Setup(farkle, 3, 0, resolve_options(farkle, 3, {}))).state
    with translation.override("en"):
        kept = next(field for field in pad(state, PLAYERS[:3], {}).round_fields if field.kind == "groups")
    assert [row[0].label for row in kept.records] == [f"Roll {number}" for number in range(1, 7)]
    assert len(kept.records) + len(kept.more) == farkle.file.inputs[0].max_length
    assert not kept.more_open


def test_a_player_input_s_default_choice_says_nobody_in_each_language():
    state = Match.start(Setup(GAMES["belote"], 4, 0, resolve_options(GAMES["belote"], 4, {}))).state
    for language, nobody in (("en", "Nobody"), ("fr", "Personne")):
        with translation.override(language):
            fields = pad(state, ["Ada and Cy", "Ben and Dee"], {}).round_fields
            capot = next(field for field in fields if field.name == "in_capot")
        assert capot.choices[-1] == ("-1", nobody)


def test_an_input_sent_as_null_is_drawn_as_it_starts_when_its_round_is_corrected():
    # {"kept": null} takes the default ([]): the correction's fields must not fail on it.
    farkle = GAMES["farkle"]
    schema = next(model for model in action_models(farkle) if model.action_type() == "turn")
    fields = schema.form_values({"type": "turn", "inputs": {"kept": None, "farkle": True}})
    assert fields == {"type": "turn", "in_farkle": "1"}
    scrabble = GAMES["scrabble"]
    count = next(model for model in action_models(scrabble) if model.action_type() == "end")
    assert count.form_values({"type": "end", "inputs": {"went_out": None, "left": [0, 3]}}) == {
        "type": "end",
        "in_left_0": "0",
        "in_left_1": "3",
    }


def test_a_sentence_s_condition_counts_in_the_bound_on_a_round_s_work():
    assert "said[0].when" in game_cost(GAMES["belote"]).steps


def test_a_sentence_says_only_what_has_words_a_flag_is_refused():
    data = tomllib.loads(Path(GAMES["coinche"].source).read_text(encoding="utf-8"))
    data["said"] = [{"text": {"en": "{generale}", "fr": "{generale}"}}]
    with pytest.raises(GameFileError, match="no input or derived value of the round"):
        parse_game_file(data)
