"""Parsing a request body into an action, the core's part: undo, the guards ``expected_seq`` and
``action_id``, the body's shape, its ``type`` and unknown fields, for any game.

Pickomino stands in for "some game" here (its bodies: tests/keepers/pickomino/test_actions.py).
"""

from __future__ import annotations

import pytest

from marquoir.keepers.pickomino.keeper import KEEPER
from marquoir.rules import RuleError
from marquoir.tables.actions import ActionRequest
from marquoir.tables.actions import parse_action as parse_request


def parse_action(body: object) -> ActionRequest:
    """The core's parser, for a Pickomino match (a game of the core's tests)."""
    return parse_request(body, KEEPER)


def refusal_reason(body: object) -> str:
    with pytest.raises(RuleError) as refused:
        parse_action(body)
    assert refused.value.code == "invalid"
    return refused.value.reason


# Undo and the guards.


def test_it_parses_an_undo():
    assert parse_action({"type": "undo"}) == ActionRequest("undo", {"type": "undo"})


@pytest.mark.parametrize("kind", ["take", "bust", "undo"])
def test_every_action_carries_expected_seq_and_action_id(kind):
    body: dict[str, object] = {"type": kind, "expected_seq": 7, "action_id": "phone-1/turn-8"}
    if kind == "take":
        body |= {"total": 27, "worm": True}
    parsed = parse_action(body)
    assert (parsed.expected_seq, parsed.action_id) == (7, "phone-1/turn-8")
    assert "expected_seq" not in parsed.payload
    assert "action_id" not in parsed.payload


def test_guards_are_none_when_not_sent():
    parsed = parse_action({"type": "bust"})
    assert (parsed.expected_seq, parsed.action_id) == (None, None)


def test_expected_seq_zero_and_an_action_id_of_64_characters_are_accepted():
    parsed = parse_action({"type": "undo", "expected_seq": 0, "action_id": "k" * 64})
    assert (parsed.expected_seq, parsed.action_id) == (0, "k" * 64)


def test_null_guards_count_as_not_sent():
    parsed = parse_action({"type": "bust", "expected_seq": None, "action_id": None})
    assert (parsed.expected_seq, parsed.action_id) == (None, None)


# Refusals, each with its reason.


@pytest.mark.parametrize("body", [[], ["take"], "take", 27, None, True])
def test_a_body_that_is_not_an_object_is_refused(body):
    assert refusal_reason(body) == "not_an_object"


@pytest.mark.parametrize(
    "body",
    [{}, {"type": "steal"}, {"type": "Take"}, {"type": 1}, {"type": None}, {"type": ["take"]}],
)
def test_an_unknown_or_missing_type_is_refused(body):
    assert refusal_reason(body) == "bad_type"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "take", "total": 27, "worm": True, "colour": "red"}, "colour"),
        ({"type": "take", "total": 27, "worm": True, "reason": "declared"}, "reason"),
        ({"type": "bust", "total": 27}, "total"),
        ({"type": "bust", "from": "grill"}, "from"),
        ({"type": "undo", "steps": 2}, "steps"),
        ({"type": "undo", "zeta": 1, "alpha": 2}, "alpha"),
    ],
)
def test_an_unknown_field_is_refused_and_named(body, field):
    with pytest.raises(RuleError) as refused:
        parse_action(body)
    assert (refused.value.code, refused.value.reason) == ("invalid", "unknown_field")
    assert refused.value.params == {"field": field}


@pytest.mark.parametrize("expected_seq", [-1, "3", True, 2.0, [3]])
def test_a_bad_expected_seq_is_refused(expected_seq):
    assert refusal_reason({"type": "bust", "expected_seq": expected_seq}) == "bad_expected_seq"


@pytest.mark.parametrize("action_id", ["", "k" * 65, 42, True, ["k"]])
def test_a_bad_action_id_is_refused(action_id):
    assert refusal_reason({"type": "bust", "action_id": action_id}) == "bad_action_id"
