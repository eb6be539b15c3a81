"""Score-keeping pages: thin views over the services and selectors.

Every page works without JavaScript (forms and redirects); with htmx the same views answer
with the table partial only, so a tap updates the screen without a reload.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from marquoir.games.pickomino import GRILL, RuleError

from . import services
from .actions import parse_action
from .device import device_secret, ensure_device_secret, remember_device
from .forms import NewMatchForm
from .messages import STATUS, message_for
from .models import Match
from .presenters import table_context
from .ratelimit import allow_match_creation
from .selectors import MatchView, find_match, match_view, names_used_on
from .services import ServiceError
from .sharing import keep_score_link, watch_link
from .turn import PADS, ascii_number, decode_dice, preferred_pad


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
    if game not in services.SUPPORTED_GAMES:
        raise Http404(_("Marquoir does not keep score for this game."))
    secret = device_secret(request)
    known_names = names_used_on([m for m, _edit in services.device_matches(device_secret=secret)])
    if request.method == "POST":
        form = NewMatchForm(request.POST)
        # A phone on the set-up page is a device even before its first match: it is counted
        # as one (and its address for all its devices), so a café's new phones each start.
        allowance = (
            allow_match_creation(request, device=services.digest(ensure_device_secret(request)))
            if form.is_valid()
            else None
        )
        if allowance is not None and not allowance.allowed:
            form.add_error(None, message_for("rate_limited", "rate_limited", {"minutes": allowance.minutes}))
            response = render(
                request, "tables/new.html", {"form": form, "game": game, "known_names": known_names}, status=429
            )
            response["Retry-After"] = str(allowance.retry_after)
            return remember_device(request, response)
        if form.is_valid():
            match, _token = services.match_create(
                game=game,
                players=form.cleaned_data["players"],
                first=form.cleaned_data["first_index"],
                options=form.cleaned_data["options"],
                assistant=form.cleaned_data["assistant"],
            )
            services.device_link(device_secret=ensure_device_secret(request), match=match, can_edit=True)
            response = HttpResponseRedirect(reverse("tables:table", args=[match.id]), status=303)
            return remember_device(request, response)
    else:
        initial: dict[str, Any] = {}
        rematch = request.GET.get("from")
        previous = find_match(rematch)
        if previous is not None:
            initial = {f"name_{seat}": name for seat, name in enumerate(previous.players)}
            initial.update(first=previous.first, assistant=previous.assistant, **previous.options)
        form = NewMatchForm(initial=initial)
    status = 422 if form.errors else 200
    return render(request, "tables/new.html", {"form": form, "game": game, "known_names": known_names}, status=status)


PAD_COOKIE = "marquoir_pad"
PAD_COOKIE_AGE = 365 * 24 * 3600


def _table_address(match: Match) -> str:
    return reverse("tables:table", args=[match.id])


def _table_page(request: HtmxHttpRequest, view: MatchView, query: Any, *, can_edit: bool) -> HttpResponse:
    """The table screen, or only its partial for htmx, with the entry in ``query`` if still current."""
    pad = preferred_pad(query, request.COOKIES.get(PAD_COOKIE))
    context = table_context(view, query, can_edit=can_edit, pad=pad)
    if request.htmx:
        response = render(request, "tables/table.html#table", context)
    else:
        context["watch_link"] = watch_link(request, view.row)
        if can_edit:
            context["keep_score_link"] = keep_score_link(request, view.row)
        response = render(request, "tables/table.html", context)
    if query.get("pad") in PADS:
        # The pad chosen stays this device's choice for the next turns (the address goes bare).
        response.set_cookie(PAD_COOKIE, query["pad"], max_age=PAD_COOKIE_AGE, samesite="Lax", httponly=True)
    turn = context.get("turn")
    if turn is not None and turn.dropped:
        # Never leave a stale entry in the address: a reload would bring it back.
        response["HX-Replace-Url"] = _table_address(view.row)
    return response


@require_GET
def table(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """The table screen: the band, the turn pad, the grill, every stack, the log."""
    match = _match_or_404(match_id)
    can_edit = services.device_can_edit(device_secret=device_secret(request), match=match)
    return _table_page(request, match_view(match), request.GET, can_edit=can_edit)


def _form_number(data: Any, name: str, *, reason: str, digits: int = 3) -> int | None:
    """A whole number from a form field in ASCII digits; None when absent; RuleError otherwise."""
    raw = data.get(name)
    return None if raw is None or raw == "" else ascii_number(raw, reason=reason, digits=digits)


def _form_body(data: Any) -> dict[str, Any]:
    """The API-shaped body for a page's action form (RuleError ``invalid`` if malformed).

    A claim button sends ``claim=<total>:<source>`` (``27:grill``, ``30:2``); the dice pad
    adds the kept dice, from which the server works the total out itself.
    """
    body: dict[str, Any] = {"type": data.get("type")}
    if body["type"] == "take":
        claim = data.get("claim")
        total: int | None
        if claim is not None:
            total_text, _colon, source_text = str(claim).partition(":")
            total = ascii_number(total_text, reason="bad_total")
            source: Any = GRILL if source_text == GRILL else ascii_number(source_text, reason="bad_source")
        else:
            total = _form_number(data, "total", reason="bad_total")
            source_text = data.get("from", GRILL)
            source = GRILL if source_text == GRILL else ascii_number(source_text, reason="bad_source")
        if data.get("dice"):
            body["dice"] = {face.key: count for face, count in decode_dice(data["dice"]).counts().items()}
        else:
            body["total"] = total
            body["worm"] = claim is not None or data.get("worm") == "1"
        body["from"] = source
    elif body["type"] == "bust" and data.get("reason"):
        body["reason"] = data["reason"]
    expected_seq = _form_number(data, "expected_seq", reason="bad_expected_seq", digits=9)
    if expected_seq is not None:
        body["expected_seq"] = expected_seq
    if data.get("action_id"):
        body["action_id"] = data["action_id"]
    return body


@require_POST
def act(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Record a take, a bust or an undo from the table screen (the same write path as the API)."""
    match = _match_or_404(match_id)
    can_edit = services.device_can_edit(device_secret=device_secret(request), match=match)
    error: ServiceError | None = None
    view: MatchView | None = None
    try:
        if not can_edit:
            raise ServiceError("unauthorized")
        try:
            request_action = parse_action(_form_body(request.POST))
        except RuleError as rule_error:
            raise ServiceError.from_rule(rule_error) from None
        view = services.match_act(match_id=match.id, request=request_action).view
    except ServiceError as refused:
        error = refused
    if error is None and not request.htmx:
        return HttpResponseRedirect(_table_address(match), status=303)
    if view is None:  # refused, or a retry answered from the log: read the match as it now is
        match.refresh_from_db()
        view = match_view(match)
    context = table_context(view, {}, can_edit=can_edit, pad=preferred_pad({}, request.COOKIES.get(PAD_COOKIE)))
    if error is not None:
        context["error_message"] = message_for(error.code, error.reason, error.params, list(match.players))
        context["error_code"] = error.code
    else:
        context["just_recorded"] = True
    if not request.htmx:
        context["watch_link"] = watch_link(request, match)
        context["keep_score_link"] = keep_score_link(request, match) if can_edit else None
    template = "tables/table.html#table" if request.htmx else "tables/table.html"
    status = STATUS.get(error.code, 422) if error is not None else 200
    # htmx swaps these refusals in (see the htmx-config meta), so the message shows in place,
    # and the address loses whatever entry it carried: that turn is over, recorded or refused.
    response = render(request, template, context, status=status)
    response["HX-Replace-Url"] = _table_address(match)
    return response


@require_POST
def assistant(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Switch the turn assistant on or off; only a device keeping score may."""
    match = _match_or_404(match_id)
    if not services.device_can_edit(device_secret=device_secret(request), match=match):
        context = table_context(match_view(match), {}, can_edit=False)
        context["error_message"] = message_for("unauthorized", "unauthorized", {})
        template = "tables/table.html#table" if request.htmx else "tables/table.html"
        return render(request, template, context, status=401)
    seq_before = match.seq
    match = services.match_set_assistant(match_id=match.id, on=request.POST.get("on") == "1")
    if request.htmx:
        # Redraw the pad as it was on screen (the entry so far is in its address).
        query = QueryDict(urlsplit(request.htmx.current_url or "").query)
        return _table_page(request, match_view(match), query if match.seq == seq_before else {}, can_edit=True)
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
    in_progress = [(m, edit) for m, edit in rows if not m.over]
    finished = with_winners((m, edit) for m, edit in rows if m.over)
    return render(request, "tables/mine.html", {"in_progress": in_progress, "finished": finished})
