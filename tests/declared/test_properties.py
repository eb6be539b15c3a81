"""Property tests for every declared game, drawn from its own file: random options and
rounds within the file's bounds, played through the one engine.

- a refused round leaves the match as it was, and is refused as ``invalid`` or ``rule``;
- an accepted round's points are the sum of its categories, and every total the sum of
  the player's rounds;
- each game's own rules hold on every accepted round (checked here independently of the
  file's checks: Skull King's tricks, Ticket to Ride's trains, 7 Wonders' wild symbols);
- undo gives back the earlier match exactly, and replaying the log gives the same match;
- the game ends where the file says: after its rounds, once a total reaches the target (a
  game that plays on while the first place is shared: only then), or when one player alone
  is still in (a game played by turns); a file whose end rules say more has its end held
  by its worked examples.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st

from marquoir.games.declared import End, Game, GameState, Match, Round, Setup, Turn, declared_games, resolve_options
from marquoir.games.declared.engine import Action, display_bounds, inputs_taken
from marquoir.rules import RuleError

GAMES = {game.key: game for game in declared_games()}


def option_values(game: Game) -> st.SearchStrategy[dict[str, Any]]:
    """Options within each one's kind and bounds (short deals, so that games end)."""
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for option in game.file.options:
        if option.kind == "flag":
            fields[option.key] = st.booleans()
        elif option.kind == "number":
            # Low values, so that games end (a target of 500 at least: its least).
            least = option.min or 1
            fields[option.key] = st.integers(least, max(least, min(option.max or 200, 200)))
        elif option.kind == "choice":
            fields[option.key] = st.sampled_from([choice.value for choice in option.choices])
        else:
            fields[option.key] = st.lists(st.integers(option.min or 1, 3), min_size=1, max_size=2)
    return st.fixed_dictionaries({}, optional=fields)


def example_values(game: Game, *, final: bool = False) -> dict[str, list[Any]]:
    """Each input's values in the file's accepted examples: mixed into the draws, so that a
    game whose rules bind its inputs together (Ticket to Ride's tickets) gets rounds that
    pass as often as rounds that are refused. ``final``: the end's count's, from the
    examples' ends."""
    pool: dict[str, list[Any]] = {}
    specs = game.file.final.inputs if final and game.file.final else game.file.inputs
    per_player = {spec.key for spec in specs if spec.per_side}
    for example in game.file.examples:
        if example.refused is not None:
            continue
        for inputs in [example.end or {}] if final else example.rounds:
            for key, value in inputs.items():
                pool.setdefault(key, []).extend(value if key in per_player else [value])
    return pool


def value_of(spec: Any, least: int | None, most: int | None, count: int) -> st.SearchStrategy[Any]:
    """One value of ``spec`` within its kind and bounds."""
    if spec.kind == "flag":
        return st.booleans()
    if spec.kind == "player":
        return st.integers(0, count - 1)
    if spec.kind == "choice":
        return st.sampled_from(spec.choices or [choice.value for choice in spec.names])
    if spec.kind == "counts":
        return st.fixed_dictionaries({part.key: st.integers(part.min, min(part.most, 6)) for part in spec.parts})
    if spec.kind == "list":
        values = [choice.value for choice in spec.names] or list(range(least or 0, (most or 0) + 1))
        return st.lists(st.sampled_from(values), max_size=min(spec.max_length or 0, 4), unique=spec.distinct)
    if spec.kind == "groups":
        group = st.lists(st.integers(spec.min, spec.max), min_size=1, max_size=min(spec.group_length, 6))
        return st.lists(group, max_size=min(spec.max_length, 4))
    if spec.kind == "records":
        fields = {
            part.key: (
                st.one_of(st.none(), st.sampled_from([choice.value for choice in part.names]))
                if part.names
                else st.integers(part.min, min(part.most, part.min + 8))
            )
            for part in spec.parts
        }
        return st.lists(st.fixed_dictionaries(fields), max_size=min(spec.max_length or 0, 5))
    low, high = least if least is not None else -50, most if most is not None else 50
    if spec.step:
        step = spec.step
        return st.integers(low // step, high // step).map(lambda n: n * step)
    # Mostly small values (rounds that pass the games' sums), sometimes anywhere in the bounds
    # (a UNO hand of 900: games that end at a high target get there).
    return st.one_of(st.integers(low, min(high, low + 60)), st.integers(low, high))


def round_inputs(draw: st.DrawFn, game: Game, state: GameState, pool: dict[str, list[Any]]) -> dict[str, Any]:
    """One round's inputs within the bounds the file gives for it (a bound that depends on
    other inputs is left to the engine to refuse), or values from its examples (``pool``)."""
    count = state.player_count
    inputs: dict[str, Any] = {}
    taken, bounds = inputs_taken(state), display_bounds(state)
    for item in game.inputs:
        spec = item.spec
        if spec.key not in taken:
            continue
        drawn = value_of(spec, *bounds[spec.key], count)
        seen = [value for value in pool.get(spec.key, []) if spec.kind != "player" or value < count]
        either = st.one_of(st.sampled_from(seen), drawn) if seen else drawn
        if not spec.per_side:
            inputs[spec.key] = draw(either)
        else:
            inputs[spec.key] = draw(st.lists(either, min_size=count, max_size=count))
    return inputs


def own_rules_hold(game: Game, state: Any, inputs: dict[str, Any]) -> None:
    """Each game's rules, written here again in Python, on an accepted round."""
    count = state.player_count
    if game.key == "skull_king":
        dealt = state.options["deal"][state.round_count - 1]
        lost = state.options["kraken"] + state.options["white_whale"]
        tricks = sum(inputs["tricks"])
        assert tricks <= dealt
        if count >= 3:
            assert tricks >= dealt - lost
    elif game.key == "ticket_to_ride":
        for routes in inputs["routes"]:
            assert sum(int(length) * number for length, number in routes.items()) <= 45
        assert any(inputs["longest_path"])
    elif game.key == "seven_wonders":
        wilds = [science["wild"] for science in inputs["science"]]
        assert sum(wilds) <= 3
        assert wilds.count(2) <= 1
    elif game.key == "skyjo":
        assert all(-17 <= cards <= 140 for cards in inputs["cards"])
    elif game.key == "papayoo":
        assert sum(inputs["points"]) == 250
    elif game.key == "uno":
        assert inputs["hand"][inputs["winner"]] == 0
    elif game.key == "flip_7":
        assert inputs.get("flip_7", [False] * count).count(True) <= 1
    elif game.key == "qwixx":
        assert list(inputs["penalties"]).count(4) <= 1
    elif game.key == "kingdomino":
        limit = 48 if state.options["mighty_duel"] else 24
        assert all(sum(record["squares"] for record in kingdom) <= limit for kingdom in inputs["properties"])
    elif game.key == "molkky":
        last = state.rounds[-1]
        assert 0 <= sum(last.breakdown[last.player].values()) <= 12
        assert all(0 <= total <= 50 for total in state.totals)


class Played(tuple[Match, list[Action], int]):
    """(the match, the actions accepted, how many were refused), shown in short."""

    def __repr__(self) -> str:
        match, accepted, refused = self
        state = match.state
        return f"Played({state.player_count} players, {dict(state.options)}, rounds={accepted}, refused={refused})"


@st.composite
def played(draw: st.DrawFn, game: Game) -> tuple[Match, list[Action], int]:
    """A match of ``game`` played by random rounds, then sometimes ended by the table where
    it may be: the match, the actions accepted, how many were refused."""
    least, most = game.file.box.players
    count = draw(st.integers(least, min(most, 6)))
    try:
        options = resolve_options(game, count, draw(option_values(game)))
    except RuleError:  # options that do not go together (the Mighty Duel at 3): no match
        assume(False)
        raise
    match = Match.start(Setup(game, count, 0, options))
    accepted: list[Action] = []
    refused = 0
    action = Turn if game.by_turns else Round
    for _attempt in range(draw(st.integers(1, 30 if game.by_turns else 12))):
        if match.state.over:
            break
        inputs = round_inputs(draw, game, match.state, example_values(game))
        before = match
        try:
            match = match.apply(action(inputs))
        except RuleError as refusal:
            refused_code = refusal.code
        else:
            own_rules_hold(game, match.state, inputs)
            accepted.append(action(inputs))
            continue
        assert refused_code in {"invalid", "rule"}
        assert match is before
        refused += 1
    # Where the table ends the game, it sometimes does: with the end's count the file asks for.
    if game.file.end.table_decides and match.state.rounds and not match.state.over and draw(st.booleans()):
        final = game.final
        counted = (
            round_inputs(draw, final, replace(match.state, game=final), example_values(game, final=True))
            if final is not None
            else None
        )
        end = End(counted)
        before = match
        try:
            match = match.apply(end)
        except RuleError as refusal:
            refused_code = refusal.code
        else:
            accepted.append(end)
            return Played((match, accepted, refused))
        assert refused_code in {"invalid", "rule"}
        assert match is before
        refused += 1
    return Played((match, accepted, refused))


def check_match(game: Game, match: Match, accepted: list[Action]) -> None:
    state = match.state
    ended_by_the_table = bool(accepted) and isinstance(accepted[-1], End)
    # The end's count is one more entry; a bare end is none.
    counted = ended_by_the_table and game.final is not None
    assert state.round_count == len(accepted) - (ended_by_the_table and not counted)
    # A turn's points are what it changed in each total (Mölkky's drop to 25 takes some
    # away), so only a game scored by rounds has its points equal to its categories (and
    # the end's count, where it sets no total of its own).
    for scored in state.rounds:
        if not game.by_turns or (scored.closing and game.final is not None and not game.final.after):
            assert scored.points == tuple(sum(part.values()) for part in scored.breakdown)
    for seat in range(state.player_count):
        assert state.totals[seat] == sum(state.player_rounds(seat))
        if not game.by_turns:
            assert sum(state.breakdown(seat).values()) == state.totals[seat]
    replayed = Match.replay(match.setup, accepted)
    assert replayed.state == state
    if match.steps:
        assert match.undo().state == (match.steps[-2].state if len(match.steps) > 1 else match.initial)
    if ended_by_the_table:
        assert state.over
        assert state.end_reason == "declared"
        return
    if state.over:
        assert state.rounds[-1].game_over
    if not simple_end(game):
        # A file whose end says more (Phase 10's last phase, Coinche's belote alone that does
        # not win, an option's play-off): its end is held by its worked examples.
        return
    planned, target, end = state.rounds_planned(), state.target(), game.file.end
    playing = [seat for seat in range(state.player_count) if not state.out[seat]]
    # The two end rules of the catalog's files: one player alone still in (Mölkky), and the
    # game going on while the first place is shared (Flip 7).
    alone = any(rule.key == "last_standing" for rule in end.rules) and len(playing) <= 1
    reached = target is not None and any(state.totals[seat] >= target for seat in playing)
    ended = alone or (planned is not None and state.round_count >= planned) or reached
    if end.unless is not None and ended and not alone:
        best = (min if state.lowest_wins else max)(state.totals)
        ended = list(state.totals).count(best) == 1
    assert state.over == ended


def simple_end(game: Game) -> bool:
    """The file's end is one of those ``check_match`` states again: its rounds, its target,
    one player alone still in (Mölkky), another round while the first place is shared (Flip 7)."""
    end = game.file.end
    return all(rule.key == "last_standing" for rule in end.rules) and end.unless in (None, "size(leaders) > 1")


@pytest.mark.parametrize("key", sorted(GAMES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_rounds_within_the_file_s_bounds_keep_the_invariants(key: str, data: st.DataObject) -> None:
    game = GAMES[key]
    match, accepted, _refused = data.draw(played(game))
    check_match(game, match, accepted)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_random_rounds_can_play_a_game_to_its_end(key: str) -> None:
    """The property above is not vacuous: its rounds are accepted, and they reach the end."""
    game = GAMES[key]
    match, accepted, _refused = find(
        played(game),
        lambda case: case[0].state.over and len(case[1]) >= 1,
        # Derandomized: the search is the same at every run, so it cannot pass by luck once.
        settings=settings(max_examples=1_000, database=None, deadline=None, derandomize=True),
    )
    assert match.state.over
    check_match(game, match, accepted)
