"""The game files: the published JSON Schema is the one Marquoir reads, every file validates
against it (with an independent validator), and a faulty file is refused with its file,
field and position named."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from marquoir.games.declared import Game, game_files
from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import GameFileError, parse_game_file
from marquoir.games.declared.schema import SCHEMA_PATH, json_schema
from marquoir.games.sheet.engine import SHEET_FILE

SKYJO = Path(__file__).resolve().parents[2] / "marquoir" / "games" / "skyjo" / "game.toml"


def skyjo_data() -> dict[str, Any]:
    return tomllib.loads(SKYJO.read_text(encoding="utf-8"))


def compiled(data: dict[str, Any]) -> Game:
    return compile_game(parse_game_file(data, source="test.toml"), source="test.toml")


def test_the_published_schema_is_the_one_marquoir_reads() -> None:
    published = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert published == json_schema(), "run: python -m marquoir.games.declared.schema"


@pytest.mark.parametrize("path", [*game_files(), SHEET_FILE], ids=lambda path: path.parent.name)
def test_every_game_file_validates_against_the_published_schema(path: Path) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(tomllib.loads(path.read_text(encoding="utf-8")), schema)


def test_the_schema_refuses_what_marquoir_refuses_an_unknown_field() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    data = skyjo_data() | {"colour": "red"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
    with pytest.raises(GameFileError, match="colour"):
        parse_game_file(data)


def test_a_formula_that_does_not_parse_is_refused_with_its_field_line_and_column() -> None:
    data = skyjo_data()
    data["points"][0]["formula"] = "doubled ? 2 * cards :"
    with pytest.raises(GameFileError) as refused:
        compiled(data)
    assert refused.value.source == "test.toml"
    assert refused.value.field == "points.cards.formula"
    assert refused.value.problem.startswith("line 1, column 22: syntax error")


def test_a_formula_naming_an_unknown_input_is_refused_where_the_name_is() -> None:
    data = skyjo_data()
    data["points"][0]["formula"] = "doubled ? 2 * card : cards"
    with pytest.raises(GameFileError, match=r"points\.cards\.formula: line 1, column 15: unknown name 'card'"):
        compiled(data)


def test_a_check_that_references_nothing_the_game_has_is_refused() -> None:
    data = skyjo_data()
    data["checks"] = [
        {
            "key": "ghost",
            "per": "round",
            "holds": "sum(all.tricks) <= tricks_dealt",
            "message": {"en": "x", "fr": "x"},
            "source": "s",
        }
    ]
    with pytest.raises(GameFileError, match=r"checks\.ghost\.holds: .*unknown name 'tricks_dealt'"):
        compiled(data)


def test_a_function_cel_does_not_offer_is_refused() -> None:
    data = skyjo_data()
    data["points"][0]["formula"] = "timestamp(cards)"
    with pytest.raises(GameFileError, match="unknown function 'timestamp'"):
        compiled(data)


def test_a_formula_with_too_many_comprehensions_is_refused_before_it_runs() -> None:
    data = skyjo_data()
    data["derived"][0]["formula"] = "others.cards.exists(a, others.cards.exists(b, others.cards.exists(c, a < b)))"
    with pytest.raises(GameFileError, match="at most 2 of map, filter, all, exists"):
        compiled(data)


def test_a_formula_past_its_length_is_refused() -> None:
    data = skyjo_data()
    data["points"][0]["formula"] = "1 + " * 200 + "1"
    with pytest.raises(GameFileError, match=r"points\[0\]\.formula"):
        compiled(data)


def test_an_input_named_like_a_formula_name_is_refused() -> None:
    data = skyjo_data()
    data["inputs"][1]["key"] = "round"
    with pytest.raises(GameFileError, match="'round' is a name formulas already use"):
        compiled(data)


def test_a_key_declared_twice_is_refused() -> None:
    data = skyjo_data()
    data["inputs"].append(dict(data["inputs"][0]))
    with pytest.raises(GameFileError, match="declared twice"):
        compiled(data)


def test_a_game_without_an_end_is_refused() -> None:
    data = skyjo_data()
    data["end"] = {}
    with pytest.raises(GameFileError, match="a game needs an end"):
        compiled(data)


def test_markup_in_a_label_is_kept_as_text_for_the_pages_to_escape() -> None:
    data = skyjo_data()
    data["inputs"][0]["label"] = {"en": "<script>alert(1)</script>", "fr": "<b>x</b>"}
    game = compiled(data)
    assert game.file.inputs[0].label.en == "<script>alert(1)</script>"
