"""Your own game's pages: start, edit, save, the game's page with its links, the file as
text, import and export, and a match of it on the table screen. Rights: the device that
made a game may change it, the "change it too" key grants it, a play link never does;
labels are escaped wherever they show; every refusal says why in the page's language."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import pytest
from django.test import Client

from marquoir.own_games import files
from marquoir.own_games.models import OwnGame, OwnGameVersion
from marquoir.own_games.services import game_key_for, own_game_create
from marquoir.tables.models import Match
from marquoir.tables.services import edit_token_for

from .conftest import DOUBLED, doubled
from .forms import form_fields

pytestmark = pytest.mark.django_db


def made_here(client: Client, data: dict[str, Any] | None = None) -> OwnGame:
    """A game made from this client's device (the import page), so that it may change it."""
    response = client.post("/en/own-games/import/", {"text": files.as_toml(data or DOUBLED)})
    assert response.status_code == 303, response.content.decode()[:2000]
    return OwnGame.objects.latest("created_at")


def test_the_home_page_leads_to_your_own_game_in_both_languages(client: Client):
    assert 'href="/en/own-games/"' in client.get("/en/").content.decode()
    page = client.get("/fr/").content.decode()
    assert 'href="/fr/jeux-maison/"' in page
    assert "Votre propre jeu" in page


def test_the_start_page_offers_nothing_a_file_and_every_declared_game_of_the_catalog(client: Client):
    page = client.get("/en/own-games/").content.decode()
    assert 'href="/en/own-games/new/"' in page
    assert 'href="/en/own-games/import/"' in page
    for key in ("skyjo", "molkky", "kingdomino", "seven_wonders"):
        assert f'href="/en/own-games/new/?from={key}"' in page


def test_a_game_saved_from_the_editor_opens_on_its_page_with_its_links(client: Client):
    fields = form_fields(client.get("/en/own-games/new/").content.decode())
    fields.update(name_en="Tock", do="save")
    response = client.post("/en/own-games/new/", fields)
    game = OwnGame.objects.get()
    assert response["Location"] == f"/en/own-games/{game.id}/?saved=1"
    page = client.get(response["Location"]).content.decode()
    assert "Saved as version 1." in page
    assert f'href="/en/tables/new/own.{game.id}/"' in page
    assert f"#key={game_key_for(game.id)}" in page  # the device that made it may share the right
    assert "<!--marquoir:key-->" in page  # and the service worker keeps no copy of it
    assert f'href="/en/own-games/{game.id}/edit/"' in page


def test_a_play_link_opens_the_game_and_its_copy_never_the_right_to_change_it(client: Client):
    game = own_game_create(data=DOUBLED).game
    page = client.get(f"/en/own-games/{game.id}/").content.decode()
    assert game_key_for(game.id) not in page
    assert f"/en/own-games/{game.id}/edit/" not in page
    assert f'href="/en/own-games/new/?from=own.{game.id}.1"' in page
    fields = form_fields(client.get(f"/en/own-games/{game.id}/edit/").content.decode())
    fields.update(name_en="Taken over", do="save")
    response = client.post(f"/en/own-games/{game.id}/edit/", fields)
    assert response.status_code == 401
    assert "This link lets you play the game, not change it" in response.content.decode()
    assert OwnGameVersion.objects.filter(game=game).count() == 1
    text = client.post(f"/en/own-games/{game.id}/file/", {"text": files.as_toml(doubled(winner="highest"))})
    assert text.status_code == 401
    assert OwnGameVersion.objects.filter(game=game).count() == 1


def test_the_change_key_posted_with_the_form_grants_this_device_and_saves_a_version(client: Client):
    game = own_game_create(data=DOUBLED).game
    fields = form_fields(client.get(f"/en/own-games/{game.id}/edit/").content.decode())
    fields.update(name_en="Changed", key=game_key_for(game.id), do="save")
    assert client.post(f"/en/own-games/{game.id}/edit/", fields).status_code == 303
    assert OwnGame.objects.get(pk=game.pk).latest == 2
    # The same form again, from version 1: saved since, the game is not overwritten.
    fields.update(name_en="Changed again", key="")
    stale = client.post(f"/en/own-games/{game.id}/edit/", fields)
    assert stale.status_code == 409
    assert "This game was changed on another device since this page was opened" in stale.content.decode()
    assert OwnGame.objects.get(pk=game.pk).latest == 2
    # Opened again, the device holds the right now: no key needed.
    fields = form_fields(client.get(f"/en/own-games/{game.id}/edit/").content.decode())
    fields.update(name_en="Changed again", do="save")
    assert client.post(f"/en/own-games/{game.id}/edit/", fields).status_code == 303
    assert OwnGame.objects.get(pk=game.pk).latest == 3


def test_a_copy_of_an_own_game_keeps_its_examples_under_a_new_name(client: Client):
    game = own_game_create(data=DOUBLED).game
    fields = form_fields(client.get("/fr/jeux-maison/nouveau/", {"from": f"own.{game.id}.1"}).content.decode())
    assert fields["name_fr"] == "Skyjo doublé (copie)"
    fields["do"] = "save"
    assert client.post("/fr/jeux-maison/nouveau/", fields).status_code == 303
    copy = OwnGame.objects.exclude(pk=game.pk).get()
    assert copy.versions.get().file["examples"] == DOUBLED["examples"]


def test_the_file_page_imports_a_file_and_refuses_a_broken_one_keeping_the_text(client: Client):
    game = made_here(client)
    assert game.versions.get().file["box"]["names"]["en"] == "Skyjo doubled"
    broken = "scored = 'rounds'\nwinner = \n"
    response = client.post("/fr/jeux-maison/importer/", {"text": broken})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Le fichier ne se lit pas en TOML (ligne 2)." in page
    assert "scored = &#x27;rounds&#x27;" in page
    assert OwnGame.objects.count() == 1


def test_the_file_page_changes_a_game_this_device_made(client: Client):
    game = made_here(client)
    text = client.get(f"/en/own-games/{game.id}/file/").content.decode()
    assert "seat == ended_by &amp;&amp; cards &gt; 0" in text
    response = client.post(f"/en/own-games/{game.id}/file/", {"text": files.as_toml(doubled(winner="highest"))})
    assert response.status_code == 303
    assert game.versions.count() == 2


def total_order(exported: str) -> str:
    """The order of the total in an exported file's ranking (highest when it says none)."""
    file = tomllib.loads(exported)
    assert file["schema_version"] == 2
    total = next(key for key in file["ranking"] if key["key"] == "total")
    return str(total.get("order", "highest"))


def test_the_export_downloads_the_file_of_a_version(client: Client):
    game = made_here(client)
    client.post(f"/en/own-games/{game.id}/file/", {"text": files.as_toml(doubled(winner="highest"))})
    first = client.get(f"/en/own-games/{game.id}/export/", {"version": "1"})
    assert first["Content-Disposition"] == f'attachment; filename="marquoir-{game.id}-v1.toml"'
    assert total_order(first.content.decode()) == "lowest"
    assert total_order(client.get(f"/en/own-games/{game.id}/export/").content.decode()) == "highest"
    assert client.get(f"/en/own-games/{game.id}/export/", {"version": "9"}).status_code == 404


def test_markup_in_a_game_s_labels_is_text_on_every_page(client: Client):
    hostile = doubled(
        box={"names": {"en": "<script>alert(1)</script>", "fr": "<img src=x onerror=alert(1)>"}, "players": [2, 4]},
        inputs=[{**DOUBLED["inputs"][0], "label": {"en": "<b>Cards</b>", "fr": "<i>Cartes</i>"}}, DOUBLED["inputs"][1]],
    )
    game = made_here(client, hostile)
    pages = [
        client.get(f"/en/own-games/{game.id}/"),
        client.get(f"/fr/jeux-maison/{game.id}/"),
        client.get(f"/en/own-games/{game.id}/edit/"),
        client.get("/en/own-games/"),
    ]
    response = client.post(f"/en/tables/new/own.{game.id}/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    pages.append(client.get(response["Location"]))
    for page in pages:
        html = page.content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "<img src=x" not in html
        assert "<b>Cards</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0].content.decode()


def test_a_match_of_an_own_game_is_set_up_played_and_links_back_to_the_game(client: Client):
    game = made_here(client)
    setup = client.get(f"/en/tables/new/own.{game.id}/")
    assert setup.status_code == 200
    assert "New Skyjo doubled match" in setup.content.decode()
    response = client.post(f"/en/tables/new/own.{game.id}/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    match = Match.objects.get()
    assert match.game == f"own.{game.id}.1"
    table = client.get(response["Location"]).content.decode()
    assert f'href="/en/own-games/{game.id}/"' in table  # "Rules of the game" is the game's own page
    fields = form_fields(table, None, form_class="round-form")
    fields.update({"in_cards_0": "10", "in_cards_1": "4", "in_ended_by": "0"})
    played = client.post(f"/en/tables/{match.id}/act/", fields)
    assert played.status_code == 303, played.content.decode()[:1000]
    match.refresh_from_db()
    assert match.seq == 1


def test_an_address_of_no_game_is_a_page_not_found_in_its_language(client: Client):
    for address in ("/en/own-games/AAAAAAAAAAAAAAAAAAAAAA/", "/fr/jeux-maison/AAAAAAAAAAAAAAAAAAAAAA/modifier/"):
        assert client.get(address).status_code == 404
    assert client.get("/en/tables/new/own.AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404
    assert client.get("/en/tables/new/own.x%00/").status_code == 404
    assert client.get("/en/own-games/new/", {"from": "no_such_game"}).status_code == 404


def test_every_form_of_the_pages_needs_its_csrf_token():
    client = Client(enforce_csrf_checks=True)
    for address in ("/en/own-games/new/", "/en/own-games/import/", "/en/own-games/check/"):
        assert client.post(address, {"name_en": "x", "do": "save", "text": "x"}).status_code == 403
    assert not OwnGame.objects.exists()


def test_the_game_page_and_the_editor_are_never_kept_by_a_shared_cache(client: Client):
    game = made_here(client)
    for address in (f"/en/own-games/{game.id}/", f"/en/own-games/{game.id}/edit/"):
        assert "private" in client.get(address)["Cache-Control"]


def test_the_french_pages_are_french(client: Client):
    game = made_here(client)
    page = client.get(f"/fr/jeux-maison/{game.id}/").content.decode()
    for words in ("Nouvelle partie", "Comment il se compte", "Le partager", "Exporter le fichier (TOML)"):
        assert words in page
    editor = client.get(f"/fr/jeux-maison/{game.id}/modifier/").content.decode()
    for words in ("Ce qui se saisit à chaque manche", "Essayer une manche", "Enregistrer le jeu"):
        assert words in editor
    assert re.search(r"Version 1 · <time[^>]*>\d+ \w+ 2\d{3}, \d\d:\d\d</time>", page)


def test_a_match_of_an_own_game_for_a_group_joins_its_history_as_one_game_across_versions(client: Client):
    from marquoir.groups.models import Play
    from marquoir.groups.services import group_create

    game = made_here(client)
    group, key = group_create(name="Thursday", players=["Ada", "Ben"])
    client.post(f"/en/groups/{group.id}/join/", {"key": key})
    page = client.get(f"/en/own-games/{game.id}/").content.decode()
    address = f"/en/groups/{group.id}/new/own.{game.id}/"
    assert f'href="{address}"' in page
    assert 'class="own-group">Thursday</a>' in page
    for _version in range(2):
        response = client.post(address, {"name_0": "Ada", "name_1": "Ben", "first": "0"})
        assert response.status_code == 303, response.content.decode()[:500]
        client.post(f"/en/own-games/{game.id}/file/", {"text": files.as_toml(doubled(winner="highest"))})
    for match in Match.objects.all():  # each played to its end: Ada past 100
        body = json.dumps({"type": "round", "inputs": {"cards": [120, 10], "ended_by": 1}})
        headers = {"Authorization": f"Bearer {edit_token_for(match.id)}"}
        response = client.post(f"/api/v1/matches/{match.id}/actions", body, "application/json", headers=headers)
        assert response.json()["over"] is True
    plays = list(Play.objects.filter(group=group))
    assert len(plays) == 2
    assert {play.game for play in plays} == {f"own.{game.id}"}
    assert {play.match.game for play in plays if play.match} == {f"own.{game.id}.1", f"own.{game.id}.2"}
    assert client.get(f"/en/groups/{group.id}/stats/").status_code == 200
    sections = client.get(f"/api/v1/groups/{group.id}/stats").json()["games"]
    assert [(section["game"], section["name"], section["plays"]) for section in sections] == [
        (f"own.{game.id}", "Skyjo doubled", 2)
    ]


@pytest.mark.parametrize(
    "forged",
    [
        {"inputs": "²"},
        {"input-0-origin": "²"},
        {"do": "remove-input-" + "9" * 5000},
        {"try_players": "²", "do": "try"},
        {"min_players": "²", "do": "try"},
        {"examples": "[" * 10_000},
        {"do": "remove-example-٣"},
    ],
)
def test_forged_editor_fields_are_refused_or_ignored_never_a_server_error(client: Client, forged: dict[str, str]):
    fields = form_fields(client.get("/en/own-games/new/").content.decode())
    fields.update({"name_en": "Forged", **forged})
    assert client.post("/en/own-games/new/", fields).status_code in (200, 422)
    assert client.post("/en/own-games/check/", fields).status_code == 200
    assert not OwnGame.objects.exists()


def test_a_version_asked_for_oddly_is_not_found(client: Client):
    game = made_here(client)
    for version in ("²", "9" * 5000, "-1", "0"):
        response = client.get(f"/en/own-games/{game.id}/export/", {"version": version})
        assert response.status_code in (200, 404)
        if response.status_code == 200:  # not a version number: the newest
            assert total_order(response.content.decode()) == "lowest"


def test_a_tried_round_of_a_file_too_costly_is_refused_before_it_runs(client: Client):
    """The review's case: a game with a long lookup table, and in the editor a formula over it twice."""
    game = own_game_create(data=doubled(tables={"t": list(range(1000))}, examples=[])).game
    fields = form_fields(client.get("/en/own-games/new/", {"from": f"own.{game.id}.1"}).content.decode())
    fields.update({"point-0-formula": "tables.t.map(a, tables.t.map(b, a + b)).size() + cards", "do": "try"})
    fields.update({"try-cards-0": "1", "try-cards-1": "2"})
    page = client.post("/en/own-games/new/", fields).content.decode()
    assert "These formulas could take too long to work out in one round" in page
    assert "Points of this round" not in page
    answer = client.post("/en/own-games/check/", fields).json()
    assert answer["errors"]["point-0-formula"].startswith("These formulas could take too long")


def test_a_house_rules_copy_of_skyjo_in_a_group_keeps_skyjo_s_figures_and_boardgamegeek_id(client: Client):
    from marquoir.groups.services import group_create

    fields = form_fields(client.get("/en/own-games/new/", {"from": "skyjo"}).content.decode())
    assert client.post("/en/own-games/new/", {**fields, "do": "save"}).status_code == 303
    game = OwnGame.objects.get()
    group, key = group_create(name="Thursday", players=["Ada", "Ben"])
    client.post(f"/en/groups/{group.id}/join/", {"key": key})
    address = f"/en/groups/{group.id}/new/own.{game.id}/"
    setup = form_fields(client.get(address).content.decode(), None, form_class="setup")
    assert client.post(address, setup).status_code == 303
    match = Match.objects.get()
    body = json.dumps({"type": "round", "inputs": {"cards": [120, 10], "ended_by": 1}})
    headers = {"Authorization": f"Bearer {edit_token_for(match.id)}"}
    assert client.post(f"/api/v1/matches/{match.id}/actions", body, "application/json", headers=headers).json()["over"]
    section = client.get(f"/api/v1/groups/{group.id}/stats").json()["games"][0]
    assert section["name"] == "Skyjo (house rules)"
    ben = next(line for line in section["players"] if line["name"] == "Ben")  # he ended the round, not doubled
    assert [(figure["key"], figure["value"]) for figure in ben["figures"]] == [
        ("rounds_ended", 1),
        ("times_doubled", 0),
    ]
    exported = client.get(f"/api/v1/groups/{group.id}/export").json()
    assert [entry["bggId"] for entry in exported["games"]] == [204135]
