"""A form refused by the CSRF check gets the site's own 403 page, in the language of the address."""

from __future__ import annotations

import pytest
from django.test import Client

from marquoir.tables.models import Match

pytestmark = pytest.mark.django_db

PLAYERS = {"name_0": "Ada", "name_1": "Ben", "first": "0"}


@pytest.mark.parametrize(
    ("path", "language", "title", "cause", "what_to_do"),
    [
        (
            "/en/tables/new/pickomino/",
            "en",
            "Nothing was saved",
            "the page was open for a long time, or when your browser blocks cookies",
            "Reload the page, then try again.",
        ),
        (
            "/fr/tables/nouvelle/pickomino/",
            "fr",
            "Rien n’a été enregistré",
            "la page est restée ouverte longtemps, ou quand votre navigateur bloque les cookies",
            "Rechargez la page, puis réessayez.",
        ),
    ],
)
def test_a_form_without_its_token_is_refused_in_the_language_of_the_address(path, language, title, cause, what_to_do):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(path, PLAYERS)
    assert response.status_code == 403
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert response["Content-Language"] == language
    assert f"<h1>{title}</h1>" in html
    assert cause in html
    assert what_to_do in html
    assert "CSRF" not in html  # plain words, not Django's jargon
    assert not Match.objects.exists()


def test_the_way_back_is_the_page_of_the_form():
    strict = Client(enforce_csrf_checks=True)
    form = "http://testserver/en/tables/new/pickomino/"
    html = strict.post("/en/tables/new/pickomino/", PLAYERS, headers={"referer": form}).content.decode()
    assert f'href="{form}">Back to the page</a>' in html


def test_without_a_page_of_ours_to_go_back_to_the_way_back_is_home():
    strict = Client(enforce_csrf_checks=True)
    html = strict.post(
        "/fr/tables/nouvelle/pickomino/", PLAYERS, headers={"referer": "https://elsewhere.example/"}
    ).content.decode()
    assert 'href="/fr/">Retour aux jeux</a>' in html
    assert "elsewhere.example" not in html
