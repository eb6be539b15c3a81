"""Tarot's refusals put into words, in the reader's language (the core words the shared ones;
a few of those are said here Tarot's way: deals, not turns)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.tarot import MAX_DEALS, NO_DEAL
from marquoir.tables.kit import Wording

from .narration import points_text

# Tarot's own error codes (docs/api-v1.md) and their HTTP status.
STATUSES: Mapping[str, int] = {NO_DEAL: 422}


def _points(value: object) -> str:
    """Card points quoted back: 40.5 as each language writes it; anything else as given."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return points_text(value)
    return str(value)


def _is_taker(p: Mapping[str, Any], key: str = "side") -> bool:
    return str(p.get(key)) == "taker"


def _unknown_player(p: Mapping[str, Any], s: Sequence[str]) -> str:
    if p.get("role") == "partner":
        return _("The called partner must be one of the players (or the taker, who then plays alone).")
    return _("The taker must be one of the players.")


def _bad_points(p: Mapping[str, Any], s: Sequence[str]) -> str:
    if _is_taker(p):
        return _("The card points of the taker’s side must be a number, 0 to 91.")
    return _("The card points of the defence must be a number, 0 to 91.")


def _points_for_bouts(p: Mapping[str, Any], s: Sequence[str]) -> str:
    bouts = p.get("bouts")
    count = bouts if isinstance(bouts, int) else 0
    return ngettext(
        "With %(bouts)s bout the taker’s side has %(min)s to %(max)s points, not %(points)s: each bout counts 4.5.",
        "With %(bouts)s bouts the taker’s side has %(min)s to %(max)s points, not %(points)s: each bout counts 4.5.",
        count,
    ) % {"bouts": bouts, "min": _points(p.get("min")), "max": _points(p.get("max")), "points": _points(p.get("points"))}


def _petit_au_bout_bouts(p: Mapping[str, Any], s: Sequence[str]) -> str:
    if _is_taker(p, "petit_au_bout"):
        return _("The taker’s side has no bout, so it does not hold the Petit: it cannot have taken it au bout.")
    return _(
        "The taker’s side has all three bouts, so the defence does not hold the Petit: it cannot have taken it au bout."
    )


def _too_many_poignees(p: Mapping[str, Any], s: Sequence[str]) -> str:
    side, count, most = p.get("side"), p.get("count"), p.get("max")
    number = most if isinstance(most, int) else 1
    if side is None:
        return _("One handful per player at most: %(count)s handfuls for %(max)s players.") % {
            "count": count,
            "max": most,
        }
    if str(side) == "taker":
        return ngettext(
            "The taker’s side has %(max)s player: it cannot show %(count)s handfuls.",
            "The taker’s side has %(max)s players: it cannot show %(count)s handfuls.",
            number,
        ) % {"max": most, "count": count}
    return ngettext(
        "The defence has %(max)s player: it cannot show %(count)s handfuls.",
        "The defence has %(max)s players: it cannot show %(count)s handfuls.",
        number,
    ) % {"max": most, "count": count}


_CHOICES = {
    "taker": lambda: _("Choose the taker first."),
    "contract": lambda: _("Choose the contract first."),
    "bouts": lambda: _("Say how many bouts the taker’s side has first."),
}


def _choice_missing(p: Mapping[str, Any], s: Sequence[str]) -> str:
    choice = _CHOICES.get(str(p.get("choice")))
    return choice() if choice else _("The deal is not complete yet.")


WORDINGS: Mapping[str, Wording] = {
    # Set-up: the players, the first dealer, the table options.
    "player_count": lambda p, s: _("French Tarot is played by 3, 4 or 5 players."),
    "first_player": lambda p, s: _("The first dealer must be one of the players."),
    "first_dealer": lambda p, s: _("The first dealer must be one of the players."),
    "bad_options": lambda p, s: _('Tarot’s table options are an object with "deals".'),
    "unknown_option": lambda p, s: (
        _('Unknown table option "%(option)s": Tarot takes "deals".') % {"option": p.get("option")}
    ),
    "bad_deals": lambda p, s: (
        _("The number of deals is a whole number from 1 to %(max)s, or null to stop when you say so.")
        % {"max": MAX_DEALS}
    ),
    # A deal: who, what contract, with whom.
    "unknown_action": lambda p, s: _('The action "type" must be "deal", "pass", "end" or "undo".'),
    "unknown_player": _unknown_player,
    "bad_contract": lambda p, s: _('The contract is "petite", "garde", "garde_sans" or "garde_contre".'),
    "partner_not_allowed": lambda p, s: (
        _("At %(count)s players the taker plays alone: there is no partner to name.") % {"count": p.get("player_count")}
    ),
    "partner_missing": lambda p, s: _(
        "At 5 players, say who was called: the partner, or the taker for a taker who plays alone."
    ),
    # Bouts and points.
    "bad_bouts": lambda p, s: _("The taker’s side has 0, 1, 2 or 3 bouts (not %(bouts)s).") % {"bouts": p.get("bouts")},
    "points_missing": lambda p, s: _("Give the card points of the taker’s side, or of the defence."),
    "points_twice": lambda p, s: _("Give the points of one side only: the other side has the rest of the 91."),
    "bad_points": _bad_points,
    "points_range": lambda p, s: (
        _("Card points are from 0 to 91 (not %(points)s).") % {"points": _points(p.get("points"))}
    ),
    "points_halves": lambda p, s: (
        _("Card points go by halves: 47 or 40.5, not %(points)s.") % {"points": _points(p.get("points"))}
    ),
    "points_digits": lambda p, s: _("Write the points with digits: 47, or 40.5 for a half point."),
    "points_for_bouts": _points_for_bouts,
    # The extras.
    "bad_petit_au_bout": lambda p, s: _('The Petit au bout goes to "taker", to "defence", or is null.'),
    "petit_au_bout_bouts": _petit_au_bout_bouts,
    "bad_poignees": lambda p, s: _('The handfuls are a list, each with its "side" and its "size".'),
    "bad_poignee": lambda p, s: (
        _("Handful %(number)s is not valid: give its side (taker or defence) and its size (simple, double or triple).")
        % {"number": p["index"] + 1 if isinstance(p.get("index"), int) else p.get("index")}
    ),
    "too_many_poignees": _too_many_poignees,
    "poignee_trumps": lambda p, s: (
        _("These handfuls would show %(trumps)s trumps: the deck has only 22, the Excuse included.")
        % {"trumps": p.get("trumps")}
    ),
    "bad_chelem": lambda p, s: _('The chelem is "announced_made", "made", "announced_failed" or null.'),
    "chelem_contract_failed": lambda p, s: _(
        "A chelem made is every trick to the taker’s side: the contract cannot have failed."
    ),
    "petit_au_bout_after_chelem": lambda p, s: _(
        "A chelem made is every trick to the taker’s side: the defence cannot have taken the last one with the Petit."
    ),
    "choice_missing": _choice_missing,
    # The match.
    "too_many_deals": lambda p, s: (
        _("A match keeps %(max)s deals at most: end the game, or start a new one.") % {"max": p.get("max")}
    ),
    NO_DEAL: lambda p, s: _("Score at least one deal before ending the game."),
    "match_over": lambda p, s: _("The game is over: no deal can be added. Undo the last step to go on."),
    "conflict": lambda p, s: _(
        "Another phone recorded first: nothing was recorded from here. Here is the table as it is now."
    ),
}
