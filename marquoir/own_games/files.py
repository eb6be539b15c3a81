"""A user's own game file: read from text (TOML or JSON), bounded, completed, checked by the
same schema and compiled by the same formula language as the catalog's, its examples
played, and written back as TOML.

A catalog file is trusted (it is reviewed and tested); a user's is not. Beyond what the
schema and the formula language bound already (60 inputs, 20 categories, 600 characters
and two comprehensions a formula, parse depth under 100), a user's file is bounded here:
its size, its nesting, its lookup tables, its examples, and the time its examples take to
play. Whatever breaks a bound is refused as a ``GameFileError`` with a code the pages and
the API word in the reader's language (``words.problem_text``).
"""

from __future__ import annotations

import json
import math
import time
import tomllib
from collections.abc import Mapping
from typing import Any

import tomli_w

from marquoir.games.declared import Game, GameFileError
from marquoir.games.declared.cost import MAX_MATCH_STEPS, MAX_ROUND_STEPS, MAX_VALUE_SIZE, TooComplex, game_cost
from marquoir.games.declared.examples import mismatches
from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import GameFile, parse_game_file, toml_line
from marquoir.rules.errors import RuleError

SOURCE = "own game"
"""The file's name in errors (it has no path)."""

OWN_KEY = "own_game"
"""The key inside every own game's file: the game is known by its id, not by this."""

MAX_FILE_CHARACTERS = 64_000
"""A whole file as text; the largest catalog file (Kingdomino, with its examples) is ~15,000."""
MAX_NESTING = 12
"""Tables in tables and lists in lists: the schema's deepest is 6 (a records example)."""
MAX_TABLE_VALUES = 2_000
"""Numbers and words in the lookup tables, all told: two comprehensions over a table of
2,000 are 4 million steps, the worst a formula may take (benchmarks measure it)."""
MAX_EXAMPLES = 30
MAX_EXAMPLE_ROUNDS = 40
CHECK_SECONDS = 3.0
"""Playing the examples of one file: past this, the rest are not played and the file is refused."""

BOX_DEFAULTS: Mapping[str, Any] = {
    "category": "party",
    "minutes": 30,
    "age": 6,
    "released": 2026,
    "sources": ["Marquoir"],
}
"""The box facts a user's game need not give: no page shows them (an own game has no
catalog page), the schema wants them. Constants, so that the same file sent again is the
same version."""


def read_text(text: str) -> dict[str, Any]:
    """A file's text read as TOML, or as JSON when it starts with ``{``, bounded in size."""
    if len(text) > MAX_FILE_CHARACTERS:
        raise GameFileError(SOURCE, "(file)", "the file is too long", code="file_too_long", limit=MAX_FILE_CHARACTERS)
    try:
        data = json.loads(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except json.JSONDecodeError as failure:
        raise GameFileError(SOURCE, "(file)", str(failure), code="json", line=failure.lineno) from None
    except tomllib.TOMLDecodeError as failure:
        raise GameFileError(SOURCE, "(file)", str(failure), code="toml", line=toml_line(failure)) from None
    except RecursionError:
        raise GameFileError(SOURCE, "(file)", "nested too deep", code="too_deep", limit=MAX_NESTING) from None
    if not isinstance(data, dict):
        raise GameFileError(SOURCE, "(file)", "not a table", code="not_a_table")
    return data


def completed(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with what an own game need not say filled in: its key, the box facts no page
    shows, a name in the language it lacks (the other's)."""
    whole = dict(data)
    whole["key"] = OWN_KEY
    box = whole.get("box")
    if isinstance(box, dict):
        box = {**BOX_DEFAULTS, **box}
        names = box.get("names")
        if isinstance(names, dict) and (names.get("en") or names.get("fr")):
            box.setdefault("original_name", names.get("en") or names.get("fr"))
        whole["box"] = box
    return {key: value if key in ("tables", "examples") else _both_languages(value) for key, value in whole.items()}


def _both_languages(value: Any) -> Any:
    """Every text given in one language only (``{"en": "Points"}``), in the other too."""
    if isinstance(value, dict):
        if value and set(value) <= {"en", "fr"} and all(isinstance(text, str) for text in value.values()):
            english, french = value.get("en") or value.get("fr"), value.get("fr") or value.get("en")
            return {"en": english, "fr": french}
        return {key: _both_languages(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_both_languages(item) for item in value]
    return value


def check_bounds(data: Mapping[str, Any]) -> None:
    """``GameFileError`` if ``data`` is nested too deep, its lookup tables too big or its
    examples too many: before the schema reads it, so that no bound costs more than a walk."""
    _nesting(data, 0)
    _no_nulls_in_lists(data, "")
    if len(json.dumps(data, ensure_ascii=False)) > MAX_FILE_CHARACTERS:  # a file sent as JSON, not as text
        raise GameFileError(SOURCE, "(file)", "the file is too long", code="file_too_long", limit=MAX_FILE_CHARACTERS)
    values = _count_values(data.get("tables", {}))
    if values > MAX_TABLE_VALUES:
        raise GameFileError(SOURCE, "tables", "too many values", code="tables_too_big", limit=MAX_TABLE_VALUES)
    examples = data.get("examples", [])
    if isinstance(examples, list):
        if len(examples) > MAX_EXAMPLES:
            raise GameFileError(SOURCE, "examples", "too many examples", code="too_many_examples", limit=MAX_EXAMPLES)
        for index, example in enumerate(examples):
            rounds = example.get("rounds") if isinstance(example, dict) else None
            if isinstance(rounds, list) and len(rounds) > MAX_EXAMPLE_ROUNDS:
                raise GameFileError(
                    SOURCE,
                    f"examples[{index}].rounds",
                    "too many rounds",
                    code="too_many_rounds",
                    limit=MAX_EXAMPLE_ROUNDS,
                )


def _no_nulls_in_lists(value: object, where: str) -> None:
    """A null in a list (JSON has them, TOML not: an export would drop it and shift what
    follows), or a number that is not finite, is refused where it is."""
    if isinstance(value, float) and not math.isfinite(value):
        raise GameFileError(SOURCE, where or "(file)", "not finite", code="not_finite")
    if isinstance(value, dict):
        for key, item in value.items():
            _no_nulls_in_lists(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if item is None:
                raise GameFileError(SOURCE, f"{where}[{index}]", "null", code="null_in_list")
            _no_nulls_in_lists(item, f"{where}[{index}]")


def _nesting(value: object, depth: int) -> None:
    if depth > MAX_NESTING:
        raise GameFileError(SOURCE, "(file)", "nested too deep", code="too_deep", limit=MAX_NESTING)
    if isinstance(value, dict):
        for item in value.values():
            _nesting(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _nesting(item, depth + 1)


def _count_values(value: object) -> int:
    if isinstance(value, dict):
        return sum(_count_values(item) for item in value.values())
    if isinstance(value, list):
        return sum(_count_values(item) for item in value)
    return 1


def read_file(data: Mapping[str, Any]) -> GameFile:
    """``data`` (decoded), bounded, completed and read by the schema."""
    check_bounds(data)
    return parse_game_file(completed(data), source=SOURCE)


def compile_file(data: Mapping[str, Any], *, play_examples: bool = True) -> Game:
    """``data`` read and compiled, its examples played: ``GameFileError`` names the first fault."""
    game = compile_game(read_file(data), source=SOURCE)
    check_cost(game)
    if play_examples:
        check_examples(game)
    return game


def check_cost(game: Game) -> None:
    """``GameFileError`` if a round of ``game`` could take too long, or a derived value
    grow too big (``cost``): nobody reviewed a user's formulas, and none can be stopped once it runs.
    The end's count (``final``) is one more round, bounded as a round is."""
    if game.final is not None:
        try:
            check_cost(game.final)
        except GameFileError as error:
            raise error.under("final") from None
    try:
        cost = game_cost(game)
    except TooComplex as error:
        field, _colon, _problem = str(error).partition(": ")
        raise GameFileError(SOURCE, field, str(error), code="too_complex") from None
    field, size = cost.largest_value
    if size > MAX_VALUE_SIZE:
        raise GameFileError(SOURCE, field, "value too big", code="value_too_big", limit=MAX_VALUE_SIZE)
    if cost.total > MAX_ROUND_STEPS:
        raise GameFileError(
            SOURCE, cost.heaviest, "too costly", code="too_costly", steps=cost.total, limit=MAX_ROUND_STEPS
        )
    if cost.match_total > MAX_MATCH_STEPS:
        raise GameFileError(
            SOURCE,
            cost.heaviest,
            "too costly a match",
            code="too_costly",
            steps=cost.match_total,
            limit=MAX_MATCH_STEPS,
        )


def check_examples(game: Game, *, budget: float = CHECK_SECONDS) -> None:
    """Each example of ``game`` played: ``GameFileError`` (``example_fails``) for the first
    that does not give what it says, ``examples_too_slow`` once they take longer than ``budget``."""
    least, most = game.file.box.players
    rounds = 0
    for index, example in enumerate(game.file.examples):
        if not least <= example.players <= most:
            raise GameFileError(
                SOURCE, f"examples[{index}].players", "players", code="example_players", least=least, most=most
            )
        rounds += len(example.rounds)
    # Played, the examples are a match of that many rounds: bounded as a match is, before any is played.
    if rounds and game_cost(game).total * rounds > MAX_MATCH_STEPS:
        raise GameFileError(SOURCE, "examples", "too slow", code="examples_too_slow", seconds=int(budget))
    started = time.perf_counter()
    for index, example in enumerate(game.file.examples):
        if time.perf_counter() - started > budget:
            raise GameFileError(SOURCE, "examples", "too slow", code="examples_too_slow", seconds=int(budget))
        try:
            found = mismatches(game, example)
        except RuleError as refusal:  # a round before the last refused: the example is wrong
            found = [f"an earlier round is refused: {refusal.reason}"]
        if found:
            raise GameFileError(
                SOURCE, f"examples[{index}]", "; ".join(found), code="example_fails", name=example.name[:80]
            )


def stored(file: GameFile) -> dict[str, Any]:
    """What the database keeps of a file: as the schema read it, defaults left out."""
    dumped: dict[str, Any] = file.model_dump(mode="json", exclude_defaults=True)
    dumped["key"] = OWN_KEY
    dumped["schema_version"] = file.schema_version  # said in the file, though the default
    return dumped


def as_toml(data: Mapping[str, Any]) -> str:
    """A stored file as TOML (the catalog's format): what export gives and import takes."""
    return tomli_w.dumps(_without_nulls(data))


def _without_nulls(value: Any) -> Any:
    """TOML has no null: a null is left out (the schema takes a missing value as its default)."""
    if isinstance(value, dict):
        return {key: _without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_without_nulls(item) for item in value if item is not None]
    return value


def copy_of(file: GameFile, names: Mapping[str, str], *, keep_examples: bool = False) -> dict[str, Any]:
    """A game's file as the start of a user's own under new names: a catalog game's (house
    rules) without its examples, which hold the catalog's rules, not the house's."""
    data = stored(file)
    if not keep_examples:
        data.pop("examples", None)
    data["box"] = {**data["box"], "names": dict(names)}
    return data
