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

from marquoir.games.pickomino import RuleError

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
from .turn import decode_dice


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
        if form.is_valid() and not allow_match_creation(request):
            form.add_error(None, message_for("rate_limited", "rate_limited", {}))
            return render(
                request, "tables/new.html", {"form": form, "game": game, "known_names": known_names}, status=429
            )
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


@require_GET
def table(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """The table screen: the grill, every stack, whose turn it is, the turn entry, the log."""
    match = _match_or_404(match_id)
    view = match_view(match)
    can_edit = services.device_can_edit(device_secret=device_secret(request), match=match)
    context = table_context(view, request.GET, can_edit=can_edit)
    if request.htmx:
        return render(request, "tables/table.html#table", context)
    context["watch_link"] = watch_link(request, match)
    if can_edit:
        context["keep_score_link"] = keep_score_link(request, match)
    return render(request, "tables/table.html", context)


def _form_body(data: Any) -> dict[str, Any]:
    """The API-shaped body for a page's action form."""
    body: dict[str, Any] = {"type": data.get("type")}
    if body["type"] == "take":
        if data.get("dice"):
            body["dice"] = {face.key: count for face, count in decode_dice(data["dice"]).counts().items()}
        else:
            body["total"] = int(data["total"]) if str(data.get("total", "")).isdigit() else data.get("total")
            body["worm"] = data.get("worm") == "1"
        source = data.get("from", "grill")
        body["from"] = int(source) if str(source).isdigit() else source
    elif body["type"] == "bust" and data.get("reason"):
        body["reason"] = data["reason"]
    if str(data.get("expected_seq", "")).isdigit():
        body["expected_seq"] = int(data["expected_seq"])
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
        return HttpResponseRedirect(reverse("tables:table", args=[match.id]), status=303)
    if view is None:  # refused, or a retry answered from the log: read the match as it now is
        match.refresh_from_db()
        view = match_view(match)
    context = table_context(view, {}, can_edit=can_edit)
    if error is not None:
        context["error_message"] = message_for(error.code, error.reason, error.params, list(match.players))
        context["error_code"] = error.code
    template = "tables/table.html#table" if request.htmx else "tables/table.html"
    status = STATUS.get(error.code, 422) if error is not None else 200
    # htmx swaps these refusals in (see the htmx-config meta), so the message shows in place.
    return render(request, template, context, status=status)


@require_POST
def assistant(request: HtmxHttpRequest, match_id: str) -> HttpResponse:
    """Switch the turn assistant on or off; only a device keeping score may."""
    match = _match_or_404(match_id)
    if not services.device_can_edit(device_secret=device_secret(request), match=match):
        context = table_context(match_view(match), {}, can_edit=False)
        context["error_message"] = message_for("unauthorized", "unauthorized", {})
        template = "tables/table.html#table" if request.htmx else "tables/table.html"
        return render(request, template, context, status=401)
    match = services.match_set_assistant(match_id=match.id, on=request.POST.get("on") == "1")
    if request.htmx:
        # Redraw the turn panel as it was on screen (the dice entered so far are in its address).
        query = QueryDict(urlsplit(request.htmx.current_url or "").query)
        context = table_context(match_view(match), query, can_edit=True)
        return render(request, "tables/table.html#table", context)
    return HttpResponseRedirect(reverse("tables:table", args=[match.id]) + "?mode=dice", status=303)


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
    """This device's matches, in progress and finished."""
    rows = services.device_matches(device_secret=device_secret(request))
    in_progress = [(m, edit) for m, edit in rows if not m.over]
    finished = [(m, edit) for m, edit in rows if m.over]
    return render(request, "tables/mine.html", {"in_progress": in_progress, "finished": finished})
