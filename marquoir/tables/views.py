"""Score-keeping pages: thin views over the services and selectors.

Every page works without JavaScript (forms and redirects); with htmx the same views answer
with the table partial only, so a tap updates the screen without a reload.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from . import bgstats, cards, services
from .capabilities import device_can_edit, device_link, device_matches, digest, edit_token_matches
from .device import device_secret, ensure_device_secret, remember_device
from .forms import NewMatchForm, rematch_initial
from .keepers import all_keepers, keeper_for
from .messages import message_for, status_for
from .models import Match
from .outcome import Outcome, ServiceError
from .ratelimit import allow_action, allow_match_creation
from .screen import CORRECTION_ATTRIBUTE, table_parts, table_shell
from .selectors import MatchView, find_match, keeper_of, match_view, names_offered
from .sharing import keep_score_link, watch_link


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


def _match_or_404(match_id: str) -> Match:
    match = find_match(match_id)
    if match is None:
        raise Http404(_("There is no match at this address."))
    return match


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest, game: str) -> HttpResponse:
    """Set up a match: names in seating order, who starts, the table options."""
    keeper = keeper_for(game)
    if keeper is None:
        raise Http404(_("Marquoir does not keep score for this game."))
    secret = device_secret(request)
    mine = device_matches(device_secret=secret)
    page = {"game": game, "keeper": keeper, "known_names": names_offered(mine)}
    if request.method == "GET":
        previous = find_match(request.GET.get("from"))
        initial = rematch_initial(keeper, previous) if previous is not None else {}
        return render(request, "tables/new.html", {"form": NewMatchForm(keeper, initial=initial), **page})
    form = NewMatchForm(keeper, request.POST)
    if form.is_valid():
        cleaned = form.cleaned_data
        try:
            setup = services.check_setup(keeper, cleaned["players"], cleaned["first_index"], cleaned["options"])
            match = services.match_start(
                setup=setup,
                assistant=cleaned["assistant"],
                device_secret=ensure_device_secret(request),
                spend=lambda: allow_match_creation(
                    request, device=digest(secret) if secret else None, new_device=not mine
                ),
            )
        except ServiceError as refused:  # the game's own checks of its options, said like the others
            form.add_error(None, message_for(refused.code, refused.reason, refused.params, (), keeper.wordings))
            return _setup_refused(request, {"form": form, **page}, refused)
        return remember_device(request, HttpResponseRedirect(_table_address(match), status=303))
    return render(request, "tables/new.html", {"form": form, **page}, status=422)


def _setup_refused(request: HttpRequest, context: Mapping[str, Any], refused: ServiceError) -> HttpResponse:
    """The set-up page again, its form saying why no match was started: 429 with
    ``Retry-After`` when the creation budget is spent, 422 otherwise."""
    if refused.code == "rate_limited":
        response = render(request, "tables/new.html", context, status=429)
        response["Retry-After"] = str(refused.params["retry_after"])
        return response
    return render(request, "tables/new.html", context, status=422)


def _table_address(match: Match) -> str:
    return reverse("tables:table", args=[match.id])


def _render_table(
    request: HtmxHttpRequest,
    view: MatchView,
    query: Any,
    *,
    can_edit: bool,
    extra: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The game's table screen, or only its partial for htmx, with the entry in ``query`` if
    it still belongs to the table as it is."""
    keeper = keeper_of(view.row)
    # The core's part of the screen (the log, Undo, the forms' keys, the entry corrected, if
    # the address or a refused correction names one), then the game's.
    if request.method == "POST":  # a refused correction, on the table as it still is
        asked = request.POST.get("correct") if request.POST.get("expected_seq") == str(view.row.seq) else None
    else:
        asked = query.get("correct")
    shell = table_shell(view, keeper, can_edit=can_edit, correct=asked)
    setattr(request, CORRECTION_ATTRIBUTE, shell.correcting)
    context = shell.as_context()
    context.update(table_parts(request, view, can_edit=can_edit))
    context.update(keeper.table_context(request, view, query, can_edit=can_edit))
    context["result_share"] = result_share(request, view)
    context.update(extra or {})
    if request.htmx:
        # Only the #table root: the shell (tables/table.html) extends the bare fragment then.
        context.update(shell_base="tables/_fragment.html", fragment=True)
        response = render(request, keeper.table_template, context, status=status)
    else:
        context["watch_link"] = watch_link(request, view.row)
        if can_edit:
            context["keep_score_link"] = keep_score_link(request, view.row)
        response = render(request, keeper.table_template, context, status=status)
    for name, (value, max_age) in context.get("cookies", {}).items():
        response.set_cookie(
            name, value, max_age=max_age, samesite="Lax", httponly=True, secure=settings.SESSION_COOKIE_SECURE
        )
    # The page holds this device's right to keep score (the keep-score link): shared caches
    # keep none of it.
    patch_cache_control(response, private=True)
    if context.get("entry_dropped"):
        # Never leave a stale entry in the address: a reload would bring it back.
        response["HX-Replace-Url"] = _table_address(view.row)
    return response


def result_share(request: HttpRequest, view: MatchView) -> dict[str, str] | None:
    """A finished match's ways out: its BG Stats push link, its card, a sentence to share."""
    if not view.row.over:
        return None
    keeper = keeper_of(view.row)
    summary = keeper.summarise(view)
    game_name = summary.title or str(keeper.name())
    link = bgstats.push_link(
        match_id=view.row.id,
        game_key=keeper.key,
        game_name=game_name,
        bgg_id=keeper.bgg_id,
        players=view.players,
        summary=summary,
        first=view.row.first,
        started_at=view.row.created_at,
        ended_at=view.row.updated_at,
    )
    return {
        "bgstats_link": link,
        "card_url": reverse("tables:card", args=[view.row.id]),
        "title": game_name,
        "text": f"{game_name}: {cards.verdict(summary, view.players)}",
        "url": watch_link(request, view.row).url,
        "file_name": slugify(game_name) or "marquoir",
    }


@require_GET
def card(request: HttpRequest, match_id: str) -> HttpResponse:
    """The match's result card, an SVG image (the id is the right to see it)."""
    match = _match_or_404(match_id)
    view = match_view(match)
    keeper = keeper_of(match)
    summary = keeper.summarise(view)
    svg = cards.result_card(
        game_name=summary.title or str(keeper.name()),
        players=view.players,
        summary=summary,
        ended_at=match.updated_at,
        site_name="Marquoir",
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    patch_cache_control(response, private=True, max_age=0)
    return response


@require_GET
def table(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """The table screen: the band, the turn pad, every player, the log."""
    match = _match_or_404(match_id)
    can_edit = device_can_edit(device_secret=device_secret(request), match=match)
    return _render_table(request, match_view(match), request.GET, can_edit=can_edit)


@require_GET
def big_screen(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """The match on a big screen (a TV, a tablet in the middle of the table): every score,
    whose turn, the last action, in large type, live; no control at all (the id is the
    right to see it, as the watch link's)."""
    match = _match_or_404(match_id)
    view = match_view(match)
    keeper = keeper_of(match)
    context = table_shell(view, keeper, can_edit=False).as_context()
    game = keeper.table_context(request, view, {}, can_edit=False)
    context.update(
        players=game.get("players", ()),
        status_text=game.get("status_text"),
        current_name=game.get("current_name", ""),
        game_name=keeper.name(),
        table_url=reverse("tables:table", args=[match.id]),
    )
    if request.htmx:
        context.update(shell_base="tables/_fragment.html", fragment=True)
    response = render(request, "tables/screen.html", context)
    patch_cache_control(response, private=True)
    return response


@require_POST
def act(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Record a take, a bust or an undo from the table screen (the same write path as the API)."""
    outcome = services.match_act(
        match_id=match_id,
        form=request.POST,
        by_device=True,
        device_secret=device_secret(request),
        # Counted in memory once the device's right is known, as on the API (a flood costs
        # no query).
        spend=lambda: allow_action(request, match_id),
        # A page's form key used before for another action (a page kept on the phone): the
        # API answers a key with its first answer; a person is told the page is old.
        one_action_per_key=True,
    )
    if outcome.view is None:  # no such match
        raise Http404(_("There is no match at this address."))
    error = outcome.error
    if error is None and not request.htmx:
        return HttpResponseRedirect(_table_address(outcome.view.row), status=303)
    return _render_outcome(request, outcome)


def _render_outcome(request: HtmxHttpRequest, outcome: Outcome) -> HttpResponse:
    """The table after an action: recorded, or the refusal said in place (htmx swaps these
    refusals in, see the htmx-config meta), and the address bare of whatever entry it
    carried: that turn is over, recorded or refused."""
    view, error, keeper = outcome.view, outcome.error, outcome.keeper
    assert view is not None  # noqa: S101 (a match was found: it has a view and a game)
    assert keeper is not None  # noqa: S101
    extra: dict[str, Any] = {
        "just_recorded": error is None,
        "outcome": outcome,
        "refused_fields": outcome.refused_fields,
    }
    if error is not None:
        extra["error_message"] = message_for(error.code, error.reason, error.params, view.players, keeper.wordings)
        extra["error_code"] = error.code
    status = status_for(error.code, keeper) if error is not None else 200
    can_edit = error is None or error.code != "unauthorized"
    response = _render_table(request, view, {}, can_edit=can_edit, extra=extra, status=status)
    response["HX-Replace-Url"] = _table_address(view.row)
    if outcome.retry_after is not None:
        response["Retry-After"] = str(outcome.retry_after)
    return response


@require_POST
def assistant(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Switch the turn assistant on or off; only a device keeping score may."""
    match = _match_or_404(match_id)
    if not device_can_edit(device_secret=device_secret(request), match=match):
        extra = {"error_message": message_for("unauthorized", "unauthorized", {})}
        return _render_table(request, match_view(match), {}, can_edit=False, extra=extra, status=401)
    seq_before = match.seq
    match = services.match_set_assistant(match_id=match.id, on=request.POST.get("on") == "1")
    if request.htmx:
        # Redraw the pad as it was on screen (the entry so far is in its address).
        try:
            query = QueryDict(urlsplit(request.htmx.current_url or "").query)
        except ValueError:  # a malformed header (an IPv6 address left open): no entry then
            query = QueryDict()
        return _render_table(request, match_view(match), query if match.seq == seq_before else {}, can_edit=True)
    return HttpResponseRedirect(_table_address(match), status=303)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, match_id: str) -> HttpResponse:
    """Keep score on this device too: the edit token, posted (never in an address), grants it.

    The "keep score too" link carries the token in its fragment; join.js posts it. Without
    JavaScript the page asks for the token.
    """
    match = _match_or_404(match_id)
    context: dict[str, Any] = {"match": match}
    if request.method == "POST":
        if edit_token_matches(match, request.POST.get("key", "").strip()):
            device_link(device_secret=ensure_device_secret(request), match=match, can_edit=True)
            response = HttpResponseRedirect(reverse("tables:table", args=[match.id]), status=303)
            return remember_device(request, response)
        context["error_message"] = message_for("unauthorized", "unauthorized", {})
        return render(request, "tables/join.html", context, status=401)
    return render(request, "tables/join.html", context)


@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    """This device's matches, in progress and finished (with who won)."""
    from .recent import with_winners

    rows = device_matches(device_secret=device_secret(request))
    # Each match with its game's name: four games may sit in one list.
    in_progress = [(m, edit, keeper_of(m).name()) for m, edit in rows if not m.over]
    finished = [
        (m, edit, result, keeper_of(m).name()) for m, edit, result in with_winners((m, e) for m, e in rows if m.over)
    ]
    games = [(keeper.key, keeper.new_match_title()) for keeper in all_keepers().values()]
    return render(request, "tables/mine.html", {"in_progress": in_progress, "finished": finished, "games": games})
