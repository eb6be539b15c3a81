"""The second version of the game file, held by four small fixture games (tests/declared/games/):

- ``team_game``: a Belote-like partnership game (``play = "teams"``): inputs, totals and
  winners per team;
- ``coop_game``: a campaign in the manner of The Crew (``play = "cooperative"``): carried
  values, end rules with a result, the table's own end a loss;
- ``instant_win``: two players in the manner of 7 Wonders Duel: an end rule naming its
  winners (a supremacy) ends the match at once, whatever the points say;
- ``majority_game``: a Sushi Go-like final scoring (``scored = "end"``): ``rank_points``
  and its tie rules.

Every worked example of each file holds; the engine is then driven directly (``Setup``,
``Match``, ``apply``) for what an example cannot say: the set-up of teams, the table's end,
the order of the standings after an instant win. Last, a first-version file is upgraded.
"""

from __future__ import annotations

import copy
import json
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.declared import End, Game, Match, Round, Setup, load_game, resolve_options, standings, winners
from marquoir.games.declared.engine import Ended, GameState, RoundScored, check_teams, form_teams
from marquoir.games.declared.examples import mismatches
from marquoir.games.declared.formulas import compile_formula
from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import parse_game_file
from marquoir.games.declared.schema import SCHEMA_PATH
from marquoir.games.declared.upgrade import FIRST_SHARED, LAST_STANDING, STILL_IN, is_first_version, upgrade
from marquoir.rules import RuleError
from marquoir.rules.errors import INVALID, MATCH_OVER

GAMES_DIR = Path(__file__).resolve().parent / "games"
NAMES = ("team_game", "coop_game", "instant_win", "majority_game")


@cache
def game(name: str) -> Game:
    return load_game(GAMES_DIR / f"{name}.toml")


def start(name: str, players: int, *, first: int = 0, options: dict[str, Any] | None = None, teams=None) -> Match:
    """A match of the fixture ``name``, its options resolved as a table's are."""
    played = game(name)
    resolved = resolve_options(played, players, options or {})
    return Match.start(Setup(played, players, first, resolved, teams))


def play(match: Match, *rounds: dict[str, Any]) -> Match:
    for inputs in rounds:
        match = match.apply(Round(inputs))
    return match


def refusal(match: Match, action: Any) -> RuleError:
    with pytest.raises(RuleError) as refused:
        match.apply(action)
    return refused.value


EXAMPLES = [
    pytest.param(name, index, id=f"{name}: {example.name}")
    for name in NAMES
    for index, example in enumerate(game(name).file.examples)
]


# --- the four files


@pytest.mark.parametrize(("name", "index"), EXAMPLES)
def test_every_worked_example_holds(name: str, index: int) -> None:
    played = game(name)
    assert mismatches(played, played.file.examples[index]) == []


@pytest.mark.parametrize("name", NAMES)
def test_each_file_is_of_the_second_version_with_examples_accepted_and_refused(name: str) -> None:
    path = GAMES_DIR / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == 2
    assert not is_first_version(data)
    file = game(name).file
    assert file.key == name
    assert any(example.refused is None for example in file.examples)
    assert any(example.refused == "rule" for example in file.examples)
    assert any(example.refused == "invalid" for example in file.examples)
    checks = {check.key for check in file.checks}
    assert {example.rule for example in file.examples if example.refused == "rule"} <= checks
    assert all(check.message.en != check.message.fr for check in file.checks)


@pytest.mark.parametrize("name", NAMES)
def test_each_file_validates_against_the_published_schema(name: str) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(tomllib.loads((GAMES_DIR / f"{name}.toml").read_text(encoding="utf-8")), schema)


def test_a_wrong_expectation_is_reported_not_passed() -> None:
    coop = game("coop_game")
    lost = next(example for example in coop.file.examples if example.result == "lost")
    wrong = lost.model_copy(update={"result": "won", "winners": [0]})
    assert mismatches(coop, wrong) == ["winners [], expected [0]", "result 'lost', expected 'won'"]


# --- a team game: the side is the team


def test_teams_are_formed_partners_opposite_and_the_first_side_is_the_starters_team() -> None:
    state = start("team_game", 4, first=1).state
    assert state.teams == ((0, 2), (1, 3))
    assert (state.player_count, state.players, state.first) == (2, 4, 1)
    assert form_teams(game("team_game"), 4) == ((0, 2), (1, 3))


def test_a_team_games_totals_are_per_team_and_its_winners_are_team_indexes() -> None:
    match = start("team_game", 4)
    match = play(match, {"points": [100, 62], "belote": [True, False]}, {"points": [30, 132]})
    assert match.state.totals == (150, 194)
    assert match.state.player_rounds(0) == (120, 30)
    assert match.state.breakdown(1) == {"cards": 194, "belote": 0}
    assert not match.state.over
    match = play(match, {"points": [0, 162], "belote": [False, True]}, *[{"points": [0, 162]}] * 4)
    state = match.state
    assert state.over
    assert state.ended_by == "target"
    assert state.totals == (150, 1024)
    assert state.round_count == 7
    assert winners(state) == (1,)
    assert [(standing.player, standing.score, standing.rank) for standing in standings(state)] == [
        (1, 1024, 1),
        (0, 150, 2),
    ]
    assert match.outcomes[-1].teams == ((0, 2), (1, 3))


def test_teams_given_by_the_table_are_the_sides() -> None:
    match = start("team_game", 4, first=2, teams=((0, 1), (2, 3)))
    assert match.state.first == 1  # seat 2 starts: its team acts first
    match = play(match, {"points": [62, 100], "belote": [False, True]})
    assert match.state.totals == (62, 120)


@pytest.mark.parametrize(
    ("teams", "reason"),
    [
        ([[0, 1, 2], [3]], "teams_size"),
        ([[0, 1, 2, 3]], "teams_size"),
        ([[0, 1], [1, 2]], "teams_seats"),
        ([[0, 1], [2, 4]], "teams_seats"),
        ([[0, 1], [2]], "teams_seats"),
        ([[0, 1], [2, "3"]], "teams_seats"),
        ("0123", "teams_shape"),
        ([0, 1, 2, 3], "teams_shape"),
    ],
)
def test_wrong_teams_are_refused_as_invalid(teams: Any, reason: str) -> None:
    with pytest.raises(RuleError) as refused:
        check_teams(game("team_game"), 4, teams)
    assert (refused.value.code, refused.value.reason) == (INVALID, reason)


def test_teams_the_rules_cannot_form_and_teams_in_a_game_without_them_are_refused() -> None:
    with pytest.raises(RuleError) as refused:
        form_teams(game("team_game"), 3)  # seats 0 and 2 against seat 1 alone
    assert (refused.value.code, refused.value.reason) == (INVALID, "teams_size")
    with pytest.raises(RuleError) as refused:
        check_teams(game("instant_win"), 2, [[0], [1]])
    assert (refused.value.code, refused.value.reason) == (INVALID, "no_teams")


def test_a_round_given_per_player_in_a_team_game_is_refused_and_changes_nothing() -> None:
    match = play(start("team_game", 4), {"points": [81, 81]})
    refused = refusal(match, Round({"points": [40, 41, 40, 41]}))
    assert (refused.code, refused.reason, refused.params["expected"]) == (INVALID, "input_count", 2)
    refused = refusal(match, Round({"points": [80, 81]}))
    assert (refused.code, refused.params["check"]) == ("rule", "card_points")
    assert match.state.totals == (81, 81)


def test_a_team_game_has_no_table_end() -> None:
    refused = refusal(play(start("team_game", 4), {"points": [81, 81]}), End())
    assert (refused.code, refused.reason) == (INVALID, "no_end")


@settings(max_examples=60, deadline=None)
@given(
    deals=st.lists(st.tuples(st.integers(0, 162), st.sampled_from([None, 0, 1])), min_size=1, max_size=20),
    seats=st.permutations(range(4)),
    first=st.integers(0, 3),
)
def test_random_team_rounds_each_teams_total_is_the_sum_of_its_rounds(
    deals: list[tuple[int, int | None]], seats: list[int], first: int
) -> None:
    teams = (tuple(seats[:2]), tuple(seats[2:]))
    match = start("team_game", 4, first=first, teams=teams)
    expected = [0, 0]
    for cards, belote in deals:
        if match.state.over:
            assert refusal(match, Round({"points": [cards, 162 - cards]})).code == MATCH_OVER
            break
        match = play(match, {"points": [cards, 162 - cards], "belote": [belote == 0, belote == 1]})
        expected[0] += cards + (20 if belote == 0 else 0)
        expected[1] += 162 - cards + (20 if belote == 1 else 0)
    state = match.state
    assert state.player_count == 2
    assert list(state.totals) == expected
    assert [sum(state.player_rounds(team)) for team in (0, 1)] == expected
    assert state.over == (max(expected) >= 1000)
    if state.over:
        assert winners(state) == tuple(team for team in (0, 1) if expected[team] == max(expected))


# --- a cooperative game: the table wins or loses together


def test_a_cooperative_game_is_one_side_won_by_its_rule() -> None:
    match = start("coop_game", 4, first=3, options={"campaign": 3})
    assert (match.state.player_count, match.state.players, match.state.first) == (1, 4, 0)
    match = play(
        match,
        {"mission": 1, "success": True},
        {"mission": 2, "success": False},
        {"mission": 2, "success": True},
    )
    assert not match.state.over
    assert match.state.outcome is None
    assert match.state.carried == ({"attempts": 0, "mission_reached": 2},)
    match = play(match, {"mission": 3, "success": True})
    state = match.state
    assert (state.over, state.ended_by, state.outcome) == (True, "campaign_won", "won")
    assert state.totals == (3,)
    assert winners(state) == (0,)
    assert refusal(match, Round({"mission": 4, "success": True})).code == MATCH_OVER


def test_a_cooperative_game_is_lost_by_its_rule() -> None:
    match = play(start("coop_game", 3), *[{"mission": 1, "success": False}] * 5)
    state = match.state
    assert (state.over, state.ended_by, state.outcome) == (True, "too_many_attempts", "lost")
    assert state.carried == ({"attempts": 5, "mission_reached": 0},)
    assert winners(state) == ()


def test_the_table_ending_a_cooperative_game_loses_it() -> None:
    match = play(start("coop_game", 4), {"mission": 1, "success": True}, {"mission": 2, "success": True})
    match = match.apply(End())
    ended = match.outcomes[-1]
    assert isinstance(ended, Ended)
    state = match.state
    assert (ended.result, ended.winners, ended.end_reason) == ("lost", (), "declared")
    assert (state.over, state.ended_by, state.outcome) == (True, "declared", "lost")
    assert state.totals == (2,)
    assert winners(state) == ()
    assert match.undo().state.outcome is None


def test_the_table_cannot_end_before_a_round() -> None:
    refused = refusal(start("coop_game", 4), End())
    assert (refused.code, refused.reason) == (INVALID, "no_round")


def _campaign(outcomes: list[bool], campaign: int) -> tuple[int, int, int, str | None, int]:
    """The rules, said again in Python: (missions, attempts, reached, result, rounds played)."""
    attempts = reached = played = 0
    for success in outcomes:
        played += 1
        attempts = 0 if success else attempts + 1
        reached += 1 if success else 0
        if reached >= campaign:
            return reached, attempts, reached, "won", played
        if attempts >= 5:
            return reached, attempts, reached, "lost", played
    return reached, attempts, reached, None, played


@settings(max_examples=60, deadline=None)
@given(outcomes=st.lists(st.booleans(), min_size=1, max_size=40), campaign=st.integers(1, 8))
def test_random_campaigns_follow_the_rules(outcomes: list[bool], campaign: int) -> None:
    match = start("coop_game", 4, options={"campaign": campaign})
    for success in outcomes:
        if match.state.over:
            break
        reached = match.state.carried[0]["mission_reached"]
        match = play(match, {"mission": reached + 1, "success": success})
    missions, attempts, reached, result, played = _campaign(outcomes, campaign)
    state = match.state
    assert (state.totals, state.round_count, state.outcome) == ((missions,), played, result)
    assert state.carried == ({"attempts": attempts, "mission_reached": reached},)
    assert winners(state) == ((0,) if result == "won" else ())


# --- an instant win


def test_a_supremacy_ends_the_match_at_once_and_ranks_its_winner_first_with_fewer_points() -> None:
    match = play(start("instant_win", 2), {"points": [30, 10], "blue": [10, 0]})
    match = play(match, {"points": [5, 2], "supremacy": [False, True]})
    state = match.state
    assert (state.over, state.ended_by, state.round_count) == (True, "supremacy", 2)
    last = match.outcomes[-1]
    assert isinstance(last, RoundScored)
    assert last.instant == (1,)
    assert state.totals == (35, 12)
    assert winners(state) == (1,)
    assert [(standing.player, standing.score, standing.rank) for standing in standings(state)] == [
        (1, 12, 1),
        (0, 35, 2),
    ]
    assert refusal(match, Round({"points": [1, 1]})).code == MATCH_OVER


def test_without_a_supremacy_the_third_age_ends_the_game_on_points() -> None:
    match = play(start("instant_win", 2), *[{"points": [10, 12]}] * 2)
    assert not match.state.over
    match = play(match, {"points": [10, 7], "blue": [3, 0]})
    state = match.state
    assert (state.over, state.ended_by, state.totals) == (True, "rounds", (30, 31))
    last = match.outcomes[-1]
    assert isinstance(last, RoundScored)
    assert last.instant == ()
    assert winners(state) == (1,)


# --- majorities: rank_points and its tie rules


def rank_points(values: list[int], points: list[int], tie: str, least: int | None = None) -> list[int]:
    """``rank_points`` as a game file's formula calls it."""
    source = "rank_points(values, points, tie)" if least is None else "rank_points(values, points, tie, least)"
    names = {"values", "points", "tie", "least"}
    compiled = compile_formula(source, file="test", field="formula", names=names)
    scored = compiled.evaluate({"values": values, "points": points, "tie": tie, "least": least})
    assert isinstance(scored, list)
    return [int(points) for points in scored]


@pytest.mark.parametrize(
    ("tie", "expected"),
    [
        ("share", [4, 4, 1, 0]),  # 6 + 3 pooled by the two tied, 4 each; the next takes the third place
        ("split", [3, 3, 1, 0]),  # the first place's 6 split; the second place used up
        ("full", [6, 6, 1, 0]),  # 6 each; the second place used up
        ("dense", [6, 6, 3, 1]),  # 6 each; the next value takes the second place
    ],
)
def test_the_four_tie_rules_on_a_tie_for_the_most(tie: str, expected: list[int]) -> None:
    assert rank_points([5, 5, 3, 1], [6, 3, 1], tie) == expected


@pytest.mark.parametrize(
    ("values", "points", "tie", "least", "expected"),
    [
        ([7, 7, 2], [3, 1], "share", None, [2, 2, 0]),  # Cascadia: 3 + 1 shared, 2 each
        ([3, 3, 1], [6, 3], "split", 1, [3, 3, 0]),  # Sushi Go!: 6 split, no second place
        ([5, 2, 2], [6, 3], "split", 1, [6, 1, 1]),  # Sushi Go!: a tie for second splits the 3
        ([5, 5, 2], [5, 2], "full", None, [5, 5, 0]),  # Terraforming Mars' awards: a tie for first, no second
        ([5, 5, 3, 1], [6, 3], "dense", 1, [6, 6, 3, 0]),  # Sushi Go Party!
        ([4, 0, 0], [6, 3], "split", 1, [6, 0, 0]),  # no icon: no place
        ([0, 0], [6, 3], "dense", 1, [0, 0]),
        ([1, 2, 3], [6, 3], "full", None, [0, 3, 6]),  # the sides keep their order
    ],
)
def test_rank_points_in_the_rules_examples(
    values: list[int], points: list[int], tie: str, least: int | None, expected: list[int]
) -> None:
    assert rank_points(values, points, tie, least) == expected


def test_rank_points_refuses_a_tie_rule_it_does_not_know() -> None:
    with pytest.raises(RuleError) as refused:
        rank_points([1, 2], [6, 3], "halves")
    assert (refused.value.code, refused.value.reason) == (INVALID, "formula_failed")


def test_the_edition_option_switches_the_maki_tie_rule() -> None:
    inputs = {"maki": [5, 5, 3, 1], "cards": [10, 10, 10, 10]}
    original = play(start("majority_game", 4), inputs).state
    party = play(start("majority_game", 4, options={"edition": "party"}), inputs).state
    assert [original.breakdown(seat)["maki"] for seat in range(4)] == [3, 3, 0, 0]
    assert [party.breakdown(seat)["maki"] for seat in range(4)] == [6, 6, 3, 0]
    assert original.over
    assert party.over
    assert winners(original) == winners(party) == (0, 1)


def test_more_than_five_players_take_the_party_edition() -> None:
    majority = game("majority_game")
    with pytest.raises(RuleError) as refused:
        resolve_options(majority, 6, {})
    assert (refused.value.code, refused.value.reason, refused.value.params) == (
        INVALID,
        "option_rule",
        {"check": "original_players"},
    )
    assert resolve_options(majority, 6, {"edition": "party"}) == {"edition": "party"}


# --- a first-version file, upgraded


FIRST_VERSION: dict[str, Any] = {
    "key": "darts_race",
    "scored": "turns",
    "winner": "lowest",
    "lowest_wins_when": "options.reverse",
    "rematch": "lowest_first",
    "box": {
        "names": {"en": "Darts race", "fr": "Course aux fléchettes"},
        "original_name": "Darts race",
        "category": "party",
        "players": [2, 6],
        "minutes": 20,
        "age": 8,
        "released": 2000,
        "sources": ["a house rule"],
    },
    "options": [
        {
            "key": "reverse",
            "kind": "flag",
            "label": {"en": "Highest wins", "fr": "Le plus haut gagne"},
            "default": False,
        }
    ],
    "inputs": [
        {"key": "hit", "per": "turn", "kind": "count", "label": {"en": "Hit", "fr": "Touché"}, "min": 0, "max": 60}
    ],
    "points": [{"key": "hit", "label": {"en": "Hit", "fr": "Touché"}, "formula": "hit"}],
    "turns": {
        "carry": [{"key": "misses", "label": {"en": "Misses", "fr": "Ratés"}, "initial": 0}],
        "after": {"misses": "gained == 0 ? misses + 1 : 0"},
        "skip": "misses >= 3",
    },
    "end": {"target": 100, "last_standing": True, "untied": True},
    "tiebreaks": [
        {"key": "fewer_misses", "label": {"en": "the fewer misses", "fr": "le moins de ratés"}, "value": "misses"}
    ],
    "examples": [{"name": "A hit", "players": 2, "rounds": [{"hit": 20}], "totals": [20, 0]}],
}


def test_a_first_version_file_is_upgraded_to_the_second() -> None:
    first = copy.deepcopy(FIRST_VERSION)
    assert is_first_version(first)
    second = upgrade(first)
    assert first == FIRST_VERSION  # the file read is left as it was
    assert (second["schema_version"], second["scored"], second["entry"]) == (2, "rounds", "turns")
    assert second["carry"] == FIRST_VERSION["turns"]["carry"]
    assert second["after"] == FIRST_VERSION["turns"]["after"]
    assert second["out"] == "misses >= 3"
    assert "turns" not in second  # no turns.others: nothing left of the table
    assert second["ranking"] == [
        STILL_IN,
        {"key": "total", "order": "(options.reverse) ? 'highest' : 'lowest'"},
        {
            "key": "fewer_misses",
            "label": {"en": "the fewer misses", "fr": "le moins de ratés"},
            "value": "misses",
            "order": "highest",
        },
    ]
    assert second["end"] == {"target": 100, "unless": FIRST_SHARED, "rules": [LAST_STANDING]}
    assert second["rematch"] == {"by": "total", "order": "lowest"}
    for gone in ("winner", "lowest_wins_when", "tiebreaks"):
        assert gone not in second


def test_the_upgraded_file_is_read_and_played_as_the_second_version() -> None:
    file = parse_game_file(upgrade(copy.deepcopy(FIRST_VERSION)))
    assert file == parse_game_file(copy.deepcopy(FIRST_VERSION))  # read as it is: upgraded on the way
    assert (file.schema_version, file.entry, file.by_turns) == (2, "turns", True)
    # The total's order is a formula on the options: lowest but where ``reverse`` turns it over.
    assert file.ranking[file.total_rank].order == "(options.reverse) ? 'highest' : 'lowest'"
    assert [key.key for key in file.ranking] == ["in_play", "total", "fewer_misses"]
    assert [rule.key for rule in file.end.rules] == ["last_standing"]
    assert (file.end.unless, file.out) == (FIRST_SHARED, "misses >= 3")
    assert file.rematch is not None
    assert (file.rematch.by, file.rematch.order) == ("total", "lowest")
    darts = compile_game(file, source="darts_race")
    assert mismatches(darts, file.examples[0]) == []
    assert darts.lowest_wins_for({"reverse": False}, 2)
    assert not darts.lowest_wins_for({"reverse": True}, 2)
    state = GameState(darts, {"reverse": False}, 2, 0)
    assert state.lowest_wins
