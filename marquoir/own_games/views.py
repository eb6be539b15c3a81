"""Your own game's pages: start one (from nothing, from a catalog game, from a file), edit
it on the phone, try a round, save a version, play it, share it. Thin views over the
services; every page works without JavaScript (the editor's buttons post the form and it
comes back), and with it the formulas are checked as they are typed (``check``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from marquoir.games.declared import Game, GameFileError, GameState, declared_games, resolve_options
from marquoir.groups.services import GROUP_LINKS
from marquoir.keepers.declared.presenters import rules_text
from marquoir.keepers.declared.words import language, wordings
from marquoir.rules.errors import RuleError
from marquoir.tables.capabilities import digest
from marquoir.tables.device import device_secret, ensure_device_secret, remember_device
from marquoir.tables.keepers import keeper_for
from marquoir.tables.messages import message_for
from marquoir.tables.outcome import ServiceError
from marquoir.tables.ratelimit import allow_match_creation, client_key
from marquoir.tables.sharing import SharedLink, absolute_url, qr_svg

from . import editor, files, services
from .keeper import PREFIX, OwnGameKeeper, find_keeper, own_key
from .messages import own_game_message, problem_text
from .models import OwnGame, OwnGameVersion

MAX_IMPORT_CHARACTERS = files.MAX_FILE_CHARACTERS

_PART_NAMES = {
    "derived": gettext_lazy("values worked out from the inputs"),
    "options": gettext_lazy("table options"),
    "tables": gettext_lazy("lookup tables"),
    "warnings": gettext_lazy("warnings"),
    "figures": gettext_lazy("figures for a group’s stats"),
    "reference": gettext_lazy("rows of the quick reference"),
    "turns": gettext_lazy("play turn by turn"),
    "option_checks": gettext_lazy("checks of the options"),
}
"""The parts of a file the editor keeps as they are, as the page names them."""


def _game_or_404(game_id: str) -> OwnGame:
    game = services.find_game(game_id)
    if game is None:
        raise Http404(_("There is no game at this address."))
    return game


def _catalog_copies() -> list[tuple[str, str]]:
    """The catalog's declared games a copy may start from, by key, with their names."""
    found = []
    for game in declared_games():
        keeper = keeper_for(game.key)
        if keeper is not None:
            found.append((game.key, str(keeper.name())))
    return sorted(found, key=lambda item: item[1].casefold())


def _catalog_file(key: str) -> dict[str, Any] | None:
    """A copy of the catalog game ``key``'s file, renamed as house rules."""
    game = next((game for game in declared_games() if game.key == key), None)
    if game is None:
        return None
    return files.copy_of(game.file, _in_both(gettext_noop("%(game)s (house rules)"), game.file.box.names))


def _own_copy(key: str) -> dict[str, Any] | None:
    """A copy of an own game's version, renamed as a copy."""
    keeper = find_keeper(key)
    if not isinstance(keeper, OwnGameKeeper):
        return None
    names = _in_both(gettext_noop("%(game)s (copy)"), keeper.game.file.box.names)
    return files.copy_of(keeper.game.file, names, keep_examples=True)


@require_GET
def start(request: HttpRequest) -> HttpResponse:
    """Where a game of one's own starts: from nothing, from a catalog game, from a file;
    and this device's own games."""
    mine = services.games_of_device(device_secret(request))
    return render(
        request,
        "own_games/start.html",
        {"copies": _catalog_copies(), "mine": [(game, _name_of(game), can) for game, can in mine]},
    )


def _name_of(game: OwnGame) -> str:
    keeper = find_keeper(own_key(game.id, game.latest))
    return str(keeper.name()) if keeper is not None else game.id


# --- the editor


def _base_for(request: HttpRequest, game: OwnGame | None) -> tuple[dict[str, Any], str]:
    """The file the form is over, and how to find it again (the form's ``from``)."""
    if game is not None:
        # The version the form was opened on: its rows say which part of it each edits.
        opened = str(request.POST.get("from", "")).removeprefix("own:")
        version = services.version_of(game, editor.small_number(opened, services.MAX_VERSIONS))
        if version is None:
            raise Http404(_("This game has no such version."))
        return dict(version.file), f"own:{version.number}"
    source = request.POST.get("from") or request.GET.get("from") or ""
    if source.startswith(PREFIX):  # a copy of an own game: anyone who may play it may copy it
        copied = _own_copy(source)
        if copied is None:
            raise Http404(_("There is no game at this address."))
        return copied, source
    if source and source != "blank":
        copied = _catalog_file(source)
        if copied is None:
            raise Http404(_("Marquoir does not keep score for this game."))
        return copied, source
    return editor.blank_file(), "blank"


@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """The editor for a new game (``?from=skyjo``: a copy of the catalog's Skyjo)."""
    return _editor(request, None)


@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, game_id: str) -> HttpResponse:
    """The editor of a game one may change: saving makes its next version."""
    game = _game_or_404(game_id)
    return _editor(request, game)


def _may_change(request: HttpRequest, game: OwnGame) -> bool:
    """This device may change ``game``, or the form carries its key (from the link's fragment)."""
    if services.device_can_edit(device_secret=device_secret(request), game=game):
        return True
    return services.game_key_matches(game.id, request.POST.get("key", "").strip() or None)


def _editor(request: HttpRequest, game: OwnGame | None) -> HttpResponse:
    base, source = _base_for(request, game)
    if request.method == "GET":
        draft = editor.draft_from_file(base)
        context = _editor_context(request, draft, game, source)
        if game is not None and not services.device_can_edit(device_secret=device_secret(request), game=game):
            context["needs_key"] = True
        return _private(render(request, "own_games/edit.html", context))
    if game is not None and not _may_change(request, game):
        context = _editor_context(request, editor.draft_from_form(base, request.POST), game, source)
        context.update(needs_key=True, error_message=own_game_message(ServiceError("unauthorized")))
        return _private(render(request, "own_games/edit.html", context, status=401))
    draft = editor.draft_from_form(base, request.POST)
    do = request.POST.get("do", "")
    try:
        services.spend_check(client_key(request))
    except ServiceError as refused:
        context = _editor_context(request, draft, game, source)
        context["error_message"] = own_game_message(refused)
        response = _private(render(request, "own_games/edit.html", context, status=429))
        response["Retry-After"] = str(refused.params["retry_after"])
        return response
    data = editor.file_from_draft(draft)
    compiled = _compiled(draft, data)
    context = _editor_context(request, draft, game, source)
    if do in ("try", "keep-example") and compiled is not None:
        trial = editor.try_round(
            compiled, request.POST, editor.trial_players(request.POST, compiled.file.box.players[0])
        )
        context["trial"] = _trial_view(compiled, trial)
        if do == "keep-example" and trial.points is not None:
            draft.examples.append(editor.example_from(trial, len(draft.examples) + 1))
            context["examples_json"] = _examples_json(draft)
    if do != "save" or draft.errors:
        status = 422 if do == "save" else 200
        return _private(render(request, "own_games/edit.html", context, status=status))
    try:
        if game is not None and source != f"own:{game.latest}":  # saved from another device since
            raise ServiceError("conflict", "changed_meanwhile")
        target = _save(request, game, data)
    except ServiceError as refused:
        context["error_message"] = own_game_message(refused)
        return _private(render(request, "own_games/edit.html", context, status=_status_of(refused)))
    return _saved(request, target)


def _save(request: HttpRequest, game: OwnGame | None, data: Mapping[str, Any]) -> OwnGame:
    """``data`` saved: a new game (its creation counted as a new match's), or the next
    version of ``game``; this device may change it from then on."""
    if game is None:
        secret = device_secret(request)
        return services.own_game_create(
            data=data,
            device_secret=ensure_device_secret(request),
            spend=lambda: allow_match_creation(request, device=digest(secret) if secret else None),
        ).game
    services.own_game_change(game=game, data=data)
    services.link_device(device_secret=ensure_device_secret(request), game=game, can_edit=True)
    return game


def _saved(request: HttpRequest, game: OwnGame) -> HttpResponse:
    """The game's page, saying it is saved."""
    response = HttpResponseRedirect(reverse("own_games:game", args=[game.id]) + "?saved=1", status=303)
    return remember_device(request, response)


def _status_of(refused: ServiceError) -> int:
    return {"rate_limited": 429, "conflict": 409}.get(refused.code, 422)


def _compiled(draft: editor.Draft, data: Mapping[str, Any]) -> Game | None:
    """The draft compiled (its examples played), or None with its faults on the form."""
    try:
        game = files.compile_file(data)  # bounded before a tried round or an example runs it
    except GameFileError as error:
        field = editor.form_field(draft, error)
        if field is not None:
            draft.errors.setdefault(field, problem_text(error, where=False))
        else:
            draft.errors.setdefault("file", problem_text(error))
        return None
    return game


def _examples_json(draft: editor.Draft) -> str:
    return json.dumps(draft.examples, ensure_ascii=False)


def _editor_context(request: HttpRequest, draft: editor.Draft, game: OwnGame | None, source: str) -> dict[str, Any]:
    least = draft.value("min_players")
    players = editor.trial_players(request.POST, editor.small_number(least, 20) or 2)
    sections = {
        section: [
            {
                "index": index,
                "row": row,
                "errors": {name: draft.errors.get(f"{prefix}-{index}-{name}", "") for name in fields},
                "ids": {name: f"{prefix}-{index}-{name}" for name in fields},
                "kept_kind": row.kept.get("kind") not in (*editor.KINDS, None),
                "kept_formula": "best" in row.kept,
            }
            for index, row in enumerate(draft.rows[section])
        ]
        for section, (prefix, fields) in editor.SECTIONS.items()
    }
    field_errors = {
        name: draft.errors.get(name, "")
        for name in (
            "name_en",
            "name_fr",
            "min_players",
            "max_players",
            "winner",
            "end_rounds",
            "end_target",
            "inputs",
            "points",
            "file",
            "play",
            "coop_won",
        )
    }
    seat_labels = [_("Player %(number)s") % {"number": seat + 1} for seat in range(players)]
    # A team game's inputs are each team's: two a team, partners facing each other.
    side_labels = (
        [_("Team %(number)s") % {"number": team + 1} for team in range(players // 2)]
        if draft.value("play") == "teams"
        else seat_labels
    )
    posted = request.POST if request.method == "POST" else {}
    try_fields = []
    for row in draft.rows["inputs"]:
        key, kind = row.value("key"), row.value("kind") or str(row.kept.get("kind", ""))
        if not key or kind not in editor.KINDS:
            continue
        label = row.value("label_fr") or row.value("label_en") if language().startswith("fr") else row.value("label_en")
        label = label or row.value("label_fr") or key
        if row.value("per") == "player" and kind != "player" and draft.value("play") != "cooperative":
            seats = [
                {"name": f"try-{key}-{seat}", "label": label, "value": posted.get(f"try-{key}-{seat}", "")}
                for seat, label in enumerate(side_labels)
            ]
            try_fields.append({"label": label, "kind": kind, "seats": seats})
        else:
            try_fields.append(
                {"label": label, "kind": kind, "name": f"try-{key}", "value": posted.get(f"try-{key}", "")}
            )
    return {
        "draft": draft,
        "sections": sections,
        "try_fields": try_fields,
        "try_seat_choices": list(enumerate(seat_labels)),
        "field_errors": field_errors,
        "kept_parts": [(_PART_NAMES.get(part, part), count) for part, count in editor.kept_parts(draft.base)],
        "game": game,
        "source": source,
        "kinds": editor.KINDS,
        "examples_json": _examples_json(draft),
        "try_players": players,
        "try_seats": range(players),
        "try_choices": editor.TRY_PLAYERS,
        "names": {
            "points": editor.formula_names(draft, "points"),
            "checks": editor.formula_names(draft, "checks"),
            "tiebreaks": editor.formula_names(draft, "tiebreaks"),
            "end_rules": editor.formula_names(draft, "end_rules"),
        },
        "plays": editor.PLAYS,
        "check_url": reverse("own_games:check"),
        "posted": dict(request.POST.items()) if request.method == "POST" else {},
    }


def _in_both(message: str, names: Any) -> dict[str, str]:
    """``message`` about a game, in English and in French, each with the game's name in it."""
    found = {}
    for code in ("en", "fr"):
        with translation.override(code):
            found[code] = _(message) % {"game": getattr(names, code)}
    return found


def _trial_view(game: Game, trial: editor.Trial) -> dict[str, Any]:
    sides = len(trial.points) if trial.points is not None else trial.players
    if game.teams:
        names = [_("Team %(number)s") % {"number": team + 1} for team in range(sides)]
    elif game.cooperative:
        names = [_("The table")] * sides
    else:
        names = [_("Player %(number)s") % {"number": seat + 1} for seat in range(trial.players)]
    refusal = None
    if trial.refusal is not None:
        refusal = message_for(trial.refusal.code, trial.refusal.reason, trial.refusal.params, names, wordings(game))
    points = list(zip(names, trial.points, strict=True)) if trial.points is not None else None
    return {"points": points, "refusal": refusal, "untried": trial.untried}


@require_POST
def check(request: HttpRequest) -> HttpResponse:
    """The editor's form checked as it is typed: each field's fault, in the reader's language
    (JSON for editor.js). Nothing is written."""
    game = services.find_game(request.POST.get("game"))
    if game is not None:
        version = services.version_of(game)
        base = dict(version.file) if version is not None else editor.blank_file()
    else:
        source = request.POST.get("from", "")
        if source.startswith(PREFIX):
            copied = _own_copy(source)
        else:
            copied = _catalog_file(source) if source and source != "blank" else None
        base = copied or editor.blank_file()
    try:
        services.spend_check(client_key(request))
    except ServiceError as refused:
        return JsonResponse({"errors": {}, "message": own_game_message(refused)}, status=429)
    draft = editor.draft_from_form(base, request.POST)
    data = editor.file_from_draft(draft)
    if not draft.errors:
        _compiled(draft, data)
    # The names given from the labels, for the fields left empty, and the names each kind of
    # formula may use now: the page writes them in without a reload.
    keys = {
        f"input-{index}-key": row.value("key")
        for index, row in enumerate(draft.rows["inputs"])
        if row.value("key") and not request.POST.get(f"input-{index}-key")
    }
    names = {
        section: list(editor.formula_names(draft, section))
        for section in ("points", "checks", "tiebreaks", "end_rules")
    }
    return JsonResponse({"errors": draft.errors, "keys": keys, "names": names})


# --- the game's page, its file, its links


def _links(request: HttpRequest, game: OwnGame) -> dict[str, SharedLink]:
    page = absolute_url(request, reverse("own_games:game", args=[game.id]))
    change = absolute_url(request, reverse("own_games:edit", args=[game.id])) + "#key=" + services.game_key_for(game.id)
    return {"play": SharedLink(page, qr_svg(page)), "change": SharedLink(change, qr_svg(change))}


@require_GET
def page(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game: its inputs and how it is scored, a match of it, its links, its file."""
    game = _game_or_404(game_id)
    keeper = find_keeper(own_key(game.id, game.latest))
    if keeper is None:
        raise Http404(_("There is no game at this address."))
    can_change = services.device_can_edit(device_secret=device_secret(request), game=game)
    secret = device_secret(request)
    if secret:
        services.link_device(device_secret=secret, game=game, can_edit=False)
    links = _links(request, game)
    context = {
        "game": game,
        "keeper": keeper,
        "file": keeper.game.file,
        "can_change": can_change,
        "play_link": links["play"],
        "change_link": links["change"] if can_change else None,
        "saved": request.GET.get("saved") == "1",
        "versions": OwnGameVersion.objects.filter(game=game).order_by("-number").only("number", "created_at")[:20],
        "new_match": reverse("tables:new", args=[own_key(game.id)]),
        "copy_source": own_key(game.id, game.latest),
        # A match of it for one of this device's groups: its players offered, its play in the history.
        "in_groups": [
            (group.name, reverse("groups:new-match", args=[group.id, own_key(game.id)]))
            for group, may_change in GROUP_LINKS.of_device(device_secret=secret, limit=10)
            if may_change
        ],
        "rules_line": _rules_line(keeper),
    }
    return _private(render(request, "own_games/game.html", context))


def _rules_line(keeper: OwnGameKeeper) -> str:
    """Who wins, when it ends, how ties are broken: the table's own line, for a fresh table."""
    game = keeper.game
    players = game.file.box.players[0]
    try:
        state = GameState(game, resolve_options(game, players, {}), players, 0)
    except RuleError:
        return ""
    return rules_text(game, state)


@require_GET
def export(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's file (its newest version, or ``?version=N``) as TOML: what import takes."""
    game = _game_or_404(game_id)
    number = request.GET.get("version", "")
    version = services.version_of(game, editor.small_number(number, services.MAX_VERSIONS + 1))
    if version is None:
        raise Http404(_("This game has no such version."))
    response = HttpResponse(files.as_toml(version.file), content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="marquoir-{game.id}-v{version.number}.toml"'
    return response


@require_http_methods(["GET", "POST"])
def file(request: HttpRequest, game_id: str | None = None) -> HttpResponse:
    """The whole file as text: import a new game (no ``game_id``), or change one with it."""
    game = _game_or_404(game_id) if game_id is not None else None
    context: dict[str, Any] = {"game": game}
    if request.method == "GET":
        if game is not None:
            version = services.version_of(game)
            context["text"] = files.as_toml(version.file) if version is not None else ""
        return _private(render(request, "own_games/file.html", context))
    text = request.POST.get("text", "")
    upload = request.FILES.get("upload")
    if upload is not None:
        raw = upload.read(MAX_IMPORT_CHARACTERS * 4 + 1)
        text = raw.decode("utf-8", errors="replace")
    context["text"] = text[: MAX_IMPORT_CHARACTERS + 1]
    if game is not None and not _may_change(request, game):
        context["error_message"] = own_game_message(ServiceError("unauthorized"))
        return _private(render(request, "own_games/file.html", context, status=401))
    try:
        services.spend_check(client_key(request))
        target = _save(request, game, files.read_text(text))
    except GameFileError as error:
        context["error_message"] = problem_text(error)
        return _private(render(request, "own_games/file.html", context, status=422))
    except ServiceError as refused:
        context["error_message"] = own_game_message(refused)
        return _private(render(request, "own_games/file.html", context, status=_status_of(refused)))
    return _saved(request, target)


def _private(response: HttpResponse) -> HttpResponse:
    """A page that may hold this device's right to change the game: no shared cache keeps it."""
    patch_cache_control(response, private=True)
    return response
