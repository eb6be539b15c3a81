"""A game file of the first version, said in the second (docs/game-file.md, "From the first
version"): the first version's flags become rules of the second, so a file written before
(a user's own game, saved in the database; a file kept on a phone) keeps working unchanged.

- ``scored = "turns"`` and ``[turns]``: the game is scored by rounds, entered by turns
  (``entry = "turns"``); ``turns.carry`` and ``turns.after`` are every game's ``carry`` and
  ``after``; ``turns.skip`` is ``out``;
- ``winner``, ``lowest_wins_when`` and ``[[tiebreaks]]``: the ``ranking``, the total's order
  a formula where the options turn it over (UNO's "held" scoring); a game with players out
  ranks those still in first, as the first version did;
- ``end.untied``: ``end.unless`` while the first place is shared;
- ``end.last_standing``: an end rule, when one player alone is still in;
- ``rematch = "lowest_first"``: ``[rematch]`` by the total, lowest first.

Pure data: a decoded document in, a decoded document out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

STILL_IN = {
    "key": "in_play",
    "label": {"en": "still in the game", "fr": "encore en jeu"},
    "value": "!out",
    "order": "highest",
}
"""The first version ranked a player still in before one who is out, in every game with ``skip``."""

LAST_STANDING = {
    "key": "last_standing",
    "label": {"en": "One player alone is still in", "fr": "Un seul joueur encore en jeu"},
    "when": "all.out.filter(o, !o).size() <= 1",
}

FIRST_SHARED = "size(leaders) > 1"
"""``end.untied``: while more than one side ranks first, the game goes on."""


def is_first_version(data: object) -> bool:
    """A decoded file of the first version: it says so, or says no version and has no
    ``ranking`` (which every second-version file has; a file written out without its
    defaults may leave its version out)."""
    if not isinstance(data, Mapping):
        return False
    version = data.get("schema_version")
    return version == 1 or (version is None and "ranking" not in data)


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (a first-version file, decoded) in the second version. What it cannot read is
    left for the schema to refuse, with the field named."""
    file = dict(data)
    file["schema_version"] = 2
    turns = file.pop("turns", None)
    if file.get("scored") == "turns":
        file["scored"] = "rounds"
        file["entry"] = "turns"
    skip = None
    if isinstance(turns, Mapping):
        turns = dict(turns)
        if "carry" in turns:
            file["carry"] = turns.pop("carry")
        if "after" in turns:
            file["after"] = turns.pop("after")
        skip = turns.pop("skip", None)
        if skip is not None:
            file["out"] = skip
        if turns.get("others"):
            file["turns"] = {"others": turns.pop("others")}
    elif turns is not None:
        file["turns"] = turns  # not a table: the schema names it
    file["ranking"] = _ranking(file, skip is not None)
    end = file.get("end")
    if isinstance(end, Mapping):
        end = dict(end)
        if end.pop("untied", False):
            end["unless"] = FIRST_SHARED
        if end.pop("last_standing", False):
            end["rules"] = [*end.get("rules", []), LAST_STANDING]
        file["end"] = end
    rematch = file.pop("rematch", "same")
    if rematch == "lowest_first":
        file["rematch"] = {"by": "total", "order": "lowest"}
    elif rematch != "same":
        file["rematch"] = rematch
    return file


def _ranking(file: dict[str, Any], players_out: bool) -> Any:
    winner = file.pop("winner", "highest")
    lowest_when = file.pop("lowest_wins_when", None)
    tiebreaks = file.pop("tiebreaks", [])
    order: Any = winner
    if isinstance(lowest_when, str) and winner in ("highest", "lowest"):
        other = "lowest" if winner == "highest" else "highest"
        order = f"({lowest_when}) ? '{other}' : '{winner}'"
    ranking: list[Any] = [STILL_IN] if players_out else []
    ranking.append({"key": "total", "order": order})
    if not isinstance(tiebreaks, list):
        return tiebreaks  # not a list: the schema names it
    for tiebreak in tiebreaks:
        if not isinstance(tiebreak, Mapping):
            ranking.append(tiebreak)
            continue
        key = dict(tiebreak)
        higher = key.pop("higher", True)
        key["order"] = "highest" if higher else "lowest"
        ranking.append(key)
    return ranking
