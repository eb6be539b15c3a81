"""The site answers: the bare root follows the chosen or the browser's language, the home page in both."""

import pytest
from django.conf import settings
from django.test import Client


def test_the_root_sends_a_french_browser_to_the_french_home(client: Client):
    response = client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert response.status_code == 302
    assert response["Location"] == "/fr/"


def test_the_root_sends_other_browsers_to_the_english_home(client: Client):
    response = client.get("/", headers={"accept-language": "de-DE"})
    assert response["Location"] == "/en/"


def test_the_home_page_speaks_french_under_fr(client: Client):
    response = client.get("/fr/")
    assert response.status_code == 200
    assert '<html lang="fr">' in response.content.decode()
    assert "Les jeux à table" in response.content.decode()


def test_the_home_page_speaks_english_under_en(client: Client):
    response = client.get("/en/")
    assert '<html lang="en">' in response.content.decode()
    assert "Games at the table" in response.content.decode()


def test_every_page_carries_a_strict_content_security_policy(client: Client):
    policy = client.get("/en/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


@pytest.mark.django_db
def test_the_health_endpoint_answers_ok_when_the_database_answers(client: Client):
    response = client.get("/healthz")
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_the_health_endpoint_answers_503_when_the_database_does_not(client: Client, monkeypatch):
    from django.db import DatabaseError, connection

    def refuse(*args, **kwargs):
        raise DatabaseError("the server is gone")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unreachable"}


def test_the_root_prefers_the_language_chosen_before_over_the_browser_s(client: Client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.get("/", headers={"accept-language": "en-GB,en;q=0.9"})
    assert response["Location"] == "/fr/"


def test_the_root_ignores_a_language_cookie_it_does_not_serve(client: Client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.get("/", headers={"accept-language": "fr-FR"})
    assert response["Location"] == "/fr/"


def test_the_root_redirect_varies_with_language_and_cookie_for_caches(client: Client):
    vary = client.get("/")["Vary"]
    assert "Accept-Language" in vary
    assert "Cookie" in vary


@pytest.mark.django_db
def test_a_missing_page_says_so_in_the_readers_language(client: Client):
    response = client.get("/fr/tables/not-a-match/")
    assert response.status_code == 404
    assert "Page introuvable" in response.content.decode()
    assert '<html lang="fr">' in response.content.decode()


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_site_s_icon_for_a_year(client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"
    assert "max-age=31536000" in response["Cache-Control"]
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)
    icon.close()
