"""Invariants of the log's fold (``fold.Ledger``) over random tables of every engine with a
random player (Pickomino, Yahtzee, French Tarot, the score sheet): any mix of actions,
undos, redos and corrections, each accepted one leaving the table exactly as the actions in
force replayed from the start would; undo and redo exact; a refused correction changing
nothing; and the log, folded again from its entries alone, the same table.

Pure Python: the ledger is given the engine's actions as payloads (a keeper stand-in whose
``engine_action`` is the identity), so no database is needed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games import pickomino, sheet, tarot, yahtzee
from marquoir.games.pickomino import playout as pickomino_playout
from marquoir.games.sheet import playout as sheet_playout
from marquoir.games.tarot import playout as tarot_playout
from marquoir.games.yahtzee import playout as yahtzee_playout
from marquoir.rules import GameMatch, RuleError
from marquoir.tables.fold import Ledger

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@dataclass(frozen=True)
class Engine:
    """One game's engine as the ledger meets it: its match class, a set-up, a random player."""

    match: type[GameMatch[Any, Any, Any]]
    setup: Callable[[random.Random], Any]
    random_action: Callable[[Any, Callable[..., Any]], Any]


ENGINES = {
    "pickomino": Engine(
        pickomino.Match,
        lambda rng: pickomino.Setup(rng.randint(2, 7), 0, pickomino.Options(rng.random() < 0.5, rng.random() < 0.5)),
        pickomino_playout.random_legal_action,
    ),
    "sheet": Engine(
        sheet.Match,
        lambda rng: sheet.Setup(rng.randint(1, 6), 0, sheet.Options(target=rng.choice([None, 100]))),
        sheet_playout.random_legal_action,
    ),
    "yahtzee": Engine(
        yahtzee.Match,
        lambda rng: yahtzee.Setup(tuple(f"Player {n}" for n in range(rng.randint(1, 4))), 0),
        yahtzee_playout.random_legal_action,
    ),
    "tarot": Engine(tarot.Match, lambda rng: tarot.Setup(rng.randint(3, 5), 0), tarot_playout.random_legal_action),
}


class Identity:
    """The keeper's part the ledger calls: payloads here are the engine's actions themselves."""

    def __init__(self, start: GameMatch[Any, Any, Any]) -> None:
        self._start = start

    def start(self, row: object) -> GameMatch[Any, Any, Any]:
        return self._start

    def engine_action(self, payload: Any) -> Any:
        return payload


@dataclass
class Table:
    """A ledger played by a random hand, with the entries it was given (to fold them again)."""

    engine: Engine
    ledger: Ledger
    keeper: Identity
    entries: list[tuple[int, str, Any]]

    @property
    def seq(self) -> int:
        return len(self.entries)

    def then(self, kind: str, payload: Any) -> bool:
        """Fold one more entry; False (and the ledger as it was) if it is refused."""
        before = self.ledger.copy()
        try:
            self.ledger.then(self.seq + 1, kind, payload, self.keeper)
        except RuleError:
            assert_same(self.ledger, before)
            return False
        self.entries.append((self.seq + 1, kind, payload))
        return True


def assert_same(ledger: Ledger, other: Ledger) -> None:
    assert ledger.engine == other.engine
    assert ledger.log == other.log
    assert ledger.slots == other.slots
    assert ledger.payloads == other.payloads


def new_table(name: str, rng: random.Random) -> Table:
    engine = ENGINES[name]
    start = engine.match.start(engine.setup(rng))
    return Table(engine, Ledger(start), Identity(start), [])


def in_force_replayed(table: Table) -> Any:
    """The state the actions in force (each slot's action as it stands) make from the start."""
    start = table.keeper.start(None)
    return type(start).fold(start.setup, [table.ledger.payloads[slot] for slot in table.ledger.slots])


def play_at_random(table: Table, rng: random.Random, moves: int) -> None:
    """A random hand: mostly new actions, and undos, redos and corrections among them."""
    for _ in range(moves):
        ledger = table.ledger
        move = rng.choice(("action",) * 5 + ("undo", "redo", "correct", "correct"))
        if move == "action" and not ledger.engine.state.over:
            table.then("action", table.engine.random_action(ledger.engine.state, rng.choice))
        elif move == "undo":
            table.then("undo", {"type": "undo"})
        elif move == "redo":
            table.then("redo", {"type": "redo"})
        elif move == "correct" and ledger.slots:
            index = rng.randrange(len(ledger.slots))
            state_before = ledger.engine.steps[index - 1].state if index else ledger.engine.initial
            replacement = table.engine.random_action(state_before, rng.choice)
            table.then("correct", {"seq": ledger.slots[index], "action": replacement})
        assert table.ledger.engine.state == in_force_replayed(table)
        corrected = {doing.slot for doing in table.ledger.doings if doing.is_correction}
        assert {logged.seq for logged in table.ledger.log if logged.corrected} == corrected


@settings(max_examples=120, deadline=None)
@given(game=st.sampled_from(sorted(ENGINES)), seed=seeds)
def test_any_mix_of_actions_undos_redos_and_corrections_is_the_actions_in_force_replayed(game, seed):
    rng = random.Random(seed)
    table = new_table(game, rng)
    play_at_random(table, rng, 60)

    again = Ledger(table.keeper.start(None))
    for seq, kind, payload in table.entries:
        again.then(seq, kind, payload, table.keeper)
    assert_same(again, table.ledger)
    assert again.redo == table.ledger.redo


@settings(max_examples=120, deadline=None)
@given(game=st.sampled_from(sorted(ENGINES)), seed=seeds)
def test_an_undo_gives_back_the_exact_table_before_and_a_redo_the_one_after(game, seed):
    rng = random.Random(seed)
    table = new_table(game, rng)
    play_at_random(table, rng, 30)
    if not table.ledger.doings:
        return
    after = table.ledger.copy()
    undone_seq = table.ledger.log[table.ledger.doings[-1].at].seq

    assert table.then("undo", {"type": "undo"})
    assert table.ledger.redo == undone_seq
    assert table.then("redo", {"type": "redo"})

    assert table.ledger.engine == after.engine
    assert table.ledger.slots == after.slots
    assert table.ledger.payloads == after.payloads
    assert table.ledger.redo == after.redo  # what was redoable before is redoable still


@settings(max_examples=120, deadline=None)
@given(game=st.sampled_from(sorted(ENGINES)), seed=seeds)
def test_a_correction_is_the_match_replayed_with_that_action_in_place(game, seed):
    rng = random.Random(seed)
    table = new_table(game, rng)
    for _ in range(20):
        if table.ledger.engine.state.over:
            break
        table.then("action", table.engine.random_action(table.ledger.engine.state, rng.choice))
    if not table.ledger.slots:
        return
    index = rng.randrange(len(table.ledger.slots))
    engine = table.ledger.engine
    replacement = table.engine.random_action(engine.steps[index - 1].state if index else engine.initial, rng.choice)
    actions = list(engine.actions)
    actions[index] = replacement
    try:
        expected: Mapping[str, Any] | None = {"state": type(engine).fold(engine.setup, actions)}
    except RuleError:
        expected = None

    accepted = table.then("correct", {"seq": table.ledger.slots[index], "action": replacement})

    assert accepted == (expected is not None)
    if expected is not None:
        assert table.ledger.engine.state == expected["state"]
        assert table.ledger.engine.actions == tuple(actions)
