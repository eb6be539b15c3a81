"""Score-keeping pages: thin views over the services and selectors.

Every page works without JavaScript (forms and redirects); with htmx the same views answer
with the table partial only, so a tap updates the screen without a reload.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from marquoir.rules import RuleError

from . import bgstats, cards, services
from .actions import form_body, parse_action
from .device import device_secret, ensure_device_secret, remember_device
from .forms import NewMatchForm
from .keepers import all_keepers, keeper_for
from .messages import message_for, status_for
from .models import Match
from .ratelimit import allow_action, allow_match_creation
from .selectors import MatchView, find_match, keeper_of, match_view, names_used_on
from .services import ServiceError
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
    initial: dict[str, Any] = {}
    previous = find_match(request.GET.get("from")) if request.method == "GET" else None
    if previous is not None:  # a rematch: the same table again
        initial = {f"name_{seat}": name for seat, name in enumerate(previous.players)}
        initial.update(first=previous.first, assistant=previous.assistant, **previous.options)
    return new_match_page(request, game, initial=initial)


def new_match_page(
    request: HttpRequest,
    game: str,
    *,
    initial: Mapping[str, Any] | None = None,
    offered_names: Sequence[str] = (),
    created: Callable[[Match], None] | None = None,
    context: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """The set-up page of ``game``, and the match it starts. Other pages start matches through
    it too (a group's): ``initial`` fills the form, ``offered_names`` are offered as people
    type, ``created`` is told of the new match in the transaction that makes it (raising
    ``ValidationError`` refuses the match, said on the form), ``context`` goes to the
    template (``setup_intro``: a line under the heading)."""
    keeper = keeper_for(game)
    if keeper is None:
        raise Http404(_("Marquoir does not keep score for this game."))
    secret = device_secret(request)
    mine = services.device_matches(device_secret=secret)
    used_here = names_used_on([m for m, _edit in mine])
    known_names = list(dict.fromkeys([*offered_names, *used_here]))
    page = {"game": game, "keeper": keeper, "known_names": known_names, **(context or {})}
    if request.method == "POST":
        form = NewMatchForm(keeper, request.POST)
        # A device has its own allowance (and its address one for all its devices). A
        # request without a device cookie is counted by its address with a device's
        # allowance, as on the API: before, each was a new device with a new allowance
        # (issue 18). A cookie no match knows yet (a phone's first match, or one made up
        # for the occasion) counts in that address-wide allowance too.
        allowance = None
        if form.is_valid():
            try:
                services.check_new_match(
                    game=game,
                    players=form.cleaned_data["players"],
                    first=form.cleaned_data["first_index"],
                    options=form.cleaned_data["options"],
                )
            except ServiceError as refused:
                form.add_error(None, message_for(refused.code, refused.reason, refused.params, (), keeper.wordings))
            else:
                allowance = allow_match_creation(
                    request, device=services.digest(secret) if secret else None, new_device=not mine
                )
        if allowance is not None and not allowance.allowed:
            form.add_error(None, message_for("rate_limited", "rate_limited", {"minutes": allowance.minutes}))
            response = render(request, "tables/new.html", {"form": form, **page}, status=429)
            response["Retry-After"] = str(allowance.retry_after)
            return remember_device(request, response)
        if form.is_valid():
            try:
                # The page that started it (a group's) is told within the same transaction:
                # if it refuses the match (ValidationError), no match is left behind.
                with transaction.atomic():
                    match, _token = services.match_create(
                        game=game,
                        players=form.cleaned_data["players"],
                        first=form.cleaned_data["first_index"],
                        options=form.cleaned_data["options"],
                        assistant=form.cleaned_data["assistant"],
                    )
                    if created is not None:
                        created(match)
            except ServiceError as refused:
                # The game's own checks of its options, said on the form like the others.
                form.add_error(None, message_for(refused.code, refused.reason, refused.params, (), keeper.wordings))
            except ValidationError as refused:
                form.add_error(None, refused)
            else:
                services.device_link(device_secret=ensure_device_secret(request), match=match, can_edit=True)
                response = HttpResponseRedirect(reverse("tables:table", args=[match.id]), status=303)
                return remember_device(request, response)
    else:
        form = NewMatchForm(keeper, initial=dict(initial or {}))
    status = 422 if form.errors else 200
    return render(request, "tables/new.html", {"form": form, **page}, status=status)


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
    context = keeper.table_context(request, view, query, can_edit=can_edit)
    context["result_share"] = result_share(request, view)
    context.update(extra or {})
    if request.htmx:
        response = render(request, f"{keeper.table_template}#table", context, status=status)
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
    can_edit = services.device_can_edit(device_secret=device_secret(request), match=match)
    return _render_table(request, match_view(match), request.GET, can_edit=can_edit)


@require_POST
def act(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Record a take, a bust or an undo from the table screen (the same write path as the API)."""
    match = _match_or_404(match_id)
    can_edit = services.device_can_edit(device_secret=device_secret(request), match=match)
    error: ServiceError | None = None
    view: MatchView | None = None
    keeper = keeper_of(match)
    retry_after: int | None = None
    try:
        if not can_edit:
            raise ServiceError("unauthorized")
        # Counted in memory before any work, as on the API (a flood costs no query).
        allowance = allow_action(request, match.id)
        if not allowance.allowed:
            retry_after = allowance.retry_after
            raise ServiceError("rate_limited", "too_many_actions", seconds=allowance.retry_after)
        try:
            request_action = parse_action(form_body(request.POST, keeper), keeper)
        except RuleError as rule_error:
            raise ServiceError.from_rule(rule_error, keeper=keeper) from None
        result = services.match_act(match_id=match.id, request=request_action)
        if result.replayed and result.entry.payload != request_action.payload:
            # A page's form key used before for another action (a page kept on the phone):
            # the API answers a key with its first answer; a person is told the page is old.
            raise ServiceError("conflict")
        view = result.view
    except ServiceError as refused:
        error = refused
    if error is None and not request.htmx:
        return HttpResponseRedirect(_table_address(match), status=303)
    if view is None:  # refused, or a retry answered from the log: read the match as it now is
        if retry_after is None:  # (refused for the rate, nothing was tried: the row just read is it)
            match.refresh_from_db()
        view = match_view(match)
    extra: dict[str, Any] = {"just_recorded": error is None}
    if error is not None:
        extra["error_message"] = message_for(
            error.code, error.reason, error.params, list(match.players), keeper.wordings
        )
        extra["error_code"] = error.code
    # htmx swaps these refusals in (see the htmx-config meta), so the message shows in place,
    # and the address loses whatever entry it carried: that turn is over, recorded or refused.
    status = status_for(error.code, keeper) if error is not None else 200
    response = _render_table(request, view, {}, can_edit=can_edit, extra=extra, status=status)
    response["HX-Replace-Url"] = _table_address(match)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@require_POST
def assistant(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Switch the turn assistant on or off; only a device keeping score may."""
    match = _match_or_404(match_id)
    if not services.device_can_edit(device_secret=device_secret(request), match=match):
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
        if services.edit_token_matches(match, request.POST.get("key", "").strip()):
            services.device_link(device_secret=ensure_device_secret(request), match=match, can_edit=True)
            response = HttpResponseRedirect(reverse("tables:table", args=[match.id]), status=303)
            return remember_device(request, response)
        context["error_message"] = message_for("unauthorized", "unauthorized", {})
        return render(request, "tables/join.html", context, status=401)
    return render(request, "tables/join.html", context)


@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    """This device's matches, in progress and finished (with who won)."""
    from .recent import with_winners

    rows = services.device_matches(device_secret=device_secret(request))
    # Each match with its game's name: four games may sit in one list.
    in_progress = [(m, edit, keeper_of(m).name()) for m, edit in rows if not m.over]
    finished = [
        (m, edit, result, keeper_of(m).name()) for m, edit, result in with_winners((m, e) for m, e in rows if m.over)
    ]
    games = [(keeper.key, keeper.new_match_title()) for keeper in all_keepers().values()]
    return render(request, "tables/mine.html", {"in_progress": in_progress, "finished": finished, "games": games})
