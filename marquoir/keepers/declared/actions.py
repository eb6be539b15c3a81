"""A declared game's actions, one schema each: ``round`` (its ``inputs``) and, where the
table may stop, ``end``. The schemas are made from the game file, one class per game (the
OpenAPI names them apart: ``SkyjoRoundIn``); what each input must be is the engine's to
check (its bounds may depend on the round: Skull King's bids), so a body's refusal reads
the same from the API and from the page.

The table screen's round form names its fields ``in_<input>`` (once per round),
``in_<input>_<seat>`` (per player) and ``in_<input>_<part>_<seat>`` (a group's count);
``minus_<input>_<seat>`` makes a points field negative (a phone's number pad has no minus).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from ninja import Field
from pydantic import create_model

from marquoir.games.declared import End, Game, Round, Turn
from marquoir.games.declared.gamefile import InputDef
from marquoir.rules import INVALID, RuleError
from marquoir.tables.kit import MINUS, ActionBody

ROUND, TURN, END = "round", "turn", "end"
# The most records a form draws for one player (Kingdomino's properties): more are for the API.
FORM_RECORDS = 12
# The groups of one input the pad shows open (Farkle's rolls of a turn); the rest behind "More".
FORM_GROUPS = 6
_GROUP_TEXT = re.compile(f"[-{MINUS}]?[0-9]+(?:[ ,]+[-{MINUS}]?[0-9]+)*")
_FORM_NUMBER = re.compile(f"([-{MINUS}]?)([0-9]{{1,9}})")
# More inputs than a game file may declare, times players: a body past this is refused unread.
MAX_INPUT_KEYS = 60


def field_name(key: str, seat: int | None = None, part: str | None = None) -> str:
    """The round form's field of an input (``in_cards_2``; ``in_science_gear_0``)."""
    name = f"in_{key}"
    if part is not None:
        name += f"_{part}"
    return name if seat is None else f"{name}_{seat}"


class DeclaredRoundIn(ActionBody):
    """One round's inputs, by key: per-player inputs as lists in seat order."""

    game: ClassVar[Game]
    inputs: dict[str, Any] = Field(..., max_length=MAX_INPUT_KEYS)

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Round | Turn:
        return Turn(payload["inputs"]) if cls.game.by_turns else Round(payload["inputs"])

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """The form names the inputs it drew (``drawn``: those the match's options take), so
        that an unticked box is sent as false and an input left out stays out."""
        players = form_seats(data)
        drawn = set(str(data.get("drawn", "")).split(","))
        inputs: dict[str, Any] = {}
        for spec in cls.game.file.inputs:
            if spec.key not in drawn:
                continue
            if not spec.per_side:
                value = _form_value(spec, data, None)
                # "Not said" (an optional player's default) is the input left out.
                if value is not None and not (spec.kind == "player" and value == spec.default):
                    inputs[spec.key] = value
                continue
            values = [_form_value(spec, data, seat) for seat in range(players)]
            if all(value is None for value in values) and spec.default is not None:
                continue
            # A field left empty is null, which takes the input's default where it has one (a
            # vote not given: "No vote"), as in the API; else the round is not all filled in.
            if any(value is None for value in values) and spec.default is None:
                seat = values.index(None)
                raise RuleError(INVALID, "missing_input", input=spec.key, player=seat)
            inputs[spec.key] = values
        return {"type": cls.action_type(), "inputs": inputs}

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """The round form's fields for a stored round (what ``from_form`` reads back): a
        number in its field (a negative player's points as digits with its "−" ticked), a
        ticked box as "1", a list as one box per value, records and counts in their parts."""
        values: dict[str, str] = {"type": cls.action_type()}
        given: Mapping[str, Any] = payload["inputs"]
        for spec in cls.game.file.inputs:
            # An input sent as null took its default: the pad shows it as it starts.
            if given.get(spec.key) is None:
                continue
            if spec.per_side:
                for seat, value in enumerate(given[spec.key]):
                    if value is not None:
                        values.update(_form_fields(spec, value, seat))
            else:
                values.update(_form_fields(spec, given[spec.key], None))
        return values


class DeclaredEndIn(ActionBody):
    """The table stops: the standings as they are."""

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> End:
        return End()


class DeclaredCountIn(DeclaredRoundIn):
    """The table ends the game with the end's count (the file's ``final``: Scrabble's tiles
    left): its inputs by key, read as a round's are (``game`` is the count's)."""

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> End:  # type: ignore[override]
        return End(payload["inputs"])


def action_models(game: Game) -> tuple[type[ActionBody], ...]:
    """The game's action schemas: ``round``, and ``end`` where the table may stop."""
    name = "".join(part.capitalize() for part in game.key.split("_"))
    description = "the round's inputs by key (see GET /api/v1/games/" + game.key + ")"
    kind = TURN if game.by_turns else ROUND
    round_type: Any = Literal[kind]
    end_type: Any = Literal["end"]
    round_in = create_model(
        f"{name}{kind.capitalize()}In",
        __base__=DeclaredRoundIn,
        __doc__=f"One {kind} of {game.file.box.names.en}: its inputs, by key.",
        type=(round_type, ...),
        inputs=(dict[str, Any], Field(..., max_length=MAX_INPUT_KEYS, description=description)),
    )
    round_in.game = game
    models: list[type[ActionBody]] = [round_in]
    if game.final is not None:
        count_in = create_model(
            f"{name}EndIn",
            __base__=DeclaredCountIn,
            __doc__=f"The end of {game.file.box.names.en} with its count: its inputs, by key.",
            type=(end_type, ...),
            # Left out, the count is empty: the engine names the first input it lacks.
            inputs=(
                dict[str, Any],
                Field(default_factory=dict, max_length=MAX_INPUT_KEYS, description="the end's count by key"),
            ),
        )
        count_in.game = game.final
        models.append(count_in)
    elif game.file.end.table_decides:
        models.append(create_model(f"{name}EndIn", __base__=DeclaredEndIn, type=(end_type, ...)))
    return tuple(models)


def _form_fields(spec: InputDef, value: Any, seat: int | None) -> dict[str, str]:
    """The form's fields for one input's value (``_form_value`` reads them back)."""
    if spec.kind == "flag":
        return {field_name(spec.key, seat): "1"} if value else {}
    if spec.kind == "list":
        return {field_name(spec.key, seat, str(item)): "1" for item in value}
    if spec.kind == "records":
        fields: dict[str, str] = {}
        for index, record in enumerate(value[: form_records(spec)]):
            for part, part_value in record.items():
                if part_value is not None:  # a part left unsaid: its field left empty
                    fields[field_name(spec.key, seat, f"{index}_{part}")] = str(part_value)
        return fields
    if spec.kind == "counts":
        return {field_name(spec.key, seat, part): str(count) for part, count in value.items()}
    if spec.kind == "groups":
        joiner = "" if one_digit(spec) else " "
        return {
            field_name(spec.key, seat, str(index)): joiner.join(str(number) for number in group)
            for index, group in enumerate(value[: form_groups(spec)])
        }
    if isinstance(value, int) and not isinstance(value, bool) and value < 0 and seat is not None:
        return {field_name(spec.key, seat): str(-value), f"minus_{spec.key}_{seat}": "1"}
    return {field_name(spec.key, seat): str(value)}


def form_seats(data: Mapping[str, Any]) -> int:
    """How many players the form was drawn for (its ``players`` field)."""
    raw = data.get("players")
    if not isinstance(raw, str) or not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= 20:
        raise RuleError(INVALID, "bad_inputs")
    return int(raw)


def _form_value(spec: InputDef, data: Mapping[str, Any], seat: int | None) -> Any:
    """One input from the form, as the API would send it; None when the field is empty."""
    name = field_name(spec.key, seat)
    if spec.kind == "flag":
        return bool(data.get(name))
    if spec.kind == "list":
        # One box per value: ``in_pins_7`` (per turn), ``in_locked_red_0`` (per player).
        return [value for value in spec.list_values() if data.get(field_name(spec.key, seat, str(value)))]
    if spec.kind == "records":
        return _form_records(spec, data, seat)
    if spec.kind == "groups":
        return _form_groups(spec, data, seat)
    if spec.kind == "choice" and spec.names:
        chosen = data.get(name)
        return chosen[:40] if isinstance(chosen, str) and chosen else None
    if spec.kind == "counts":
        parts: dict[str, int] = {}
        for part in spec.parts:
            number = _number(data.get(field_name(spec.key, seat, part.key)), spec, seat, negative=False)
            if number is not None:
                parts[part.key] = number
        return parts
    return _number(data.get(name), spec, seat, negative=bool(data.get(f"minus_{spec.key}_{seat}")))


def form_groups(spec: InputDef) -> int:
    """How many groups the form draws and reads: every one the input may hold (the pad shows
    the first ``FORM_GROUPS`` open, the others behind "More")."""
    return spec.max_length or 0


def group_text_length(spec: InputDef) -> int:
    """The most characters a group's field takes: its numbers and a space or comma after each
    (the engine counts the numbers)."""
    length = spec.group_length or 0
    if one_digit(spec):
        return length * 2
    sign = 1 if not isinstance(spec.min, int) or spec.min < 0 else 0
    return length * (sign + len(str(spec.max)) + 1)


def one_digit(spec: InputDef) -> bool:
    """A group's numbers are typed one digit each, side by side ("115": Farkle's faces); others
    apart, with a space or a comma, a minus before a negative one ("-2 5 21")."""
    return isinstance(spec.min, int) and isinstance(spec.max, int) and 0 <= spec.min and spec.max <= 9


def _form_groups(spec: InputDef, data: Mapping[str, Any], seat: int | None) -> list[list[int]]:
    """A groups input's fields, each group's numbers as typed: digits side by side where each
    is one digit ("115"), else separated by spaces or commas; an empty field is no group."""
    groups: list[list[int]] = []
    for index in range(form_groups(spec)):
        raw = data.get(field_name(spec.key, seat, str(index)))
        text = raw.strip() if isinstance(raw, str) else ""
        if not text:
            continue
        signed = any(sign in text for sign in ("-", MINUS))
        if len(text) > group_text_length(spec) or not _GROUP_TEXT.fullmatch(text) or (signed and one_digit(spec)):
            where = {"input": spec.key} | ({"player": seat} if seat is not None else {})
            raise RuleError(INVALID, "input_kind", kind="count", **where)
        numbers = text.replace(",", " ").replace(MINUS, "-").split()
        if one_digit(spec):
            numbers = [digit for number in numbers for digit in number]
        groups.append([int(number) for number in numbers])
    return groups


def form_records(spec: InputDef) -> int:
    """How many rows of a records input the form draws and reads (the API takes up to max_length)."""
    return min(spec.max_length or 0, FORM_RECORDS)


def _form_records(spec: InputDef, data: Mapping[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """A records input's rows (``in_properties_3_squares_0``); a row left empty is no record."""
    records: list[dict[str, Any]] = []
    for index in range(form_records(spec)):
        record: dict[str, Any] = {}
        for part in spec.parts:
            raw = data.get(field_name(spec.key, seat, f"{index}_{part.key}"))
            if part.names:
                text = raw.strip() if isinstance(raw, str) else ""
                if text:
                    record[part.key] = text[:40]
                continue
            number = _number(raw, spec, seat, negative=False)
            if number is not None:
                record[part.key] = number
        if any(not part.names and part.key in record for part in spec.parts):
            records.append(record)
    return records


def _number(raw: object, spec: InputDef, seat: int | None, *, negative: bool) -> int | None:
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        return None
    written = _FORM_NUMBER.fullmatch(text)
    where = {"input": spec.key} | ({"player": seat} if seat is not None else {})
    if written is None:
        raise RuleError(INVALID, "input_kind", kind=spec.kind, **where)
    sign, digits = written.groups()
    value = int(digits)
    return -value if sign or negative else value
