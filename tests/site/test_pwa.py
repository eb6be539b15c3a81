"""The installable site: the manifest and its icons, the service worker's headers and what it
stores, the offline page in both languages, and the keep-the-screen-awake switch as served."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from marquoir.catalog import pwa
from marquoir.catalog.games import GAMES
from tests.catalog.pages import Page

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def static_file(url: str) -> Path:
    """The file behind a /static/ address."""
    assert url.startswith(settings.STATIC_URL), url
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert isinstance(found, str), f"no static file for {url}"
    return Path(found)


def png_size(path: Path) -> tuple[int, int]:
    """Width and height as the PNG's header (IHDR, right after the signature) states them."""
    header = path.read_bytes()[:24]
    assert header[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    assert header[12:16] == b"IHDR"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def site_colours() -> dict[str, str]:
    """The light and dark custom properties of site.css, by name."""
    css = static_file("/static/css/site.css").read_text(encoding="utf-8")
    blocks = re.findall(r":root\s*\{([^}]*)\}", css)
    css_dark = css[css.index("prefers-color-scheme: dark") :]
    dark_block = re.findall(r":root\s*\{([^}]*)\}", css_dark)[0]
    light = dict(re.findall(r"(--[a-z-]+):\s*(#[0-9a-f]{6})", blocks[0]))
    dark = dict(re.findall(r"(--[a-z-]+):\s*(#[0-9a-f]{6})", dark_block))
    return {**{f"light{k}": v for k, v in light.items()}, **{f"dark{k}": v for k, v in dark.items()}}


def worker_config(client: Client) -> dict[str, Any]:
    """The CONFIG object the served /sw.js carries."""
    body = client.get("/sw.js").content.decode()
    found = re.search(r"^const CONFIG = (\{.*?\n\});$", body, re.DOTALL | re.MULTILINE)
    assert found, "no CONFIG in /sw.js"
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def answer_status(client: Client, url: str) -> int:
    """The status of GET ``url``, its body read and the response closed (static files are streamed)."""
    response = client.get(url)
    try:
        response.getvalue()
        return response.status_code
    finally:
        response.close()


def game_pages() -> list[str]:
    return [url for slug in GAMES for url in (f"/en/games/{slug}/", f"/fr/jeux/{slug}/")]


# --- the manifest ---------------------------------------------------------------------------


def test_the_manifest_is_served_as_a_web_app_manifest(client: Client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"


def test_the_manifest_names_the_app_and_opens_it_standalone_at_the_root(client: Client):
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["name"] == "Marquoir"
    assert manifest["short_name"] == "Marquoir"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")


def test_the_manifest_s_colours_are_the_site_s(client: Client):
    manifest = client.get("/manifest.webmanifest").json()
    colours = site_colours()
    assert manifest["background_color"] == colours["light--bg"]
    assert manifest["theme_color"] == colours["light--surface"]


@pytest.mark.parametrize(("accept", "words"), [("fr-FR", "résume les règles"), ("en-GB", "sums up the rules")])
def test_the_manifest_describes_the_app_in_the_visitor_s_language(client: Client, accept: str, words: str):
    response = client.get("/manifest.webmanifest", headers={"accept-language": accept})
    assert words in response.json()["description"]
    assert response.json()["lang"] == accept[:2]
    assert "Accept-Language" in response["Vary"]


def test_the_manifest_offers_png_icons_of_192_and_512_for_any_use_and_for_masks(client: Client):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    pngs = {(icon["sizes"], icon["purpose"]) for icon in icons if icon["type"] == "image/png"}
    assert pngs == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")}
    assert {"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"} in icons


def test_every_png_icon_exists_and_is_the_size_the_manifest_claims(client: Client):
    icons = [icon for icon in client.get("/manifest.webmanifest").json()["icons"] if icon["type"] == "image/png"]
    for icon in icons:
        width, height = png_size(static_file(icon["src"]))
        assert f"{width}x{height}" == icon["sizes"], icon["src"]


def test_every_svg_icon_exists_and_is_an_svg(client: Client):
    icons = [icon for icon in client.get("/manifest.webmanifest").json()["icons"] if icon["type"] == "image/svg+xml"]
    assert icons
    for icon in icons:
        assert static_file(icon["src"]).read_text(encoding="utf-8").startswith("<svg"), icon["src"]


@pytest.mark.parametrize("url", ["/en/", "/fr/jeux/pickomino/"])
def test_every_page_links_the_manifest_the_theme_colours_and_the_home_screen_icon(client: Client, url: str):
    page = Page(client.get(url).content.decode())
    head = page.within(page.one("head"))
    assert head.one("link", rel="manifest").attrs["href"] == "/manifest.webmanifest"
    colours = site_colours()
    themes = {meta.attrs["media"]: meta.attrs["content"] for meta in head.all("meta", name="theme-color")}
    assert themes == {
        "(prefers-color-scheme: light)": colours["light--surface"],
        "(prefers-color-scheme: dark)": colours["dark--surface"],
    }
    touch_icon = head.one("link", rel="apple-touch-icon").attrs["href"]
    assert png_size(static_file(touch_icon)) == (180, 180)


# --- the service worker ---------------------------------------------------------------------


def test_the_service_worker_is_served_as_javascript_for_the_whole_site_and_never_from_a_cache(client: Client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == "text/javascript"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"


def test_pages_load_the_registration_script_deferred_with_the_worker_s_address(client: Client):
    page = Page(client.get("/en/").content.decode())
    script = page.within(page.one("head")).one("script", src="/static/js/pwa.js")
    assert "defer" in script.attrs
    assert script.attrs["data-worker"] == "/sw.js"
    assert static_file(script.attrs["src"]).is_file()


@pytest.mark.django_db
def test_every_address_the_worker_stores_on_install_answers_200(client: Client):
    # cache.addAll fails the whole install if a single one does not.
    precache = worker_config(client)["precache"]
    answers = {url: answer_status(client, url) for url in precache}
    assert {url: status for url, status in answers.items() if status != 200} == {}


def test_the_worker_stores_the_homes_every_rules_page_and_the_offline_pages_in_both_languages(client: Client):
    precache = worker_config(client)["precache"]
    assert {"/en/", "/fr/", "/en/offline/", "/fr/hors-ligne/", *game_pages()} <= set(precache)
    assert "/en/games/pickomino/" in precache
    assert "/fr/jeux/pickomino/" in precache


def test_the_worker_stores_the_app_s_static_files(client: Client):
    precache = worker_config(client)["precache"]
    for url in [
        "/static/css/site.css",
        "/static/css/table.css",
        "/static/css/awake.css",
        "/static/js/pwa.js",
        "/static/js/awake.js",
        "/static/js/live.js",
        "/static/vendor/htmx-2.0.11.min.js",
        "/static/favicon.svg",
        "/static/icons/icon-192.png",
        "/static/icons/maskable-512.png",
    ]:
        assert url in precache, url
    assert "/static/vendor/htmx-LICENSE.txt" not in precache


def test_the_worker_stores_nothing_of_the_api_the_streams_the_health_check_or_a_table(client: Client):
    config = worker_config(client)
    for url in config["precache"]:
        assert not url.startswith("/api/"), url
        assert not url.rstrip("/").endswith("/events"), url
        assert url != "/healthz"
        assert not any(url.startswith(prefix) for prefix in config["tablePrefixes"]), url


def test_the_worker_leaves_the_api_its_event_streams_and_the_health_check_alone(client: Client):
    config = worker_config(client)
    assert {"/api/", "/healthz"} <= set(config["neverPrefixes"])
    assert "/events" in config["neverSuffixes"]
    assert config["tablePrefixes"] == ["/en/tables/", "/fr/tables/"]


def test_the_worker_only_handles_get_same_origin_and_200_answers():
    source = pwa.worker_source().decode()
    assert 'if (request.method !== "GET") return;' in source
    assert "url.origin !== self.location.origin" in source
    assert "response.status === 200" in source
    assert 'response.type === "basic"' in source


def test_the_worker_s_cache_is_named_after_what_it_stores(client: Client):
    # A running process works the name out once (the static files do not change under it);
    # start from a fresh one, as a restarted server would after a deployment.
    pwa._worker_config_once.cache_clear()
    config = worker_config(client)
    files = pwa.static_files()
    expected = pwa.cache_name(config["precache"], (path.read_bytes() for _name, path in files), pwa.worker_source())
    assert config["cache"] == expected
    assert config["cache"].startswith(config["cachePrefix"])


def test_the_cache_name_changes_when_a_static_file_the_list_or_the_worker_changes():
    urls = ["/en/", "/static/css/site.css"]
    base = pwa.cache_name(urls, [b"body { color: black }"], b"worker")
    assert pwa.cache_name(urls, [b"body { color: black }"], b"worker") == base
    assert pwa.cache_name(urls, [b"body { color: red }"], b"worker") != base
    assert pwa.cache_name([*urls, "/fr/"], [b"body { color: black }"], b"worker") != base
    assert pwa.cache_name(urls, [b"body { color: black }"], b"worker 2") != base


def test_the_service_worker_and_the_manifest_keep_the_content_security_policy(client: Client):
    for url in ("/sw.js", "/manifest.webmanifest", "/en/offline/"):
        policy = client.get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy, url


# --- the offline page -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "language", "title", "rules"),
    [
        ("/en/offline/", "en", "You are offline", "The rules of Pickomino"),
        ("/fr/hors-ligne/", "fr", "Vous êtes hors ligne", "Les règles de Pickomino"),
    ],
)
def test_the_offline_page_speaks_its_language_and_leads_to_the_pages_kept(
    client: Client, url: str, language: str, title: str, rules: str
):
    page = Page(client.get(url).content.decode())
    assert page.one("html").attrs["lang"] == language
    assert page.one("h1").text == title
    links = {link.text: link.attrs["href"] for link in page.within(page.one("main")).all("a")}
    assert links[rules] == {"en": "/en/games/pickomino/", "fr": "/fr/jeux/pickomino/"}[language]


def test_the_offline_page_switches_language_to_its_own_address_in_the_other(client: Client):
    page = Page(client.get("/fr/hors-ligne/").content.decode())
    switch = page.within(page.one("nav", cls="lang-switch"))
    assert {link.attrs["hreflang"]: link.attrs["href"] for link in switch.all("a")} == {
        "en": "/en/offline/",
        "fr": "/fr/hors-ligne/",
    }


@pytest.mark.parametrize("url", ["/en/hors-ligne/", "/fr/offline/"])
def test_the_offline_page_in_the_other_language_s_path_is_not_found(client: Client, url: str):
    assert client.get(url).status_code == 404


# --- the keep-the-screen-awake switch -------------------------------------------------------


def awake_fragment(language: str) -> Page:
    with translation.override(language):
        return Page(render_to_string("tables/_awake.html"))


def test_the_awake_switch_is_hidden_until_its_script_runs():
    page = awake_fragment("en")
    box = page.one("div", cls="awake")
    assert "hidden" in box.attrs
    script = page.one("script")
    assert script.attrs["src"] == "/static/js/awake.js"
    assert "defer" in script.attrs
    assert static_file(script.attrs["src"]).is_file()
    assert static_file(page.one("link", rel="stylesheet").attrs["href"]).name == "awake.css"


@pytest.mark.parametrize(("language", "label"), [("en", "Keep the screen awake"), ("fr", "Garder l’écran allumé")])
def test_the_awake_switch_is_a_labelled_checkbox_with_a_polite_status_line(language: str, label: str):
    page = awake_fragment(language)
    box = page.within(page.one("div", cls="awake"))
    switch = box.one("label")
    assert switch.text == label
    assert box.one("input", cls="awake__input").attrs["type"] == "checkbox"
    assert box.one("input").position > switch.position
    assert box.one("input").position < switch.end
    status = box.one("p", role="status")
    assert status.attrs["aria-live"] == "polite"


def test_the_awake_sentences_are_french_under_fr():
    box = awake_fragment("fr").one("div", cls="awake")
    sentences = {
        name.removeprefix("data-say-"): value for name, value in box.attrs.items() if name.startswith("data-say")
    }
    assert set(sentences) == {"on", "off", "refused", "unsupported", "insecure"}
    assert sentences["on"] == "L’écran reste allumé tant que cette page est ouverte."
    assert "https://" in sentences["insecure"]
    assert "localhost" in sentences["insecure"]
    assert "économiseur de batterie" in sentences["refused"]
