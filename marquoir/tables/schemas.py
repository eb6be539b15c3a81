"""The API's request bodies as schemas: what the OpenAPI documents is what parses a body.

Each game's keeper gives one schema per action type (a subclass of ``ActionBody`` whose
``type`` is a ``Literal``); the core adds ``undo`` and reads a body with the union of them,
discriminated by ``type``. The schemas forbid unknown fields and read JSON's types
strictly (``true`` is not a number, ``"3"`` is not one either). A refusal names the field
and the game's reason for it (``ActionBody.refusal``), so it reads the same as before
schemas did the parsing: precise, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Union

from ninja import Field
from pydantic import AfterValidator, BaseModel, ConfigDict, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from marquoir.rules import INVALID, RuleError

ACTION_ID_MAX_LENGTH = 64
UNDO = "undo"


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


class UndoIn(ActionBody):
    """Take the last action in force back (every game has it)."""

    type: Literal["undo"]


_CORE_REASONS = {"expected_seq": "bad_expected_seq", "action_id": "bad_action_id"}


@cache
def _reader(models: tuple[type[ActionBody], ...]) -> TypeAdapter[Any]:
    union: Any = Union[(*models, UndoIn)]
    discriminated: Any = Annotated[union, Field(discriminator="type")]
    return TypeAdapter(discriminated)


def action_types(models: Sequence[type[ActionBody]]) -> list[str]:
    """The action types of a game, undo last."""
    return [*(model.model_fields["type"].annotation.__args__[0] for model in models), UNDO]  # type: ignore[union-attr]


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
    return parsed


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
    model = next(
        (candidate for candidate in models if candidate.model_fields["type"].annotation.__args__[0] == location[0]),  # type: ignore[union-attr]
        ActionBody,
    )
    return model.refusal(field, error)


def given_fields(action: ActionBody) -> dict[str, Any]:
    """The fields the body gave, by their JSON names, guards left out (what a game reads)."""
    return action.model_dump(by_alias=True, exclude_unset=True, exclude={"expected_seq", "action_id"})
