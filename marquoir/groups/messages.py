"""A group's refusals in words, in the reader's language (the match core words the rest)."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

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
    # An import refused, by what was wrong in the file.
    "import_refused": lambda p, s: _("This file cannot be imported: %(detail)s") % {"detail": p.get("detail")},
}


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
