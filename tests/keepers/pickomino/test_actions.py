"""Parsing a Pickomino body into its stored payload and back to the engine's action: every
valid form of a take and a bust, every reason for a refusal of their fields.

The core's part of the parsing (undo, the guards, the body's shape and type, unknown fields)
is held by tests/tables/test_actions.py.
"""

from __future__ import annotations

import pytest

from marquoir.games.pickomino import Bust, BustReason, RuleError, Take
from marquoir.keepers.pickomino.keeper import KEEPER
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


# Valid bodies.


def test_it_parses_a_take_from_the_grill_with_total_and_worm():
    parsed = parse_action({"type": "take", "total": 27, "worm": True, "from": "grill"})
    assert parsed == ActionRequest("take", {"type": "take", "total": 27, "worm": True, "from": "grill"})


def test_a_take_without_from_is_from_the_grill():
    parsed = parse_action({"type": "take", "total": 24, "worm": True})
    assert parsed.payload["from"] == "grill"


def test_it_parses_a_steal_from_a_player_index():
    parsed = parse_action({"type": "take", "total": 27, "worm": True, "from": 2})
    assert parsed.payload == {"type": "take", "total": 27, "worm": True, "from": 2}


def test_it_keeps_a_take_without_a_worm_for_the_rules_to_refuse():
    parsed = parse_action({"type": "take", "total": 27, "worm": False})
    assert parsed.payload["worm"] is False


def test_it_works_out_total_and_worm_from_the_dice():
    parsed = parse_action({"type": "take", "dice": {"worm": 2, "5": 3, "3": 1}, "from": "grill"})
    assert parsed.kind == "take"
    assert parsed.payload == {
        "type": "take",
        "total": 28,
        "worm": True,
        "from": "grill",
        "dice": {"3": 1, "5": 3, "worm": 2},
    }


def test_dice_without_a_worm_give_no_worm():
    parsed = parse_action({"type": "take", "dice": {"5": 4, "4": 4}})
    assert (parsed.payload["total"], parsed.payload["worm"]) == (36, False)


def test_dice_leave_out_faces_counted_zero():
    parsed = parse_action({"type": "take", "dice": {"1": 0, "2": 2, "worm": 1, "4": 0}, "from": 1})
    assert parsed.payload["dice"] == {"2": 2, "worm": 1}
    assert (parsed.payload["total"], parsed.payload["from"]) == (9, 1)


def test_eight_worms_make_forty():
    assert parse_action({"type": "take", "dice": {"worm": 8}}).payload["total"] == 40


def test_it_parses_a_bust_as_declared_by_default():
    parsed = parse_action({"type": "bust"})
    assert parsed == ActionRequest("bust", {"type": "bust", "reason": "declared"})


@pytest.mark.parametrize("reason", [reason.value for reason in BustReason])
def test_it_parses_a_bust_with_each_reason(reason):
    assert parse_action({"type": "bust", "reason": reason}).payload == {"type": "bust", "reason": reason}


# Refusals, each with its reason.


@pytest.mark.parametrize("reason", ["tired", "", 1, None])
def test_an_unknown_bust_reason_is_refused(reason):
    assert refusal_reason({"type": "bust", "reason": reason}) == "bad_reason"


@pytest.mark.parametrize("source", ["stack", "Grill", True, 1.0, None, [1]])
def test_a_take_from_neither_the_grill_nor_a_player_index_is_refused(source):
    assert refusal_reason({"type": "take", "total": 27, "worm": True, "from": source}) == "bad_source"


@pytest.mark.parametrize(
    "body",
    [
        {"type": "take", "dice": {"worm": 2}, "total": 10},
        {"type": "take", "dice": {"worm": 2}, "worm": True},
        {"type": "take", "dice": {"worm": 2}, "total": 10, "worm": True},
    ],
)
def test_dice_together_with_total_or_worm_are_refused(body):
    assert refusal_reason(body) == "dice_and_total"


@pytest.mark.parametrize("dice", [{"6": 1}, {"0": 1}, {"Worm": 1}, {"five": 1}, {"": 1}])
def test_an_unknown_face_is_refused(dice):
    assert refusal_reason({"type": "take", "dice": dice}) == "unknown_face"


@pytest.mark.parametrize("count", [9, -1, "2", 1.5, True, None])
def test_a_die_count_outside_0_to_8_is_refused(count):
    assert refusal_reason({"type": "take", "dice": {"worm": count}}) == "bad_die_count"


def test_more_than_eight_dice_are_refused():
    assert refusal_reason({"type": "take", "dice": {"worm": 5, "5": 4}}) == "too_many_dice"


@pytest.mark.parametrize("dice", [{}, {"worm": 0}, {"1": 0, "5": 0}])
def test_no_die_kept_is_refused(dice):
    assert refusal_reason({"type": "take", "dice": dice}) == "no_dice"


@pytest.mark.parametrize("dice", [[6, 6, 5], "worm:2", 12, None])
def test_dice_not_given_as_counts_per_face_are_refused(dice):
    assert refusal_reason({"type": "take", "dice": dice}) == "bad_dice"


@pytest.mark.parametrize("total", ["27", 27.5, True, None, [27]])
def test_a_total_that_is_not_a_whole_number_is_refused(total):
    assert refusal_reason({"type": "take", "total": total, "worm": True}) == "bad_total"


def test_a_take_without_a_total_is_refused():
    assert refusal_reason({"type": "take", "worm": True}) == "bad_total"


@pytest.mark.parametrize("worm", ["yes", 1, 0, None, "true"])
def test_a_worm_that_is_not_a_boolean_is_refused(worm):
    assert refusal_reason({"type": "take", "total": 27, "worm": worm}) == "bad_worm"


def test_a_take_without_worm_field_is_refused():
    assert refusal_reason({"type": "take", "total": 27}) == "bad_worm"


# From the stored payload back to the engine's action.


def test_a_stored_take_becomes_the_engines_take():
    payload = parse_action({"type": "take", "total": 27, "worm": True, "from": 2}).payload
    assert KEEPER.engine_action(payload) == Take(27, True, 2)


def test_a_stored_dice_take_becomes_the_engines_take_with_its_total():
    payload = parse_action({"type": "take", "dice": {"worm": 2, "5": 3, "3": 1}}).payload
    assert KEEPER.engine_action(payload) == Take(28, True, "grill")


def test_a_stored_bust_becomes_the_engines_bust_with_its_reason():
    assert KEEPER.engine_action(parse_action({"type": "bust"}).payload) == Bust(BustReason.DECLARED)
    assert KEEPER.engine_action({"type": "bust", "reason": "no_worm"}) == Bust(BustReason.NO_WORM)


def test_a_bust_stored_without_a_reason_is_declared():
    assert KEEPER.engine_action({"type": "bust"}) == Bust(BustReason.DECLARED)
