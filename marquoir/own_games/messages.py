"""An own game's refusals in words, in the reader's language: what is wrong with a file
(``problem_text``, from the code a ``GameFileError`` carries) and the rest of the API's."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.declared import GameFileError
from marquoir.tables.api_errors import api_language
from marquoir.tables.keepers import Wording
from marquoir.tables.messages import STATUS, message_for
from marquoir.tables.outcome import ServiceError

Problem = Callable[[Mapping[str, Any]], str]

PROBLEMS: Mapping[str, Problem] = {
    "file_too_long": lambda p: _("The file is too long: at most %(limit)s characters.") % p,
    "toml": lambda p: _("The file cannot be read as TOML (line %(line)s).") % p,
    "json": lambda p: _("The file cannot be read as JSON (line %(line)s).") % p,
    "too_deep": lambda p: _("The file is nested too deep: at most %(limit)s levels.") % p,
    "null_in_list": lambda p: _("A list holds no null (TOML has none): leave the entry out, or write 0."),
    "not_finite": lambda p: _("Numbers are finite: no nan or inf."),
    "not_a_table": lambda p: _("A game file is a table of the game’s parts (TOML, or a JSON object)."),
    "tables_too_big": lambda p: _("The lookup tables hold at most %(limit)s values in all.") % p,
    "too_many_examples": lambda p: _("A game has at most %(limit)s examples.") % p,
    "too_many_rounds": lambda p: _("An example has at most %(limit)s rounds.") % p,
    "examples_too_slow": lambda p: _("The examples take too long to check: keep fewer, or simpler formulas."),
    "example_players": lambda p: _("An example is played by %(least)s to %(most)s players, as the game.") % p,
    "example_fails": lambda p: _("The example “%(name)s” no longer gives what it says: change it or remove it.") % p,
    "too_complex": lambda p: _("This formula is too intricate to be checked: write it more simply."),
    "too_costly": lambda p: _(
        "These formulas could take too long to work out in one round: fewer comprehensions "
        "(map, filter, all, exists) over long lists, or shorter lists."
    ),
    "value_too_big": lambda p: _("This value could hold more than %(limit)s entries: keep lists shorter.") % p,
    "too_long": lambda p: _("A formula has at most %(limit)s characters.") % p,
    "too_many_comprehensions": lambda p: (
        _("A formula uses at most %(limit)s of map, filter, all and exists (this one, %(found)s).") % p
    ),
    "syntax": lambda p: (
        _("This formula cannot be read, at line %(line)s, column %(column)s.") % p
        if "line" in p
        else _("This formula cannot be read.")
    ),
    "unknown_name": lambda p: _("“%(name)s” is not a name this formula knows.") % p,
    "unknown_function": lambda p: (
        _(
            "“%(name)s” is not a function formulas know: they know size, sum, min, max, abs, rank_points, int, "
            "string, has, contains, startsWith and endsWith, and map, filter, all, exists and exists_one."
        )
        % p
    ),
    "type.double": lambda p: (
        _("At line %(line)s, column %(column)s: a decimal number; a game file counts in whole numbers.") % p
    ),
    "type.operator": lambda p: (
        _("At line %(line)s, column %(column)s: this operator does not take values of these kinds.") % p
    ),
    "type.condition": lambda p: (
        _("At line %(line)s, column %(column)s: the condition before “?” must be true or false.") % p
    ),
    "type.branches": lambda p: (
        _("At line %(line)s, column %(column)s: the two sides of “? :” give values of different kinds.") % p
    ),
    "type.field": lambda p: _("At line %(line)s, column %(column)s: there is no such field here.") % p,
    "type.index": lambda p: _("At line %(line)s, column %(column)s: this cannot be indexed so.") % p,
    "type.function": lambda p: _("At line %(line)s, column %(column)s: this function does not take these values.") % p,
    "type.macro": lambda p: (
        _("At line %(line)s, column %(column)s: map, filter, all and exists go over a list, with a true or false test.")
        % p
    ),
    "type.result": lambda p: _(
        "This formula gives a value of the wrong kind here (a whole number, or true or false, is expected)."
    ),
    "type.unknown_name": lambda p: _("At line %(line)s, column %(column)s: a name this formula does not know.") % p,
    "type.literal": lambda p: _("At line %(line)s, column %(column)s: a value a game file does not take.") % p,
    "type.syntax": lambda p: _("This formula cannot be read, at line %(line)s, column %(column)s.") % p,
    "type.nested": lambda p: _("This formula nests too deep.") % p,
    "name_taken": lambda p: _("“%(name)s” is a name the formulas use already: choose another.") % p,
    "file_or_toml": lambda p: _("Send the game file once: as “file” (JSON) or as “toml” (text)."),
    "not_carried": lambda p: _("Only the total and the values carried from round to round are set after a round."),
    "schema.missing": lambda p: _("Something required is missing here."),
    "schema.extra_forbidden": lambda p: _("This is not a part of a game file."),
    "schema.string_too_short": lambda p: _("This needs a text."),
    "schema.string_too_long": lambda p: _("This text is too long: at most %(max_length)s characters.") % p,
    "schema.too_short": lambda p: _("This needs at least %(min_length)s entries.") % p,
    "schema.too_long": lambda p: _("This takes at most %(max_length)s entries.") % p,
    "schema.literal_error": lambda p: _("This must be one of: %(expected)s.") % p,
    "schema.string_pattern_mismatch": lambda p: _(
        "A key is lowercase letters, digits and _, starting with a letter (at most 32)."
    ),
    "schema.greater_than_equal": lambda p: _("This is at least %(ge)s.") % p,
    "schema.less_than_equal": lambda p: _("This is at most %(le)s.") % p,
    "schema.int_type": lambda p: _("This must be a whole number."),
    "schema.int_parsing": lambda p: _("This must be a whole number."),
    "schema.int_from_float": lambda p: _("This must be a whole number."),
    "schema.bool_type": lambda p: _("This must be true or false."),
    "schema.bool_parsing": lambda p: _("This must be true or false."),
    "schema.string_type": lambda p: _("This must be a text."),
    "schema.list_type": lambda p: _("This must be a list."),
    "schema.dict_type": lambda p: _("This must be a table."),
    "schema.model_type": lambda p: _("This must be a table."),
}


VALUE_ERRORS: tuple[tuple[str, Callable[[re.Match[str]], str]], ...] = (
    (r"players must be", lambda m: _("From 1 to 20 players, the fewest first.")),
    (r"a (points|count) input needs min and max", lambda m: _("A number needs its lowest and highest values.")),
    (r"a player input is given once per round", lambda m: _("A player is said once for the round.")),
    (r"a choice input needs its choices", lambda m: _("A choice needs its choices.")),
    (r"a category needs exactly one of formula and best", lambda m: _("Points need a formula.")),
    (
        r"a game needs an end",
        lambda m: _("Say how the game ends: after a number of rounds, at a total, or when the table says."),
    ),
    (
        r"the (.+) '(.+)' is declared twice",
        lambda m: _("“%(key)s” is used twice: each name once.") % {"key": m.group(2)},
    ),
    (r"an option needs a default", lambda m: _("An option needs its default value.")),
    (r"a choice option needs its choices", lambda m: _("A choice needs its choices.")),
)
"""The schema's own checks across fields (its English sentences), in the reader's language."""


def problem_text(error: GameFileError, *, where: bool = True) -> str:
    """What is wrong with a file, in the reader's language, and where it is (``where``: the
    form shows it beside its field instead)."""
    wording = PROBLEMS.get(error.code)
    if error.code == "schema.value_error":
        found = next(
            (wording(match) for pattern, wording in VALUE_ERRORS if (match := re.search(pattern, error.problem))),
            None,
        )
        what = found or _("This does not fit the game file’s format (docs/game-file.md).")
    elif wording is None:
        # A rule of the format the schema checks across fields (a key declared twice…).
        what = _("This does not fit the game file’s format (docs/game-file.md).")
    else:
        try:
            what = wording(error.params)
        except (KeyError, TypeError, ValueError):
            what = _("This does not fit the game file’s format (docs/game-file.md).")
    if not where or error.field in ("", "(file)"):
        return what
    return _("%(where)s: %(what)s") % {"where": error.field, "what": what}


def file_refusal(error: GameFileError) -> ServiceError:
    """The refusal of a file, as the API and the pages send it."""
    return ServiceError(
        "invalid", "game_file", field=error.field, problem=error.code, detail=error.problem, **error.params
    )


def refused_file_text(refusal: ServiceError) -> str:
    params = dict(refusal.params)
    error = GameFileError(
        "", str(params.pop("field", "")), str(params.pop("detail", "")), code=str(params.pop("problem", "")), **params
    )
    return problem_text(error)


WORDINGS: Mapping[str, Wording] = {
    "not_found": lambda p, s: _("There is no game at this address."),
    "no_such_version": lambda p, s: _("This game has no such version."),
    "unauthorized": lambda p, s: _(
        "This link lets you play the game, not change it: the edit key is missing or wrong."
    ),
    "game_file": lambda p, s: refused_file_text(ServiceError("invalid", "game_file", **p)),
    "changed_meanwhile": lambda p, s: _(
        "This game was changed on another device since this page was opened: open it again to see "
        "the changes, then make yours."
    ),
    "too_many_versions": lambda p, s: (
        _("This game has %(limit)s versions, the most it keeps: make a copy of it to go on changing it.")
        % {"limit": p.get("limit")}
    ),
    "too_many_checks": lambda p, s: (
        ngettext(
            "Too many checks from here: wait %(seconds)s second.",
            "Too many checks from here: wait %(seconds)s seconds.",
            int(p.get("seconds", 1)),
        )
        % {"seconds": p.get("seconds", 1)}
    ),
    "rate_limited": lambda p, s: (
        ngettext(
            "Too many new games from here: try again in %(minutes)s minute.",
            "Too many new games from here: try again in %(minutes)s minutes.",
            int(p.get("minutes", 1)),
        )
        % {"minutes": p.get("minutes", 1)}
    ),
}


def own_game_message(error: ServiceError) -> str:
    return message_for(error.code, error.reason, error.params, (), WORDINGS)


def own_game_error_response(request: HttpRequest, error: ServiceError) -> JsonResponse:
    """The contract's error body for an own game's refusal, in the request's language; a
    refused file says where (``field``) as well."""
    with translation.override(api_language(request)):
        message = own_game_message(error)
    body: dict[str, Any] = {"code": error.code, "message": message}
    if error.reason == "game_file":
        body["field"] = error.params.get("field")
    response = JsonResponse({"error": body}, status=STATUS.get(error.code, 422))
    if error.code == "unauthorized":
        response["WWW-Authenticate"] = 'Bearer realm="marquoir"'
    return response
