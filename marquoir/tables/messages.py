"""Refusals put into words, in the reader's language: one sentence per code and reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .keepers import ScoreKeeper, Wording
from .schemas import shorten

# HTTP status per API error code shared by every game (docs/api-v1.md).
STATUS: dict[str, int] = {
    "invalid": 422,
    "match_over": 409,
    "nothing_to_undo": 409,
    "nothing_to_redo": 409,
    # A correction of an entry that is no action in force (an undo, an entry undone, none).
    "not_correctable": 409,
    "conflict": 409,
    # The match's log holds services.MAX_LOG_ENTRIES entries: nothing more is recorded.
    "log_full": 409,
    "unauthorized": 401,
    # A right was shown, but not the one this write needs (a group's key, no match's token).
    "forbidden": 403,
    "not_found": 404,
    "rate_limited": 429,
    "too_large": 413,
    "unsupported_media_type": 415,
    "method_not_allowed": 405,
    "server_error": 500,
    "unavailable": 503,
}


def message_for(
    code: str,
    reason: str,
    params: Mapping[str, Any],
    players: Sequence[str] = (),
    wordings: Mapping[str, Wording] | None = None,
) -> str:
    """The sentence for a refusal; ``players`` names seats in the match, when known; a
    game's ``wordings`` word its own refusals (and may word a shared one its own way)."""
    own: Mapping[str, Wording] = wordings or {}
    wording = own.get(reason) or _REASONS.get(reason) or own.get(code) or _REASONS.get(code) or _REASONS["invalid"]
    text = wording(params, players)
    broken = params.get("at_seq")
    if broken is None:
        return text
    # A correction the rules refused: the rule's words, and which entry it broke.
    if broken == params.get("corrects"):
        return _("This correction cannot be kept: %(reason)s") % {"reason": text}
    return _("With this correction, entry %(seq)s would break a rule: %(reason)s") % {"seq": broken, "reason": text}


def status_for(code: str, keeper: ScoreKeeper | None = None) -> int:
    """The HTTP status of an error code (the game's own codes answer 422 unless it says)."""
    if keeper is not None and code in keeper.statuses:
        return keeper.statuses[code]
    return STATUS.get(code, 422)


_REASONS: dict[str, Wording] = {
    "invalid": lambda p, s: _("This request is not valid."),
    "not_an_object": lambda p, s: _("The request body must be a JSON object."),
    "bad_query": lambda p, s: _("The parameters of this address are missing or not valid."),
    "bad_json": lambda p, s: _("The request body is not valid JSON."),
    "unknown_field": lambda p, s: _('Unknown field "%(field)s".') % {"field": p.get("field")},
    "bad_expected_seq": lambda p, s: _('"expected_seq" must be a whole number, 0 or more.'),
    "bad_action_id": lambda p, s: _('"action_id" must be text of 1 to 64 characters, without control characters.'),
    "bad_players": lambda p, s: _("Players must be given as a list of names."),
    "bad_field": lambda p, s: _('The field "%(field)s" is not valid here.') % {"field": p.get("field")},
    "name_empty": lambda p, s: _("Every player needs a name."),
    "name_too_long": lambda p, s: _("A name has at most %(limit)s characters.") % {"limit": p.get("limit", 40)},
    "name_characters": lambda p, s: _("A name cannot hold control characters."),
    "name_invisible": lambda p, s: _("A name needs at least one visible letter, digit or sign."),
    "name_marks": lambda p, s: (
        _("A name cannot pile more than %(limit)s accents or marks on one letter.") % {"limit": p.get("limit")}
    ),
    "name_lookalike": lambda p, s: (
        _("“%(name)s” looks just like “%(other)s”: give the players names that can be told apart.")
        % {"name": p.get("name"), "other": p.get("other")}
    ),
    "duplicate_key": lambda p, s: _('The field "%(field)s" is given twice.') % {"field": p.get("field")},
    "too_large": lambda p, s: _("The request body is too large: %(limit)s bytes at most.") % {"limit": p.get("limit")},
    "not_json": lambda p, s: _('Send the body as JSON, with "Content-Type: application/json".'),
    "method_not_allowed": lambda p, s: (
        _("This address does not answer %(method)s: use %(allowed)s.")
        % {"method": p.get("method"), "allowed": p.get("allowed")}
    ),
    "server_error": lambda p, s: _("Something went wrong on the server; nothing was changed. Try again."),
    "database_unavailable": lambda p, s: _(
        "The server cannot reach its database just now; nothing was changed. Try again in a moment."
    ),
    "name_twice": lambda p, s: _("Two players are called “%(name)s”: names must differ.") % {"name": p.get("name")},
    "first_player": lambda p, s: _("The player who starts must be one of the players."),
    "unknown_game": lambda p, s: _("Marquoir does not keep score for this game."),
    "match_over": lambda p, s: _("The game is over: no more turns can be recorded."),
    "nothing_to_undo": lambda p, s: _("There is nothing to undo."),
    "nothing_to_redo": lambda p, s: _("There is nothing to redo: only what was just undone can be redone."),
    "not_correctable": lambda p, s: (
        _("Entry %(seq)s cannot be corrected: only a turn still in force can be.") % {"seq": shorten(p.get("seq"))}
    ),
    "bad_log_from": lambda p, s: _('"from" must be the seq of an entry, a whole number from 1.'),
    "bad_correction_seq": lambda p, s: _('"seq" must be the number of the entry to correct, 1 or more.'),
    "bad_correction_action": lambda p, s: _(
        "A correction's \"action\" must be one of the game's own actions (not undo, redo or correct)."
    ),
    "correction_guards": lambda p, s: _(
        'Put "expected_seq" and "action_id" on the correction itself, not inside its "action".'
    ),
    "conflict": lambda p, s: _("This turn was already recorded from another device: here is the table as it is now."),
    "unauthorized": lambda p, s: _("This link lets you watch, not keep score: the edit token is missing or wrong."),
    "not_found": lambda p, s: _("There is no match at this address."),
    "no_such_address": lambda p, s: _("The API has no such address: see /api/v1/docs."),
    "bad_host": lambda p, s: _("This server does not answer for that host name."),
    "wrong_game": lambda p, s: (
        _("This match is not one of %(game)s: it has no such address.") % {"game": p.get("game")}
    ),
    "rate_limited": lambda p, s: (
        ngettext(
            "Too many new matches from here: try again in %(minutes)s minute.",
            "Too many new matches from here: try again in %(minutes)s minutes.",
            int(p.get("minutes", 1)),
        )
        % {"minutes": p.get("minutes", 1)}
    ),
    "too_many_actions": lambda p, s: (
        ngettext(
            "Too many actions in a row: nothing was recorded. Try again in %(seconds)s second.",
            "Too many actions in a row: nothing was recorded. Try again in %(seconds)s seconds.",
            int(p.get("seconds", 1)),
        )
        % {"seconds": p.get("seconds", 1)}
    ),
    "log_full": lambda p, s: (
        _(
            "This match has reached the most it can record (%(limit)s entries, undos included): "
            "nothing more can be recorded. Start a new match to play on."
        )
        % {"limit": p.get("limit")}
    ),
    "player_count": lambda p, s: (
        _("This game is played by %(least)s to %(most)s players.") % {"least": p.get("least"), "most": p.get("most")}
    ),
    "bad_type": lambda p, s: (
        _('The action "type" must be one of: %(types)s.') % {"types": ", ".join(f'"{t}"' for t in p.get("types", []))}
    ),
    "bad_options": lambda p, s: _("These table options are not valid."),
    "unknown_option": lambda p, s: _('Unknown table option "%(option)s".') % {"option": p.get("option")},
}
