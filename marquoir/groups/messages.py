"""A group's refusals in words, in the reader's language (the match core words the rest)."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.tables.api_errors import api_language
from marquoir.tables.keepers import Wording
from marquoir.tables.messages import STATUS, message_for
from marquoir.tables.services import ServiceError

WORDINGS: Mapping[str, Wording] = {
    "not_found": lambda p, s: _("There is no group at this address."),
    "unauthorized": lambda p, s: _(
        "This link lets you see the group, not change it: the edit key is missing or wrong."
    ),
    "no_such_match": lambda p, s: _("There is no match at this address."),
    "no_such_member": lambda p, s: _("This group has no such player."),
    "no_such_play": lambda p, s: _("This group has no such match."),
    "already_in_group": lambda p, s: _("This match is already in a group’s history."),
    "match_write_needed": lambda p, s: _(
        "A match joins a group only with the right to keep its score: paste its “Keep score too” link, "
        "or add it from a phone that keeps its score (its watch link is not enough)."
    ),
    "match_token_needed": lambda p, s: _(
        "A match joins a group only with the right to keep its score: send its own edit token as "
        "“match_edit_token” (its id alone is the right to watch it)."
    ),
    "history_full": lambda p, s: (
        _("This group’s history is full (%(limit)s matches): export it, then start a new group.")
        % {"limit": p.get("limit")}
    ),
    "group_name_empty": lambda p, s: _("The group needs a name."),
    "group_name_too_long": lambda p, s: (
        _("A group’s name has at most %(limit)s characters.") % {"limit": p.get("limit")}
    ),
    "group_name_characters": lambda p, s: _("A group’s name needs visible letters, and no control characters."),
    "too_many_members": lambda p, s: _("A group has at most %(limit)s players.") % {"limit": p.get("limit")},
    "player_count": lambda p, s: (
        _("A group has %(least)s to %(most)s players.") % {"least": p.get("least"), "most": p.get("most")}
    ),
    "name_twice": lambda p, s: _("The group already has a player called “%(name)s”.") % {"name": p.get("name")},
    "name_lookalike": lambda p, s: (
        _("“%(name)s” looks just like “%(other)s”, who is already in the group.")
        % {"name": p.get("name"), "other": p.get("other")}
    ),
    "rate_limited": lambda p, s: (
        ngettext(
            "Too many new groups from here: try again in %(minutes)s minute.",
            "Too many new groups from here: try again in %(minutes)s minutes.",
            int(p.get("minutes", 1)),
        )
        % {"minutes": p.get("minutes", 1)}
    ),
    "too_many_reads": lambda p, s: (
        ngettext(
            "Too many reads of groups from here: try again in %(seconds)s second.",
            "Too many reads of groups from here: try again in %(seconds)s seconds.",
            int(p.get("seconds", 1)),
        )
        % {"seconds": p.get("seconds", 1)}
    ),
    "too_many_exports": lambda p, s: (
        ngettext(
            "Too many exports from here: try again in %(minutes)s minute.",
            "Too many exports from here: try again in %(minutes)s minutes.",
            int(p.get("minutes", 1)),
        )
        % {"minutes": p.get("minutes", 1)}
    ),
    "import_busy": lambda p, s: _("Another import is being read on the server just now: try again in a few seconds."),
    "too_many_imports": lambda p, s: (
        ngettext(
            "Too many imports from here: try again in %(minutes)s minute.",
            "Too many imports from here: try again in %(minutes)s minutes.",
            int(p.get("minutes", 1)),
        )
        % {"minutes": p.get("minutes", 1)}
    ),
    # An import refused, by what is wrong in the file (see exchange.read_export).
    "import_not_json_object": lambda p, s: _("This file is not an export of a group: it holds no JSON object."),
    "import_too_many_plays": lambda p, s: _("This file holds %(count)s matches: %(limit)s at most.") % _counted(p),
    "import_too_many_players": lambda p, s: _("This file holds %(count)s players: %(limit)s at most.") % _counted(p),
    "import_too_many_members": lambda p, s: (
        _("The matches of this file seat %(count)s players: a group has %(limit)s at most.") % _counted(p)
    ),
    "import_too_many_games": lambda p, s: _("This file holds %(count)s games: %(limit)s at most.") % _counted(p),
    "import_bad_field": lambda p, s: (
        _("This file is not an export of a group: “%(field)s” is missing or wrong.") % {"field": p.get("field")}
    ),
    "import_unsupported_format": lambda p, s: (
        _("This file was written by a newer Marquoir (format %(format)s).") % {"format": p.get("format")}
    ),
    "import_bad_name": lambda p, s: (
        _("In this file, the name “%(name)s” cannot be used: %(problem)s")
        % {"name": p.get("name"), "problem": _name_problem(p)}
    ),
    "import_duplicate_name": lambda p, s: (
        _("Two players of this file are called “%(name)s”.") % {"name": p.get("name")}
    ),
    "import_duplicate_id": lambda p, s: (
        _("Two players or games of this file have the same id (%(id)s).") % {"id": p.get("id")}
    ),
    "import_bad_play_id": lambda p, s: _("Match %(play)s of this file has no valid id.") % {"play": p.get("play")},
    "import_duplicate_play": lambda p, s: _("Match %(play)s of this file is there twice.") % {"play": p.get("play")},
    "import_unknown_game": lambda p, s: (
        _("Match %(play)s of this file names a game the file does not list.") % {"play": p.get("play")}
    ),
    "import_unsupported_game": lambda p, s: (
        _("Match %(play)s of this file is of a game Marquoir does not know.") % {"play": p.get("play")}
    ),
    "import_bad_seat_count": lambda p, s: (
        _("Match %(play)s of this file does not have a number of players Marquoir keeps: %(least)s to %(most)s.")
        % {"play": p.get("play"), "least": p.get("least"), "most": p.get("most")}
    ),
    "import_unknown_player": lambda p, s: (
        _("Match %(play)s of this file names a player the file does not list.") % {"play": p.get("play")}
    ),
    "import_player_twice": lambda p, s: (
        _("Match %(play)s of this file has a player sitting twice.") % {"play": p.get("play")}
    ),
    "import_bad_score": lambda p, s: (
        _("Match %(play)s of this file has a score that is no number: “%(given)s”.")
        % {"play": p.get("play"), "given": p.get("given")}
    ),
    "import_bad_date": lambda p, s: (
        _("Match %(play)s of this file has a date that cannot be read: “%(given)s”.")
        % {"play": p.get("play"), "given": p.get("given")}
    ),
    "import_bad_figures": lambda p, s: (
        _("Match %(play)s of this file has figures that cannot be read.") % {"play": p.get("play")}
    ),
}


def _counted(params: Mapping[str, object]) -> dict[str, object]:
    return {"count": params.get("count"), "limit": params.get("limit")}


def _name_problem(params: Mapping[str, object]) -> str:
    problem = params.get("problem")
    if problem == "empty":
        return _("it is empty.")
    if problem == "too_long":
        return _("it is longer than %(limit)s characters.") % {"limit": params.get("limit")}
    if problem == "characters":
        return _("it holds control characters.")
    if problem == "marks":
        return _("it piles too many accents or marks on one letter.")
    return _("it has nothing visible in it.")


def group_message(error: ServiceError) -> str:
    """The sentence for a refusal of a group's request, in the current language."""
    return message_for(error.code, error.reason, error.params, (), WORDINGS)


def group_error_response(request: HttpRequest, error: ServiceError) -> JsonResponse:
    """The contract's error body for a group's refusal, in the request's language."""
    with translation.override(api_language(request)):
        message = group_message(error)
    response = JsonResponse({"error": {"code": error.code, "message": message}}, status=STATUS.get(error.code, 422))
    if error.code == "unauthorized":
        response["WWW-Authenticate"] = 'Bearer realm="marquoir"'
    return response
