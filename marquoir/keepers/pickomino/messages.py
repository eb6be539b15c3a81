"""Pickomino's refusals put into words, in the reader's language (the core words the shared ones)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _

from marquoir.tables.kit import Wording

# Pickomino's own error codes (docs/api-v1.md) and their HTTP status.
STATUSES: Mapping[str, int] = {"no_worm": 422, "nothing_to_take": 422, "not_stealable": 422}


def _player(players: Sequence[str], index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(players):
        return players[index]
    return str(index)


WORDINGS: Mapping[str, Wording] = {
    "bad_type": lambda p, s: _('The action "type" must be "take", "bust" or "undo".'),
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
    "player_count": lambda p, s: _("Pickomino is played by 2 to 7 players."),
    "bad_options": lambda p, s: _("Table options are true or false."),
    "unknown_option": lambda p, s: _('Unknown table option "%(option)s".') % {"option": p.get("option")},
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
}
