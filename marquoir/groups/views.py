"""A group's pages: thin views over the services and selectors, every one working without
JavaScript (forms, then a redirect to the group's page)."""

from __future__ import annotations

import json
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from marquoir.tables import services as match_services
from marquoir.tables.capabilities import device_matches, digest, edit_token_for
from marquoir.tables.device import device_secret, ensure_device_secret, remember_device
from marquoir.tables.forms import NewMatchForm, rematch_initial
from marquoir.tables.keepers import all_keepers, keeper_for
from marquoir.tables.messages import message_for
from marquoir.tables.models import Match
from marquoir.tables.outcome import ServiceError
from marquoir.tables.ratelimit import allow_match_creation, client_key
from marquoir.tables.selectors import find_match, names_offered
from marquoir.tables.sharing import SharedLink, absolute_url, qr_svg

from . import services
from .messages import group_message
from .models import Group
from .presenters import MAX_IMPORT_BYTES, export_response, figure_text, import_file, stats_charts, stats_table
from .selectors import find_group, history_of, members_of, stats_of

PLAYER_ROWS = 8
"""Rows for names on the new-group form (more players are added on the group's page)."""
HISTORY_PAGE = 30
"""Matches shown at once in the history: a phone's page stays small for a group of years."""


def _group_or_404(group_id: str) -> Group:
    group = find_group(group_id)
    if group is None:
        raise Http404(_("There is no group at this address."))
    return group


def _can_edit(request: HttpRequest, group: Group) -> bool:
    return services.device_can_edit_group(device_secret=device_secret(request), group=group)


def _links(request: HttpRequest, group: Group, *, can_edit: bool) -> dict[str, SharedLink]:
    """The group's two links: to see it (its address), to change it too (the key in the
    fragment, which no server ever receives: the join page posts it)."""
    see = absolute_url(request, reverse("groups:group", args=[group.id]))
    links = {"see_link": SharedLink(see, qr_svg(see))}
    if can_edit:
        change = (
            absolute_url(request, reverse("groups:join", args=[group.id])) + "#key=" + services.group_key_for(group.id)
        )
        links["change_link"] = SharedLink(change, qr_svg(change))
    return links


def _private(response: HttpResponse) -> HttpResponse:
    # The page may hold this device's key to the group: shared caches keep none of it.
    patch_cache_control(response, private=True)
    return response


def _count_new_group(request: HttpRequest) -> None:
    """A new group costs what a new match does (this device's allowance, and its address's).
    A request without a cookie, or with one this server never gave out, counts in its
    address's allowance as the match pages do: a fresh cookie each time buys nothing."""
    given = device_secret(request)
    known = given is not None and services.known_device(given)
    device = digest(ensure_device_secret(request))  # the phone's own, made now if it has none
    allowance = allow_match_creation(request, device=device, new_device=not known)
    if not allowance.allowed:
        raise ServiceError("rate_limited", minutes=allowance.minutes, retry_after=allowance.retry_after)


def _rows(names: list[str] | None = None) -> list[tuple[int, str]]:
    """The new-group form's rows for names: (row, what it holds)."""
    given = names or []
    return [(row, given[row] if row < len(given) else "") for row in range(PLAYER_ROWS)]


@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """This device's groups, and a new group in one step: its name and its players."""
    context: dict[str, Any] = {"rows": _rows(), "name": ""}
    status = 200
    if request.method == "POST":
        names = [request.POST.get(f"player_{row}", "") for row in range(PLAYER_ROWS)]
        try:
            players = [name for name in names if name.strip()]
            services.check_new_group(name=request.POST.get("name", ""), players=players)
            _count_new_group(request)
            group, _key = services.group_create(name=request.POST.get("name", ""), players=players)
        except ServiceError as refused:
            context.update(
                error_message=group_message(refused),
                name=request.POST.get("name", ""),
                rows=_rows(names),
            )
            status = 422
        else:
            services.device_group_link(device_secret=ensure_device_secret(request), group=group, can_edit=True)
            return remember_device(request, HttpResponseRedirect(reverse("groups:group", args=[group.id]), status=303))
    context["groups"] = services.device_groups(device_secret=device_secret(request))
    return _private(render(request, "groups/index.html", context, status=status))


def _too_many(request: HttpRequest, group: Group, refused: ServiceError) -> HttpResponse:
    """A costly read refused: say when to come back (the page is not drawn)."""
    context = {"error_message": group_message(refused), "back_url": reverse("groups:group", args=[group.id])}
    response = render(request, "groups/too_many.html", context, status=429)
    response["Retry-After"] = str(refused.params.get("retry_after", 60))
    return _private(response)


def _costly_read(request: HttpRequest, group: Group, *, export: bool = False) -> HttpResponse | None:
    """None if this client may read the group's history or stats (or take its export) now;
    else the refusal."""
    try:
        (services.spend_export if export else services.spend_costly_read)(client_key(request))
    except ServiceError as refused:
        return _too_many(request, group, refused)
    return None


@require_GET
def group_page(request: HttpRequest, group_id: str) -> HttpResponse:
    """The group: its players, a new match of any game, its history, its links."""
    group = _group_or_404(group_id)
    return _costly_read(request, group) or _render_group(request, group)


def _render_group(
    request: HttpRequest, group: Group, *, error_message: str | None = None, status: int = 200
) -> HttpResponse:
    can_edit = _can_edit(request, group)
    secret = device_secret(request)
    if not can_edit and secret and services.known_device(secret):
        # Seen on this device: it goes into "my groups" (to see it, not to change it). Only
        # for a device this server gave out: a made-up cookie on a read writes nothing.
        services.device_group_link(device_secret=secret, group=group, can_edit=False)
    members = members_of(group)
    names = {member.id: member.name for member in members}
    shown_game = request.GET.get("game") or None
    all_plays = history_of(group)
    games = sorted({(play.stats_key, play.game_name) for play in all_plays}, key=lambda pair: pair[1].casefold())
    plays = [play for play in all_plays if shown_game is None or play.stats_key == shown_game]
    page = Paginator(plays, HISTORY_PAGE).get_page(request.GET.get("page"))
    # The plays whose match this device keeps score on: deleting one deletes the match too.
    own_matches = (
        services.writable_matches([play.match_id for play in page.object_list if play.match_id], device_secret=secret)
        if can_edit
        else set()
    )
    history = [
        {
            "play": play,
            "match_goes": play.match_id is None or play.match_id in own_matches,
            "seats": [
                {
                    "name": names.get(member, "?"),
                    "score": figure_text(play.summary.scores[seat]),
                    "winner": seat in play.summary.winners,
                    "starts": seat == play.first,
                }
                for seat, member in sorted(enumerate(play.members), key=lambda pair: play.summary.ranks[pair[0]])
            ],
        }
        for play in page.object_list
    ]
    context = {
        "group": group,
        "members": members,
        "can_edit": can_edit,
        "history": history,
        "page": page,
        "play_count": len(all_plays),
        "games": games,
        "shown_game": shown_game,
        "keepers": [(key, keeper.name()) for key, keeper in all_keepers().items()],
        "error_message": error_message,
        **_links(request, group, can_edit=can_edit),
    }
    return _private(render(request, "groups/group.html", context, status=status))


def _edit(request: HttpRequest, group_id: str) -> tuple[Group, HttpResponse | None]:
    """The group, and a refusal to show if this device may not change it."""
    group = _group_or_404(group_id)
    if not _can_edit(request, group):
        return group, _render_group(
            request, group, error_message=group_message(ServiceError("unauthorized")), status=401
        )
    return group, None


def _done(group: Group) -> HttpResponse:
    return HttpResponseRedirect(reverse("groups:group", args=[group.id]), status=303)


def _write(request: HttpRequest, group_id: str, change: Any) -> HttpResponse:
    """Run ``change(group)`` if this device may change the group; the group's page after."""
    group, refusal = _edit(request, group_id)
    if refusal is not None:
        return refusal
    try:
        change(group)
    except ServiceError as refused:
        status = {"not_found": 404, "conflict": 409, "forbidden": 403}.get(refused.code, 422)
        return _render_group(request, group, error_message=group_message(refused), status=status)
    return _done(group)


@require_POST
def rename(request: HttpRequest, group_id: str, member_id: int) -> HttpResponse:
    return _write(
        request,
        group_id,
        lambda group: services.member_rename(group=group, member_id=member_id, name=request.POST.get("name", "")),
    )


@require_POST
def add_player(request: HttpRequest, group_id: str) -> HttpResponse:
    return _write(request, group_id, lambda group: services.member_add(group=group, name=request.POST.get("name", "")))


def _match_id_from(text: str) -> str:
    """A match's id from its address (the watch link ``…/tables/<id>/``, the keep-score link
    ``…/tables/<id>/join/#key=…``) or the id itself."""
    parts = [part for part in text.strip().split("#", 1)[0].split("?", 1)[0].split("/") if part]
    if "tables" in parts[:-1]:
        return parts[parts.index("tables") + 1]
    return parts[-1] if parts else ""


def _match_token_from(text: str) -> str | None:
    """The edit token a keep-score link carries in its fragment (``#key=…``), if any."""
    fragment = text.strip().partition("#")[2]
    for part in fragment.split("&"):
        name, _equals, value = part.partition("=")
        if name == "key" and value:
            return value
    return None


@require_POST
def attach(request: HttpRequest, group_id: str) -> HttpResponse:
    """A match started elsewhere joins the group's history: its keep-score link, or its
    watch link or id from a phone that keeps its score (a watch link alone is refused)."""
    pasted = request.POST.get("match", "")
    return _write(
        request,
        group_id,
        lambda group: services.play_attach(
            group=group,
            match_id=_match_id_from(pasted),
            match_token=_match_token_from(pasted),
            device_secret=device_secret(request),
        ),
    )


@require_POST
def delete_play(request: HttpRequest, group_id: str, play_id: str) -> HttpResponse:
    """A match taken out of the history (the page asked once before); the match itself
    goes too only if this phone keeps its score."""
    return _write(
        request,
        group_id,
        lambda group: services.play_delete(group=group, play_id=play_id, device_secret=device_secret(request)),
    )


@require_POST
def delete_group(request: HttpRequest, group_id: str) -> HttpResponse:
    """The whole group gone, with its history and matches (the page asked once before)."""
    group, refusal = _edit(request, group_id)
    if refusal is not None:
        return refusal
    services.group_delete(group=group, device_secret=device_secret(request))
    return HttpResponseRedirect(reverse("groups:index") + "?deleted=1", status=303)


class _GroupRefused(Exception):
    """The group refused the match it was told of (its history full): no match is started."""

    def __init__(self, error: ServiceError) -> None:
        super().__init__(error.reason)
        self.error = error


def _previous_play(group: Group, match_id: str | None) -> Match | None:
    """The match ``from`` names, if it is one of this group's (another's seats are not offered)."""
    previous = find_match(match_id)
    if previous is None or not group.plays.filter(match_id=previous.pk).exists():
        return None
    return previous


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest, group_id: str, game: str) -> HttpResponse:
    """A new match of ``game`` for the group, on the set-up page every match has: its players
    offered, in the group's order; the match joins the group in the transaction that makes it."""
    group, refusal = _edit(request, group_id)
    if refusal is not None:
        return refusal
    keeper = keeper_for(game)
    if keeper is None:
        raise Http404(_("Marquoir does not keep score for this game."))
    names = [member.name for member in members_of(group)]
    secret = device_secret(request)
    mine = device_matches(device_secret=secret)
    intro = _("For the group “%(group)s”: clear the rows of those not playing.") % {"group": group.name}
    page = {"game": game, "keeper": keeper, "known_names": names_offered(mine, names), "setup_intro": intro}
    if request.method == "GET":
        previous = _previous_play(group, request.GET.get("from"))
        if previous is not None:  # a rematch of one of the group's matches: that table again
            initial = rematch_initial(keeper, previous)
        else:
            initial = {f"name_{seat}": name for seat, name in enumerate(names[: keeper.max_players])}
        return render(request, "tables/new.html", {"form": NewMatchForm(keeper, initial=initial), **page})

    def join_group(match: Match) -> None:
        try:
            # This request has just made the match: it holds its write right.
            services.play_attach(group=group, match_id=match.id, match_token=edit_token_for(match.id))
        except ServiceError as refused:  # the group is full: the match is not started
            raise _GroupRefused(refused) from None

    form = NewMatchForm(keeper, request.POST)
    if not form.is_valid():
        return render(request, "tables/new.html", {"form": form, **page}, status=422)
    cleaned = form.cleaned_data
    try:
        setup = match_services.check_setup(keeper, cleaned["players"], cleaned["first_index"], cleaned["options"])
        match = match_services.match_start(
            setup=setup,
            assistant=cleaned["assistant"],
            device_secret=ensure_device_secret(request),
            spend=lambda: allow_match_creation(request, device=digest(secret) if secret else None, new_device=not mine),
            within=join_group,
        )
    except _GroupRefused as refused:
        form.add_error(None, group_message(refused.error))
        return render(request, "tables/new.html", {"form": form, **page}, status=422)
    except ServiceError as refused:  # the game's own checks, or the creation budget spent
        form.add_error(None, message_for(refused.code, refused.reason, refused.params, (), keeper.wordings))
        spent = refused.code == "rate_limited"
        response = render(request, "tables/new.html", {"form": form, **page}, status=429 if spent else 422)
        if spent:
            response["Retry-After"] = str(refused.params["retry_after"])
        return response
    return remember_device(request, HttpResponseRedirect(reverse("tables:table", args=[match.id]), status=303))


@require_GET
def stats(request: HttpRequest, group_id: str) -> HttpResponse:
    """Who wins at this table: overall and per game, with charts."""
    group = _group_or_404(group_id)
    refusal = _costly_read(request, group)
    if refusal is not None:
        return refusal
    group_stats, _plays = stats_of(group)
    sections = [group_stats.overall, *group_stats.games]
    shown = next((section for section in sections if section.key == request.GET.get("game")), group_stats.overall)
    context = {
        "group": group,
        "sections": sections,
        "section": shown,
        "charts": stats_charts(shown),
        "table": stats_table(shown),
    }
    return _private(render(request, "groups/stats.html", context))


@require_GET
def export(request: HttpRequest, group_id: str) -> HttpResponse:
    """The group's history as a file: ``?format=csv`` or BG Stats-shaped JSON."""
    group = _group_or_404(group_id)
    return _costly_read(request, group, export=True) or export_response(
        group, "csv" if request.GET.get("format") == "csv" else "json"
    )


@require_POST
def import_group(request: HttpRequest) -> HttpResponse:
    """A new group from an exported file, chosen on the groups page."""
    try:
        services.spend_import(client_key(request))  # before the file is read: refused files count
    except ServiceError as refused:
        return _import_refused(request, group_message(refused), status=429, retry_after=refused.params["retry_after"])
    upload = request.FILES.get("file")
    if upload is None:
        return _import_refused(request, _("Choose a file exported from Marquoir (or a BG Stats backup)."))
    if upload.size is None or upload.size > MAX_IMPORT_BYTES:
        limit = MAX_IMPORT_BYTES // (1024 * 1024)
        return _import_refused(request, _("This file is too large: %(limit)s MiB at most.") % {"limit": limit})
    try:
        with services.one_import_at_a_time():
            try:
                data = json.loads(upload.read(MAX_IMPORT_BYTES + 1))
            except (ValueError, RecursionError):
                return _import_refused(request, _("This file is not JSON: choose a file exported from Marquoir."))
            group, _key = import_file(data, before_writing=lambda: _count_new_group(request))
    except ServiceError as refused:
        status = {"unavailable": 503, "rate_limited": 429}.get(refused.code, 422)
        return _import_refused(
            request, group_message(refused), status=status, retry_after=refused.params.get("retry_after", 0)
        )
    services.device_group_link(device_secret=ensure_device_secret(request), group=group, can_edit=True)
    return remember_device(request, HttpResponseRedirect(reverse("groups:group", args=[group.id]), status=303))


def _import_refused(request: HttpRequest, error: str, *, status: int = 422, retry_after: int = 0) -> HttpResponse:
    """The groups page again, saying why the file was not imported."""
    context = {
        "rows": _rows(),
        "name": "",
        "import_error": error,
        "groups": services.device_groups(device_secret=device_secret(request)),
    }
    response = render(request, "groups/index.html", context, status=status)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return _private(response)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, group_id: str) -> HttpResponse:
    """Change the group from this device too: the key, posted (never in an address), grants it."""
    group = _group_or_404(group_id)
    context: dict[str, Any] = {"group": group}
    if request.method == "POST":
        if services.group_key_matches(group.id, request.POST.get("key", "").strip()):
            services.device_group_link(device_secret=ensure_device_secret(request), group=group, can_edit=True)
            return remember_device(request, _done(group))
        context["error_message"] = group_message(ServiceError("unauthorized"))
        return render(request, "groups/join.html", context, status=401)
    return render(request, "groups/join.html", context)
