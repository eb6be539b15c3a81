"""Yahtzee's refusals put into words, in the reader's language, and the boxes' names as the
sheet prints them (the core words the shared refusals; a few are said here Yahtzee's way)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from marquoir.games.yahtzee import BOX_TAKEN, JOKER_LOWER, JOKER_UPPER, Box
from marquoir.tables.kit import Wording, join_names

# Yahtzee's own error codes (docs/api-v1.md) and their HTTP status.
STATUSES: Mapping[str, int] = {BOX_TAKEN: 422, JOKER_UPPER: 422, JOKER_LOWER: 422}


def box_name(box: object) -> str:
    """A box's name as the sheet prints it ("Full house", "Full"), from its key or ``Box``;
    anything else is quoted back as it came."""
    names = {
        Box.ONES: pgettext("yahtzee box", "Ones"),
        Box.TWOS: pgettext("yahtzee box", "Twos"),
        Box.THREES: pgettext("yahtzee box", "Threes"),
        Box.FOURS: pgettext("yahtzee box", "Fours"),
        Box.FIVES: pgettext("yahtzee box", "Fives"),
        Box.SIXES: pgettext("yahtzee box", "Sixes"),
        Box.THREE_OF_A_KIND: pgettext("yahtzee box", "Three of a kind"),
        Box.FOUR_OF_A_KIND: pgettext("yahtzee box", "Four of a kind"),
        Box.FULL_HOUSE: pgettext("yahtzee box", "Full house"),
        Box.SMALL_STRAIGHT: pgettext("yahtzee box", "Small straight"),
        Box.LARGE_STRAIGHT: pgettext("yahtzee box", "Large straight"),
        Box.YAHTZEE: pgettext("yahtzee box", "Yahtzee"),
        Box.CHANCE: pgettext("yahtzee box", "Chance"),
    }
    try:
        return names[Box(str(box))]
    except ValueError:
        return str(box)


def five_alike_text(face: object) -> str:
    """“five 4s”, “cinq 4”: five dice showing ``face``."""
    return _("five %(face)ss") % {"face": face}


def _face(p: Mapping[str, Any]) -> object:
    dice = p.get("dice")
    if isinstance(dice, list) and dice:
        return dice[0]
    return p.get("face", "?")


def _allowed(p: Mapping[str, Any]) -> str:
    allowed = p.get("allowed")
    if not isinstance(allowed, list):
        return ""
    return join_names([box_name(box) for box in allowed])


def _joker_upper(p: Mapping[str, Any], s: Sequence[str]) -> str:
    face = _face(p)
    upper = box_name(Box.upper_for(face)) if isinstance(face, int) and 1 <= face <= 6 else "?"
    return _(
        "Joker rule: with the Yahtzee box filled, %(dice)s must go in %(upper)s while it is open, not in %(box)s."
    ) % {"dice": five_alike_text(face), "upper": upper, "box": box_name(p.get("box"))}


def _joker_lower(p: Mapping[str, Any], s: Sequence[str]) -> str:
    face = _face(p)
    upper = box_name(Box.upper_for(face)) if isinstance(face, int) and 1 <= face <= 6 else "?"
    return _(
        "Joker rule: %(upper)s is filled, so %(dice)s must go in an open lower box (%(allowed)s), not in %(box)s."
    ) % {"dice": five_alike_text(face), "upper": upper, "allowed": _allowed(p), "box": box_name(p.get("box"))}


def _impossible_points(p: Mapping[str, Any], s: Sequence[str]) -> str:
    if p.get("five_alike"):
        return _("Five dice alike cannot give %(points)s in %(box)s on this sheet.") % {
            "points": p.get("points"),
            "box": box_name(p.get("box")),
        }
    return _("No five dice give %(points)s in %(box)s: check the points.") % {
        "points": p.get("points"),
        "box": box_name(p.get("box")),
    }


def _bad_die(p: Mapping[str, Any], s: Sequence[str]) -> str:
    position = p.get("position")
    number = position + 1 if isinstance(position, int) and not isinstance(position, bool) else "?"
    return _("Die %(number)s is not a die: each die shows 1 to 6 (not %(die)s).") % {
        "number": number,
        "die": p.get("die"),
    }


def _dice_count(p: Mapping[str, Any], s: Sequence[str]) -> str:
    return _("Give the five dice of the last roll, not %(count)s.") % {"count": p.get("count")}


WORDINGS: Mapping[str, Wording] = {
    # Set-up.
    "player_count": lambda p, s: _("Yahtzee is played by 1 to 8 players, each with a sheet."),
    "bad_options": lambda p, s: _("Yahtzee has no table options: send none, or an empty object."),
    "unknown_option": lambda p, s: (
        _('Unknown table option "%(option)s": Yahtzee has none.') % {"option": p.get("option")}
    ),
    # A turn sent through the API.
    "unknown_box": lambda p, s: (
        _(
            'Unknown box "%(box)s": the boxes are ones, twos, threes, fours, fives, sixes, three_of_a_kind, '
            "four_of_a_kind, full_house, small_straight, large_straight, yahtzee and chance."
        )
        % {"box": p.get("box")}
    ),
    "bad_dice": lambda p, s: _('"dice" must be a list of the five dice of the last roll, each 1 to 6.'),
    "dice_count": _dice_count,
    "bad_die": _bad_die,
    "bad_points": lambda p, s: _('"points" must be a whole number from 0 to 50.'),
    "bad_five_alike": lambda p, s: _('"five_alike" must be true, false or null.'),
    "dice_and_points": lambda p, s: _('Give the five dice or the points, not both: "dice" or "points".'),
    "no_dice_nor_points": lambda p, s: _('Give the five dice of the last roll ("dice"), or the points ("points").'),
    "five_alike_with_dice": lambda p, s: _('"five_alike" goes with "points": the dice say it themselves.'),
    "impossible_points": _impossible_points,
    "unknown_action": lambda p, s: _('The action "type" must be "score" or "undo".'),
    BOX_TAKEN: lambda p, s: (
        _("%(box)s already holds a score on this sheet: choose an open box.") % {"box": box_name(p.get("box"))}
    ),
    JOKER_UPPER: _joker_upper,
    JOKER_LOWER: _joker_lower,
    "match_over": lambda p, s: _("The game is over: all thirteen rounds are scored. Undo the last turn to go on."),
    # A turn entered on the table screen.
    "dice_missing": lambda p, s: _("Tap the five dice first: %(count)s of 5 entered.") % {"count": p.get("count", 0)},
    "bad_form_dice": lambda p, s: _("These dice cannot be read: tap the five dice again."),
    "points_missing": lambda p, s: _("Write the points to put in the box, even 0."),
    "points_digits": lambda p, s: _("Write the points with the digits 0 to 9."),
    "box_missing": lambda p, s: _("Choose the box to write the points in."),
    "bad_entry": lambda p, s: _("This address holds dice that cannot be read: tap the dice again."),
    # The assistant's endpoint.
    "bad_advice_dice": lambda p, s: _('"dice" is the five dice shown, 1 to 6 each, separated by commas: 1,3,3,4,6.'),
    "bad_rolls_left": lambda p, s: _('"rolls_left" is 0, 1 or 2: the rolls still allowed after this one.'),
    "rolls_left_without_dice": lambda p, s: _('"rolls_left" goes with "dice": give the five dice shown.'),
}
