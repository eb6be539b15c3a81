"""The sheet's refusals put into words, in the reader's language (the core words the shared
ones; a few of those are said here the sheet's way: rounds, not turns)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.sheet import NO_ROUND
from marquoir.tables.kit import Wording

# The sheet's own error codes (docs/api-v1.md) and their HTTP status.
STATUSES: Mapping[str, int] = {NO_ROUND: 422}


def _player(players: Sequence[str], index: object) -> str:
    """The name of seat ``index`` if the match is known, else its 1-based number."""
    if isinstance(index, int) and not isinstance(index, bool):
        if 0 <= index < len(players):
            return players[index]
        return _("player %(number)s") % {"number": index + 1}
    return str(index)


def _score_count(p: Mapping[str, Any], s: Sequence[str]) -> str:
    expected = p.get("expected")
    if not isinstance(expected, int):
        return _("A sheet has at most 20 players: send one score per player.")
    return ngettext(
        "This sheet has %(expected)s player: send exactly one score (%(count)s given).",
        "This sheet has %(expected)s players: send exactly one score for each (%(count)s given).",
        expected,
    ) % {"expected": expected, "count": p.get("count")}


def _score_range(p: Mapping[str, Any], s: Sequence[str]) -> str:
    if "player" in p:
        return _("The score of %(player)s is out of range: a round scores from −100,000 to 100,000.") % {
            "player": _player(s, p.get("player"))
        }
    return _("A round’s scores are from −100,000 to 100,000.")


def _bad_scores(p: Mapping[str, Any], s: Sequence[str]) -> str:
    if "player" in p:
        return _("The score of %(player)s must be a whole number (not %(score)s).") % {
            "player": _player(s, p.get("player")),
            "score": p.get("score"),
        }
    return _('"scores" must be a list of whole numbers, one per player in seating order.')


WORDINGS: Mapping[str, Wording] = {
    # Set-up: the table options, the players.
    "bad_options": lambda p, s: _('Table options are an object with "title", "lowest_wins", "target" and "rounds".'),
    "unknown_option": lambda p, s: (
        _('Unknown table option "%(option)s": a sheet takes "title", "lowest_wins", "target" and "rounds".')
        % {"option": p.get("option")}
    ),
    "bad_title": lambda p, s: _("The name of the game is one line of 1 to 60 visible characters."),
    "bad_lowest_wins": lambda p, s: _('"lowest_wins" must be true or false.'),
    "bad_target": lambda p, s: _("The target is a whole number from 1 to 10,000,000, or null for none."),
    "bad_rounds": lambda p, s: (
        _("The number of rounds is a whole number from 1 to %(most)s, or null for none.") % {"most": p.get("max")}
    ),
    "too_many_rounds": lambda p, s: (
        _("A sheet holds %(most)s rounds at most: end the game, or start a new sheet.") % {"most": p.get("max")}
    ),
    "player_count": lambda p, s: _("A score sheet takes 1 to 20 players."),
    # A round sent through the API.
    "bad_scores": _bad_scores,
    "score_count": _score_count,
    "score_range": _score_range,
    "unknown_action": lambda p, s: _('The action "type" must be "round", "end" or "undo".'),
    # A round typed on the table screen.
    "score_missing": lambda p, s: _("Write a score for %(player)s, even 0.") % {"player": _player(s, p.get("player"))},
    "score_digits": lambda p, s: (
        _(
            "The score of %(player)s is not a number: write it with the digits 0 to 9, "
            "and a minus sign in front if it is negative."
        )
        % {"player": _player(s, p.get("player"))}
    ),
    # The end, and the shared refusals said the sheet's way.
    NO_ROUND: lambda p, s: _("Record at least one round before ending the game."),
    "match_over": lambda p, s: _("The game is over: no round can be added. Undo the last step to go on."),
    "conflict": lambda p, s: _("Another device changed the sheet first: nothing was recorded from here."),
}
