"""The API's request bodies as schemas: what the OpenAPI documents is what parses a body.

Each game's keeper gives one schema per action type (a subclass of ``ActionBody`` whose
``type`` is a ``Literal``); the core adds ``undo`` and reads a body with the union of them,
discriminated by ``type``. The schemas forbid unknown fields and read JSON's types
strictly (``true`` is not a number, ``"3"`` is not one either). A refusal names the field
and the game's reason for it (``ActionBody.refusal``), so it reads the same as before
schemas did the parsing: precise, in the reader's language.

An action's schema is the whole of that action for the core: what a body may hold (its
fields, and what they mean together in a ``model_validator`` raising ``RuleError``), what
the log keeps (``payload``: the model's dump), the engine's action for a stored payload
(``engine_action``) and the body a table screen's form sends (``from_form``). A game's
table options are one ``TableOptions`` model the same way: the API's options, the set-up
form's fields, what is stored and the engine's options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Self, Union

import annotated_types
from ninja import Field
from pydantic import AfterValidator, BaseModel, ConfigDict, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

if TYPE_CHECKING:
    from django import forms

from marquoir.rules import INVALID, RuleError

ACTION_ID_MAX_LENGTH = 64
UNDO = "undo"
REDO = "redo"
CORRECT = "correct"
CORE_ACTIONS = frozenset({UNDO, REDO, CORRECT})
"""The action types every game has, the core's: none of them is a game's own action."""


def shorten(text: object, limit: int = 40) -> str:
    """Text quoted back in a message, cut short (a refusal never echoes a megabyte), a lone
    surrogate (JSON's ``"\ud800"``) shown as U+FFFD: it is no character, and a strict JSON
    reader refuses an answer that holds one."""
    text = "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in str(text)[: limit + 1])
    return text if len(text) <= limit else text[:limit] + "…"


def _bad_character(char: str) -> bool:
    # Control characters are no use in an id, PostgreSQL refuses a NUL outright, and a lone
    # surrogate (JSON's "\ud800") cannot be stored as UTF-8 at all.
    return char < " " or char == "\x7f" or "\ud800" <= char <= "\udfff"


def _printable_id(action_id: str) -> str:
    if any(_bad_character(char) for char in action_id):
        raise ValueError("control character")
    return action_id


ActionId = Annotated[str, Field(min_length=1, max_length=ACTION_ID_MAX_LENGTH), AfterValidator(_printable_id)]


class OutSchema(BaseModel):
    """The schema of an answer, or of a query string: a plain pydantic model. ninja's own
    ``Schema`` runs a validator of its own on every nested object, which made building a
    Pickomino State through its schema cost 205 µs instead of about 40."""


class StrictBody(BaseModel):
    """A request body: no unknown field, JSON's types read strictly."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ActionBody(StrictBody):
    """What every action's body may carry besides its own fields: the two guards."""

    expected_seq: int | None = Field(None, ge=0, description="the seq last seen; 409 conflict if it is not current")
    action_id: ActionId | None = Field(None, description="a client key: the same key is applied once")

    # The game's reason for a refused field, by the field's name in JSON.
    reasons: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        """The refusal of ``field`` for ``error`` (pydantic's account of what is wrong);
        a game overrides it where one field has several reasons."""
        reason = cls.reasons.get(field, "bad_field")
        return RuleError(INVALID, reason, field=shorten(field), given=shorten(error.get("input")))

    @classmethod
    def action_type(cls) -> str:
        """The ``type`` this schema reads (its ``Literal``)."""
        return str(cls.model_fields["type"].annotation.__args__[0])  # type: ignore[union-attr]

    def payload(self) -> dict[str, Any]:
        """What the log keeps of this action: the fields, by their JSON names, nulls and the
        guards left out. A game overrides it only where the log keeps another shape (stored
        payloads are replayed for ever: their shape never changes)."""
        return self.model_dump(by_alias=True, exclude=_GUARD_FIELDS, exclude_none=True)

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Any:
        """The engine's action for a stored ``payload`` of this type (read as it was
        stored: it was checked once, when it was sent)."""
        raise NotImplementedError(f"{cls.__name__} must say which engine action its payload is")

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """The API-shaped body of this action from a table screen's form (its ``type``
        chose this schema); ``RuleError(invalid, …)`` if a field cannot be read. An action
        with no fields of its own needs no more than this."""
        return {"type": cls.action_type()}

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str] | None:
        """The table screen's form fields that send a stored ``payload`` of this type (what
        ``from_form`` reads back into it), for the pad to open on a past entry to correct it;
        None (the default): the pad cannot show this action, which is corrected through the
        API alone."""
        return None


# The core's fields of every action's body: never the game's, never in the log.
_GUARD_FIELDS = {"expected_seq", "action_id"}


class UndoIn(ActionBody):
    """Take the last action in force back (every game has it)."""

    type: Literal["undo"]


class RedoIn(ActionBody):
    """Do again what the last undo took back (every game has it), as long as nothing was
    done since: a new action or correction forgets what could be redone."""

    type: Literal["redo"]


class CorrectIn(ActionBody):
    """Fix a past entry in place (every game has it): the action of entry ``seq``, which
    must be an action still in force, is replaced by ``action`` and every later action is
    played again on what it now leaves, each checked by the rules."""

    type: Literal["correct"]
    seq: int = Field(ge=1, le=999_999_999, description="the seq of the entry to correct: an action in force")
    action: dict[str, Any] = Field(
        description="the entry's action as it should have been: one of the game's own action bodies "
        "(not undo, redo or correct), without expected_seq or action_id"
    )

    reasons: ClassVar[Mapping[str, str]] = {"seq": "bad_correction_seq", "action": "bad_correction_action"}


_CORE_REASONS = {"expected_seq": "bad_expected_seq", "action_id": "bad_action_id"}


@cache
def _reader(models: tuple[type[ActionBody], ...]) -> TypeAdapter[Any]:
    union: Any = Union[(*models, UndoIn, RedoIn, CorrectIn)]
    discriminated: Any = Annotated[union, Field(discriminator="type")]
    return TypeAdapter(discriminated)


def action_types(models: Sequence[type[ActionBody]]) -> list[str]:
    """The action types of a game, the core's last (undo, redo, correct)."""
    return [*(model.model_fields["type"].annotation.__args__[0] for model in models), UNDO, REDO, CORRECT]  # type: ignore[union-attr]


def read_action(body: object, models: tuple[type[ActionBody], ...]) -> ActionBody:
    """``body`` (decoded JSON) read by the game's action schemas; ``RuleError(invalid, …)``
    naming the first thing wrong."""
    if not isinstance(body, Mapping):
        raise RuleError(INVALID, "not_an_object")
    try:
        parsed: ActionBody = _reader(models).validate_python(body)
    except ValidationError as failure:
        errors = failure.errors()
        # Unknown fields first, the first by name: the same answer whatever the body's order.
        unknown = sorted((error for error in errors if error["type"] == "extra_forbidden"), key=lambda e: str(e["loc"]))
        raise _refusal(body, models, (unknown or errors)[0]) from None
    if isinstance(parsed, CorrectIn):
        return _correction(parsed, models)
    return parsed


def _correction(correction: CorrectIn, models: tuple[type[ActionBody], ...]) -> CorrectIn:
    """A correction whose ``action`` is read by the game's schemas as any action is, and
    kept as its payload: one of the game's own, its guards on the correction alone."""
    kind = correction.action.get("type")
    if isinstance(kind, str) and kind in CORE_ACTIONS:
        raise RuleError(INVALID, "bad_correction_action", type=shorten(kind))
    if any(guard in correction.action for guard in _GUARD_FIELDS):
        raise RuleError(INVALID, "correction_guards")
    action = read_action(correction.action, models)
    return correction.model_copy(update={"action": action.payload()})


def _refusal(body: Mapping[str, Any], models: tuple[type[ActionBody], ...], error: ErrorDetails) -> RuleError:
    if error["type"] in {"union_tag_invalid", "union_tag_not_found"}:
        return RuleError(INVALID, "bad_type", type=shorten(body.get("type")), types=action_types(models))
    # ``loc`` is (the type, the field, then where inside it).
    location = error["loc"]
    field = str(location[1]) if len(location) > 1 else ""
    if error["type"] == "extra_forbidden":
        return RuleError(INVALID, "unknown_field", field=shorten(field))
    if error["type"] == "string_unicode" and len(location) == 1:
        # A key that is no text at all (a lone surrogate): no field is named so.
        return RuleError(INVALID, "unknown_field", field=shorten(error.get("input")))
    if field in _CORE_REASONS:
        return RuleError(INVALID, _CORE_REASONS[field])
    readers: tuple[type[ActionBody], ...] = (*models, UndoIn, RedoIn, CorrectIn)
    model: type[ActionBody] = next(
        (
            candidate
            for candidate in readers
            if candidate.model_fields["type"].annotation.__args__[0] == location[0]  # type: ignore[union-attr]
        ),
        ActionBody,
    )
    return model.refusal(field, error)


# --- a game's table options

# Errors that say a value is out of its bounds, not of the wrong kind: a value of the wrong
# kind is named first, whichever field it is in (the bounds were the engine's to check
# before the options had a schema, after every field's kind).
_BOUND_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})


class TableOptions(BaseModel):
    """A game's table options, one model for all they are: what the API's ``options`` may
    hold (and the State's ``options``, in the OpenAPI), the set-up page's fields
    (``form_fields``), what a match stores (``stored``) and the engine's options
    (``engine``). A game without options uses it as it is: none, or an empty object.

    Strict like a body: no unknown option, JSON's types as they are. A refused value gives
    ``RuleError(invalid, reason, <field>=the value, min=…, max=…)``: the field's reason in
    ``reasons`` (``bad_options`` unless said), its bounds from the schema's.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    reasons: ClassVar[Mapping[str, str]] = {}
    """The reason for a refused value, by option name (``{"target": "bad_target"}``)."""

    @classmethod
    def clean(cls, given: object) -> dict[str, Any]:
        """The options as stored, or ``RuleError(invalid, reason)``; None means the defaults.

        Reasons: ``bad_options`` (not an object, or a value refused without a reason of its
        own), ``unknown_option`` (the first by name: the same answer whatever the order),
        then each option's own, values of the wrong kind before values out of bounds.
        """
        if given is None:
            return cls().stored()
        if not isinstance(given, Mapping):
            raise RuleError(INVALID, "bad_options")
        unknown = sorted(str(key) for key in given if key not in cls.model_fields)
        if unknown:
            raise RuleError(INVALID, "unknown_option", option=shorten(unknown[0]))
        try:
            options = cls.model_validate(given)
        except ValidationError as failure:
            errors = failure.errors()
            first = next((error for error in errors if error["type"] not in _BOUND_ERRORS), errors[0])
            raise cls.refusal(str(first["loc"][0]) if first["loc"] else "", first) from None
        return options.stored()

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        """The refusal of option ``field`` for ``error``: its reason and, for an option with a
        reason of its own, the value given (as it came when out of bounds, shortened when of
        the wrong kind) and its bounds."""
        if field not in cls.reasons:
            return RuleError(INVALID, "bad_options")
        given = error.get("input")
        params: dict[str, Any] = {field: given if error["type"] in _BOUND_ERRORS else shorten(given)}
        for bound in cls.model_fields[field].metadata:
            if isinstance(bound, annotated_types.Ge):
                params["min"] = bound.ge
            elif isinstance(bound, annotated_types.Le):
                params["max"] = bound.le
        return RuleError(INVALID, cls.reasons[field], **params)

    def stored(self) -> dict[str, Any]:
        """What the match keeps: every option, by name, in the model's order."""
        return self.model_dump()

    @classmethod
    def of(cls, stored: Mapping[str, Any]) -> Self:
        """The options of a stored match, read as they were stored (checked on creation);
        an option added since takes its default."""
        return cls.model_construct(**{name: stored[name] for name in cls.model_fields if name in stored})

    def engine(self) -> Any:
        """The engine's options (None for a game without any)."""
        return None

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        """The set-up page's fields, named as the options (none unless said)."""
        return {}

    @classmethod
    def from_form(cls, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """The options as stored, from the set-up form's cleaned data (each field checked there)."""
        return cls.clean({name: cleaned.get(name) for name in cls.form_fields()})
