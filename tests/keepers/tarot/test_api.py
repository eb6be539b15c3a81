"""French Tarot through the JSON API v1 (docs/api-v1.md, "Every game" and "French Tarot"):
creation and its options, deals scored by the rules file's worked examples, passes and the
dealer, the end by deals and by the table, undo, the State key by key, and every kind of
impossible input refused with its reason, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.tables.models import Match

from .conftest import END, FIVE, PASS, UNDO, Created, TarotApi, deal, error_of

NBSP = "\u00a0"
MINUS = "\u2212"


# --- creating a match


def test_a_match_is_created_with_the_first_dealer_and_a_blank_state(api: TarotApi):
    response = api.create_tarot(first=2, options={"deals": 8})

    assert response.status_code == 201, response.content
    state = response.json()["state"]
    assert state["game"] == "tarot"
    assert state["options"] == {"deals": 8}
    assert state["seq"] == 0
    assert state["current"] is None
    assert state["dealer"] == 2
    assert state["first"] == 2
    assert state["deals"] == []
    assert state["players"] == [{"name": name, "score": 0} for name in ("Ada", "Ben", "Cy", "Dee")]
    assert [standing["rank"] for standing in state["standings"]] == [1, 1, 1, 1]
    assert state["over"] is False
    assert state["winners"] == []


def test_without_options_the_game_ends_when_the_table_says(api: TarotApi):
    assert api.new_tarot().state["options"] == {"deals": None}
    assert api.new_tarot(options={"deals": None}).state["options"] == {"deals": None}


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"deals": 0}, id="deals-0"),
        pytest.param({"deals": 301}, id="deals-too-many"),
        pytest.param({"deals": 2.5}, id="deals-float"),
        pytest.param({"deals": True}, id="deals-bool"),
        pytest.param({"deals": "10"}, id="deals-text"),
        pytest.param({"rounds": 3}, id="unknown-option"),
        pytest.param([10], id="not-an-object"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_created(api: TarotApi, options: Any):
    error_of(api.create_tarot(options=options), "invalid", 422)
    assert Match.objects.count() == 0


@pytest.mark.parametrize(("count", "language", "words"), [(2, "en", "3, 4 or 5"), (6, "fr", "3, 4 ou 5")])
def test_tarot_takes_three_to_five_players(api: TarotApi, count: int, language: str, words: str):
    players = [f"P{index}" for index in range(count)]
    message = error_of(api.create_tarot(players, language=language), "invalid", 422)

    assert words in message
    assert Match.objects.count() == 0


# --- the rules file's worked examples


@pytest.mark.parametrize(
    ("players", "body", "scores"),
    [
        pytest.param(4, deal(0, "garde", 2, 47), [186, -62, -62, -62], id="garde-made-by-6"),
        pytest.param(
            4, deal(0, "garde", 2, 47, petit_au_bout="defence"), [126, -42, -42, -42], id="petit-au-bout-defence"
        ),
        pytest.param(4, deal(0, "garde_sans", 1, 48), [-336, 112, 112, 112], id="garde-sans-failed-by-3"),
        pytest.param(
            4,
            deal(0, "garde", 2, 47, poignees=[{"side": "defence", "size": "simple"}]),
            [246, -82, -82, -82],
            id="handful-to-the-winners",
        ),
        pytest.param(5, deal(0, "petite", 1, 55, partner=1), [58, 29, -29, -29, -29], id="five-with-partner"),
        pytest.param(5, deal(0, "petite", 1, 55, partner=0), [116, -29, -29, -29, -29], id="five-alone"),
        pytest.param(3, deal(0, "garde_contre", 3, 36), [300, -150, -150], id="three-just-made"),
    ],
)
def test_the_worked_examples_of_the_rules_file(api: TarotApi, players: int, body: dict[str, Any], scores: list[int]):
    match = api.new_tarot(FIVE[:players])

    state = api.play(match, body)

    assert state["deals"][0]["scores"] == scores
    assert [player["score"] for player in state["players"]] == scores
    assert sum(scores) == 0


def test_the_defence_s_points_are_converted_to_the_taker_s(api: TarotApi, four: Created):
    state = api.play(four, deal(0, "garde", 2, None, defence_points=44))

    (played,) = state["deals"]
    assert played["points"] == 47
    assert played["scores"] == [186, -62, -62, -62]


@pytest.mark.parametrize(("points", "made", "taker"), [(40.5, False, -156), (41.5, True, 156), (41, True, 150)])
def test_a_half_point_goes_to_the_side_that_wins(api: TarotApi, four: Created, points: float, made: bool, taker: int):
    (played,) = api.play(four, deal(0, "garde", 2, points))["deals"]

    assert played["made"] is made
    assert played["points"] == points
    assert played["scores"][0] == taker


def test_every_deal_is_kept_with_its_input_its_result_and_its_scores(api: TarotApi):
    match = api.new_tarot(FIVE, first=4)
    body = deal(
        2,
        "garde",
        2,
        47,
        partner=3,
        petit_au_bout="taker",
        poignees=[{"side": "taker", "size": "double"}],
        chelem=None,
    )

    state = api.play(match, body)

    assert state["deals"] == [
        {
            "number": 1,
            "dealer": 4,
            "passed": False,
            "taker": 2,
            "contract": "garde",
            "partner": 3,
            "bouts": 2,
            "points": 47,
            "petit_au_bout": "taker",
            "poignees": [{"side": "taker", "size": "double"}],
            "chelem": None,
            "made": True,
            "needed": 41,
            "per_defender": 62 + 20 + 30,
            "scores": [-112, -112, 224, 112, -112],
        }
    ]
    assert state["dealer"] == 0


def test_everyone_passed_scores_nothing_and_the_deal_passes_on(api: TarotApi):
    match = api.new_tarot(first=3)

    state = api.play(match, PASS)

    assert state["deals"] == [{**state["deals"][0], "number": 1, "dealer": 3, "passed": True, "made": None}]
    assert state["deals"][0]["scores"] == [0, 0, 0, 0]
    assert state["dealer"] == 0
    assert [player["score"] for player in state["players"]] == [0, 0, 0, 0]
    state = api.play(match, deal(1, "petite", 1, 51))
    assert state["dealer"] == 1
    assert state["deals"][1]["dealer"] == 0


# --- impossible input, refused with its reason


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        pytest.param(deal(0, "garde", 2, 47, partner=1), "no partner", "pas de partenaire", id="partner-at-4"),
        pytest.param(deal(0, "garde", 4, 47), "0, 1, 2 or 3 bouts", "0, 1, 2 ou 3 bouts", id="bouts-4"),
        pytest.param(deal(0, "garde", -1, 47), "0, 1, 2 or 3 bouts", "0, 1, 2 ou 3 bouts", id="bouts-negative"),
        pytest.param(deal(0, "garde", 2, 92), "from 0 to 91", "de 0 à 91", id="points-92"),
        pytest.param(deal(0, "garde", 2, -1), "from 0 to 91", "de 0 à 91", id="points-negative"),
        pytest.param(deal(0, "garde", 2, 40.3), "by halves", "demi-points", id="points-not-in-halves"),
        pytest.param(deal(0, "garde", 2, "47"), "must be a number", "sont un nombre", id="points-text"),
        pytest.param(deal(0, "garde", 2, True), "must be a number", "sont un nombre", id="points-bool"),
        pytest.param(
            deal(0, "garde", 3, 10),
            "With 3 bouts the taker’s side has 13.5 to 91 points, not 10",
            f"Avec 3 bouts, l’attaque a de 13,5 à 91 points, pas 10{NBSP}:",
            id="points-the-bouts-make-impossible",
        ),
        pytest.param(
            deal(0, "garde", 0, 80),
            "With 0 bouts the taker’s side has 0 to 77.5",
            "de 0 à 77,5",
            id="too-many-without-bouts",
        ),
        pytest.param(deal(0, "garde", 2), "Give the card points", "Donnez les points", id="points-missing"),
        pytest.param(deal(0, "garde", 2, 47, defence_points=44), "one side only", "d’un seul camp", id="points-twice"),
        pytest.param(
            deal(0, "garde", 2, 47, poignees=[{"side": "taker", "size": "simple"}] * 2),
            "The taker’s side has 1 player: it cannot show 2 handfuls.",
            f"L’attaque compte 1 joueur{NBSP}: elle ne peut pas présenter 2 poignées.",
            id="two-handfuls-for-one-taker",
        ),
        pytest.param(
            deal(0, "garde", 2, 47, poignees=[{"side": "defence", "size": "simple"}] * 5),
            "One handful per player at most: 5 handfuls for 4 players.",
            "Une poignée par joueur au plus",
            id="more-handfuls-than-players",
        ),
        pytest.param(
            deal(0, "garde", 2, 47, poignees=[{"side": "defence", "size": "triple"}] * 2),
            "30 trumps",
            "30 atouts",
            id="handfuls-beyond-the-deck",
        ),
        pytest.param(
            deal(0, "garde", 2, 47, poignees=[{"side": "both", "size": "simple"}]),
            "Handful 1 is not valid",
            "La poignée 1 n’est pas valable",
            id="handful-side",
        ),
        pytest.param(
            deal(0, "garde", 0, 30, petit_au_bout="taker"),
            "no bout, so it does not hold the Petit",
            "aucun bout, donc pas le Petit",
            id="petit-au-bout-without-bouts",
        ),
        pytest.param(
            deal(0, "garde", 3, 60, petit_au_bout="defence"),
            "all three bouts",
            "les trois bouts",
            id="petit-au-bout-for-the-defence-without-the-petit",
        ),
        pytest.param(
            deal(0, "garde", 1, 30, chelem="made"),
            "the contract cannot have failed",
            "le contrat ne peut pas avoir chuté",
            id="chelem-with-a-failed-contract",
        ),
        pytest.param(
            deal(0, "garde", 2, 80, chelem="announced_made", petit_au_bout="defence"),
            "the defence cannot have taken the last one",
            "la défense ne peut pas avoir pris le dernier",
            id="chelem-and-the-defence-s-petit-au-bout",
        ),
        pytest.param(deal(4, "garde", 2, 47), "The taker must be one of the players", "Le preneur", id="taker-4-at-4"),
        pytest.param(deal(-1, "garde", 2, 47), "The taker must be one of the players", "Le preneur", id="taker-minus"),
        pytest.param(deal(0, "gard", 2, 47), '"garde_sans"', f"{NBSP}garde_sans{NBSP}", id="contract"),
        pytest.param(deal(0, "garde", 2, 47, chelem="yes"), '"announced_made"', "announced_made", id="chelem"),
        pytest.param(deal(0, "garde", 2, 47, petit_au_bout="me"), '"defence"', "defence", id="petit-au-bout"),
    ],
)
def test_impossible_input_is_refused_with_the_reason_in_both_languages(
    api: TarotApi, four: Created, body: dict[str, Any], english: str, french: str
):
    assert english in api.refused(four, body, "invalid", 422)
    assert french in api.refused(four, body, "invalid", 422, language="fr")


def test_at_five_players_the_called_partner_is_required(api: TarotApi):
    match = api.new_tarot(FIVE)

    message = api.refused(match, deal(0, "garde", 2, 47), "invalid", 422)
    assert "At 5 players, say who was called" in message
    assert "le preneur lui-même" in api.refused(
        match, deal(0, "garde", 2, 47, partner=5), "invalid", 422, language="fr"
    )


def test_a_five_player_deal_allows_a_handful_for_each_of_both_attackers(api: TarotApi):
    match = api.new_tarot(FIVE)
    handfuls = [{"side": "taker", "size": "simple"}] * 2

    state = api.play(match, deal(0, "garde", 2, 47, partner=1, poignees=handfuls))

    assert state["deals"][0]["per_defender"] == 62 + 40
    assert api.refused(match, deal(0, "garde", 2, 47, partner=0, poignees=handfuls), "invalid", 422)


def test_unknown_fields_and_actions_are_refused(api: TarotApi, four: Created):
    assert "kings" in api.refused(four, deal(0, "garde", 2, 47, kings=1), "invalid", 422)
    message = api.refused(four, {"type": "round", "scores": [1, 2, 3, 4]}, "invalid", 422)
    assert '"deal"' in message
    assert '"pass"' in message


# --- the end, undo


def test_the_table_ends_the_game_after_a_scored_deal(api: TarotApi, four: Created):
    assert "at least one deal" in api.refused(four, END, "no_deal", 422)
    api.play(four, PASS)
    assert "au moins une donne" in api.refused(four, END, "no_deal", 422, language="fr")

    state = api.play(four, deal(1, "garde", 2, 47), END)

    assert state["over"] is True
    assert state["winners"] == [1]
    assert "no deal can be added" in api.refused(four, PASS, "match_over", 409)


def test_the_game_ends_after_the_agreed_scored_deals_a_pass_not_counted(api: TarotApi):
    match = api.new_tarot(options={"deals": 2})

    state = api.play(match, deal(0, "garde", 2, 47), PASS)
    assert state["over"] is False
    state = api.play(match, deal(1, "petite", 1, 51))

    assert state["over"] is True
    assert len(state["deals"]) == 3
    assert state["winners"] == [0]
    api.refused(match, deal(2, "garde", 2, 47), "match_over", 409)


def test_tied_totals_share_the_rank_and_the_win(api: TarotApi, four: Created):
    # Ada makes a petite by 0 (+75), then Ben the same: both lead with 50 once the others paid twice.
    state = api.play(four, deal(0, "petite", 1, 51), deal(1, "petite", 1, 51), END)

    assert [player["score"] for player in state["players"]] == [50, 50, -50, -50]
    assert state["standings"] == [
        {"player": 0, "score": 50, "rank": 1},
        {"player": 1, "score": 50, "rank": 1},
        {"player": 2, "score": -50, "rank": 3},
        {"player": 3, "score": -50, "rank": 3},
    ]
    assert state["winners"] == [0, 1]


def test_undo_takes_back_the_last_deal_and_the_dealer_with_it(api: TarotApi, four: Created):
    api.play(four, deal(0, "garde", 2, 47))
    state = api.play(four, PASS)
    assert state["dealer"] == 2

    state = api.play(four, UNDO)

    assert state["seq"] == 3
    assert state["dealer"] == 1
    assert len(state["deals"]) == 1
    state = api.play(four, UNDO)
    assert state["deals"] == []
    assert [player["score"] for player in state["players"]] == [0, 0, 0, 0]
    assert "nothing to undo" in api.refused(four, UNDO, "nothing_to_undo", 409).lower()


def test_the_end_taken_back_lets_the_game_go_on(api: TarotApi, four: Created):
    api.play(four, deal(0, "garde", 2, 47), END)

    state = api.play(four, UNDO)

    assert state["over"] is False
    assert state["winners"] == []


def test_a_deal_sent_on_a_stale_seq_is_refused(api: TarotApi, four: Created):
    api.play(four, deal(0, "garde", 2, 47))

    api.refused(four, deal(1, "garde", 2, 47, expected_seq=0), "conflict", 409)


def test_the_state_read_is_the_state_answered(api: TarotApi, four: Created):
    answered = api.play(four, deal(0, "garde", 2, 47.5), PASS)

    assert api.state(four) == answered


def test_a_read_needs_no_token_and_an_action_needs_the_match_s_own(api: TarotApi, four: Created):
    other = api.new_tarot()

    error_of(api.act(four, PASS, token=other.token), "unauthorized", 401)
    assert api.read(four).status_code == 200
