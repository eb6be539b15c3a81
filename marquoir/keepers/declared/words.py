"""A declared game's words: its log, its refusals and the tie-break, in the page's language.

What a game file names (its inputs, categories, checks) it names in both languages; the
sentences around those names are Marquoir's own, translated by gettext like every other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from marquoir.games.declared import Game, GameState, RoundScored
from marquoir.games.declared.engine import Ended, TieBroken, first_after, tie_broken, winners
from marquoir.games.declared.gamefile import SAID_NAME, InputDef, Words
from marquoir.tables.kit import (
    LogWords,
    Wording,
    end_taken_back,
    game_over_short,
    join_names,
    lead_text,
    result_clause,
    result_text,
    scores_text,
    total_text,
    undo_text,
)


def language() -> str:
    return get_language() or "en"


def local(words: Words) -> str:
    """``words`` in the page's language."""
    return words.get(language())


lazy_local: Callable[[Words], str] = lazy(local, str)
"""``words`` in the language of whoever reads it later (a group's stats label)."""


def round_status(state: GameState) -> str:
    """The band's line while the game goes on."""
    number, planned = state.round_count + 1, state.rounds_planned()
    if state.game.by_turns:
        return _("Turn %(number)s") % {"number": number}
    if state.game.file.scored == "end" and planned is not None and planned > 1:
        return _("Final scoring, game %(number)s of %(rounds)s") % {"number": number, "rounds": planned}
    if state.game.file.scored == "end":
        return _("Final scoring")
    if planned is None:
        return _("Round %(number)s") % {"number": number}
    return _("Round %(number)s of %(rounds)s") % {"number": number, "rounds": planned}


def tie_text(game: Game, broken: TieBroken | None, players: Sequence[str]) -> str | None:
    """How a tie for the first place was settled, in a sentence (None: no tie)."""
    if broken is None:
        return None
    tied = join_names([players[seat] for seat in broken.tied])
    if broken.tiebreak is None:
        if game.file.tiebreaks:
            return _("%(names)s are tied on every tie-break: they share the win.") % {"names": tied}
        return _("%(names)s are tied: the rules share the win.") % {"names": tied}
    tiebreak = game.file.tiebreaks[broken.tiebreak]
    values = ", ".join(
        _("%(name)s %(value)s") % {"name": players[seat], "value": total_text(value)}
        for seat, value in zip(broken.tied, broken.values, strict=True)
    )
    return _("%(names)s are tied on points; the tie goes to %(rule)s (%(values)s).") % {
        "names": tied,
        "rule": local(tiebreak.words),
        "values": values,
    }


def side_names(game: Game, teams: Sequence[Sequence[int]] | None, players: Sequence[str]) -> list[str]:
    """The names of the sides that score: the players, each team by its players ("Ada and
    Cy"), or the table (a cooperative game)."""
    if teams is not None:
        return [join_names([players[seat] for seat in team]) for team in teams]
    if game.cooperative:
        return [_("The table")]
    return list(players)


def outcome_text(
    game: Game, won: Sequence[int], totals: Sequence[int], names: Sequence[str], result: str | None
) -> str:
    """The result as a sentence: a cooperative game's (won or lost together), else who won."""
    if result == "won":
        if game.file.cooperative is not None and game.file.cooperative.score:
            return _("The table wins together, with %(score)s.") % {"score": total_text(totals[0])}
        return _("The table wins together.")
    if result == "lost":
        return _("The table loses together.")
    return result_text(won, totals, names)


def instant_text(game: Game, outcome: RoundScored, players: Sequence[str]) -> str:
    """A match won at once by a feat, not by the totals (7 Wonders Duel's supremacy): the
    rule and the winners, never "wins with" a score that may be behind."""
    rule = next((rule for rule in game.file.end.rules if rule.key == outcome.end_reason), None)
    won = outcome.instant
    people = sum(len(outcome.teams[side]) for side in won) if outcome.teams else len(won)
    return ngettext("%(rule)s: %(names)s wins at once.", "%(rule)s: %(names)s win at once.", people) % {
        "rule": local(rule.label) if rule is not None else "",
        "names": join_names([players[side] for side in won]),
    }


def _end_text(outcome: RoundScored, game: Game | None = None) -> str:
    rule = next((rule for rule in game.file.end.rules if rule.key == outcome.end_reason), None) if game else None
    if rule is not None and rule.key != "last_standing":
        return _("%(rule)s: the game is over.") % {"rule": local(rule.label)}
    if outcome.end_reason == "target":
        return _("A total reached the target: the game is over.")
    if outcome.end_reason == "last_standing":
        return _("Only one player is still in the game: the game is over.")
    if outcome.end_reason == "rounds" and outcome.number > 1:
        return _("That was the last round: the game is over.")
    return _("The game is over.")


def log_words(game: Game) -> LogWords:
    """The game's log, in a sentence and in short, for each round, end and undo."""
    final = game.file.scored == "end"

    def describe(outcome: Any, people: Sequence[str]) -> str:
        players = side_names(game, outcome.teams, people)
        if isinstance(outcome, RoundScored):
            if outcome.player is not None:
                text = turn_text(outcome, players)
            elif outcome.closing:
                text = _("The end’s count: %(scores)s.") % {"scores": scores_text(outcome.points, players)}
            elif final:
                text = _("Final scores: %(scores)s.") % {"scores": scores_text(outcome.totals, players)}
            else:
                text = _("Round %(number)s: %(scores)s.") % {
                    "number": outcome.number,
                    "scores": scores_text(outcome.points, players),
                }
            if outcome.said:
                text += " " + " ".join(said_text(game, outcome, players))
            if outcome.game_over and outcome.instant:
                text += " " + instant_text(game, outcome, players)
            elif outcome.game_over:
                if not final and not outcome.closing:
                    text += " " + _end_text(outcome, game)
                text += " " + outcome_text(game, first_after(game, outcome), outcome.totals, players, outcome.result)
            return text
        stopped = ngettext(
            "The players stopped after %(count)s round.", "The players stopped after %(count)s rounds.", outcome.rounds
        ) % {"count": outcome.rounds}
        return stopped + " " + outcome_text(game, outcome.winners, outcome.totals, players, outcome.result)

    def describe_short(outcome: Any, people: Sequence[str]) -> str:
        players = side_names(game, outcome.teams, people)
        if outcome.result is not None:
            return outcome_text(game, (), outcome.totals, players, outcome.result)
        if isinstance(outcome, RoundScored):
            leaders = first_after(game, outcome)
            if outcome.game_over and outcome.instant:
                standing = instant_text(game, outcome, players)
            elif outcome.game_over:
                standing = result_clause(leaders, outcome.totals, players)
            else:
                standing = lead_text(leaders, outcome.totals, players)
            if final:
                return standing
            if outcome.closing:
                return _("The end’s count · %(standing)s") % {"standing": standing}
            if outcome.player is not None:
                return _("%(name)s · %(standing)s") % {"name": players[outcome.player], "standing": standing}
            if outcome.said:
                # What the file says of the round in its place: "Ada and Cy: 110, made · …".
                return _("%(said)s · %(standing)s") % {
                    "said": " · ".join(said_text(game, outcome, players, short=True)),
                    "standing": standing,
                }
            return _("Round %(number)s · %(standing)s") % {"number": outcome.number, "standing": standing}
        return game_over_short(outcome.winners, outcome.totals, players)

    def describe_undo(undone: Any, people: Sequence[str]) -> str:
        players = side_names(game, undone.teams, people)
        if isinstance(undone, RoundScored):
            if undone.player is not None:
                return _("%(name)s’s turn taken back.") % {"name": players[undone.player]}
            if undone.closing:
                return _("The end’s count taken back: the game goes on.")
            if final:
                return _("Final scores taken back.")
            return _("Round %(number)s taken back (%(scores)s).") % {
                "number": undone.number,
                "scores": scores_text(undone.points, players),
            }
        if isinstance(undone, Ended):
            return end_taken_back()
        return undo_text()

    def describe_undo_short(undone: Any, players: Sequence[str]) -> str:
        if isinstance(undone, RoundScored):
            if undone.player is not None:
                return _("%(name)s’s turn taken back") % {"name": players[undone.player]}
            if undone.closing:
                return _("The end’s count taken back")
            return (
                _("Final scores taken back") if final else _("Round %(number)s taken back") % {"number": undone.number}
            )
        if isinstance(undone, Ended):
            return end_taken_back(short=True)
        return undo_text()

    return LogWords(describe, describe_short, describe_undo, describe_undo_short)


def said_text(game: Game, outcome: RoundScored, players: Sequence[str], *, short: bool = False) -> list[str]:
    """The file's sentences about this round (``said``), in the reader's language: each
    ``{name}`` as the table reads it (a side's name, a choice's label, a number). ``short``:
    without the final full stop, for the bar."""
    inputs = {item.key: item for item in game.file.inputs}
    values = outcome.said_values

    def value_of(found: re.Match[str]) -> str:
        name = found.group(1)
        return _said_value(inputs.get(name), values[name], players) if name in values else found.group(0)

    # In one pass: a value said (a player named "{points}") is not read again.
    texts = [SAID_NAME.sub(value_of, local(game.file.said[index].text)) for index in outcome.said]
    return [text.rstrip(".") for text in texts] if short else texts


def _said_value(spec: InputDef | None, value: Any, players: Sequence[str]) -> str:
    if spec is not None and spec.kind == "player":
        if type(value) is int and 0 <= value < len(players):
            return players[value]
        return local(spec.unsaid) if spec.unsaid is not None else _("Not said")
    if spec is not None and spec.kind == "choice" and spec.names:
        found = next((choice for choice in spec.names if choice.value == value), None)
        return local(found.label) if found is not None else str(value)
    if type(value) is bool:
        return _("yes") if value else _("no")
    if type(value) is int:
        return total_text(value)
    return str(value) if isinstance(value, str) else ""


def turn_text(outcome: RoundScored, players: Sequence[str]) -> str:
    """One turn in a sentence: what the thrower scored and their total, who else moved, who is out."""
    seat = outcome.player
    if seat is None:
        return ""
    gained = sum(outcome.breakdown[seat].values())
    if gained:
        text = _("%(name)s scores %(points)s: %(total)s.") % {
            "name": players[seat],
            "points": total_text(gained),
            "total": total_text(outcome.totals[seat]),
        }
    else:
        text = _("%(name)s scores nothing: %(total)s.") % {
            "name": players[seat],
            "total": total_text(outcome.totals[seat]),
        }
    for other, points in enumerate(outcome.points):
        if other != seat and points:
            text += " " + _("%(name)s now has %(total)s.") % {
                "name": players[other],
                "total": total_text(outcome.totals[other]),
            }
    if outcome.out and outcome.out[seat]:
        text += " " + _("%(name)s is out of the game.") % {"name": players[seat]}
    return text


def warning_texts(game: Game, outcome: RoundScored, players: Sequence[str]) -> list[str]:
    """What a recorded round warns of, in the reader's language."""
    messages = {check.key: check.message for check in game.file.warnings}
    texts = []
    for key, seat in outcome.warnings:
        if key in messages:
            name = players[seat] if seat is not None and 0 <= seat < len(players) else ""
            texts.append(local(messages[key]).replace("%(player)s", name))
    return texts


# --- refusals


def named(params: Mapping[str, Any], players: Sequence[str]) -> str:
    """Who a refusal names: its player, or in a team game the team's players by their seats
    (``seats``: "Ada and Cy"); empty when it names nobody at this table."""
    seats, seat = params.get("seats"), params.get("player")
    if isinstance(seats, list) and seats and all(type(each) is int and 0 <= each < len(players) for each in seats):
        return join_names([players[each] for each in seats])
    if type(seat) is int and 0 <= seat < len(players):
        return players[seat]
    return ""


def wordings(game: Game) -> Mapping[str, Wording]:
    """The game's refusals in words, by reason: each names the input by its label."""
    # The end's count (``final``) names its own inputs and checks, apart from a round's.
    count = game.file.final
    inputs = {item.key: item for item in [*game.file.inputs, *(count.inputs if count else ())]}
    checks = {check.key: check for check in [*game.file.checks, *(count.checks if count else ())]}
    option_checks = {check.key: check for check in game.file.option_checks}
    options = {option.key: option for option in game.file.options}

    def input_label(params: Mapping[str, Any]) -> str:
        item = inputs.get(str(params.get("input")))
        label = local(item.label) if item is not None else str(params.get("input"))
        part = params.get("part")
        if item is not None and part is not None:
            found = next((p for p in item.parts if p.key == part), None)
            label = f"{label} · {local(found.label) if found else part}"
        return label

    def whose(params: Mapping[str, Any], players: Sequence[str]) -> str:
        label = input_label(params)
        name = named(params, players)
        if name:
            # Translators: an input of one player (or team), "Cards left (Ada)".
            return _("%(input)s (%(name)s)") % {"input": label, "name": name}
        return label

    def bounds(params: Mapping[str, Any]) -> str:
        least, most = params.get("min"), params.get("max")
        if least is not None and most is not None:
            return _("from %(min)s to %(max)s") % {"min": total_text(least), "max": total_text(most)}
        if least is not None:
            return _("%(min)s or more") % {"min": total_text(least)}
        return _("%(max)s or less") % {"max": total_text(most or 0)}

    def rule(params: Mapping[str, Any], players: Sequence[str]) -> str:
        check = checks.get(str(params.get("check")))
        if check is None:
            return _("These scores break one of the game’s rules.")
        return local(check.message).replace("%(player)s", named(params, players))

    def choice_text(params: Mapping[str, Any], value: Any) -> str:
        """A choice as the table reads it: a number, or a name's label (Qwixx's "Red")."""
        if isinstance(value, int):
            return total_text(value)
        item = inputs.get(str(params.get("input")))
        names = list(item.names) if item is not None else []
        if item is not None and params.get("part") is not None:
            part = next((p for p in item.parts if p.key == params.get("part")), None)
            names = list(part.names) if part is not None else []
        found = next((choice for choice in names if choice.value == value), None)
        return local(found.label) if found is not None else str(value)

    def option_label(params: Mapping[str, Any]) -> str:
        option = options.get(str(params.get("option")))
        return local(option.label) if option is not None else str(params.get("option"))

    return {
        "rule": rule,
        "unknown_input": lambda p, s: _("This game has no input “%(input)s”.") % {"input": p.get("input")},
        "input_not_taken": lambda p, s: (
            _("“%(input)s” is not used with these table options.") % {"input": input_label(p)}
        ),
        "missing_input": lambda p, s: _("Fill in “%(input)s”.") % {"input": whose(p, s)},
        "input_count": lambda p, s: (
            _("“%(input)s” needs one value per player (%(count)s).")
            % {"input": input_label(p), "count": p.get("expected")}
        ),
        "input_kind": lambda p, s: (
            _("“%(input)s” must be a whole number.") % {"input": whose(p, s)}
            if p.get("kind") not in {"flag", "counts", "groups", "list", "records"}
            else _("“%(input)s” is not valid.") % {"input": whose(p, s)}
        ),
        "unknown_part": lambda p, s: (
            _("“%(input)s” has no “%(part)s”.")
            % {"input": input_label({"input": p.get("input")}), "part": p.get("part")}
        ),
        "missing_part": lambda p, s: _("Fill in “%(input)s”.") % {"input": whose(p, s)},
        "input_range": lambda p, s: (
            _("“%(input)s” must be %(bounds)s (not %(value)s).")
            % {"input": whose(p, s), "bounds": bounds(p), "value": total_text(p.get("value") or 0)}
        ),
        "input_choice": lambda p, s: (
            _("“%(input)s” must be one of %(choices)s.")
            % {"input": whose(p, s), "choices": ", ".join(choice_text(p, c) for c in p.get("choices") or ())}
        ),
        "input_step": lambda p, s: (
            _("“%(input)s” must be a multiple of %(step)s.") % {"input": whose(p, s), "step": p.get("step")}
        ),
        "formula_failed": lambda p, s: (
            _("The game’s scoring could not be worked out for these inputs (%(field)s).") % {"field": p.get("field")}
        ),
        "option_value": lambda p, s: _("The option “%(option)s” is not valid.") % {"option": option_label(p)},
        "option_rule": lambda p, s: (
            local(option_checks[str(p.get("check"))].message)
            if str(p.get("check")) in option_checks
            else _("These table options do not go together.")
        ),
        "unknown_option": lambda p, s: _("This game has no option “%(option)s”.") % {"option": p.get("option")},
        "no_round": lambda p, s: _("Record a round before ending the game."),
        "no_end": lambda p, s: _("This game ends by its own rules, not by the table."),
        "too_many_rounds": lambda p, s: _("A match holds at most %(limit)s rounds.") % {"limit": p.get("limit")},
        "bad_inputs": lambda p, s: _("“inputs” must be an object, by input key."),
        "input_length": lambda p, s: (
            _("“%(input)s” holds at most %(most)s entries.") % {"input": whose(p, s), "most": p.get("most")}
        ),
        "group_length": lambda p, s: (
            _("Each group of “%(input)s” holds 1 to %(most)s values.") % {"input": whose(p, s), "most": p.get("most")}
        ),
        "input_repeated": lambda p, s: _("“%(input)s” names the same thing twice.") % {"input": whose(p, s)},
        "teams_needed": lambda p, s: _("Say the teams: this game is played in partnerships."),
        "teams_formed": lambda p, s: _("The rules cannot form the teams at this many players."),
        "no_teams": lambda p, s: _("This game is not played in teams."),
        "teams_shape": lambda p, s: _("“teams” must be a list of teams, each a list of seats."),
        "teams_seats": lambda p, s: (
            _("Each of the %(players)s seats must be in exactly one team.") % {"players": p.get("players")}
        ),
        "teams_size": lambda p, s: (
            _("Two teams at least, each of %(least)s to %(most)s players.")
            % {"least": p.get("least"), "most": p.get("most")}
        ),
        "turn_game": lambda p, s: _("This game is played a turn at a time: send a “turn”."),
        "round_game": lambda p, s: _("This game is scored a round at a time: send a “round”."),
    }


def result_words(state: GameState, players: Sequence[str]) -> tuple[str, str | None]:
    """The end's headline and, where totals tied, how the tie was settled."""
    won = winners(state)
    if state.over and state.rounds and state.rounds[-1].instant:
        return instant_text(state.game, state.rounds[-1], players), None
    headline = outcome_text(state.game, won, state.totals, players, state.outcome)
    if state.outcome is not None:
        return headline, None
    return headline, tie_text(state.game, tie_broken(state), players)
