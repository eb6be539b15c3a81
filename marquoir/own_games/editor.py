"""The editor's form over a game file: what a phone can edit of it (the name and players,
the inputs of a round, the points formulas, the checks, the end, who wins and the
tie-breaks, the examples) as form fields, and back.

The form is a view over the file it starts from (the ``base``: a catalog game's copy, a
version of an own game, or a blank game): each row of the form says which part of the base
it edits (``origin``), so what the form does not show of that part (an input's hint, a
category's best spread, the derived values, options and lookup tables) is kept as it was.
A field the form cannot edit (a records input's kind) is shown as kept.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from marquoir.games.declared import Game, GameFileError, Round, RoundScored, resolve_options
from marquoir.games.declared.engine import GameState, apply, form_teams, sides_of
from marquoir.games.declared.game import RESERVED
from marquoir.games.declared.upgrade import is_first_version, upgrade
from marquoir.keepers.declared.words import language
from marquoir.rules.errors import RuleError

KINDS = ("points", "count", "flag", "player")
"""The kinds of input the form offers; a file's other kinds (choice, counts, list, records, groups)
are kept as they are."""
MAX_ROWS = 30
"""Rows of one section of the form (inputs, formulas, checks, tie-breaks)."""
TRY_PLAYERS = (2, 3, 4, 5, 6)
DEFAULT_BOUNDS = {"points": {"min": -9999, "max": 9999}, "count": {"min": 0, "max": 999}}
"""An input's bounds left empty on the form (the schema wants bounds: no number is endless)."""
PLAYS = ("competitive", "teams", "cooperative")
"""How a game is played, as the form offers it: each for themselves, in teams of two
(partners facing each other), or together against the game."""
PARTNERS_OPPOSITE = "seat % (players / 2)"
"""The teams the form's team games are formed by: two a team, partners facing each other."""
OUTCOMES = ("end", "winners", "won", "lost")
"""What an end rule does, as the form offers it: end the game (the ranking decides), name
who wins at once, or give a cooperative game's result."""
MAX_EXAMPLES_FIELD = 40_000
"""The examples travel in the form as JSON: at most this many characters."""

SECTIONS = {
    "inputs": ("input", ("key", "label_en", "label_fr", "per", "kind", "min", "max")),
    "points": ("point", ("key", "label_en", "label_fr", "formula")),
    "checks": ("check", ("key", "per", "holds", "message_en", "message_fr")),
    "tiebreaks": ("tiebreak", ("key", "label_en", "label_fr", "value", "higher")),
    "end_rules": ("rule", ("key", "label_en", "label_fr", "when", "outcome", "winners")),
}
"""Each section of the form: its fields' prefix and the fields of a row."""


def blank_file() -> dict[str, Any]:
    """A new game from nothing, as the score sheet keeps any game: each player's points of
    a round, added up; the highest total wins; the table says when it ends."""
    return {
        "schema_version": 2,
        "scored": "rounds",
        "box": {"names": {"en": "", "fr": ""}, "players": [2, 6]},
        "inputs": [
            {
                "key": "points",
                "per": "player",
                "kind": "points",
                "label": {"en": "Points", "fr": "Points"},
                "min": -999,
                "max": 999,
            }
        ],
        "points": [{"key": "points", "label": {"en": "Points", "fr": "Points"}, "formula": "points"}],
        "end": {"table_decides": True},
        "ranking": [{"key": "total", "order": "highest"}],
    }


def second_version(base: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` in the file's second version (an own game saved in the first is upgraded),
    with the form's view of its ranking: ``winner`` (the total's order) and ``tiebreaks``
    (the keys after the total, each ``higher`` or not); ``ranking_form_to_file`` puts them back."""
    data = upgrade(base) if is_first_version(base) else dict(base)
    end = data.get("end")
    data["end_rules"] = list(end.get("rules", [])) if isinstance(end, Mapping) else []
    ranking = data.get("ranking")
    if not isinstance(ranking, list):
        return data
    at = _total_at(ranking)
    if at is None:
        return data
    order = ranking[at].get("order", "highest")
    data["winner"] = order if order in ("highest", "lowest") else "highest"
    data["tiebreaks"] = [
        {**{name: value for name, value in key.items() if name != "order"}, "higher": key.get("order") != "lowest"}
        for key in ranking[at + 1 :]
        if isinstance(key, Mapping)
    ]
    return data


def _total_at(ranking: Sequence[Any]) -> int | None:
    """Where the total stands in a file's ranking (None: a ranking the schema will refuse)."""
    return next(
        (index for index, key in enumerate(ranking) if isinstance(key, Mapping) and key.get("key") == "total"), None
    )


def ranking_form_to_file(data: dict[str, Any]) -> None:
    """The form's ``winner`` and ``tiebreaks`` back into the file's ``ranking``: the keys the
    form does not show (before the total, still in the game) kept, and the total's order a
    formula as the base had it while the form's winner is the one that formula reads as."""
    ranking: list[Any] = data["ranking"] if isinstance(data.get("ranking"), list) else []
    at = _total_at(ranking)
    before = list(ranking[:at]) if at is not None else []
    total = dict(ranking[at]) if at is not None else {"key": "total"}
    winner = data.pop("winner", "highest")
    if total.get("order") in ("highest", "lowest", None) or winner != "highest":
        total["order"] = winner
    after = []
    for tiebreak in data.pop("tiebreaks", []):
        key = {name: value for name, value in tiebreak.items() if name != "higher"}
        key["order"] = "highest" if tiebreak.get("higher", True) else "lowest"
        after.append(key)
    data["ranking"] = [*before, total, *after]
    data["schema_version"] = 2


@dataclass
class Row:
    """One row of a section: its fields as typed, and the part of the base it edits."""

    origin: int | None
    values: dict[str, str]
    kept: dict[str, Any] = field(default_factory=dict)
    """The base's part, for what the form does not edit of it."""

    def value(self, name: str) -> str:
        return self.values.get(name, "")


@dataclass
class Draft:
    """The editor's form, read: the base and what is typed over it."""

    base: dict[str, Any]
    values: dict[str, str]
    rows: dict[str, list[Row]]
    examples: list[dict[str, Any]]
    errors: dict[str, str] = field(default_factory=dict)
    """Form field name -> what is wrong with it, in the reader's language."""

    def value(self, name: str) -> str:
        return self.values.get(name, "")


def _words(part: Mapping[str, Any] | None, language: str) -> str:
    return str(part.get(language, "")) if isinstance(part, Mapping) else ""


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def draft_from_file(base: Mapping[str, Any]) -> Draft:
    """The form as it opens on ``base``: each part the form shows, filled in."""
    base = second_version(base)
    box = base.get("box", {})
    names = box.get("names", {})
    players = box.get("players", [2, 6])
    end = base.get("end", {})
    values = {
        "name_en": _words(names, "en"),
        "name_fr": _words(names, "fr"),
        "min_players": _text(players[0]),
        "max_players": _text(players[1]),
        "winner": str(base.get("winner", "highest")),
        "end_rounds": _text(end.get("rounds")),
        "end_target": _text(end.get("target")),
        "end_table": "on" if end.get("table_decides") else "",
        "play": str(base.get("play", "competitive")),
        "coop_won": _text((base.get("cooperative") or {}).get("won")),
    }
    rows: dict[str, list[Row]] = {}
    for section in SECTIONS:
        rows[section] = []
        for origin, part in enumerate(base.get(section, [])):
            row_values = {
                "key": _text(part.get("key")),
                "label_en": _words(part.get("label"), "en"),
                "label_fr": _words(part.get("label"), "fr"),
                "per": _text(part.get("per")),
                "kind": _text(part.get("kind")),
                "min": _text(part.get("min")),
                "max": _text(part.get("max")),
                "formula": _text(part.get("formula")),
                "holds": _text(part.get("holds")),
                "message_en": _words(part.get("message"), "en"),
                "message_fr": _words(part.get("message"), "fr"),
                "value": _text(part.get("value")),
                "higher": "on" if part.get("higher", True) else "",
                "when": _text(part.get("when")),
                "winners": _text(part.get("winners")),
                "outcome": part.get("result") or ("winners" if part.get("winners") else "end"),
            }
            if section == "inputs" and row_values["per"] == "team":
                row_values["per"] = "player"  # the form's "for each player": each team in a team game
            rows[section].append(Row(origin, row_values, dict(part)))
    return Draft(dict(base), values, rows, list(base.get("examples", [])))


def draft_from_form(base: Mapping[str, Any], data: Mapping[str, str]) -> Draft:
    """The form as posted over ``base``: its rows, added and removed as asked (``do``)."""
    base = second_version(base)
    names = (
        "name_en",
        "name_fr",
        "min_players",
        "max_players",
        "winner",
        "end_rounds",
        "end_target",
        "end_table",
        "play",
        "coop_won",
    )
    values = {name: str(data.get(name, "")).strip() for name in names}
    rows: dict[str, list[Row]] = {}
    base_parts = {section: base.get(section, []) for section in SECTIONS}
    for section, (prefix, fields) in SECTIONS.items():
        rows[section] = []
        count = _count(data.get(f"{prefix}s"))
        for index in range(count):
            origin = small_number(data.get(f"{prefix}-{index}-origin"), 10**6)
            if origin is not None and origin >= len(base_parts[section]):
                origin = None
            row_values = {name: str(data.get(f"{prefix}-{index}-{name}", "")).strip() for name in fields}
            kept = dict(base_parts[section][origin]) if origin is not None else {}
            rows[section].append(Row(origin, row_values, kept))
    examples = _examples(data.get("examples", ""))
    draft = Draft(dict(base), values, rows, examples)
    _edit_rows(draft, str(data.get("do", "")))
    return draft


def small_number(value: object, most: int) -> int | None:
    """A count typed or forged in a form: ASCII digits only (``"²".isdigit()`` is true), at
    most ``most``; None for anything else."""
    text = str(value or "")
    if not re.fullmatch(r"[0-9]{1,6}", text):
        return None
    return min(int(text), most)


def _count(value: object) -> int:
    return small_number(value, MAX_ROWS) or 0


def _examples(text: object) -> list[dict[str, Any]]:
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_EXAMPLES_FIELD:
        return []
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):  # forged: the examples start again from none
        return []
    return [item for item in found if isinstance(item, dict)][:30] if isinstance(found, list) else []


def _edit_rows(draft: Draft, do: str) -> None:
    """``do``: ``add-input``, ``remove-input-2``, ``remove-example-0``…"""
    for section, (prefix, _fields) in SECTIONS.items():
        if do == f"add-{prefix}" and len(draft.rows[section]) < MAX_ROWS:
            draft.rows[section].append(Row(None, _new_row(section)))
        found = re.fullmatch(rf"remove-{prefix}-([0-9]{{1,3}})", do)
        if found and int(found.group(1)) < len(draft.rows[section]):
            del draft.rows[section][int(found.group(1))]
    found = re.fullmatch(r"remove-example-([0-9]{1,3})", do)
    if found and int(found.group(1)) < len(draft.examples):
        del draft.examples[int(found.group(1))]


def _new_row(section: str) -> dict[str, str]:
    if section == "inputs":
        return {"per": "player", "kind": "points", "min": "", "max": ""}
    if section == "checks":
        return {"per": "round"}
    if section == "tiebreaks":
        return {"higher": "on"}
    if section == "end_rules":
        return {"outcome": "end"}
    return {}


# --- the form, read into a file


def key_from(label: str, taken: set[str], fallback: str) -> str:
    """A name for formulas from a label: ``Cards left`` -> ``cards_left``, unique, not a
    name formulas use already."""
    ascii_text = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode().lower()
    key = re.sub(r"[^a-z0-9]+", "_", ascii_text).strip("_")[:28]
    if not key or not key[0].isalpha():
        key = fallback
    candidate, number = key, 2
    while candidate in taken or candidate in RESERVED:
        candidate, number = f"{key}_{number}", number + 1
    return candidate


def _bound(text: str) -> int | str | None:
    """A bound as typed: empty (none), a whole number, or a formula."""
    if not text:
        return None
    if re.fullmatch(r"[+-]?[0-9]{1,9}", text):
        return int(text)
    return text


def _label(row: Row, en: str, fr: str) -> dict[str, str] | None:
    english, french = row.value(en), row.value(fr)
    if not english and not french:
        return None
    return {"en": english or french, "fr": french or english}


def file_from_draft(draft: Draft) -> dict[str, Any]:
    """The file the form describes (``draft.errors`` gets what the form itself can tell is
    wrong, in the reader's language; the schema and the compiler say the rest)."""
    data = dict(draft.base)
    errors = draft.errors
    name_en, name_fr = draft.value("name_en"), draft.value("name_fr")
    if not name_en and not name_fr:
        errors["name_en"] = _("The game needs a name, in one language at least.")
    box = dict(data.get("box", {}))
    box["names"] = {"en": name_en or name_fr, "fr": name_fr or name_en}
    least, most = _number(draft, "min_players", errors), _number(draft, "max_players", errors)
    if least is not None and most is not None:
        if not 1 <= least <= most <= 20:
            errors["max_players"] = _("From 1 to 20 players, the fewest first.")
        box["players"] = [least, most]
    data["box"] = box
    data["winner"] = draft.value("winner") if draft.value("winner") in ("highest", "lowest") else "highest"
    play = draft.value("play") if draft.value("play") in PLAYS else "competitive"
    _play(data, play, draft, errors)
    rules = [_end_rule(row, index, errors, play) for index, row in enumerate(draft.rows["end_rules"])]
    data.pop("end_rules", None)
    data["end"] = {**data.get("end", {}), "rules": rules}
    if play == "cooperative" and not rules and not draft.value("coop_won"):
        errors["coop_won"] = _("Say when the table has won: a rule of the end, or a formula read at the end.")
    if data.get("entry") != "turns":
        end = dict(data["end"])
        for name, part in (("end_rounds", "rounds"), ("end_target", "target")):
            bound = _bound(draft.value(name))
            if bound is None:
                end.pop(part, None)
            else:
                end[part] = bound
        end["table_decides"] = draft.value("end_table") == "on"
        if data.get("scored", "rounds") == "rounds" and not (
            end.get("rounds") or end.get("target") or end["table_decides"] or end.get("rules")
        ):
            errors["end_rounds"] = _(
                "Say how the game ends: after a number of rounds, at a total, or when the table says."
            )
        data["end"] = end
    taken: set[str] = set()
    data["inputs"] = [_input(row, index, taken, errors, play) for index, row in enumerate(draft.rows["inputs"])]
    data["points"] = [_point(row, index, taken, errors) for index, row in enumerate(draft.rows["points"])]
    data["checks"] = [_check(row, index, errors) for index, row in enumerate(draft.rows["checks"])]
    data["tiebreaks"] = [_tiebreak(row, index, errors) for index, row in enumerate(draft.rows["tiebreaks"])]
    data["examples"] = draft.examples
    ranking_form_to_file(data)
    if not data["inputs"]:
        errors["inputs"] = _("A game needs one input at least.")
    if not data["points"]:
        errors["points"] = _("A game needs one points formula at least.")
    return data


def _number(draft: Draft, name: str, errors: dict[str, str]) -> int | None:
    text = draft.value(name)
    if not re.fullmatch(r"[0-9]{1,2}", text):
        errors[name] = _("A whole number from 1 to 20.")
        return None
    return int(text)


def _play(data: dict[str, Any], play: str, draft: Draft, errors: dict[str, str]) -> None:
    """How the game is played into the file: its ``play``, a team game's teams (two a team,
    partners facing each other, where the file has no teams of its own), a cooperative game's
    ``cooperative.won`` (false where the form says none: an end no rule of the end worded, the
    table's own, is then a loss)."""
    data["play"] = play
    if play == "teams":
        data.setdefault("teams", {"size": [2, 2], "formed": PARTNERS_OPPOSITE})
    else:
        data.pop("teams", None)
    if play == "cooperative":
        data["cooperative"] = {**(data.get("cooperative") or {}), "won": draft.value("coop_won") or "false"}
    else:
        data.pop("cooperative", None)


def _end_rule(row: Row, index: int, errors: dict[str, str], play: str) -> dict[str, Any]:
    """An end rule: what ends the game and what it does (``OUTCOMES``): the winners at once
    in a game of players or teams, the table's result in a cooperative one."""
    prefix = f"rule-{index}"
    part = {name: value for name, value in row.kept.items() if name not in ("winners", "result")}
    label = _label(row, "label_en", "label_fr")
    if label is None:
        errors[f"{prefix}-label_en"] = _("Say in a few words what ends the game.")
        label = {"en": "?", "fr": "?"}
    part["label"] = label
    part["key"] = row.value("key") or key_from(label["en"], set(), f"rule_{index + 1}")
    if label["en"] != "?":  # the rule's key, from its label once there is one: kept from then on
        row.values["key"] = part["key"]
    if not row.value("when"):
        errors[f"{prefix}-when"] = _("Write when the game ends.")
    part["when"] = row.value("when") or "false"
    outcome = row.value("outcome") if row.value("outcome") in OUTCOMES else "end"
    if play == "cooperative" and outcome in ("end", "winners"):
        errors[f"{prefix}-outcome"] = _("A game played together is won or lost together: choose which.")
    elif play != "cooperative" and outcome in ("won", "lost"):
        errors[f"{prefix}-outcome"] = _("Only a game played together is won or lost by the table.")
    if outcome == "winners":
        if not row.value("winners"):
            errors[f"{prefix}-winners"] = _("Write who wins: a seat, or a list of seats.")
        part["winners"] = row.value("winners") or "[]"
    elif outcome in ("won", "lost"):
        part["result"] = outcome
    return part


def _input(row: Row, index: int, taken: set[str], errors: dict[str, str], play: str) -> dict[str, Any]:
    prefix = f"input-{index}"
    part = dict(row.kept)
    label = _label(row, "label_en", "label_fr")
    if label is None:
        errors[f"{prefix}-label_en"] = _("Each input needs a label.")
    part["label"] = {**part.get("label", {}), **(label or {"en": "?", "fr": "?"})}
    key = row.value("key") or key_from(label["en"] if label else "", taken, f"input_{index + 1}")
    taken.add(key)
    part["key"] = key
    if label is not None:  # the name formulas use, from the label once there is one: kept from then on
        row.values["key"] = key
    kind = part.get("kind") if part.get("kind") not in (*KINDS, None) else row.value("kind")
    if kind not in (*KINDS, "choice", "counts", "list", "records", "groups"):
        kind = "points"
    part["kind"] = kind
    if kind in KINDS:
        per = row.value("per") if row.value("per") in ("player", "round") else "player"
        if play == "cooperative" or (kind == "player" and part.get("per") not in ("player", "team")):
            # Who did it: one player for the round (a file's own per-player choice of a player,
            # Dixit's votes, is kept); a game played together: the table's.
            per = "round"
        elif per == "player" and play == "teams":
            per = "team"
        if part.get("per") != "turn":
            part["per"] = per
        for bound in ("min", "max"):
            value = _bound(row.value(bound))
            if kind in ("flag", "player"):
                part.pop(bound, None)
            else:
                part[bound] = value if value is not None else DEFAULT_BOUNDS[kind][bound]
    return part


def _point(row: Row, index: int, taken: set[str], errors: dict[str, str]) -> dict[str, Any]:
    prefix = f"point-{index}"
    part = dict(row.kept)
    label = _label(row, "label_en", "label_fr") or {"en": _("Points"), "fr": _("Points")}
    part["label"] = label
    key = row.value("key") or key_from(label["en"], set(), f"points_{index + 1}")
    part["key"] = key
    row.values["key"] = key
    if "best" not in part:
        if not row.value("formula"):
            errors[f"{prefix}-formula"] = _("Write the formula of these points.")
        part["formula"] = row.value("formula") or "0"
    return part


def _check(row: Row, index: int, errors: dict[str, str]) -> dict[str, Any]:
    prefix = f"check-{index}"
    part = dict(row.kept)
    part["key"] = row.value("key") or key_from(
        row.value("message_en") or row.value("message_fr"), set(), f"check_{index + 1}"
    )
    row.values["key"] = part["key"]
    part["per"] = row.value("per") if row.value("per") in ("player", "round") else "round"
    if not row.value("holds"):
        errors[f"{prefix}-holds"] = _("Write what must hold.")
    part["holds"] = row.value("holds") or "true"
    message = _label(row, "message_en", "message_fr")
    if message is None:
        errors[f"{prefix}-message_en"] = _("Say what the table reads when it does not hold.")
        message = {"en": "?", "fr": "?"}
    part["message"] = message
    part.setdefault("source", "house rule")
    return part


def _tiebreak(row: Row, index: int, errors: dict[str, str]) -> dict[str, Any]:
    prefix = f"tiebreak-{index}"
    part = dict(row.kept)
    label = _label(row, "label_en", "label_fr")
    if label is None:
        errors[f"{prefix}-label_en"] = _("Say in a few words what decides.")
        label = {"en": "?", "fr": "?"}
    part["label"] = label
    part["key"] = row.value("key") or key_from(label["en"], set(), f"tiebreak_{index + 1}")
    row.values["key"] = part["key"]
    if not row.value("value"):
        errors[f"{prefix}-value"] = _("Write the formula that decides.")
    part["value"] = row.value("value") or "0"
    part["higher"] = row.value("higher") == "on"
    return part


# --- where the schema's or the compiler's fault is on the form

_FIELDS = {"label": "label_en", "label.en": "label_en", "label.fr": "label_fr", "message": "message_en"}


def form_field(draft: Draft, error: GameFileError) -> str | None:
    """The form field a file's fault is about (``inputs[2].max`` or ``inputs.cards.max``
    -> ``input-2-max``), or None if the form does not show it."""
    where = error.field
    simple = {
        "box.names.en": "name_en",
        "box.names.fr": "name_fr",
        "box.players": "min_players",
        "winner": "winner",
        "end.rounds": "end_rounds",
        "end.target": "end_target",
    }
    if where in simple:
        return simple[where]
    if where.startswith("end.rules"):
        where = "end_rules" + where[len("end.rules") :]
    if where.startswith("cooperative"):
        return "coop_won"
    for section, (prefix, fields) in SECTIONS.items():
        found = re.fullmatch(rf"{section}(?:\[(\d+)\]|\.([a-z0-9_]+))(?:\.(.+))?", where)
        if not found:
            continue
        index_text, key, rest = found.groups()
        rows = draft.rows[section]
        if index_text is not None:
            index = int(index_text)
        else:
            index = next((number for number, row in enumerate(rows) if row.value("key") == key), -1)
        if not 0 <= index < len(rows):
            return None
        rest = (rest or "").split(".best")[0]
        name = _FIELDS.get(rest, rest)
        if name in fields:
            return f"{prefix}-{index}-{name}"
        first = {"checks": "holds", "end_rules": "when"}.get(section, fields[1])
        return f"{prefix}-{index}-{first}"
    return None


# --- trying a round before playing


@dataclass(frozen=True)
class Trial:
    """A round tried on the form: the inputs as the engine takes them, and what they give."""

    players: int
    inputs: dict[str, Any]
    points: tuple[int, ...] | None
    refusal: RuleError | None
    untried: tuple[str, ...] = ()
    """The labels of the inputs the form cannot try (counts, lists, records, groups)."""


def trial_players(data: Mapping[str, str], least: int) -> int:
    count = small_number(data.get("try_players"), max(TRY_PLAYERS)) or max(2, least)
    return min(max(count, 1), max(TRY_PLAYERS))


def try_round(game: Game, data: Mapping[str, str], players: int) -> Trial:
    """The round typed in the "Try it" fields (``try-<key>-<seat>``, ``try-<key>``), scored
    by ``game`` from a fresh table of ``players`` (a team game: one field a team, ``seat`` its
    index; the teams two a team, partners facing each other)."""
    inputs: dict[str, Any] = {}
    untried: list[str] = []
    try:
        teams = form_teams(game, players) if game.teams else None
    except RuleError as refusal:
        return Trial(players, {}, None, refusal)
    sides = sides_of(game, players, teams)
    for compiled in game.inputs:
        spec = compiled.spec
        if spec.kind not in KINDS and spec.kind != "choice":
            untried.append(spec.label.get(language()))
            continue
        if spec.per_side:
            inputs[spec.key] = [_try_value(spec.kind, data.get(f"try-{spec.key}-{seat}")) for seat in range(sides)]
        else:
            inputs[spec.key] = _try_value(spec.kind, data.get(f"try-{spec.key}"))
    try:
        state = GameState(game, resolve_options(game, players, {}), sides, 0, people=players, teams=teams)
        _state, scored = apply(state, Round(inputs))
    except RuleError as refusal:
        return Trial(players, inputs, None, refusal, tuple(untried))
    points = tuple(scored.points) if isinstance(scored, RoundScored) else None
    return Trial(players, inputs, points, None, tuple(untried))


def _try_value(kind: str, text: object) -> Any:
    value = str(text or "").strip()
    if kind == "flag":
        return value == "on"
    if re.fullmatch(r"[+-]?[0-9]{1,9}", value):
        return int(value)
    if kind == "choice" and value:
        return value[:40]  # a choice of names (Scrabble's "pass"), as typed
    return None if kind in ("player", "choice") else 0


def example_from(trial: Trial, number: int) -> dict[str, Any]:
    """A tried round kept as a worked example: checked at every save from then on."""
    return {
        "name": _("Example %(number)s") % {"number": number},
        "players": trial.players,
        "rounds": [{key: value for key, value in trial.inputs.items() if value is not None}],
        "points": list(trial.points or ()),
    }


def kept_parts(base: Mapping[str, Any]) -> list[tuple[str, int]]:
    """What the file holds that the form does not show (kept as it is), by part, with how many."""
    parts = ("derived", "options", "tables", "warnings", "figures", "reference", "turns", "option_checks")
    found = []
    for part in parts:
        value = base.get(part)
        if value:
            found.append((part, len(value) if isinstance(value, list | dict) else 1))
    return found


def formula_names(draft: Draft, section: str) -> Sequence[str]:
    """The names a formula of ``section`` may read, offered under it as it is typed."""
    inputs = [row.value("key") for row in draft.rows["inputs"] if row.value("key")]
    derived = [str(item.get("key")) for item in draft.base.get("derived", [])]
    common = ["players", "round"]
    if section == "end_rules":
        return ["all", "leaders", "sides", *common]
    if section == "checks-round":
        return [*inputs, *derived, "all", *common]
    names = [*inputs, *derived, "seat", "others", "all", *common]
    if section == "tiebreaks":
        names.append("total")
    return names
