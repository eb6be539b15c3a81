"""Corrections and redo, for every game through the core (docs/api.md, "Correcting a past
entry"): a past action replaced in place, every later action played again and checked; an
undo takes back the last action or correction, a redo does it again; refused with the rule's
reason when the corrected history breaks a rule; the log keeps every entry, and a fold of
the log is every answer. Played here on Pickomino (whose later turns can break) and the
score sheet (whose rounds cannot)."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.tables.fold import fold_log, log_rows
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.selectors import keeper_of

from .conftest import BUST, UNDO, Api, Created, error_of, take

pytestmark = pytest.mark.django_db

REDO: dict[str, Any] = {"type": "redo"}


def correct(seq: object, action: object, **guards: Any) -> dict[str, Any]:
    return {"type": "correct", "seq": seq, "action": action, **guards}


def sheet(api: Api, players: tuple[str, ...] = ("Ada", "Ben")) -> Created:
    response = api.create({"game": "sheet", "players": list(players)})
    assert response.status_code == 201, response.content
    created = response.json()
    return Created(created["id"], created["edit_token"], created["state"])


def round_(*scores: int) -> dict[str, Any]:
    return {"type": "round", "scores": list(scores)}


def totals(state: dict[str, Any]) -> list[int]:
    return [player["score"] for player in state["players"]]


def refold(match_id: str) -> dict[str, Any]:
    """The State folded again from the stored log alone (no cache)."""
    row = Match.objects.get(pk=match_id)
    keeper = keeper_of(row)
    return keeper.state_json(fold_log(row, log_rows(row), keeper))


# --- a sheet: a past round fixed in place


def test_a_past_round_is_corrected_in_place_and_every_total_follows(api: Api):
    match = sheet(api)
    api.play(match, round_(10, 2), round_(3, 4), round_(5, 5), round_(1, 0))

    state = api.play(match, correct(2, round_(30, 4)))

    assert state["seq"] == 5
    assert [player["rounds"] for player in state["players"]] == [[10, 30, 5, 1], [2, 4, 5, 0]]
    assert totals(state) == [46, 11]
    assert refold(match.id) == state


def test_a_correction_is_appended_to_the_log_and_the_corrected_entry_stays_as_it_was(api: Api):
    match = sheet(api)
    api.play(match, round_(10, 2), round_(3, 4))
    api.play(match, correct(1, round_(11, 2)))

    entries = list(LogEntry.objects.filter(match_id=match.id).order_by("seq"))
    assert [entry.kind for entry in entries] == ["action", "action", "correct"]
    assert entries[0].payload == {"type": "round", "scores": [10, 2]}
    assert entries[2].payload == {"type": "correct", "seq": 1, "action": {"type": "round", "scores": [11, 2]}}


def test_undo_takes_back_the_correction_then_redo_does_it_again(api: Api):
    match = sheet(api)
    before = api.play(match, round_(10, 2), round_(3, 4))
    corrected = api.play(match, correct(1, round_(11, 2)))

    undone = api.play(match, UNDO)
    assert totals(undone) == totals(before) == [13, 6]
    redone = api.play(match, REDO)
    assert totals(redone) == totals(corrected) == [14, 6]
    assert redone["seq"] == 5
    assert refold(match.id) == redone


def test_a_correction_can_be_corrected_again_and_each_undo_goes_back_one_step(api: Api):
    match = sheet(api)
    api.play(match, round_(10, 2))
    api.play(match, correct(1, round_(20, 2)), correct(1, round_(30, 2)))

    assert totals(api.state(match)) == [30, 2]
    assert totals(api.play(match, UNDO)) == [20, 2]
    assert totals(api.play(match, UNDO)) == [10, 2]
    assert totals(api.play(match, UNDO)) == [0, 0]


def test_redo_puts_back_several_undos_in_order_and_a_new_action_forgets_them(api: Api):
    match = sheet(api)
    api.play(match, round_(1, 0), round_(2, 0), round_(4, 0))
    api.play(match, UNDO, UNDO)
    assert totals(api.play(match, REDO)) == [3, 0]
    assert totals(api.play(match, REDO)) == [7, 0]
    api.refused(match, REDO, "nothing_to_redo", 409)

    api.play(match, UNDO, round_(8, 0))
    api.refused(match, REDO, "nothing_to_redo", 409)
    assert totals(api.state(match)) == [11, 0]


def test_redo_with_nothing_undone_is_refused_in_both_languages(api: Api):
    match = sheet(api)
    api.play(match, round_(1, 0))
    english = api.refused(match, REDO, "nothing_to_redo", 409)
    french = api.refused(match, REDO, "nothing_to_redo", 409, language="fr")
    assert english == "There is nothing to redo: only what was just undone can be redone."
    assert french.startswith("Il n’y a rien à refaire")


@pytest.mark.parametrize("target", [0, 3, 99, 2])
def test_only_an_action_in_force_can_be_corrected(api: Api, target: int):
    match = sheet(api)
    api.play(match, round_(1, 0), UNDO)  # entry 1 undone, entry 2 the undo

    if target == 0:
        api.refused(match, correct(target, round_(5, 5)), "invalid", 422)
    else:
        message = api.refused(match, correct(target, round_(5, 5)), "not_correctable", 409)
        assert message == f"Entry {target} cannot be corrected: only a turn still in force can be."


def test_a_correction_after_an_end_changes_the_winner(api: Api):
    match = sheet(api)
    api.play(match, round_(10, 2), {"type": "end"})
    assert api.state(match)["winners"] == [0]

    state = api.play(match, correct(1, round_(1, 2)))
    assert state["over"] is True
    assert state["winners"] == [1]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"type": "undo"}, "bad_correction_action"),
        ({"type": "correct", "seq": 1, "action": {"type": "round", "scores": [1, 1]}}, "bad_correction_action"),
        ({"type": "round", "scores": [1, 1], "expected_seq": 1}, "correction_guards"),
        ({"type": "round", "scores": ["x", 1]}, "bad_scores"),
        ({"type": "nope"}, "bad_type"),
        ("round", "bad_correction_action"),
    ],
)
def test_a_correction_whose_action_is_not_one_of_the_games_is_refused(api: Api, action: object, reason: str):
    match = sheet(api)
    api.play(match, round_(1, 0))
    response = api.act(match, correct(1, action))
    error_of(response, "invalid", 422)
    assert totals(api.state(match)) == [1, 0]


def test_a_correction_takes_the_guards_on_itself(api: Api):
    match = sheet(api)
    api.play(match, round_(1, 0))
    api.refused(match, correct(1, round_(2, 0), expected_seq=0), "conflict", 409)

    first = api.play(match, correct(1, round_(2, 0), action_id="fix-1", expected_seq=1))
    again = api.act(match, correct(1, round_(2, 0), action_id="fix-1"))
    assert again.json() == first
    assert LogEntry.objects.filter(match_id=match.id).count() == 2


def test_a_correction_of_the_wrong_number_of_scores_is_refused_by_the_rules(api: Api):
    match = sheet(api)
    api.play(match, round_(1, 0))
    message = api.refused(match, correct(1, round_(1, 0, 3)), "invalid", 422)
    assert message.startswith("This correction cannot be kept: ")


# --- Pickomino: a later turn broken by a correction


def test_a_correction_that_breaks_a_later_turn_is_refused_naming_it(api: Api, match: Created):
    # Ada takes 25, Ben steals it, Cy busts: correcting Ada's take to 24 leaves Ben's steal
    # of 25 nothing to steal.
    api.play(match, take(25), take(25, source=0), BUST)

    english = api.refused(match, correct(1, take(24)), "not_stealable", 422)
    french = api.refused(match, correct(1, take(24)), "not_stealable", 422, language="fr")

    assert english.startswith("With this correction, entry 2 would break a rule: ")
    assert french.startswith("Avec cette correction, l’entrée 2 enfreindrait une règle\u00a0: ")


def test_a_correction_the_rules_refuse_itself_says_so(api: Api, match: Created):
    api.play(match, take(25))
    message = api.refused(match, correct(1, take(25, worm=False)), "no_worm", 422)
    assert message.startswith("This correction cannot be kept: ")


def test_a_correction_to_a_bust_plays_the_later_turns_again_each_player_in_turn(api: Api, match: Created):
    api.play(match, take(25), take(30), take(21))

    state = api.play(match, correct(1, BUST))

    # Ada's turn is now a bust (with no tile to give back, nothing turned down: rules-pickomino,
    # "Bust" 3); Ben's and Cy's turns are played again as they were.
    assert [player["stack"] for player in state["players"]] == [[], [30], [21]]
    assert {tile["tile"] for tile in state["grill"] if tile["face"] == "up"} == set(range(21, 37)) - {30, 21}
    assert state["current"] == 0
    assert refold(match.id) == state


# --- the log, read through the API


def test_the_log_lists_every_entry_with_what_it_sent_its_words_and_what_undo_and_redo_would_do(api: Api):
    match = sheet(api)
    api.play(match, round_(10, 2), round_(3, 4), correct(1, round_(11, 2)), UNDO)

    response = api.client.get(f"/api/v1/matches/{match.id}/log")

    assert response.status_code == 200
    log = response.json()
    assert [(entry["seq"], entry["kind"]) for entry in log["entries"]] == [
        (1, "action"),
        (2, "action"),
        (3, "correct"),
        (4, "undo"),
    ]
    first, _second, correction, undo = log["entries"]
    assert first["action"] == {"type": "round", "scores": [10, 2]}
    assert first["corrected"] is False
    assert correction["action"] == {"type": "correct", "seq": 1, "action": {"type": "round", "scores": [11, 2]}}
    assert correction["undone"] is True
    assert correction["corrects"] == 1
    assert undo == {
        "seq": 4,
        "kind": "undo",
        "action": None,
        "text": "Correction of entry 1 undone.",
        "undone": False,
        "corrected": False,
        "undoes": 3,
        "redoes": None,
        "corrects": None,
    }
    assert log["undo"] == 2
    assert log["redo"] == 3
    assert log["next"] is None


def test_the_log_is_read_in_pages_and_in_the_reader_s_language(api: Api):
    match = sheet(api)
    api.play(match, round_(1, 0), round_(2, 0), round_(3, 0))

    page = api.client.get(f"/api/v1/matches/{match.id}/log?from=2", headers={"Accept-Language": "fr"}).json()
    assert [entry["seq"] for entry in page["entries"]] == [2, 3]
    assert page["entries"][0]["text"].startswith("Manche 2")


@pytest.mark.parametrize("start", ["0", "x", "²", "-1", "1" * 12, ""])
def test_a_log_page_that_starts_nowhere_is_refused_in_words(api: Api, start: str):
    match = sheet(api)
    message = error_of(api.client.get(f"/api/v1/matches/{match.id}/log?from={start}"), "invalid", 422)
    assert message == '"from" must be the seq of an entry, a whole number from 1.'


def test_the_log_of_no_match_is_not_found(api: Api):
    error_of(api.client.get("/api/v1/matches/nothing-here/log"), "not_found", 404)


# --- from the review: a rule's own "step", hostile types, the core's reasons


def flip_7(api: Api) -> Created:
    response = api.create({"game": "flip_7", "players": ["Ada", "Ben", "Cy"]})
    assert response.status_code == 201, response.content
    created = response.json()
    return Created(created["id"], created["edit_token"], created["state"])


FLIP_7_ROUND = {
    "numbers": [28, 0, 0],
    "times_two": [False, False, False],
    "modifiers": [4, 0, 0],
    "flip_7": [False, False, False],
    "busted": [False, False, False],
}


def test_a_correction_refused_by_a_rule_with_a_step_of_its_own_names_the_corrected_entry(api: Api):
    # Flip 7's modifiers go by steps of 2: its refusal carries a "step" of its own, which is
    # not the place the corrected history broke at.
    match = flip_7(api)
    api.play(match, {"type": "round", "inputs": FLIP_7_ROUND}, {"type": "round", "inputs": FLIP_7_ROUND})
    odd = {**FLIP_7_ROUND, "modifiers": [3, 0, 0]}

    message = api.refused(match, correct(1, {"type": "round", "inputs": odd}), "invalid", 422)

    assert message.startswith("This correction cannot be kept: ")
    assert "None" not in message


@pytest.mark.parametrize("kind", [["x"], {"a": 1}, 3, None, True])
def test_a_correction_whose_action_type_is_no_text_is_refused_never_a_server_error(api: Api, kind: object):
    match = sheet(api)
    api.play(match, round_(1, 0))
    api.refused(match, correct(1, {"type": kind, "scores": [1, 1]}), "invalid", 422)


@pytest.mark.parametrize(
    ("body", "english"),
    [
        (correct("2", round_(1, 0)), '"seq" must be the number of the entry to correct, 1 or more.'),
        (correct(1, ["round"]), "A correction's \"action\" must be one of the game's own actions"),
    ],
)
def test_a_correction_s_own_fields_are_refused_in_its_own_words(api: Api, body: object, english: str):
    match = sheet(api)
    api.play(match, round_(1, 0))
    assert api.refused(match, body, "invalid", 422).startswith(english)
