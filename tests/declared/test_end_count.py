"""The end's count (a game file's ``[final]``) and a choice of names, held by Scrabble's file:
the table ends the game with what the end counts (the tiles left on each rack, who went
out), scored as one more entry for every player, after which the match is over; undo takes
it back and the game goes on; the count is refused as a round is (an input missing or out of
its bounds, a check broken), worded in both languages, the State unchanged. Through the
engine, then the API as a client plays it. Last, a refusal in a team game (Belote) names the
team by its players."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.declared import End, Match, Round, Setup, Turn, declared_games, load_game, resolve_options, winners
from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import GameFileError, parse_game_file
from marquoir.rules import RuleError
from marquoir.rules.errors import INVALID, MATCH_OVER

from .test_api import act, create, refused, state_of

SCRABBLE = next(game for game in declared_games() if game.key == "scrabble")


def start(players: int, options: dict[str, Any] | None = None) -> Match:
    return Match.start(Setup(SCRABBLE, players, 0, resolve_options(SCRABBLE, players, options or {})))


def turns(match: Match, *inputs: dict[str, Any]) -> Match:
    for turn in inputs:
        match = match.apply(Turn(turn))
    return match


def test_the_end_s_count_is_one_more_entry_after_which_the_game_is_over() -> None:
    match = turns(start(3), {"score": 30}, {"score": 20}, {"score": 10})
    ended = match.apply(End({"went_out": 1, "left": [7, 0, 12]}))
    state = ended.state
    assert state.over
    assert [state.player_rounds(seat) for seat in range(3)] == [(30, 0, 0, -7), (0, 20, 0, 19), (0, 0, 10, -12)]
    assert state.totals == (23, 39, -2)
    assert state.breakdown(1) == {"words": 20, "bingo": 0, "rack": 0, "others_tiles": 19}
    assert winners(state) == (1,)
    assert state.current is None
    with pytest.raises(RuleError) as over:
        ended.apply(Turn({"score": 5}))
    assert over.value.code == MATCH_OVER


def test_undoing_the_count_gives_the_game_back() -> None:
    match = turns(start(2), {"score": 30}, {"score": 20})
    undone = match.apply(End({"left": [3, 4]})).undo()
    assert not undone.state.over
    assert undone.state.totals == (30, 20)
    assert undone.state.current == 0
    assert turns(undone, {"score": 8}).state.totals == (38, 20)


def test_a_bare_end_is_refused_where_the_rules_count_at_the_end() -> None:
    match = turns(start(2), {"score": 30})
    with pytest.raises(RuleError) as missing:
        match.apply(End())
    assert (missing.value.code, missing.value.reason, missing.value.params["input"]) == (
        INVALID,
        "missing_input",
        "left",
    )


def test_the_count_s_bounds_follow_the_options() -> None:
    english = turns(start(2), {"score": 30})
    with pytest.raises(RuleError) as refused_english:
        english.apply(End({"left": [0, 50]}))
    assert refused_english.value.reason == "input_range"
    french = turns(start(2, {"edition": "fr"}), {"score": 30})
    assert french.apply(End({"left": [0, 66]})).state.totals == (30, -66)


def test_no_end_is_taken_before_a_turn() -> None:
    with pytest.raises(RuleError) as first:
        start(2).apply(End({"left": [0, 0]}))
    assert first.value.reason == "no_round"


def test_a_choice_of_names_takes_only_its_names() -> None:
    for wrong in ("skip", 1, True, None, ["pass"]):
        with pytest.raises(RuleError) as refusal:
            start(2).apply(Turn({"kind": wrong}) if wrong is not None else Turn({"kind": wrong, "score": -1}))
        assert refusal.value.code == INVALID
    assert start(2).apply(Turn({"kind": "pass"})).state.carried[0]["passes"] == 1


def test_an_end_with_a_count_is_refused_where_the_file_asks_none() -> None:
    campaign = load_game(Path(__file__).parent / "games" / "coop_game.toml")
    assert campaign.file.end.table_decides
    assert campaign.final is None
    match = Match.start(Setup(campaign, 3, 0, resolve_options(campaign, 3, {})))
    match = match.apply(Round({"mission": 1, "success": False}))
    with pytest.raises(RuleError) as refusal:
        match.apply(End({"left": [0, 0, 0]}))
    assert refusal.value.code == INVALID
    assert match.apply(End()).state.over


def _scrabble_with(**changes: Any) -> dict[str, Any]:
    """Scrabble's file as read, with ``changes`` (``final`` merged into its own)."""
    data = tomllib.loads((Path(SCRABBLE.source)).read_text(encoding="utf-8"))
    data["final"] = {**data["final"], **changes.pop("final", {})}
    data.update(changes)
    return data


LEFT = {"key": "left", "per": "player", "kind": "points", "label": {"en": "L", "fr": "L"}, "min": 0, "max": 9}


def test_a_count_needs_the_table_s_end_and_names_of_its_own() -> None:
    with pytest.raises(GameFileError, match="table_decides"):
        parse_game_file(_scrabble_with(end={"target": 400}))
    with pytest.raises(GameFileError, match="already a round's input"):
        parse_game_file(_scrabble_with(final={"inputs": [{**LEFT, "key": "score"}]}))
    with pytest.raises(GameFileError, match="per player, team or round"):
        parse_game_file(_scrabble_with(final={"inputs": [{**LEFT, "per": "turn"}]}))


def test_a_count_s_formula_fault_is_named_under_final() -> None:
    broken = _scrabble_with(final={"points": [{"key": "rack", "label": {"en": "R", "fr": "R"}, "formula": "-lefft"}]})
    with pytest.raises(GameFileError) as fault:
        compile_game(parse_game_file(broken))
    assert fault.value.field.startswith("final.points.rack")


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    scores=st.lists(st.integers(0, 120), min_size=1, max_size=12),
    left=st.lists(st.integers(0, 49), min_size=4, max_size=4),
    who=st.integers(-1, 3),
)
def test_the_count_moves_what_the_racks_hold_and_totals_stay_the_sum_of_entries(
    players: int, scores: list[int], left: list[int], who: int
) -> None:
    match = turns(start(players), *({"score": score} for score in scores))
    before = match.state.totals
    racks = left[:players]
    went_out = who if who < players else -1
    if went_out >= 0:
        racks[went_out] = 0
    ended = match.apply(End({"went_out": went_out if went_out >= 0 else None, "left": racks})).state
    moved = [after - was for after, was in zip(ended.totals, before, strict=True)]
    assert sum(moved) == (0 if went_out >= 0 else -sum(racks))
    for seat in range(players):
        assert ended.totals[seat] == sum(ended.player_rounds(seat))
        assert ended.breakdown(seat)["rack"] == -racks[seat]


# --- through the API


@pytest.mark.django_db
def test_a_client_ends_a_scrabble_game_with_the_count_and_reads_it(client: Client) -> None:
    match = create(client, "scrabble", ["Ada", "Ben", "Cy"])
    for turn in ({"score": 44}, {"score": 74, "bingo": True}, {"kind": "pass"}):
        assert act(client, match, {"type": "turn", "inputs": turn}).status_code == 200
    message = refused(client, match, {"type": "end", "inputs": {"went_out": 0, "left": [4, 0, 2]}}, "rule", 422, "fr")
    assert message == "Le joueur qui a fini n’a plus de lettre."
    message = refused(client, match, {"type": "end"}, "invalid", 422)
    assert "Tiles left on the rack" in message
    assert state_of(client, match)["over"] is False
    answered = act(client, match, {"type": "end", "inputs": {"went_out": 1, "left": [7, 0, 12]}})
    assert answered.status_code == 200, answered.content
    state = state_of(client, match)
    assert state["over"] is True
    assert [player["score"] for player in state["players"]] == [37, 143, -12]
    assert state["players"][1]["rounds"][-1] == 19
    assert state["winners"] == [1]


@pytest.mark.django_db
def test_the_game_s_description_lists_the_count_s_inputs(client: Client) -> None:
    described = client.get("/api/v1/games/scrabble").json()
    assert [item["key"] for item in described["final"]["inputs"]] == ["went_out", "left"]
    kind = next(item for item in described["inputs"] if item["key"] == "kind")
    assert kind["choices"] == ["play", "pass"]
    assert client.get("/api/v1/games/skyjo").json()["final"] is None


@pytest.mark.django_db
def test_a_refused_team_input_names_the_team_s_players_not_the_player_at_that_seat(client: Client) -> None:
    match = create(client, "belote", ["Ada", "Ben", "Cy", "Dee"], {"announcements": True})
    deal = {"taker": 0, "points": 100, "announcements": [0, 35]}
    message = refused(client, match, {"type": "round", "inputs": deal}, "invalid", 422, "fr")
    assert "(Ben et Dee)" in message
    assert state_of(client, match)["round"] == 0
