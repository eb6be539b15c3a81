"""Refusals put into words, in the reader's language: one sentence per code and reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# HTTP status per API error code (docs/api-v1.md).
STATUS: dict[str, int] = {
    "invalid": 422,
    "no_worm": 422,
    "nothing_to_take": 422,
    "not_stealable": 422,
    "match_over": 409,
    "nothing_to_undo": 409,
    "conflict": 409,
    "unauthorized": 401,
    "not_found": 404,
    "rate_limited": 429,
    "too_large": 413,
    "unsupported_media_type": 415,
    "method_not_allowed": 405,
    "server_error": 500,
}


def _player(players: Sequence[str], index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(players):
        return players[index]
    return str(index)


def message_for(code: str, reason: str, params: Mapping[str, Any], players: Sequence[str] = ()) -> str:
    """The sentence for a refusal; ``players`` names seats in the match, when known."""
    wording = _REASONS.get(reason) or _REASONS.get(code) or _REASONS["invalid"]
    return wording(params, players)


_REASONS: dict[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {
    "invalid": lambda p, s: _("This request is not valid."),
    "not_an_object": lambda p, s: _("The request body must be a JSON object."),
    "bad_json": lambda p, s: _("The request body is not valid JSON."),
    "bad_type": lambda p, s: _('The action "type" must be "take", "bust" or "undo".'),
    "unknown_field": lambda p, s: _('Unknown field "%(field)s".') % {"field": p.get("field")},
    "bad_expected_seq": lambda p, s: _('"expected_seq" must be a whole number, 0 or more.'),
    "bad_action_id": lambda p, s: _('"action_id" must be text of 1 to 64 characters, without control characters.'),
    "bad_reason": lambda p, s: _("Unknown reason for a bust."),
    "bad_total": lambda p, s: _("The total must be a whole number from 5 to 40 (a worm counts 5)."),
    "bad_worm": lambda p, s: _('"worm" must be true or false.'),
    "bad_source": lambda p, s: _('"from" must be "grill" or the 0-based index of another player.'),
    "dice_and_total": lambda p, s: _("Send either the kept dice or the total and worm, not both."),
    "unknown_face": lambda p, s: _('Die faces are "1" to "5" and "worm".'),
    "bad_die_count": lambda p, s: _("Each face's count must be from 0 to 8."),
    "bad_dice": lambda p, s: _("The kept dice must be given as counts per face."),
    "bad_roll": lambda p, s: _("A roll must be given as counts per face, 8 dice at most."),
    "no_dice": lambda p, s: _("No dice were kept."),
    "too_many_dice": lambda p, s: _("There are only 8 dice."),
    "face_already_kept": lambda p, s: _("This face was already kept this turn: each face can be kept only once."),
    "no_die_kept": lambda p, s: _("Keep at least one die after each roll."),
    "turn_finished": lambda p, s: _("All the dice or all the faces are kept: the turn is over, claim a tile."),
    "wrong_roll_size": lambda p, s: _("A roll throws every die not yet kept."),
    "face_not_rolled": lambda p, s: _("That face is not in this roll."),
    "bad_players": lambda p, s: _("Players must be given as a list of names."),
    "player_count": lambda p, s: _("Pickomino is played by 2 to 7 players."),
    "name_empty": lambda p, s: _("Every player needs a name."),
    "name_too_long": lambda p, s: _("A name has at most %(limit)s characters.") % {"limit": p.get("limit", 40)},
    "name_characters": lambda p, s: _("A name cannot hold control characters."),
    "name_invisible": lambda p, s: _("A name needs at least one visible letter, digit or sign."),
    "duplicate_key": lambda p, s: _('The field "%(field)s" is given twice.') % {"field": p.get("field")},
    "too_large": lambda p, s: _("The request body is too large: %(limit)s bytes at most.") % {"limit": p.get("limit")},
    "not_json": lambda p, s: _('Send the body as JSON, with "Content-Type: application/json".'),
    "method_not_allowed": lambda p, s: (
        _("This address does not answer %(method)s: use %(allowed)s.")
        % {"method": p.get("method"), "allowed": p.get("allowed")}
    ),
    "server_error": lambda p, s: _("Something went wrong on the server; nothing was changed. Try again."),
    "name_twice": lambda p, s: _("Two players are called “%(name)s”: names must differ.") % {"name": p.get("name")},
    "first_player": lambda p, s: _("The player who starts must be one of the players."),
    "bad_options": lambda p, s: _("Table options are true or false."),
    "unknown_option": lambda p, s: _('Unknown table option "%(option)s".') % {"option": p.get("option")},
    "unknown_game": lambda p, s: _("Marquoir does not keep score for this game."),
    "bad_claim_query": lambda p, s: _("Give a total from 5 to 40 and whether a worm was kept."),
    "no_worm": lambda p, s: _("No worm was kept, so no tile can be claimed: this turn is a bust."),
    "nothing_to_take": lambda p, s: (
        _("No face-up tile on the grill at or below %(total)s: this turn is a bust.") % {"total": p.get("total")}
    ),
    "own_tile": lambda p, s: _("You cannot steal your own top tile."),
    "top_differs": lambda p, s: (
        _("%(player)s has no tile to steal.") % {"player": _player(s, p.get("player"))}
        if p.get("top") is None
        else _("The top tile of %(player)s is %(top)s, not %(total)s: only the exact total steals.")
        % {"player": _player(s, p.get("player")), "top": p.get("top"), "total": p.get("total")}
    ),
    "not_stealable": lambda p, s: _("That tile cannot be stolen."),
    "match_over": lambda p, s: _("The game is over: no more turns can be recorded."),
    "nothing_to_undo": lambda p, s: _("There is nothing to undo."),
    "conflict": lambda p, s: _("This turn was already recorded from another device: here is the table as it is now."),
    "unauthorized": lambda p, s: _("This link lets you watch, not keep score: the edit token is missing or wrong."),
    "not_found": lambda p, s: _("There is no match at this address."),
    "rate_limited": lambda p, s: (
        ngettext(
            "Too many new matches from here: try again in %(minutes)s minute.",
            "Too many new matches from here: try again in %(minutes)s minutes.",
            int(p.get("minutes", 1)),
        )
        % {"minutes": p.get("minutes", 1)}
    ),
}
