"""A game file's worked examples, played: what each gives against what it says it gives.

Every example of every file runs as a test (tests/declared/test_examples.py); the same
check serves the editor of a user's own game later (its examples, run as they are typed).
"""

from __future__ import annotations

from dataclasses import dataclass

from marquoir.rules.errors import RuleError

from .engine import (
    End,
    GameState,
    Round,
    Turn,
    apply,
    check_teams,
    form_teams,
    resolve_options,
    sides_of,
    standings,
    winners,
)
from .game import Game
from .gamefile import Example


@dataclass(frozen=True)
class Played:
    """What an example's rounds came to: the state, or the refusal of its last round."""

    state: GameState | None
    refusal: RuleError | None


def play(game: Game, example: Example) -> Played:
    """``example``'s rounds (a game played by turns: its turns, from the first seat) played
    from its totals before, then its end if it says one; a refusal of any but the last
    action is raised (the example itself is wrong)."""
    before = tuple(example.before) if example.before is not None else None
    try:
        # An option out of its bounds or against an option check (7 players with a deck for
        # six) is refused as the set-up page refuses it: an example may say so.
        options = resolve_options(game, example.players, example.options)
        teams = check_teams(game, example.players, example.teams) if example.teams is not None else None
        if game.teams and teams is None:
            teams = form_teams(game, example.players)
    except RuleError as refusal:
        return Played(None, refusal)  # the set-up itself refused: the example says so, or fails
    sides = sides_of(game, example.players, teams)
    state = GameState(game, options, sides, 0, before=before, people=example.players, teams=teams)
    action = Turn if game.by_turns else Round
    actions: list[Round | Turn | End] = [action(inputs) for inputs in example.rounds]
    if example.end is not None:
        # The table ends the game: with the end's count where the file asks for one.
        # A count where the file asks none is sent as it is: the engine refuses it.
        actions.append(End(example.end if game.final is not None or example.end else None))
    for number, next_action in enumerate(actions, start=1):
        try:
            state, _scored = apply(state, next_action)
        except RuleError as refusal:
            if number == len(actions):
                return Played(None, refusal)
            raise
    return Played(state, None)


def mismatches(game: Game, example: Example) -> list[str]:
    """How ``example`` differs from what the rules give: empty when it holds."""
    played = play(game, example)
    found: list[str] = []
    if example.refused is not None:
        refusal = played.refusal
        if refusal is None:
            return [f"expected a refusal ({example.refused}), the round was accepted"]
        if refusal.code != example.refused:
            found.append(f"refused as {refusal.code} ({refusal.reason}), expected {example.refused}")
        if example.rule is not None and refusal.params.get("check") != example.rule:
            found.append(f"refused by {refusal.params.get('check')!r}, expected the check {example.rule!r}")
        return found
    if played.refusal is not None:
        return [f"refused: {played.refusal.code} {played.refusal}"]
    state = played.state
    if state is None:  # neither a state nor a refusal: play() always gives one
        raise RuntimeError(f"{example.name}: no state")
    last = state.rounds[-1]
    if example.points is not None and list(last.points) != example.points:
        found.append(f"points {list(last.points)}, expected {example.points}")
    if example.totals is not None and list(state.totals) != example.totals:
        found.append(f"totals {list(state.totals)}, expected {example.totals}")
    if example.breakdown is not None:
        for seat, expected in enumerate(example.breakdown):
            got = {key: state.breakdown(seat)[key] for key in expected}
            if got != expected:
                found.append(f"player {seat}'s breakdown {got}, expected {expected}")
    if example.over is not None and state.over != example.over:
        found.append(f"over {state.over}, expected {example.over}")
    if example.winners is not None and list(winners(state)) != example.winners:
        found.append(f"winners {list(winners(state))}, expected {example.winners}")
    if example.warnings is not None and sorted({key for key, _seat in last.warnings}) != sorted(example.warnings):
        found.append(f"warnings {sorted({key for key, _seat in last.warnings})}, expected {sorted(example.warnings)}")
    if example.ended_by is not None and state.ended_by != example.ended_by:
        found.append(f"ended by {state.ended_by!r}, expected {example.ended_by!r}")
    if example.result is not None and state.outcome != example.result:
        found.append(f"result {state.outcome!r}, expected {example.result!r}")
    if example.carried is not None and [dict(values) for values in state.carried] != example.carried:
        found.append(f"carried {[dict(values) for values in state.carried]}, expected {example.carried}")
    if example.order is not None and [standing.player for standing in standings(state)] != example.order:
        found.append(f"standings {[standing.player for standing in standings(state)]}, expected {example.order}")
    return found
