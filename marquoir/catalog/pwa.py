"""The site as an installable app that reads offline: web app manifest, service worker, offline page.

- ``/manifest.webmanifest``: name, colours and icons for the phone's home screen.
- ``/sw.js``: the service worker (template ``catalog/sw.js``) with its addresses filled in here:
  what it stores on install (the app's own static files, the home pages, every registered
  game's rules page and the offline page, in every language) and the name of its cache, a
  hash of that list, of the static files' bytes and of the worker's own source, so that any
  change installs a fresh cache and the worker drops the old ones.
- ``/en/offline/``, ``/fr/hors-ligne/``: what the worker shows for a page it never stored
  when the network does not answer.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import get_finder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from .games import GAMES

# The colours of marquoir/static/css/site.css: the page's ground (--bg) for the splash screen,
# the header's (--surface) for the browser's bar, in light and in dark.
BACKGROUND_COLOUR = "#faf6ef"
THEME_COLOURS = {"light": "#ffffff", "dark": "#231f1b"}

CACHE_PREFIX = "marquoir-sw-"
"""Every cache the worker makes starts so; on activation it deletes those not its own, no others."""

STATIC_SUFFIXES = frozenset({".css", ".js", ".svg", ".png", ".webp", ".ico", ".woff2"})
"""The app's own static files the worker stores on install (not licences and such)."""

NEVER_PREFIXES = ("/api/", "/healthz")
"""Addresses the worker leaves alone: the API, its event streams, the health check."""

NEVER_SUFFIXES = ("/events",)
"""Server-sent event streams, wherever they live."""


@dataclass(frozen=True, slots=True)
class Icon:
    """One icon of the manifest: a static file, its size in pixels (None: scalable) and purpose."""

    path: str
    size: int | None
    mime: str
    purpose: str

    def as_manifest(self) -> dict[str, str]:
        return {
            "src": static(self.path),
            "sizes": f"{self.size}x{self.size}" if self.size else "any",
            "type": self.mime,
            "purpose": self.purpose,
        }


# Drawn by scripts/make_icons.py from favicon.svg and icons/maskable.svg.
ICONS: tuple[Icon, ...] = (
    Icon("icons/icon-192.png", 192, "image/png", "any"),
    Icon("icons/icon-512.png", 512, "image/png", "any"),
    Icon("icons/maskable-192.png", 192, "image/png", "maskable"),
    Icon("icons/maskable-512.png", 512, "image/png", "maskable"),
    Icon("favicon.svg", None, "image/svg+xml", "any"),
    Icon("icons/maskable.svg", None, "image/svg+xml", "maskable"),
)


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest; its description in the visitor's language (the rest has no words)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    data = {
        "id": "/",
        "name": "Marquoir",
        "short_name": "Marquoir",
        "description": gettext("Marquoir sums up the rules of your board games and keeps the score by them."),
        "lang": language,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOURS["light"],
        "categories": ["games", "entertainment"],
        "icons": [icon.as_manifest() for icon in ICONS],
    }
    response = JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the root so that its scope is the whole site."""
    config = worker_config() if settings.DEBUG else _worker_config_once()
    body = render_to_string("catalog/sw.js", {"config": json.dumps(config, indent=2, ensure_ascii=False)})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The browser asks again on every visit; a new worker byte for byte installs itself.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it never stored while the network does not answer."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    rules = [
        (meta.names.get(language) or meta.names[settings.LANGUAGE_CODE], reverse("catalog:game", args=[slug]))
        for slug, meta in GAMES.items()
    ]
    return render(request, "catalog/offline.html", {"rules": rules})


# --- what the worker knows ---------------------------------------------------------------


def worker_config() -> dict[str, Any]:
    """Everything the service worker needs to know, all addresses reversed for each language."""
    languages = [code for code, _name in settings.LANGUAGES]
    homes: dict[str, str] = {}
    offline_pages: dict[str, str] = {}
    pages: list[str] = []
    tables: set[str] = set()
    for code in languages:
        with translation.override(code):
            homes[code] = reverse("catalog:home")
            offline_pages[code] = reverse("pwa-offline")
            pages += [homes[code], *(reverse("catalog:game", args=[slug]) for slug in GAMES), offline_pages[code]]
            # The score keeper's pages (URL names only: the catalog does not import the tables).
            tables.add(reverse("tables:mine"))
            tables.add(reverse("tables:table", args=["-"]).removesuffix("-/"))
    files = static_files()
    precache = pages + [static(name) for name, _path in files]
    return {
        "cache": cache_name(precache, (path.read_bytes() for _name, path in files), worker_source()),
        "cachePrefix": CACHE_PREFIX,
        "precache": precache,
        "languages": languages,
        "defaultLanguage": settings.LANGUAGE_CODE,
        "homes": homes,
        "offline": offline_pages,
        "staticPrefix": settings.STATIC_URL,
        "tablePrefixes": sorted(tables),
        "neverPrefixes": [*NEVER_PREFIXES, reverse("pwa-sw")],
        "neverSuffixes": list(NEVER_SUFFIXES),
    }


@functools.cache
def _worker_config_once() -> dict[str, Any]:
    """Outside development the static files do not change under a running process: hashing
    them again on every visit (browsers ask for the worker each time) would cost as much as a page."""
    return worker_config()


def static_files() -> list[tuple[str, Path]]:
    """The app's own static files worth storing (name under /static/, file), sorted by name."""
    # The site's own files and those of its apps (a game's table screen brings its own),
    # not the third-party apps' (the API's documentation page is no use offline).
    own = Path(settings.BASE_DIR) / "marquoir"
    found: dict[str, Path] = {}
    for finder_path in (
        "django.contrib.staticfiles.finders.FileSystemFinder",
        "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    ):
        for name, storage in get_finder(finder_path).list(["*.map"]):
            path = Path(storage.path(name))
            if Path(name).suffix in STATIC_SUFFIXES and path.is_relative_to(own):
                found.setdefault(name.replace("\\", "/"), path)
    return sorted(found.items())


def worker_source() -> bytes:
    """The worker's template as written: a change to the code alone renews the cache too."""
    template: Any = get_template("catalog/sw.js")
    return str(template.template.source).encode()


def cache_name(precache: Sequence[str], contents: Iterable[bytes], source: bytes = b"") -> str:
    """A name that changes whenever the list stored, a stored static file or the worker changes."""
    digest = hashlib.sha256()
    digest.update(json.dumps(list(precache)).encode())
    for content in contents:
        digest.update(hashlib.sha256(content).digest())
    digest.update(hashlib.sha256(source).digest())
    return CACHE_PREFIX + digest.hexdigest()[:16]
