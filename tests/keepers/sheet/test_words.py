"""What the sheet says of each action, in English and in French: the log, the bar, the result."""

from __future__ import annotations

import pytest
from django.utils import translation

from marquoir.games.sheet import End, Match, Options, Outcome, Round, Setup
from marquoir.keepers.sheet.keeper import KEEPER
from marquoir.keepers.sheet.narration import (
    describe,
    describe_short,
    describe_undo,
    describe_undo_short,
    round_status,
)
from marquoir.tables.messages import message_for
from marquoir.tables.standing_words import total_text as score_text

NBSP = "\u00a0"
MINUS = "\u2212"
NAMES = ("Ada", "Ben", "Cy")


def outcomes(*actions: Round | End, options: Options | None = None, players: int = 3) -> list[Outcome]:
    """What each action did, played from a blank sheet."""
    return list(Match.replay(Setup(players, 0, options or Options()), actions).outcomes)


def test_a_round_is_told_with_every_score_and_the_true_minus_sign():
    (outcome,) = outcomes(Round((12, -3, 40)))

    assert describe(outcome, NAMES) == f"Round 1: Ada 12, Ben {MINUS}3, Cy 40."
    assert describe_short(outcome, NAMES) == "Round 1 · Cy leads with 40"
    with translation.override("fr"):
        assert describe(outcome, NAMES) == f"Manche 1{NBSP}: Ada 12, Ben {MINUS}3, Cy 40."
        assert describe_short(outcome, NAMES) == "Manche 1 · Cy est en tête avec 40"


def test_tied_leaders_are_named_together():
    outcome = outcomes(Round((1, 2, 3)), Round((51, 50, 49)))[-1]

    assert describe_short(outcome, NAMES) == "Round 2 · Ada, Ben and Cy lead with 52"
    with translation.override("fr"):
        assert describe_short(outcome, NAMES) == "Manche 2 · Ada, Ben et Cy sont en tête avec 52"


def test_a_lowest_wins_sheet_leads_with_the_lowest_total_even_below_zero():
    (outcome,) = outcomes(Round((12, -3, 40)), options=Options(lowest_wins=True))

    assert describe_short(outcome, NAMES) == f"Round 1 · Ben leads with {MINUS}3"


def test_the_round_that_reaches_the_target_names_the_winners():
    outcome = outcomes(Round((20, 30, 60)), Round((35, 25, 45)), options=Options(lowest_wins=True, target=100))[-1]

    assert describe(outcome, NAMES) == (
        "Round 2: Ada 35, Ben 25, Cy 45. A total reached the target: the game is over. "
        "Ada and Ben share the win with 55."
    )
    assert describe_short(outcome, NAMES) == "Round 2 · Ada and Ben share the win with 55"
    with translation.override("fr"):
        assert describe(outcome, NAMES) == (
            f"Manche 2{NBSP}: Ada 35, Ben 25, Cy 45. Un total a atteint l’objectif{NBSP}: la partie est finie. "
            "Ada et Ben gagnent ex æquo avec 55."
        )


def test_the_last_round_of_a_counted_game_says_so():
    outcome = outcomes(Round((1, 2, 3)), options=Options(rounds=1))[-1]

    assert describe(outcome, NAMES).endswith("That was the last round: the game is over. Cy wins with 3.")


def test_the_end_says_after_how_many_rounds_and_who_won():
    outcome = outcomes(Round((1, 2, 3)), Round((4, 5, -6)), End())[-1]

    assert describe(outcome, NAMES) == "The players stopped after 2 rounds. Ben wins with 7."
    assert describe_short(outcome, NAMES) == "Game over · Ben wins with 7"
    with translation.override("fr"):
        assert describe(outcome, NAMES) == "Les joueurs se sont arrêtés après 2 manches. Ben gagne avec 7."
        assert describe_short(outcome, NAMES) == "Partie finie · Ben gagne avec 7"


def test_a_lone_player_finishes_rather_than_wins():
    outcome = outcomes(Round((-4,)), End(), players=1)[-1]

    assert describe(outcome, ["Ada"]) == f"The players stopped after 1 round. Ada finishes with {MINUS}4."


def test_an_undo_names_the_round_it_took_back():
    round_outcome, end_outcome = outcomes(Round((12, -3, 40)), End())

    assert describe_undo(round_outcome, NAMES) == f"Round 1 taken back (Ada 12, Ben {MINUS}3, Cy 40)."
    assert describe_undo_short(round_outcome, NAMES) == "Round 1 taken back"
    assert describe_undo_short(end_outcome, NAMES) == "The end taken back: the game goes on"
    with translation.override("fr"):
        assert describe_undo_short(round_outcome, NAMES) == "Manche 1 annulée"


def test_the_band_says_the_round_being_played_and_of_how_many():
    assert round_status(4, None) == "Round 4"
    assert round_status(4, 10) == "Round 4 of 10"
    with translation.override("fr"):
        assert round_status(4, 10) == "Manche 4 sur 10"


@pytest.mark.parametrize(("value", "text"), [(0, "0"), (12, "12"), (-3, f"{MINUS}3"), (-100_000, f"{MINUS}100000")])
def test_scores_are_written_with_the_true_minus_sign(value, text):
    assert score_text(value) == text


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("reason", ["score_missing", "score_digits", "score_range", "bad_scores"])
def test_every_refusal_of_a_score_names_the_player(language, reason):
    with translation.override(language):
        text = message_for("invalid", reason, {"player": 1, "score": 5}, NAMES, KEEPER.wordings)

    assert "Ben" in text


@pytest.mark.parametrize(
    "reason",
    ["bad_options", "unknown_option", "bad_title", "bad_lowest_wins", "bad_target", "bad_rounds", "player_count"],
)
def test_every_option_refusal_has_its_own_words_in_both_languages(reason):
    english = message_for("invalid", reason, {"option": "max"}, (), KEEPER.wordings)
    with translation.override("fr"):
        french = message_for("invalid", reason, {"option": "max"}, (), KEEPER.wordings)

    assert english != "This request is not valid."
    assert french != english
