"""Catalog pages: thin views over the registered games and their content."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.content import GameContent, load_content
from marquoir.games.meta import CATEGORIES, GameMeta

from . import search
from .categories import category_label
from .games import games_by_category, get_game, keeps_score, reference_for


@dataclass(frozen=True, slots=True)
class GameCard:
    """A game as the catalog lists it: box facts and its content in the page's language."""

    meta: GameMeta
    content: GameContent
    content_language: str
    keeps_score: bool = False
    keys: tuple[str, ...] = ()
    """Its names folded, for the home page's search (``search.search_keys``)."""
    shown: bool = True
    """Whether the home page's filters keep it (the page hides it otherwise)."""


@dataclass(frozen=True, slots=True)
class Category:
    """A category of the catalog with its games."""

    key: str
    label: str
    games: tuple[GameCard, ...]

    @property
    def shown(self) -> bool:
        """Whether any of its games is kept by the filters (the page hides it otherwise)."""
        return any(card.shown for card in self.games)


logger = logging.getLogger(__name__)


def root(request: HttpRequest) -> HttpResponse:
    """The bare address: the language chosen before (Django's cookie), else the browser's."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        response = HttpResponseRedirect(reverse("catalog:home"))
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers and tools ask for whatever the page says: the site's
    icon (an SVG every current browser draws), for a year."""
    response = HttpResponsePermanentRedirect(static("favicon.svg"))
    patch_cache_control(response, public=True, max_age=365 * 24 * 3600)
    return response


def health(request: HttpRequest) -> JsonResponse:
    """For load balancers: the process answers and reaches its database (503 if not)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("health: the database does not answer")
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok"})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Our 403 when a form's CSRF check fails (settings.CSRF_FAILURE_VIEW), in the language of
    the address: what happened in plain words, what to do, and a way back to the page.

    The way back is the page the form was on when the browser said so (same site only), else
    the home page. Django logs the reason itself (django.security.csrf).
    """
    referer = request.headers.get("Referer", "")
    safe = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    back = referer if referer and safe else None
    return render(
        request,
        "403_csrf.html",
        {"back_url": back or reverse("catalog:home"), "back_to_page": back is not None},
        status=403,
    )


def home(request: HttpRequest) -> HttpResponse:
    """The catalog: games by category, each with its quick facts and pitch, and the form that
    finds one (``?q=&players=&minutes=&category=``, see ``search``).

    Every game is on the page, those the filters leave out hidden: the page's script filters
    the same cards as one types, and shows them again when the filters go.
    """
    grouped = games_by_category()
    choices = search.choices_for([meta for _key, games in grouped for meta in games], CATEGORIES)
    filters = search.read_filters(request.GET, choices)
    categories = [
        Category(key, category_label(key), tuple(_search_card(meta, filters) for meta in games))
        for key, games in grouped
    ]
    cards = [card for category in categories for card in category.games]
    counts = [_("No game matches.")] + [
        ngettext("%(count)s game", "%(count)s games", count) % {"count": count} for count in range(1, len(cards) + 1)
    ]
    shown = sum(card.shown for card in cards)
    context = {
        "categories": categories,
        "filters": filters,
        "choices": choices,
        "category_choices": [(key, category_label(key)) for key in choices.categories],
        "query_max_length": search.QUERY_MAX_LENGTH,
        "count_text": counts[shown],
        "counts_json": json.dumps(counts, ensure_ascii=False),
        "no_match": shown == 0,
        # For "Played on this device": the catalog's cards by game, to pick the device's from.
        "cards_by_slug": {card.meta.slug: card for card in cards},
    }
    return render(request, "catalog/home.html", context)


def _search_card(meta: GameMeta, filters: search.Filters) -> GameCard:
    """``meta``'s card on the home page: with its names for the search and whether ``filters`` keep it."""
    card = _card(meta)
    keys = search.search_keys(search.names_of(meta, _titles(meta.slug)))
    return replace(card, keeps_score=keeps_score(meta.slug), keys=keys, shown=search.matches(meta, keys, filters))


def _titles(slug: str) -> list[str]:
    """The game's title in each language it has pages in (a game found by either)."""
    titles = []
    for language, _name in settings.LANGUAGES:
        try:
            titles.append(load_content(slug, language).title)
        except FileNotFoundError:
            continue
    return titles


def game(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's page: its rules summed up, a quick reference and the box facts."""
    meta = get_game(slug)
    if meta is None:
        raise Http404(slug)
    card = _card(meta)
    reference = reference_for(slug)
    context = {
        "game": card,
        "meta": meta,
        "content": card.content,
        "category": Category(meta.category, category_label(meta.category), ()),
        "reference_template": reference[0] if reference else None,
        "reference": reference[1] if reference else None,
        "publisher": meta.publishers[0] if meta.publishers else "",
        "original_publishers": ", ".join(meta.publishers[1:]),
        "sprites_template": _sprites_template(slug),
        "keeps_score": keeps_score(slug),
    }
    return render(request, "catalog/game.html", context)


def _sprites_template(slug: str) -> str | None:
    """The game's own drawings (``<slug>/sprites.html``, SVG symbols its pictures use), if it has
    any: each game page carries its own, never another game's."""
    name = f"{slug}/sprites.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def _card(meta: GameMeta) -> GameCard:
    """``meta`` with its content in the active language, or in the default one if not written yet."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    try:
        return GameCard(meta, load_content(meta.slug, language), language)
    except FileNotFoundError:
        return GameCard(meta, load_content(meta.slug, settings.LANGUAGE_CODE), settings.LANGUAGE_CODE)
