"""Values every page template needs: the site's name and the same page in each language."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils import translation


@dataclass(frozen=True, slots=True)
class LanguageLink:
    """The current page in one language, for the language switch and the hreflang alternates."""

    code: str
    name: str
    url: str
    absolute_url: str
    current: bool


def site(request: HttpRequest) -> dict[str, object]:
    """The site's name, and the current page in every language (the default one first)."""
    links = language_links(request)
    default = next((link for link in links if link.code == settings.LANGUAGE_CODE), None)
    return {
        "site_name": "Marquoir",
        "language_links": links,
        "default_language_link": default,
    }


MAX_LINKED_ADDRESS = 300
"""The longest address the language links keep whole; past it, only its path."""


def language_links(request: HttpRequest) -> list[LanguageLink]:
    """The page at ``request``'s address in each language, each named in its own language.

    ``translate_url`` maps translated paths too (/en/games/… ↔ /fr/jeux/…) and keeps the
    query string; an address it cannot resolve stays as it is.
    """
    current = translation.get_language()
    path = request.get_full_path()
    if len(path) > MAX_LINKED_ADDRESS:
        # A huge query string (a pasted search) is not copied into every language link.
        path = request.path
    links = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(path, code)
        links.append(
            LanguageLink(
                code=code,
                name=translation.get_language_info(code)["name_local"].capitalize(),
                url=url,
                absolute_url=request.build_absolute_uri(url),
                current=code == current,
            )
        )
    return links
