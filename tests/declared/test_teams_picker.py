"""A team game's set-up page picks each player's team (``tests/declared/games/team_game.toml``,
partners opposite by its rule): a select on each row, by default the team the rules form; the
teams chosen reach the options the match stores through ``options.clean``, and a wrong choice
(a team of the wrong size, an empty one, everyone together) is refused on the teams' field,
worded in the page's language, with nothing typed lost."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import parse_game_file
from marquoir.keepers.declared.keeper import DeclaredKeeper
from marquoir.tables.forms import NewMatchForm
from marquoir.tables.keepers import keeper_for
from marquoir.tables.models import Match

from .test_api import post

TEAM_GAME = (Path(__file__).parent / "games" / "team_game.toml").read_text(encoding="utf-8")
NAMES = {"name_0": "Ada", "name_1": "Ben", "name_2": "Cy", "name_3": "Dee", "first": "0"}


def keeper_of(text: str) -> DeclaredKeeper:
    return DeclaredKeeper(compile_game(parse_game_file(tomllib.loads(text))))


def variant(players: str, size: str = "[2, 2]", formed: str = "seat % 2") -> str:
    """The team game at other player counts, team sizes or rule."""
    return (
        TEAM_GAME.replace("players = [4, 4]", f"players = {players}")
        .replace("size = [2, 2]", f"size = {size}")
        .replace('formed = "seat % 2"', f'formed = "{formed}"')
    )


def teams(*picks: str) -> dict[str, str]:
    return {f"teams_{row}": pick for row, pick in enumerate(picks)}


def form_of(text: str, data: dict[str, str]) -> NewMatchForm:
    form = NewMatchForm(keeper_of(text), data)
    form.is_valid()
    return form


def stored(text: str, data: dict[str, str]) -> Any:
    """The teams a match set up by this form would keep, through the options' own checks."""
    form = form_of(text, data)
    assert form.is_valid(), form.errors
    players = form.cleaned_data["players"]
    return keeper_of(text).clean_options_for(form.cleaned_data["options"], len(players))["teams"]


# --- the form: its rows, their defaults and the options they give


def test_each_row_offers_the_teams_and_shows_the_one_the_rules_form() -> None:
    form = NewMatchForm(keeper_of(TEAM_GAME))
    rows = [form.seat_choices(row) for row in range(4)]
    assert [choices[0].value for choices in rows] == ["0", "1", "0", "1"]  # partners opposite
    assert rows[0][0].choices == [("0", "Team 1"), ("1", "Team 2")]
    assert [choices[0].name for choices in rows] == ["teams_0", "teams_1", "teams_2", "teams_3"]
    assert "teams" not in form.option_names  # drawn on the rows, not with the table options


def test_the_rows_left_as_they_are_give_the_rules_teams() -> None:
    assert stored(TEAM_GAME, NAMES | teams("0", "1", "0", "1")) == [[0, 2], [1, 3]]
    assert stored(TEAM_GAME, NAMES) == [[0, 2], [1, 3]]  # no select sent: as before the picker


def test_the_teams_chosen_are_the_ones_the_match_keeps() -> None:
    assert stored(TEAM_GAME, NAMES | teams("0", "0", "1", "1")) == [[0, 1], [2, 3]]
    # Team 2 named first on the rows is still the second team: the rows' numbers hold.
    assert stored(TEAM_GAME, NAMES | teams("1", "0", "0", "1")) == [[1, 2], [0, 3]]


def test_an_empty_row_s_team_is_ignored_and_the_others_follow_their_players() -> None:
    game = variant("[4, 6]")
    data = {"name_0": "Ada", "name_2": "Cy", "name_3": "Dee", "name_5": "Fay", "first": "2"}
    # Rows 1 and 4 are empty: the players are rows 0, 2, 3 and 5, seated 0 to 3.
    assert stored(game, data | teams("1", "0", "0", "0", "0", "1")) == [[1, 2], [0, 3]]


def test_when_the_rules_teams_depend_on_the_count_the_rows_say_by_the_rules() -> None:
    game = variant("[4, 6]", formed="seat % (players / 2)")
    form = NewMatchForm(keeper_of(game))
    assert [form.seat_choices(row)[0].value for row in range(6)] == [""] * 6
    assert form.seat_choices(0)[0].choices[:2] == [("", "By the rules"), ("0", "Team 1")]
    six = {f"name_{row}": name for row, name in enumerate(["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"])}
    assert stored(game, six | {"first": "0"}) == [[0, 3], [1, 4], [2, 5]]  # the rule at six
    # Two rows chosen, the others by the rule at this count.
    assert stored(game, six | {"first": "0"} | teams("1", "", "", "", "0", "")) == [[3, 4], [0, 1], [2, 5]]


# --- refusals: on the teams' field, worded, the rest of the form kept


@pytest.mark.parametrize(
    ("game", "picks", "message"),
    [
        (TEAM_GAME, ("0", "0", "0", "1"), "Team 1 has 3 players: each team needs 2."),
        (TEAM_GAME, ("1", "1", "1", "1"), "Everyone is in the same team: make two teams at least."),
        (TEAM_GAME, ("0", "0", "0", "0"), "Everyone is in the same team: make two teams at least."),
        (
            variant("[4, 6]", "[2, 3]"),
            ("0", "0", "2", "2"),
            "Nobody is in Team 2: number the teams from 1, without skipping one.",
        ),
        (variant("[4, 6]", "[2, 3]"), ("0", "1", "1", "1"), "Team 1 has 1 player: each team needs 2 to 3."),
    ],
)
def test_a_wrong_choice_is_refused_on_the_teams_field(game: str, picks: tuple[str, ...], message: str) -> None:
    form = form_of(game, NAMES | teams(*picks))
    assert not form.is_valid()
    assert form.errors == {"teams": [message]}


def test_the_refusal_is_worded_in_french() -> None:
    with translation.override("fr"):
        form = form_of(TEAM_GAME, NAMES | teams("0", "0", "0", "1"))
        assert form.errors["teams"] == ["L’équipe 1 a 3 joueurs\u00a0: il en faut 2 par équipe."]
        form = form_of(variant("[4, 6]", "[2, 3]"), NAMES | teams("1", "1", "2", "2"))
        assert form.errors["teams"] == [
            "Personne n’est dans l’équipe 1\u00a0: numérotez les équipes à partir de 1, sans en sauter."
        ]
        form = form_of(TEAM_GAME, NAMES | teams("1", "1", "1", "1"))
        assert form.errors["teams"] == ["Tout le monde est dans la même équipe\u00a0: formez au moins deux équipes."]


def test_a_count_the_rules_cannot_form_is_said_on_the_teams_field() -> None:
    game = variant("[4, 6]", formed="seat % (players / 2)")
    five = {f"name_{row}": name for row, name in enumerate(["Ada", "Ben", "Cy", "Dee", "Eve"])}
    form = form_of(game, five | {"first": "0"})
    assert form.errors == {"teams": ["The rules cannot form the teams at this many players."]}
    # Chosen by the table instead: two teams of two and one of one player is refused.
    form = form_of(game, five | {"first": "0"} | teams("0", "1", "0", "1", "2"))
    assert form.errors == {"teams": ["Team 3 has 1 player: each team needs 2."]}


@pytest.mark.parametrize("forged", ["9", "-1", "x", "0" * 500, "１"])
def test_a_forged_team_is_a_team_not_chosen_never_a_server_error(forged: str) -> None:
    # Team 3 is not offered at four: the row takes the rules' team.
    assert stored(TEAM_GAME, NAMES | teams(forged, "1", "0", "1")) == [[0, 2], [1, 3]]


def test_a_game_without_teams_has_no_team_on_its_rows() -> None:
    skyjo = keeper_for("skyjo")
    assert skyjo is not None
    form = NewMatchForm(skyjo)
    assert "teams" not in form.fields
    assert form.seat_choices(0) == []


# --- the page: a real set-up, posted as a phone without JavaScript sends it


def own_team_game(client: Client, text: str = TEAM_GAME) -> str:
    response = post(client, "/api/v1/own-games", {"toml": text})
    assert response.status_code == 201, response.content
    key: str = response.json()["own_game"]["game"]
    return key


@pytest.mark.django_db
def test_the_set_up_page_draws_a_labelled_team_select_on_each_row(client: Client) -> None:
    game = own_team_game(client)
    html = client.get(f"/en/tables/new/{game}/").content.decode()
    assert '<label for="id_teams_1"><span class="visually-hidden">Player 2:</span> Team</label>' in html
    select = re.search(r'<select name="teams_1" id="id_teams_1">(.*?)</select>', html, re.S)
    assert select is not None
    assert re.findall(r'<option value="(\d)"( selected)?>', select.group(1)) == [("0", ""), ("1", " selected")]
    assert "Table options" not in html  # the game has none: no empty box
    french = client.get(f"/fr/tables/nouvelle/{game}/").content.decode()
    assert '<span class="visually-hidden">Joueur 2:</span> Équipe</label>' in french
    assert '<option value="0">Équipe 1</option>' in french


@pytest.mark.django_db
def test_the_teams_chosen_on_the_page_are_the_match_s(client: Client) -> None:
    game = own_team_game(client)
    response = client.post(f"/en/tables/new/{game}/", NAMES | teams("0", "0", "1", "1"))
    assert response.status_code == 303, response.content.decode()[:600]
    match = Match.objects.get()
    assert match.options["teams"] == [[0, 1], [2, 3]]
    table = client.get(response["Location"]).content.decode()
    assert "Ada and Ben" in table
    assert "Cy and Dee" in table
    # The rematch sets the same teams up again.
    rematch = client.get(f"/en/tables/new/{game}/?from={match.id}").content.decode()
    chosen = re.findall(r'<select name="teams_(\d)".*?<option value="(\d)" selected>', rematch, re.S)
    assert chosen == [("0", "0"), ("1", "0"), ("2", "1"), ("3", "1")]


@pytest.mark.django_db
def test_a_refused_choice_comes_back_with_its_message_and_everything_typed(client: Client) -> None:
    game = own_team_game(client)
    response = client.post(f"/en/tables/new/{game}/", NAMES | teams("0", "0", "0", "1") | {"first": "2"})
    assert response.status_code == 422
    html = response.content.decode()
    assert '<p class="seats__error" id="id_teams-error">Team 1 has 3 players: each team needs 2. </p>' in html
    assert 'id="id_teams_0" aria-invalid="true" aria-describedby="id_teams-error"' in html
    for name in ("Ada", "Ben", "Cy", "Dee"):
        assert f'value="{name}"' in html
    assert re.findall(r'<option value="(\d)" selected>', html) == ["0", "0", "0", "1"]
    assert 'name="first" value="2" checked' in html
    assert not Match.objects.exists()
