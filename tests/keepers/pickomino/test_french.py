"""The score keeper speaks French: pages under /fr/, the API with Accept-Language: fr, the turn log."""

from __future__ import annotations

import pytest
from django.test import Client

NBSP = "\u00a0"
NEW_MATCH_FR = "/fr/tables/nouvelle/pickomino/"
TAKE_WITHOUT_WORM = {"type": "take", "total": 27, "worm": False, "from": "grill"}


def _create_match_through_the_api(client: Client) -> tuple[str, str]:
    response = client.post(
        "/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]}, content_type="application/json"
    )
    assert response.status_code == 201
    body = response.json()
    return body["id"], body["edit_token"]


def _act(client: Client, match_id: str, token: str, action: dict[str, object], **headers: str):
    return client.post(
        f"/api/v1/matches/{match_id}/actions",
        action,
        content_type="application/json",
        headers={"authorization": f"Bearer {token}", **headers},
    )


@pytest.mark.django_db
def test_the_new_match_page_has_a_french_address_and_french_labels(client: Client):
    response = client.get(NEW_MATCH_FR)

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Nouvelle partie de Pickomino</h1>" in page
    assert "Joueur 1" in page
    assert "Joueur 7" in page
    assert "commence" in page
    assert "Partie plus courte" in page
    assert "Retourner un Pickomino même sans rien à rendre" in page
    assert "Commencer la partie" in page
    assert "New Pickomino match" not in page


@pytest.mark.django_db
def test_the_english_new_match_address_stays_english(client: Client):
    response = client.get("/en/tables/new/pickomino/")

    assert response.status_code == 200
    assert "New Pickomino match" in response.content.decode()


@pytest.mark.django_db
def test_creating_a_match_from_the_french_form_leads_to_a_french_table(client: Client):
    response = client.post(
        NEW_MATCH_FR, {"name_0": "Ada", "name_1": "Ben", "name_2": "Chloé", "first": "0"}, follow=True
    )

    assert response.status_code == 200
    final_address, _status = response.redirect_chain[-1]
    assert final_address.startswith("/fr/tables/")
    page = response.content.decode()
    assert "À Ada de jouer" in page
    assert "Noter le tour joué par Ada" in page
    assert "La brochette · 16 Pickominos face visible" in page
    assert "Pickomino 36, 4 vers" in page
    assert "Le lancer n’a montré aucune face nouvelle" in page  # the bust menu's first reason
    assert "Dés, lancer par lancer" in page
    assert "Un ver a été gardé" in page
    assert f"Rien pour l’instant{NBSP}: au premier joueur de lancer les dés." in page
    assert "Ada’s turn" not in page


@pytest.mark.django_db
def test_the_one_tap_bust_of_a_roll_with_no_new_face_names_its_reason_in_french(client: Client):
    match_id, token = _create_match_through_the_api(client)
    joined = client.post(f"/fr/tables/{match_id}/join/", {"key": token})
    assert joined.status_code == 303

    page = client.get(f"/fr/tables/{match_id}/?seq=0&pad=dice&dice=worm:2,5:3&roll=5:2,worm:1").content.decode()

    assert 'name="reason" value="no_new_face"' in page
    assert "Noter le tour raté (le lancer ne montre que des faces déjà gardées)" in page
    assert "the roll showed no new face" not in page


@pytest.mark.django_db
def test_the_french_table_offers_the_turn_pad_and_the_bust_menu_in_french(client: Client):
    response = client.post(NEW_MATCH_FR, {"name_0": "Ada", "name_1": "Ben", "first": "0"}, follow=True)
    page = response.content.decode()

    assert "Touchez le Pickomino que prend Ada." in page
    assert "Tour raté…" in page
    assert "Arrêt sans ver" in page
    assert "Aucun Pickomino à prendre avec ce total" in page
    assert "Rien n’est encore noté." in page
    for english in [
        "Tap the tile Ada takes.",
        "What can Ada take with a total?",
        ">Bust…<",
        "The roll showed no new face",
        "Stopped without a worm",
        "No tile to take with the total",
        "Nothing recorded yet.",
        ">Undo<",
    ]:
        assert english not in page, english


@pytest.mark.django_db
def test_the_french_form_refuses_a_lone_player_in_french(client: Client):
    response = client.post(NEW_MATCH_FR, {"name_0": "Ada", "first": "0"})

    assert response.status_code == 422
    assert "Pickomino se joue de 2 à 7 joueurs." in response.content.decode()


@pytest.mark.django_db
def test_a_refused_take_is_explained_in_french_to_a_french_client(client: Client):
    match_id, token = _create_match_through_the_api(client)

    response = _act(client, match_id, token, TAKE_WITHOUT_WORM, accept_language="fr-FR,fr;q=0.9")

    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "no_worm"
    assert error["message"] == (
        f"Aucun ver n’a été gardé, donc aucun Pickomino ne peut être pris{NBSP}: c’est un tour raté."
    )


@pytest.mark.django_db
def test_the_same_refusal_is_explained_in_english_without_accept_language(client: Client):
    match_id, token = _create_match_through_the_api(client)

    response = _act(client, match_id, token, TAKE_WITHOUT_WORM)

    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "no_worm"
    assert error["message"] == "No worm was kept, so no tile can be claimed: this turn is a bust."


@pytest.mark.django_db
def test_the_french_turn_log_tells_a_take_from_the_grill(client: Client):
    match_id, token = _create_match_through_the_api(client)
    taken = _act(client, match_id, token, {"type": "take", "total": 27, "worm": True, "from": "grill"})
    assert taken.status_code == 200

    page = client.get(f"/fr/tables/{match_id}/").content.decode()

    assert "Ada prend le 27 sur la brochette (+2 vers)." in page
    assert "À Ben de jouer" in page
    assert "Historique" in page
    assert "Pickomino 27, chez Ada" in page
    assert "took 27 from the grill" not in page


@pytest.mark.django_db
def test_the_french_turn_log_tells_a_steal_and_a_bust(client: Client):
    match_id, token = _create_match_through_the_api(client)
    actions: list[dict[str, object]] = [
        {"type": "take", "total": 27, "worm": True, "from": "grill"},
        {"type": "take", "total": 27, "worm": True, "from": 0},
        {"type": "bust"},
    ]
    for action in actions:
        assert _act(client, match_id, token, action).status_code == 200

    page = client.get(f"/fr/tables/{match_id}/").content.decode()

    assert "Ben vole le 27 à Ada, qui perd 2 vers." in page
    assert "Ada fait un tour raté." in page
    assert "Aucun Pickomino à rendre." in page
