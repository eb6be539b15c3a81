"""The match core runs a game it has never seen: Tally (tests/fake_game), a keeper with only
the members a game must write, installed for these tests alone by its app's line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import modify_settings

from marquoir.catalog.games import GAMES, keeps_score
from marquoir.rules import RuleError
from marquoir.tables import services
from marquoir.tables.keepers import Keeper, all_keepers, keeper_for
from marquoir.tables.selectors import find_match, match_view
from tests.fake_game.keeper import KEEPER, TallyKeeper


@pytest.fixture
def tally_installed() -> Iterator[None]:
    with modify_settings(INSTALLED_APPS={"append": "tests.fake_game"}):
        yield


def test_a_game_is_registered_by_its_app_alone_and_gone_with_it(tally_installed):
    assert keeper_for("tally") is KEEPER
    assert list(all_keepers())[-1] == "tally"
    assert "tally" in GAMES
    assert keeps_score("tally")


def test_a_game_not_installed_is_not_registered():
    assert keeper_for("tally") is None
    assert "tally" not in GAMES


@pytest.mark.django_db
def test_the_core_creates_acts_undoes_and_reads_a_match_of_the_fake_game(tally_installed):
    match, _token = services.match_create(game="tally", players=["Ada", "Ben"], first=1)
    applied = services.match_act(match_id=match.id, body={"type": "add", "points": 7}).or_raise()
    assert applied.state is not None
    assert applied.state["totals"] == [0, 7]
    services.match_act(match_id=match.id, body={"type": "add", "points": 4}).or_raise()
    undone = services.match_act(match_id=match.id, body={"type": "undo"}).or_raise()
    assert undone.state is not None
    assert undone.state["seq"] == 3
    assert undone.state["totals"] == [0, 7]

    row = find_match(match.id)
    assert row is not None
    view = match_view(row)
    assert KEEPER.state_json(view) == {
        "id": match.id,
        "game": "tally",
        "seq": 3,
        "totals": [0, 7],
        "current": 0,
        "over": False,
        "winners": [],
    }
    assert [entry.payload for entry in row.entries.order_by("seq")] == [
        {"type": "add", "points": 7},
        {"type": "add", "points": 4},
        {"type": "undo"},
    ]


@pytest.mark.django_db
def test_the_fake_game_s_schema_refuses_what_it_does_not_take(tally_installed):
    match, _token = services.match_create(game="tally", players=["Ada", "Ben"])
    refused = services.match_act(match_id=match.id, body={"type": "add", "points": 12})
    assert refused.refused
    assert refused.error is not None
    assert (refused.error.code, refused.error.reason) == ("invalid", "bad_field")


def test_the_kit_gives_every_member_a_game_does_not_write():
    assert (KEEPER.key, KEEPER.name(), KEEPER.min_players, KEEPER.max_players) == ("tally", "Tally", 2, 4)
    assert KEEPER.bgg_id is None
    assert KEEPER.new_match_title() == "New Tally match"
    assert KEEPER.first_label() == "starts"
    assert KEEPER.setup_hint().startswith("2 to 4 players, in seating order.")
    assert KEEPER.clean_options(None) == {}
    assert KEEPER.clean_options({}) == {}
    assert KEEPER.options_form_fields() == {}
    assert KEEPER.api_endpoints == ()
    assert KEEPER.stat_figures == ()
    assert not KEEPER.has_assistant
    assert KEEPER.reference() is None
    assert KEEPER.table_template == "tally/table.html"
    assert KEEPER.form_action({"type": "add", "points": "3"}) == {"type": "add"}
    assert KEEPER.refused_fields("invalid", "bad_field", {"field": "points"}) == ("points",)


def test_no_options_means_an_unknown_option_is_refused():
    with pytest.raises(RuleError) as refused:
        KEEPER.clean_options({"house_rule": True})
    assert (refused.value.reason, refused.value.params) == ("unknown_option", {"option": "house_rule"})


def test_the_fake_game_writes_no_more_members_than_a_game_must():
    written = {name for name in vars(TallyKeeper) if not name.startswith("__")}
    assert written == set(Keeper.REQUIRED)


def test_a_keeper_that_leaves_out_a_member_a_game_must_write_is_refused_at_once():
    class Unfinished(Keeper):
        meta = None

    with pytest.raises(TypeError, match="must write action_models, state_schema, log_words, start"):
        Unfinished()
