"""One engine for every game declared as data: a round's inputs checked and scored by the
game file's formulas, totals, the end, the standings with the tie-break chain.

A round is read in this order, and refused at the first fault (the state is a value: a
refused round leaves it as it was):

1. each input: present (or its default), of its kind, only where its ``when`` holds
   (``invalid``); 2. the round's derived values; 3. each input's bounds (``invalid``);
4. each player's derived values and points by category (a ``best`` category tries every
share of its units); 5. the checks, each player's then the table's (``rule``, with the
check's key); 6. the totals and the end.

Refusals are ``RuleError`` with the API's codes and a reason the site words in the
reader's language; a formula that fails on values the schema let through is the file's
fault and is refused as ``invalid``/``formula_failed`` naming the field (never a crash).

Nothing here knows about Django, I/O, clocks or chance.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from marquoir.rules.errors import INVALID, MATCH_OVER, RuleError
from marquoir.rules.match import GameMatch
from marquoir.rules.standings import Standing
from marquoir.rules.values import is_whole_number

from .formulas import Compiled, FormulaFailed, Scope
from .game import CompiledInput, Game
from .gamefile import InputDef, Part

RULE = "rule"
"""The API's code for inputs that break one of the game's rules."""

MAX_ROUNDS = 200
"""A match's log keeps each round: a bound for a game that ends only by a target."""

MAX_TURNS = 600
"""A game played by turns: a bound on its log. Mölkky at 20 players ends near 300 throws;
each step of a match keeps its state, so the memory of a match grows with the square of its
log (600 turns at 20 players: about 3 MB while it is folded)."""

MAX_SHARES = 2_000
"""The most shares a ``best`` category may try in one round (7 Wonders tries at most 6)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One round's inputs as the API gives them: per-player inputs as lists in seat order."""

    inputs: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn's inputs, for the player whose turn it is (a game played by turns)."""

    inputs: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class End:
    """The table stops (where the file lets it), with the end's count where the file asks
    for one (``final``: Scrabble's tiles left)."""

    inputs: Mapping[str, Any] | None = None


Action: TypeAlias = Round | Turn | End


@dataclass(frozen=True, slots=True)
class RoundScored:
    """The account of a round: its inputs as read, each player's points, by category too,
    figures and tie-break values, the totals after it, and whether it ended the game."""

    number: int
    inputs: Mapping[str, Any]
    points: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...]
    figures: tuple[Mapping[str, int], ...]
    ranks: tuple[tuple[int, ...], ...]
    """Each side's value of every ranking key after the round (a yes counts 1)."""
    totals: tuple[int, ...]
    game_over: bool
    end_reason: str | None
    warnings: tuple[tuple[str, int | None], ...] = ()
    """The warnings the round raised (the round is recorded): each check's key and seat."""
    player: int | None = None
    """A game entered by turns: whose turn it was."""
    carried: tuple[Mapping[str, int | bool], ...] = ()
    """Each side's carried values after the round."""
    out: tuple[bool, ...] = ()
    """Who no longer plays, after the round."""
    orders: tuple[bool, ...] = ()
    """Each ranking key's order at this table: True where the higher ranks first."""
    instant: tuple[int, ...] = ()
    """The sides an end rule made winners at once (an instant win)."""
    result: str | None = None
    """A cooperative game's result once it ended: won or lost."""
    lowest_wins: bool = False
    teams: tuple[tuple[int, ...], ...] | None = None
    """A team game: each side's seats (so the log can name a side)."""
    closing: bool = False
    """The end's count, entered as the table ended the game (``final``)."""
    said: tuple[int, ...] = ()
    """The file's sentences said of this round (``said``), by index."""
    said_values: Mapping[str, Any] = field(default_factory=dict)
    """The round's values those sentences name."""

    def score_changes(self) -> dict[int, int]:
        return {player: points for player, points in enumerate(self.points) if points}


@dataclass(frozen=True, slots=True)
class Ended:
    """The account of an ``End``: after how many rounds, on which totals, who won."""

    rounds: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    game_over: bool = True
    end_reason: str = "declared"
    result: str | None = None
    teams: tuple[tuple[int, ...], ...] | None = None

    def score_changes(self) -> dict[int, int]:
        return {}


Outcome: TypeAlias = RoundScored | Ended


@dataclass(frozen=True, slots=True)
class GameState:
    """A declared game's match: its set-up and every round scored."""

    game: Game = field(repr=False, compare=False)
    options: Mapping[str, Any]
    player_count: int
    """The sides that score: the players, the teams of a team game, one for a cooperative game."""
    first: int
    rounds: tuple[RoundScored, ...] = ()
    ended: bool = False
    before: tuple[int, ...] | None = field(default=None)
    """The totals before the first round: a worked example's "totals before" (docs only)."""
    people: int = 0
    """The players at the table (the formulas' ``players``); 0: one per side."""
    result: str | None = None
    """A cooperative game the table ended (``End``): its result."""
    teams: tuple[tuple[int, ...], ...] | None = None
    """A team game: each side's seats."""

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        if self.rounds:
            return self.rounds[-1].totals
        return self.before or (0,) * self.player_count

    @property
    def players(self) -> int:
        return self.people or self.player_count

    @property
    def orders(self) -> tuple[bool, ...]:
        """Each ranking key's order at this table: True where the higher ranks first."""
        if self.rounds and self.rounds[-1].orders:
            return self.rounds[-1].orders  # read once per round (an order may be a formula)
        return self.game.orders_for(self.options, self.players, self.player_count)

    @property
    def lowest_wins(self) -> bool:
        return not self.orders[self.game.file.total_rank]

    @property
    def outcome(self) -> str | None:
        """A cooperative game's result once over: won or lost; None otherwise."""
        if self.ended:
            return self.result
        return self.rounds[-1].result if self.rounds else None

    @property
    def ended_by(self) -> str | None:
        """The end rule that ended the game (its key; target, rounds or declared)."""
        return self.end_reason

    @property
    def carried(self) -> tuple[Mapping[str, int | bool], ...]:
        """Each side's carried values now."""
        if self.rounds and self.rounds[-1].carried:
            return self.rounds[-1].carried
        return tuple(dict(self.game.carried) for _ in range(self.player_count))

    @property
    def out(self) -> tuple[bool, ...]:
        """Who no longer plays (a game played by turns whose file says who is out)."""
        if self.rounds and self.rounds[-1].out:
            return self.rounds[-1].out
        return (False,) * self.player_count

    @property
    def current(self) -> int | None:
        """Whose turn it is, in a game played by turns; None where anyone enters a round."""
        if not self.game.by_turns or self.over:
            return None
        if not self.rounds or self.rounds[-1].player is None:
            return self.first
        out = self.out
        for step in range(1, self.player_count + 1):
            seat = (self.rounds[-1].player + step) % self.player_count
            if not out[seat]:
                return seat
        return None

    @property
    def end_reason(self) -> str | None:
        return "declared" if self.ended else (self.rounds[-1].end_reason if self.rounds else None)

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def player_rounds(self, player: int) -> tuple[int, ...]:
        return tuple(scored.points[player] for scored in self.rounds)

    def breakdown(self, player: int) -> dict[str, int]:
        """The player's points by category, over every round."""
        totals = {category.key: 0 for category in self.game.file.points}
        if self.game.final is not None:
            totals.update({category.key: 0 for category in self.game.final.file.points})
        for scored in self.rounds:
            for key, points in scored.breakdown[player].items():
                totals[key] += points
        return totals

    def categories_counted(self) -> tuple[str, ...]:
        """The categories this match's options count (a variant's bonus only when it is played)."""
        options = option_context(self)
        categories = (*self.game.categories, *(self.game.final.categories if self.game.final else ()))
        return tuple(category.key for category in categories if category.when is None or category.when.truth(options))

    def figures(self, player: int) -> dict[str, int]:
        totals = {figure.key: 0 for figure in self.game.file.figures}
        for scored in self.rounds:
            for key, value in scored.figures[player].items():
                totals[key] += value
        return totals

    def rounds_planned(self) -> int | None:
        """How many rounds the game has, if the file says (Skull King: the deal's length)."""
        return _bound(self.game.end_rounds, option_context(self))

    def target(self) -> int | None:
        return _bound(self.game.end_target, option_context(self))


@dataclass(frozen=True, slots=True)
class Setup:
    """What a match starts from: the game, how many play, who starts, the options as stored."""

    game: Game = field(repr=False)
    player_count: int
    first: int
    options: Mapping[str, Any]

    teams: tuple[tuple[int, ...], ...] | None = None
    """A team game: each team's seats (the sides)."""

    def initial_state(self) -> GameState:
        teams = self.teams
        if self.game.teams:
            teams = (
                form_teams(self.game, self.player_count)
                if teams is None
                else check_teams(self.game, self.player_count, teams)
            )
        sides = sides_of(self.game, self.player_count, teams)
        first = self.first % sides
        if teams is not None:
            # The first side to act is the team of the player who starts.
            first = next(index for index, team in enumerate(teams) if self.first in team)
        return GameState(self.game, dict(self.options), sides, first, people=self.player_count, teams=teams)


def sides_of(game: Game, player_count: int, teams: Sequence[Sequence[int]] | None) -> int:
    """How many sides score: the players, the teams, or one (a cooperative game)."""
    if game.cooperative:
        return 1
    if game.teams:
        return len(teams or form_teams(game, player_count))
    return player_count


def form_teams(game: Game, player_count: int) -> tuple[tuple[int, ...], ...]:
    """The teams the rules form at ``player_count`` (``teams.formed``), or ``RuleError``."""
    if game.team_of is None:
        raise RuleError(INVALID, "teams_needed")
    variables = {"players": player_count, "tables": game.file.tables}
    of = [game.team_of.whole_number({**variables, "seat": seat}) for seat in range(player_count)]
    if any(team < 0 or team >= player_count for team in of):
        raise RuleError(INVALID, "teams_formed")
    formed = tuple(tuple(seat for seat in range(player_count) if of[seat] == team) for team in sorted(set(of)))
    check_teams(game, player_count, formed)
    return formed


def check_teams(game: Game, player_count: int, teams: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """``teams`` if every seat is in exactly one team of the game's size, else ``RuleError``."""
    spec = game.file.teams
    if spec is None:
        raise RuleError(INVALID, "no_teams")
    if not isinstance(teams, list | tuple) or not all(isinstance(team, list | tuple) for team in teams):
        raise RuleError(INVALID, "teams_shape")
    seats = [seat for team in teams for seat in team]
    if not all(is_whole_number(seat) for seat in seats) or sorted(seats) != list(range(player_count)):
        raise RuleError(INVALID, "teams_seats", players=player_count)
    least, most = spec.size
    if len(teams) < 2 or any(not least <= len(team) <= most for team in teams):
        raise RuleError(INVALID, "teams_size", least=least, most=most)
    return tuple(tuple(team) for team in teams)


class Match(GameMatch[GameState, Action, Outcome]):
    """A declared game's match as a value (``GameMatch``)."""

    rules = staticmethod(lambda state, action: apply(state, action))


# --- options


def resolve_options(game: Game, player_count: int, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of ``game`` for ``player_count`` players, given or by default, each of its
    kind and bounds and every option check kept; ``RuleError(invalid, …)`` otherwise."""
    unknown = sorted(str(key) for key in given if key not in {option.key for option in game.file.options})
    if unknown:
        raise RuleError(INVALID, "unknown_option", option=unknown[0][:40])
    resolved: dict[str, Any] = {}
    base = {"players": player_count, "tables": game.file.tables}
    for option in game.file.options:
        if option.key in given:
            value = given[option.key]
        elif option.key in game.option_defaults:
            value = game.option_defaults[option.key].evaluate(base)
        else:
            value = option.default
        resolved[option.key] = _option_value(option, value)
    variables = {**base, "options": resolved}
    for check, compiled in zip(game.file.option_checks, game.option_checks, strict=True):
        if not compiled.truth(variables):
            raise RuleError(INVALID, "option_rule", check=check.key)
    return resolved


def _option_value(option: Any, value: Any) -> Any:
    def refuse() -> RuleError:
        return RuleError(INVALID, "option_value", option=option.key, min=option.min, max=option.max)

    def in_bounds(number: Any) -> bool:
        return (
            is_whole_number(number)
            and (option.min is None or number >= option.min)
            and (option.max is None or number <= option.max)
        )

    if value is None and option.nullable:
        return None
    if option.kind == "flag":
        if not isinstance(value, bool):
            raise refuse()
    elif option.kind == "number":
        if not in_bounds(value):
            raise refuse()
    elif option.kind == "choice":
        if isinstance(value, bool) or value not in [choice.value for choice in option.choices]:
            raise refuse()
    elif option.kind == "numbers":
        if not isinstance(value, list | tuple) or not 1 <= len(value) <= option.max_length:
            raise refuse()
        if not all(in_bounds(number) for number in value):
            raise refuse()
        value = list(value)
    elif option.kind == "text" and not is_one_line(value, option.max_length):
        raise RuleError(INVALID, "option_value", option=option.key, length=option.max_length)
    return value


def is_one_line(text: object, most: int) -> bool:
    """Whether ``text`` may be a text option (a title): a trimmed line of 1 to ``most``
    characters, not blank, no control character (it is one line on the table screen)."""
    return (
        isinstance(text, str)
        and 1 <= len(text) <= most
        and text == text.strip()
        and not any(unicodedata.category(char) == "Cc" for char in text)
    )


# --- a round


def apply(state: GameState, action: Action) -> tuple[GameState, Outcome]:
    """Record ``action``; the new state and its account, or ``RuleError`` (state unchanged)."""
    if state.over:
        raise RuleError(MATCH_OVER)
    if isinstance(action, Round | Turn):
        if isinstance(action, Turn) != state.game.by_turns:
            raise RuleError(INVALID, "turn_game" if state.game.by_turns else "round_game")
        scored = score_round(state, action.inputs)
        return replace(state, rounds=(*state.rounds, scored)), scored
    if isinstance(action, End):
        if not state.game.file.end.table_decides:
            raise RuleError(INVALID, "no_end")
        if not state.rounds:
            raise RuleError(INVALID, "no_round")
        if state.game.final is not None:
            return _count_at_the_end(state, state.game.final, action.inputs or {})
        if action.inputs is not None:
            raise RuleError(INVALID, "unknown_input", input=next(iter(action.inputs), "inputs"))
        result = None
        if state.game.cooperative_won is not None:
            scope = _end_scope(state, state.totals, state.carried, state.out, state.rounds[-1].ranks, state.orders)
            result = "won" if state.game.cooperative_won.truth(scope) else "lost"
        ended = replace(state, ended=True, result=result)
        return ended, Ended(len(state.rounds), state.totals, winners(ended), result=result, teams=state.teams)
    raise RuleError(INVALID, "unknown_action")


def _naming_the_team(state: GameState, refusal: RuleError) -> RuleError:
    """``refusal`` with, in a team game, the seats of the side it names (``player`` is then
    a team's index): so that its words name the team's players, not the player at that seat."""
    side = refusal.params.get("player")
    if state.teams is not None and type(side) is int and 0 <= side < len(state.teams):
        refusal.params["seats"] = list(state.teams[side])
    return refusal


def _count_at_the_end(state: GameState, final: Game, given: Mapping[str, Any]) -> tuple[GameState, RoundScored]:
    """The table ends the game with the end's count (``final``): scored as one more round of
    every side at once, by the count's own inputs and points; then the game is over."""
    counted = score_round(replace(state, game=final), given, closing=True)
    counted = replace(counted, game_over=True, end_reason="declared", closing=True)
    result = None
    if state.game.cooperative_won is not None:
        scope = _end_scope(
            state, counted.totals, counted.carried, counted.out, counted.ranks, counted.orders or state.orders
        )
        result = "won" if state.game.cooperative_won.truth(scope) else "lost"
        counted = replace(counted, result=result)
    return replace(state, rounds=(*state.rounds, counted), ended=True, result=result), counted


def score_round(state: GameState, given: Mapping[str, Any], *, closing: bool = False) -> RoundScored:
    """The next round scored from its ``given`` inputs, or ``RuleError`` (in a team game naming
    the team's seats). ``closing``: the end's count, which the log's bound does not hold back."""
    try:
        return _scored(state, given, closing=closing)
    except RuleError as refusal:
        raise _naming_the_team(state, refusal) from None


def _scored(state: GameState, given: Mapping[str, Any], *, closing: bool) -> RoundScored:
    game, count = state.game, state.player_count
    limit = MAX_TURNS if game.by_turns else MAX_ROUNDS
    if len(state.rounds) >= limit and not closing:
        raise RuleError(INVALID, "too_many_rounds", limit=limit)
    if type(given) is not dict and not isinstance(given, Mapping):
        raise RuleError(INVALID, "bad_inputs")
    option_level = option_context(state)
    taken = inputs_taken(state)
    unknown = sorted(str(key) for key in given if key not in game.input_keys)
    if unknown:
        raise RuleError(INVALID, "unknown_input", input=unknown[0][:40])
    not_taken = sorted(str(key) for key in given if key not in taken)
    if not_taken:
        raise RuleError(INVALID, "input_not_taken", input=not_taken[0])
    inputs: dict[str, Any] = {}
    for item in game.round_inputs:
        inputs[item.spec.key] = _read(item, given, count, player=None)
    for item in game.player_inputs:
        raw = given.get(item.spec.key) if item.spec.key in given else None
        if raw is None:
            if item.spec.default is None:
                raise RuleError(INVALID, "missing_input", input=item.spec.key)
            default = item.spec.default
            inputs[item.spec.key] = [list(default) if isinstance(default, list) else default for _ in range(count)]
            continue
        if not isinstance(raw, list) or len(raw) != count:
            raise RuleError(INVALID, "input_count", input=item.spec.key, expected=count)
        # A player's entry left null takes the input's default (Kingdomino's largest property).
        inputs[item.spec.key] = [
            item.spec.default if value is None and item.spec.default is not None else _value(item, value, count, player)
            for player, value in enumerate(raw)
        ]
    number = len(state.rounds) + 1
    before, carried_before = state.totals, state.carried
    # ``all``: each side's inputs, derived values and running state (its total and carried
    # values as they stand before the round), a list in side order.
    series: dict[str, Any] = {item.spec.key: inputs[item.spec.key] for item in game.player_inputs}
    series["total"] = list(before)
    for key in game.carried:
        series[key] = [values[key] for values in carried_before]
    table = Scope({**option_level, "round": number, "all": series})
    thrower = state.current
    if game.by_turns:
        if thrower is None:
            raise RuleError(MATCH_OVER)
        table.set("seat", thrower)
        table.set("total", before[thrower])
        for key, value in carried_before[thrower].items():
            table.set(key, value)
    for item in game.round_inputs:
        table.set(item.spec.key, inputs[item.spec.key])
    for key, compiled in game.round_derived:
        table.set(key, compiled.evaluate(table))
    # Each side's scope, where a formula reads one (none for a file whose points, ranking and
    # bounds are the inputs and totals as they are: the score sheet's).
    each_side = game.reads_each_side
    players = (
        [_player_scope(game, table, inputs, seat, before, carried_before) for seat in range(count)] if each_side else []
    )
    for item in game.inputs:
        if not item.bounded:
            continue
        if item.spec.per not in ("player", "team"):
            _check_bounds(item, inputs[item.spec.key], table, None)
        else:
            for seat in range(count):
                _check_bounds(item, inputs[item.spec.key][seat], players[seat] if each_side else table, seat)
    for key, compiled in game.player_derived:
        values = []
        for seat in range(count):
            value = compiled.evaluate(players[seat])
            players[seat].set(key, value)
            values.append(value)
        series = {**series, key: values}
        table.set("all", series)
        for seat in range(count):
            players[seat].set("all", series)
            players[seat].set_lazy("others", _others(series, seat))
    if thrower is not None:
        empty = {category.key: 0 for category in game.categories}
        breakdown = tuple(_categories(game, table) if seat == thrower else empty for seat in range(count))
    elif game.points_as_given is not None:
        breakdown = tuple(
            {category: inputs[key][seat] for category, key in game.points_as_given} for seat in range(count)
        )
    else:
        breakdown = tuple([_categories(game, scope) for scope in players])
    for key, compiled in game.player_checks:
        for seat in range(count):
            if not compiled.truth(players[seat]):
                raise RuleError(RULE, "rule", check=key, player=seat)
    for key, compiled in game.round_checks:
        if not compiled.truth(table):
            raise RuleError(RULE, "rule", check=key)
    warnings: list[tuple[str, int | None]] = [
        (key, seat)
        for key, compiled in game.player_warnings
        for seat in range(count)
        if not compiled.truth(players[seat])
    ]
    warnings += [(key, None) for key, compiled in game.round_warnings if not compiled.truth(table)]
    said = tuple(index for index, when in enumerate(game.said) if when is None or when.truth(table))
    said_values = {name: table[name] for index in said for name in game.file.said[index].names()}
    gained = tuple(sum(categories.values()) for categories in breakdown)
    if thrower is not None:
        totals, carried, out = _after_turn(state, thrower, table, gained[thrower])
    else:
        totals, carried, out = _after_round(state, table, players, gained)
    points = tuple(after - was for after, was in zip(totals, before, strict=True))
    for scope, total, side_out, side_carried in zip(players, totals, out, carried, strict=False):
        scope.set("total", total)
        scope.set("out", side_out)
        for key, value in side_carried.items():
            scope.set(key, value)
    orders = state.orders
    ranks: tuple[tuple[int, ...], ...]
    if game.ranked_by_total:
        ranks = tuple([(total,) for total in totals])
    else:
        ranks = tuple([tuple([_rank_value(compiled, scope) for _key, compiled in game.ranking]) for scope in players])
    figures = tuple({key: figure.whole_number(players[seat]) for key, figure in game.figures} for seat in range(count))
    end_reason, instant, result = _end(state, table, number, totals, carried, out, ranks, orders)
    return RoundScored(
        number=number,
        inputs=inputs,
        points=points,
        breakdown=breakdown,
        figures=figures,
        ranks=ranks,
        totals=totals,
        game_over=end_reason is not None,
        end_reason=end_reason,
        warnings=tuple(warnings),
        player=thrower,
        carried=carried,
        out=out,
        orders=orders,
        instant=instant,
        result=result,
        lowest_wins=not orders[game.file.total_rank],
        teams=state.teams,
        said=said,
        said_values=said_values,
    )


def _after_round(
    state: GameState, table: Scope, players: Sequence[Scope], gained: Sequence[int]
) -> tuple[tuple[int, ...], tuple[Mapping[str, int | bool], ...], tuple[bool, ...]]:
    """Every side's total, carried values and whether it is out after a round: ``after``
    (by default the total plus what the side gained; carried values as they were), then
    ``out``."""
    game = state.game
    if not game.after and game.out is None:
        totals = tuple(was + points for was, points in zip(state.totals, gained, strict=True))
        return totals, state.carried, state.out
    new_totals, carried, out = list(state.totals), [dict(values) for values in state.carried], list(state.out)
    for seat, scope in enumerate(players):
        new_totals[seat], carried[seat] = _settled(
            game, game.after, scope, new_totals[seat] + gained[seat], carried[seat], "after", gained[seat]
        )
        out[seat] = _is_out(game, table, seat, new_totals[seat], carried[seat])
    return tuple(new_totals), tuple(carried), tuple(out)


def _after_turn(
    state: GameState, thrower: int, scope: Scope, gained: int
) -> tuple[tuple[int, ...], tuple[Mapping[str, int | bool], ...], tuple[bool, ...]]:
    """Every player's total, carried values and whether they are out, after ``thrower``'s
    turn: the thrower's by ``after`` (their total by default plus what they gained), then
    each other player's by ``turns.others`` (reading ``thrower``, the values after)."""
    game = state.game
    totals, carried, out = list(state.totals), [dict(values) for values in state.carried], list(state.out)
    totals[thrower], carried[thrower] = _settled(
        game, game.after, scope, totals[thrower] + gained, carried[thrower], "after", gained
    )
    out[thrower] = _is_out(game, scope, thrower, totals[thrower], carried[thrower])
    seen = {
        "seat": thrower,
        "before": state.totals[thrower],
        "total": totals[thrower],
        "out": out[thrower],
        **carried[thrower],
    }
    for seat in range(state.player_count):
        if seat == thrower or not game.turn_others:
            continue
        own = scope.child({"seat": seat, "total": totals[seat], **carried[seat], "thrower": seen})
        totals[seat], carried[seat] = _settled(game, game.turn_others, own, totals[seat], carried[seat], "turns.others")
        out[seat] = _is_out(game, scope, seat, totals[seat], carried[seat])
    return tuple(totals), tuple(carried), tuple(out)


def _settled(
    game: Game,
    formulas: Sequence[tuple[str, Compiled]],
    scope: Scope | Mapping[str, Any],
    total: int,
    carried: Mapping[str, int | bool],
    field: str,
    gained: int | None = None,
) -> tuple[int, dict[str, int | bool]]:
    """A side's total and carried values once ``formulas`` (``after``, ``turns.others``)
    have set them, from ``total`` and ``carried`` as they stand unless a formula says; each
    keeps its kind."""
    if gained is not None and isinstance(scope, Scope):
        scope.set("gained", gained)
    values: dict[str, Any] = {"total": total, **carried}
    for key, compiled in formulas:
        values[key] = compiled.evaluate(scope)
    _check_kept(values, game.carried, field)
    return values.pop("total"), values


def _is_out(game: Game, table: Scope, seat: int, total: int, carried: Mapping[str, int | bool]) -> bool:
    """Whether the side no longer plays (``out``; never, where the file says no such rule),
    with ``total`` and ``carried`` as they stand after the round."""
    if game.out is None:
        return False
    return game.out.truth(table.child({"seat": seat, "team": seat, "total": total, **carried}))


def _check_kept(values: Mapping[str, Any], initial: Mapping[str, int | bool], field: str) -> None:
    """A total stays a whole number and each carried value keeps its kind."""
    if type(values["total"]) is not int:
        raise FormulaFailed(f"{field}.total", "gives no whole number")
    for key, start in initial.items():
        if type(values[key]) is not type(start):
            raise FormulaFailed(f"{field}.{key}", f"gives {type(values[key]).__name__}, not {type(start).__name__}")


def _rank_value(compiled: Compiled, scope: Scope) -> int:
    """A ranking key's value for a side: a whole number, or yes (1) and no (0)."""
    value = compiled.evaluate(scope)
    if type(value) is bool:
        return int(value)
    if type(value) is not int:
        raise FormulaFailed(compiled.field, f"gives {type(value).__name__}, not a whole number or true or false")
    return value


def _read(item: CompiledInput, given: Mapping[str, Any], count: int, player: int | None) -> Any:
    key = item.spec.key
    if key not in given or given[key] is None:
        if item.spec.default is None:
            raise RuleError(INVALID, "missing_input", input=key)
        return item.spec.default
    return _value(item, given[key], count, player)


def _value(item: CompiledInput, value: Any, count: int, player: int | None) -> Any:
    """``value`` if it is of the input's kind (bounds are checked later), else ``RuleError``."""
    spec = item.spec
    if spec.kind in ("count", "points") and type(value) is int and -(10**9) <= value <= 10**9:
        return value  # the most common inputs, already right: nothing else to ask of them
    if spec.kind == "flag" and type(value) is bool:
        return value
    where = _where(spec, player)
    if spec.kind == "flag":
        if not isinstance(value, bool):
            raise RuleError(INVALID, "input_kind", kind="flag", **where)
        return value
    if spec.kind == "counts":
        if not isinstance(value, Mapping):
            raise RuleError(INVALID, "input_kind", kind="counts", **where)
        parts = {part.key: part for part in spec.parts}
        unknown = sorted(str(name) for name in value if name not in parts)
        if unknown:
            raise RuleError(INVALID, "unknown_part", part=unknown[0][:40], **where)
        read: dict[str, int] = {}
        for name, part in parts.items():
            number = value.get(name, part.default)
            if number is None:
                raise RuleError(INVALID, "missing_part", part=name, **where)
            read[name] = _part_value(part, number, where)
        return read
    if spec.kind == "list":
        return _list(spec, value, where)
    if spec.kind == "records":
        return _records(spec, value, where)
    if spec.kind == "groups":
        return _groups(spec, value, where)
    if spec.kind == "choice" and spec.names:
        # A choice of names (Scrabble's play or pass): one of its values, as written.
        names = [choice.value for choice in spec.names]
        if not isinstance(value, str) or value not in names:
            raise RuleError(INVALID, "input_choice", value=str(value)[:40], choices=names, **where)
        return value
    if not is_whole_number(value):
        raise RuleError(INVALID, "input_kind", kind=spec.kind, **where)
    # A player input's default (nobody: −1) is what null stands for, and may be sent as itself.
    if spec.kind == "player" and value != spec.default and not 0 <= value < count:
        raise RuleError(INVALID, "input_range", value=value, min=0, max=count - 1, **where)
    if spec.kind == "choice" and value not in spec.choices:
        raise RuleError(INVALID, "input_choice", value=value, choices=list(spec.choices), **where)
    if abs(value) > 10**9:
        raise RuleError(INVALID, "input_range", value=value, min=-(10**9), max=10**9, **where)
    return value


def _list(spec: InputDef, value: Any, where: Mapping[str, Any]) -> list[Any]:
    """A list input: at most ``max_length`` of its names, or of whole numbers (bounds later)."""
    if not isinstance(value, list | tuple):
        raise RuleError(INVALID, "input_kind", kind="list", **where)
    if len(value) > (spec.max_length or 0):
        raise RuleError(INVALID, "input_length", most=spec.max_length, **where)
    names = [choice.value for choice in spec.names]
    for item in value:
        if names:
            if not isinstance(item, str) or item not in names:
                raise RuleError(INVALID, "input_choice", value=str(item)[:40], choices=names, **where)
        elif not is_whole_number(item) or abs(item) > 10**9:
            raise RuleError(INVALID, "input_kind", kind="count", **where)
    if spec.distinct and len(set(value)) < len(value):
        raise RuleError(INVALID, "input_repeated", **where)
    return list(value)


def _groups(spec: InputDef, value: Any, where: Mapping[str, Any]) -> list[list[int]]:
    """A groups input: at most ``max_length`` groups, each of 1 to ``group_length`` whole
    numbers from its min to its max (Farkle's dice set aside, a roll at a time)."""
    # Its length first: the groups of a long list are not looked at.
    if not isinstance(value, list | tuple):
        raise RuleError(INVALID, "input_kind", kind="groups", **where)
    if len(value) > (spec.max_length or 0):
        raise RuleError(INVALID, "input_length", most=spec.max_length, **where)
    if any(not isinstance(group, list | tuple) for group in value):
        raise RuleError(INVALID, "input_kind", kind="groups", **where)
    # Whole numbers, as the file's schema holds for a groups input.
    least = spec.min if isinstance(spec.min, int) else 0
    most = spec.max if isinstance(spec.max, int) else 0
    for group in value:
        if not 1 <= len(group) <= (spec.group_length or 0):
            raise RuleError(INVALID, "group_length", most=spec.group_length, **where)
        for number in group:
            if not is_whole_number(number):
                raise RuleError(INVALID, "input_kind", kind="count", **where)
            if not least <= number <= most:
                raise RuleError(INVALID, "input_range", value=number, min=least, max=most, **where)
    return [list(group) for group in value]


def _records(spec: InputDef, value: Any, where: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A records input: at most ``max_length`` records, each its parts, of their kinds and bounds."""
    if not isinstance(value, list | tuple):
        raise RuleError(INVALID, "input_kind", kind="records", **where)
    if len(value) > (spec.max_length or 0):
        raise RuleError(INVALID, "input_length", most=spec.max_length, **where)
    parts = {part.key: part for part in spec.parts}
    read: list[dict[str, Any]] = []
    for record in value:
        if not isinstance(record, Mapping):
            raise RuleError(INVALID, "input_kind", kind="records", **where)
        unknown = sorted(str(name) for name in record if name not in parts)
        if unknown:
            raise RuleError(INVALID, "unknown_part", part=unknown[0][:40], **where)
        entry: dict[str, Any] = {}
        for name, part in parts.items():
            item = record.get(name, part.default)
            if item is None:
                if not part.optional:
                    raise RuleError(INVALID, "missing_part", part=name, **where)
                entry[name] = None
                continue
            entry[name] = _part_value(part, item, where)
        read.append(entry)
    return read


def _part_value(part: Part, item: Any, where: Mapping[str, Any]) -> Any:
    """One part of a group or a record, of its kind and bounds: one of its names, or a whole
    number from its min to its max; ``RuleError`` otherwise."""
    if part.names:
        names = [choice.value for choice in part.names]
        if not isinstance(item, str) or item not in names:
            raise RuleError(INVALID, "input_choice", part=part.key, value=str(item)[:40], choices=names, **where)
        return item
    if not is_whole_number(item):
        raise RuleError(INVALID, "input_kind", kind="count", part=part.key, **where)
    if not part.min <= item <= part.most:
        raise RuleError(INVALID, "input_range", part=part.key, value=item, min=part.min, max=part.most, **where)
    return item


def _check_bounds(item: CompiledInput, value: Any, variables: Scope | Mapping[str, Any], player: int | None) -> None:
    if not item.bounded:
        return
    spec = item.spec
    least, most = _bound(item.least, variables), _bound(item.most, variables)
    for number in value if spec.kind == "list" else (value,):
        if (least is not None and number < least) or (most is not None and number > most):
            raise RuleError(INVALID, "input_range", value=number, min=least, max=most, **_where(spec, player))
    if spec.kind == "list":
        return
    if spec.step is not None and value % spec.step:
        raise RuleError(INVALID, "input_step", value=value, step=spec.step, **_where(spec, player))


def _where(spec: InputDef, player: int | None) -> dict[str, Any]:
    """Where a refused value was given: its input, and its player's seat for a player's input."""
    return {"input": spec.key} | ({"player": player} if player is not None else {})


def _player_scope(
    game: Game,
    table: Scope,
    inputs: Mapping[str, Any],
    seat: int,
    totals: Sequence[int],
    carried: Sequence[Mapping[str, int | bool]],
) -> Scope:
    scope = Scope(table, {**table.lazy, "others": _others(table["all"], seat)})
    scope["seat"] = seat
    if game.teams:
        scope["team"] = seat
    for item in game.player_inputs:
        scope[item.spec.key] = inputs[item.spec.key][seat]
    if not game.by_turns:
        # A side's running state before the round (in a game by turns, the thrower's is the table's).
        scope["total"] = totals[seat]
        scope.update(carried[seat])
    return scope


def _others(series: Mapping[str, Sequence[Any]], seat: int) -> Callable[[], dict[str, list[Any]]]:
    """``others`` for ``seat``: each of ``series`` without the seat's own value, worked out when read."""
    return lambda: {name: _without(values, seat) for name, values in series.items()}


def _categories(game: Game, scope: Scope) -> dict[str, int]:
    points: dict[str, int] = {}
    for category in game.categories:
        if category.when is not None and not category.when.truth(scope):
            points[category.key] = 0  # a variant not played: its key stays, for a steady breakdown
            continue
        if category.units is None:
            points[category.key] = category.formula.whole_number(scope)  # type: ignore[union-attr]
            continue
        starts = [(name, start.whole_number(scope)) for name, start in category.over]
        units = category.units.whole_number(scope)
        if units > 0 and math.comb(units + len(starts) - 1, len(starts) - 1) > MAX_SHARES:
            # Refused before a share is tried: a share of a million units is a million-long tuple.
            raise RuleError(INVALID, "formula_failed", field=f"points.{category.key}", problem="too many shares")
        best: int | None = None
        for tried, share in enumerate(_shares(units, len(starts))):
            if tried >= MAX_SHARES:
                raise RuleError(INVALID, "formula_failed", field=f"points.{category.key}", problem="too many shares")
            # The share's own names (c, g, t): no later formula may read them (game.py).
            for (name, start), extra in zip(starts, share, strict=True):
                scope.set(name, start + extra)
            value = category.formula.whole_number(scope)  # type: ignore[union-attr]
            best = value if best is None else max(best, value)
        points[category.key] = best if best is not None else 0
    return points


def _shares(units: int, ways: int) -> Iterator[tuple[int, ...]]:
    """Every way of sharing ``units`` among ``ways`` piles (order matters)."""
    if units < 0:
        return
    for cuts in itertools.combinations_with_replacement(range(ways), units):
        yield tuple(cuts.count(pile) for pile in range(ways))


def _end_scope(
    state: GameState,
    totals: Sequence[int],
    carried: Sequence[Mapping[str, int | bool]],
    out: Sequence[bool],
    ranks: Sequence[Sequence[int]],
    orders: Sequence[bool],
    table: Scope | None = None,
) -> Scope:
    """What the end's formulas read: the round's values (``table``), ``all`` with each side's
    total, out and carried values after the round, and ``leaders``, the sides ranked first."""
    scope = table if table is not None else Scope({**option_context(state), "round": len(state.rounds), "all": {}})
    series = dict(scope["all"])
    series["total"] = list(totals)
    series["out"] = list(out)
    for key in state.game.carried:
        series[key] = [values[key] for values in carried]
    scope.set("all", series)

    def leaders() -> list[int]:
        keys = [rank_key(rank, orders) for rank in ranks]
        best = min(keys) if keys else ()
        return [seat for seat, key in enumerate(keys) if key == best]

    scope.set_lazy("leaders", leaders)  # worked out for the files whose end reads it (Flip 7's)
    return scope


def _end(
    state: GameState,
    table: Scope,
    number: int,
    totals: Sequence[int],
    carried: Sequence[Mapping[str, int | bool]],
    out: Sequence[bool],
    ranks: Sequence[Sequence[int]],
    orders: Sequence[bool],
) -> tuple[str | None, tuple[int, ...], str | None]:
    """Why the game ends after this round (the rule's key, ``target`` or ``rounds``), the
    sides who win at once, and a cooperative game's result; None when it goes on.

    The file's rules come first, in order; then the target (among the sides still in), then
    the last round. ``end.unless`` holds every end off but an instant win."""
    game = state.game
    scope = _end_scope(state, totals, carried, out, ranks, orders, table)
    reason: str | None = None
    instant: tuple[int, ...] = ()
    result: str | None = None
    for rule in game.end_rules:
        if not rule.when.truth(scope):
            continue
        reason, result = rule.key, rule.result
        if rule.winners is not None:
            instant = _sides(rule.winners, scope, state.player_count)
        break
    if reason is None:
        variables = option_context(state)
        target = _bound(game.end_target, variables)
        rounds = _bound(game.end_rounds, variables)
        if target is not None and any(total >= target for seat, total in enumerate(totals) if not out[seat]):
            reason = "target"
        elif rounds is not None and number >= rounds:
            reason = "rounds"
    if reason is not None and not instant and game.end_unless is not None and game.end_unless.truth(scope):
        return None, (), None
    if reason is not None and game.cooperative_won is not None and result is None:
        result = "won" if game.cooperative_won.truth(scope) else "lost"
    return reason, instant, result


def _sides(compiled: Compiled, scope: Scope, count: int) -> tuple[int, ...]:
    """An end rule's winners: a list of sides (or one side), each once, in order."""
    value = compiled.evaluate(scope)
    sides = [value] if type(value) is int else value
    if not isinstance(sides, list) or not all(type(side) is int and 0 <= side < count for side in sides):
        raise FormulaFailed(compiled.field, "gives no list of sides")
    return tuple(sorted(set(sides)))


def inputs_taken(state: GameState) -> frozenset[str]:
    """The inputs this match's options take (each one's ``when``), by key."""
    options = option_context(state)
    return frozenset(item.spec.key for item in state.game.inputs if item.when is None or item.when.truth(options))


def display_bounds(state: GameState) -> dict[str, tuple[int | None, int | None]]:
    """Each input's bounds for the next round, where they are known before anything is
    entered (Skull King's bids: the cards dealt); None where they depend on inputs."""
    facts: dict[str, Any] = {**option_context(state), "round": len(state.rounds) + 1}
    for name, compiled in state.game.round_derived:
        if compiled.names <= facts.keys():
            facts[name] = compiled.evaluate(facts)
    scope = Scope(facts)

    def known(bound: Compiled | int | None) -> int | None:
        if bound is None or isinstance(bound, int):
            return bound
        return bound.whole_number(scope) if bound.names <= facts.keys() else None

    return {item.spec.key: (known(item.least), known(item.most)) for item in state.game.inputs}


# --- standings


def rank_key(ranks: Sequence[int], orders: Sequence[bool], instant: bool = False) -> tuple[int, ...]:
    """What ranks a side, smallest first: an instant winner first, then each ranking key in
    order, higher- or lower-first as the file says."""
    if len(ranks) == 1:  # the total alone, as most games rank: the same key, without a loop
        return (0 if instant else 1, -ranks[0] if orders[0] else ranks[0])
    return (0 if instant else 1, *[-value if higher else value for value, higher in zip(ranks, orders, strict=False)])


def _side_ranks(state: GameState, seat: int) -> tuple[int, ...]:
    if state.rounds:
        return state.rounds[-1].ranks[seat]
    values: list[int] = []
    for key, _compiled in state.game.ranking:
        values.append(state.totals[seat] if key == "total" else 0)
    return tuple(values)


def order_key(state: GameState, seat: int) -> tuple[int, ...]:
    """What ranks ``seat`` now (``rank_key`` on the last round's ranking values)."""
    instant = bool(state.rounds) and seat in state.rounds[-1].instant
    return rank_key(_side_ranks(state, seat), state.orders, instant)


def first_after(game: Game, scored: RoundScored) -> tuple[int, ...]:
    """The sides ranked first after the round ``scored`` (the winners if it ended the game)."""
    if scored.result is not None:
        return tuple(range(len(scored.totals))) if scored.result == "won" else ()
    keys = [rank_key(ranks, scored.orders, seat in scored.instant) for seat, ranks in enumerate(scored.ranks)]
    best = min(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)


def standings(state: GameState) -> tuple[Standing, ...]:
    """Best first; players equal on the total and on every tie-break share the rank."""
    keys = [order_key(state, seat) for seat in range(state.player_count)]
    order = sorted(range(state.player_count), key=lambda seat: (keys[seat], seat))
    result: list[Standing] = []
    for position, seat in enumerate(order):
        previous = result[-1] if result else None
        same = previous is not None and keys[previous.player] == keys[seat]
        result.append(Standing(seat, state.totals[seat], previous.rank if same and previous else position + 1))
    return tuple(result)


def winners(state: GameState) -> tuple[int, ...]:
    """The winning sides once the game is over (several when the win is shared); a
    cooperative game: the table when won, none when lost."""
    if not state.over:
        return ()
    if state.outcome is not None:
        return (0,) if state.outcome == "won" else ()
    return tuple(sorted(standing.player for standing in standings(state) if standing.rank == 1))


def leaders(state: GameState) -> tuple[int, ...]:
    return tuple(sorted(standing.player for standing in standings(state) if standing.rank == 1))


@dataclass(frozen=True, slots=True)
class TieBroken:
    """Why the first place went as it did when totals tied: the tie-break that decided
    (None: the win is shared after the whole chain), the seats tied on the total, and each
    one's value for it."""

    tiebreak: int | None
    tied: tuple[int, ...]
    values: tuple[int, ...]


def tie_broken(state: GameState) -> TieBroken | None:
    """How the tie for the first place was settled, or None if no one tied the leader's total."""
    ranked = standings(state)
    if not ranked:
        return None
    # Tied: equal on what ranks up to the total (an instant win, still in, the total), so a
    # player out of the game is never tied with the one who won by being the last in.
    through_total = state.game.file.total_rank + 2
    best = order_key(state, ranked[0].player)[:through_total]
    tied = tuple(standing.player for standing in ranked if order_key(state, standing.player)[:through_total] == best)
    if len(tied) < 2:
        return None
    for index in range(len(state.game.tiebreaks)):
        values = tuple(_side_ranks(state, seat)[through_total - 1 + index] for seat in tied)
        if len(set(values)) > 1:
            return TieBroken(index, tied, values)
    return TieBroken(None, tied, ())


# --- evaluation


def option_context(state: GameState) -> dict[str, Any]:
    """The names every formula of ``state``'s match may read: the players, sides, tables, options."""
    return {
        "players": state.players,
        "sides": state.player_count,
        "tables": state.game.file.tables,
        # The match's own map, not a copy: the same object from round to round is handed to
        # CEL once (formulas.HeldContext), and nothing changes it in place.
        "options": state.options if type(state.options) is dict else dict(state.options),
    }


def _without(series: Sequence[Any], seat: int) -> list[Any]:
    return [value for index, value in enumerate(series) if index != seat]


# A formula that fails raises FormulaFailed, itself the round's refusal (invalid, formula_failed).
def _bound(bound: Compiled | int | None, variables: Scope | Mapping[str, Any]) -> int | None:
    """A bound's value; a formula may give null for none (an option left empty)."""
    if bound is None or isinstance(bound, int):
        return bound
    value = bound.evaluate(variables)
    if value is None:
        return None
    if type(value) is not int:
        raise FormulaFailed(bound.field, f"gives {type(value).__name__}, not a whole number")
    return value
