"""The exact odds of a turn: hand-worked cases, a brute force, simulations, and legality."""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.pickomino import GRILL, TILES, Face, GameState, RuleError, TurnDice, legal_claims, worms_on
from marquoir.games.pickomino.odds import Advice, Table, advise, tile_chances

from .builders import only_face_up

W, ONE, TWO, THREE, FOUR, FIVE = Face.WORM, Face.ONE, Face.TWO, Face.THREE, Face.FOUR, Face.FIVE
FACES = tuple(Face)


def dice(*keeps: tuple[Face, int]) -> TurnDice:
    kept = TurnDice()
    for face, count in keeps:
        kept = kept.keep(face, count)
    return kept


def game_state(table: Table) -> GameState:
    """The engine's state for ``table``, the player in seat 0, one opponent per top tile."""
    stacks = ((table.own_top,) if table.own_top is not None else (),) + tuple((top,) for top in table.opponent_tops)
    if len(stacks) < 2:
        stacks += ((),)
    return only_face_up(*table.face_up, stacks=stacks)


# A nearly fresh grill; and a later table with two stealable tops and a tile of the player's own.
EARLY = Table(frozenset(TILES) - {22, 27})
LATE = Table(frozenset({21, 22, 23, 25, 28, 29, 30, 33}), opponent_tops=frozenset({26, 31}), own_top=27)

# -- Worked out by hand ---------------------------------------------------------------------


def test_one_die_left_with_only_the_worm_new_busts_five_times_in_six():
    # 1, 2, 3, 4 4, 5 5 kept: total 24, no worm; the last die must show the worm (1/6).
    kept = dice((ONE, 1), (TWO, 1), (THREE, 1), (FOUR, 2), (FIVE, 2))
    advice = advise(Table(frozenset(TILES)), kept)
    assert advice.bust_chance == pytest.approx(5 / 6, abs=1e-12)
    # The worm makes 29: three worms, one time in six.
    assert advice.roll_value == pytest.approx(3 / 6, abs=1e-12)
    assert not advice.should_stop
    assert advice.stop_tile is None


def test_one_die_left_busting_costs_the_own_top_tile():
    kept = dice((ONE, 1), (TWO, 1), (THREE, 1), (FOUR, 2), (FIVE, 2))
    advice = advise(Table(frozenset(TILES) - {36}, own_top=36), kept)
    # 1/6 × 3 worms + 5/6 × (−4 worms) = (3 − 20) / 6.
    assert advice.roll_value == pytest.approx(Fraction(-17, 6), abs=1e-12)
    assert advice.bust_value == -4
    assert advice.stop_value == -4


def test_one_die_left_with_the_worm_kept_gives_each_new_face_one_chance_in_six():
    # W W W, 5 5, 4 4 kept: total 33; a 1, 2 or 3 makes 34, 35 or 36, each 1/6.
    kept = dice((W, 3), (FIVE, 2), (FOUR, 2))
    chances = tile_chances(Table(frozenset(TILES)), kept)
    assert chances[33] == 1.0  # stopping now takes it
    for tile in (34, 35, 36):
        assert chances[tile] == pytest.approx(1 / 6, abs=1e-12)
    # The grill never gives a tile below the total once a higher one is face up.
    assert all(chances[tile] == 0.0 for tile in range(21, 33))


def test_one_die_left_with_33_in_hand_stops():
    kept = dice((W, 3), (FIVE, 2), (FOUR, 2))
    advice = advise(Table(frozenset(TILES)), kept)
    # Rolling: three faces in six add a tile of 4 worms, the other half busts (worth 0): 2.
    assert advice.roll_value == pytest.approx(2.0, abs=1e-12)
    assert advice.stop_value == 4.0
    assert advice.stop_tile == 33
    assert advice.should_stop
    assert advice.bust_chance == 0.0


# Two dice left, W W 5 5 4 4 kept (total 28), faces 1, 2, 3 new. The table: 30, 31, 33 face up,
# an opponent's 29 to steal (3 worms, worth 6 as a swing), the player's own 25 (a bust: −2).
TWO_LEFT = dice((W, 2), (FIVE, 2), (FOUR, 2))
SMALL = Table(frozenset({30, 31, 33}), opponent_tops=frozenset({29}), own_top=25)


def test_two_dice_left_show_no_new_face_one_time_in_four():
    # No new face: both dice among 4, 5, worm: (3/6)² = 1/4; any new face ends in a claim.
    advice = advise(SMALL, TWO_LEFT)
    assert advice.bust_chance == pytest.approx(1 / 4, abs=1e-12)


def test_two_dice_left_rolling_on_is_worth_47_over_18():
    # Stopping at 28 is a bust (−2). After keeping one die at 1 die left, stopping beats rolling:
    # 29 steals (6), 30 or 31 takes 3 (rolling on: at most (3 + 4)/6 − 4/6·2 < 0).
    # Ordered rolls out of 36:
    #   9  no new face                     −2   → −18
    #   6  a single 1 (+ a kept face): 29   6   →  36
    #   6  a single 2: 30, 6 a single 3: 31  3   →  36
    #   1  1 1: 30 · 1  2 2: 32 → 31 · 1  3 3: 34 → 33   3, 3, 4 → 10
    #   2  1 2 · 2  1 3: keep the 1, steal   6   →  24
    #   2  2 3: keep either                  3   →   6
    #   total 94 / 36 = 47 / 18
    advice = advise(SMALL, TWO_LEFT)
    assert advice.roll_value == pytest.approx(47 / 18, abs=1e-12)
    assert advice.value == pytest.approx(47 / 18, abs=1e-12)
    assert advice.stop_value == -2
    assert advice.stop_tile is None
    assert not advice.should_stop


def test_steal_weight_one_counts_only_the_players_own_gain():
    # The same rolls with the steal worth 3: (−18 + 18·3 + 3 + 3 + 4 + 6·3) / 36 = 64 / 36.
    advice = advise(SMALL, TWO_LEFT, steal_weight=1.0)
    assert advice.roll_value == pytest.approx(16 / 9, abs=1e-12)


def test_a_roll_of_one_and_two_keeps_the_one_to_steal():
    advice = advise(SMALL, TWO_LEFT, (ONE, TWO))
    assert advice.best_face is ONE
    assert [(keep.face, keep.value, keep.stop_after) for keep in advice.keeps] == [(ONE, 6.0, True), (TWO, 3.0, True)]
    assert not advice.roll_busts


def test_two_dice_left_playing_for_a_tile_counts_the_rolls_that_reach_it():
    # The steal of 29 needs exactly one 1 (28 + 1); totals never go down: 2·5/36 = 10/36.
    # The grill's 30 (31 lies face up) needs exactly one 2, or 1 1: 10/36 + 1/36.
    chances = tile_chances(SMALL, TWO_LEFT)
    assert chances[29] == pytest.approx(10 / 36, abs=1e-12)
    assert chances[30] == pytest.approx(11 / 36, abs=1e-12)


def test_a_roll_of_kept_faces_only_is_a_bust():
    advice = advise(SMALL, TWO_LEFT, (FOUR, W))
    assert advice.roll_busts
    assert advice.keeps == ()
    assert advice.best_face is None


# -- Against a brute force over ordered rolls, in exact fractions ----------------------------


def brute_force(table: Table, kept: TurnDice, steal_weight: Fraction) -> tuple[Fraction, Fraction]:
    """(value, bust chance) by trying all 6^n ordered rolls, choosing as the solver does."""
    state = game_state(table)
    bust = Fraction(-worms_on(table.own_top)) if table.own_top is not None else Fraction(0)

    def stop(now: TurnDice) -> Fraction | None:
        claims = legal_claims(state, now.total, now.has_worm)
        values = [Fraction(worms_on(c.tile)) * (1 if c.source == GRILL else steal_weight) for c in claims]
        return max(values) if values else None

    @functools.cache
    def play(faces: frozenset[Face], now: TurnDice) -> tuple[Fraction, Fraction]:
        stopped = stop(now)
        if now.is_finished:
            return (stopped, Fraction(0)) if stopped is not None else (bust, Fraction(1))
        value = busts = Fraction(0)
        rolls = list(itertools.product(FACES, repeat=now.dice_left))
        for roll in rolls:
            options = [settle(now.keep_from_roll(roll, face)) for face in now.keepable_faces(roll)]
            best = max(options, key=lambda option: (option[0], -option[1]), default=(bust, Fraction(1)))
            value += best[0] / len(rolls)
            busts += best[1] / len(rolls)
        if stopped is not None and stopped >= value:
            return stopped, Fraction(0)
        return value, busts

    def settle(now: TurnDice) -> tuple[Fraction, Fraction]:
        # Remembered per (faces, dice left, total): the order of the keeps does not matter.
        return play(now.faces_kept, TurnDice(tuple(sorted(now.keeps, key=lambda keep: keep.face))))

    return settle(kept)


@pytest.mark.parametrize(
    "kept",
    [
        TWO_LEFT,
        dice((W, 1), (FIVE, 2), (FOUR, 2)),
        dice((FIVE, 3), (FOUR, 2)),
        dice((THREE, 2), (W, 3)),
        dice((W, 3), (TWO, 2), (ONE, 1)),
    ],
)
@pytest.mark.parametrize("table", [SMALL, LATE, EARLY])
def test_solver_matches_a_brute_force_in_fractions(table, kept):
    value, busts = brute_force(table, kept, Fraction(2))
    advice = advise(table, kept)
    assert advice.value == pytest.approx(float(value), abs=1e-12)
    assert advice.bust_chance == pytest.approx(float(busts), abs=1e-12)


# -- Against a simulation of real dice, following the solver's own advice ---------------------

GAMES = 20_000


class Simulation:
    """Turns played with real (seeded) dice, each decision taken from ``advise``.

    The advice is remembered per state and sorted roll, so that 20 000 turns run in a second;
    the state is tracked here as plain numbers, apart from the solver's own.
    """

    def __init__(self, table: Table, seed: str, **options: object) -> None:
        self.table, self.options = table, options
        self.rng = random.Random(seed)
        self.advice: dict[tuple[object, ...], Advice] = {}

    def ask(self, keeps: tuple[tuple[Face, int], ...], roll: tuple[Face, ...] | None) -> Advice:
        key = (frozenset(keeps), roll)
        advice = self.advice.get(key)
        if advice is None:
            advice = self.advice[key] = advise(self.table, dice(*keeps), roll, **self.options)  # type: ignore[arg-type]
        return advice

    def play(self, start: TurnDice) -> tuple[int, bool] | None:
        """One turn from ``start``: the total and whether a worm was kept, or None on a bust roll."""
        keeps = tuple((keep.face, keep.count) for keep in start.keeps)
        kept = {face for face, _ in keeps}
        left, total = start.dice_left, start.total
        while left and len(kept) < len(FACES) and not self.ask(keeps, None).should_stop:
            roll = tuple(sorted(self.rng.choices(FACES, k=left)))
            if set(roll) <= kept:
                return None
            face = self.ask(keeps, roll).best_face
            assert face is not None
            assert face not in kept
            count = roll.count(face)
            keeps += ((face, count),)
            kept.add(face)
            left -= count
            total += face.points * count
        return total, W in kept


def ending_value(state: GameState, end: tuple[int, bool] | None) -> float | None:
    """What the engine lets the turn's end claim, steals counted twice; None on a bust."""
    if end is None:
        return None
    claims = legal_claims(state, *end)
    return max((worms_on(c.tile) * (1.0 if c.source == GRILL else 2.0) for c in claims), default=None)


MID_TURNS = {
    "a fresh turn": TurnDice(),
    "two worms kept, 6 dice left": dice((W, 2)),
    "5 5 5 4 4 kept, no worm, 3 dice left": dice((FIVE, 3), (FOUR, 2)),
}


@pytest.mark.parametrize("name", MID_TURNS)
@pytest.mark.parametrize("table_name", ["early", "late"])
def test_simulated_turns_agree_with_the_expected_value_and_bust_chance(name, table_name):
    table = {"early": EARLY, "late": LATE}[table_name]
    start = MID_TURNS[name]
    state, simulation = game_state(table), Simulation(table, f"{table_name}/{name}")
    values, busts = [], 0
    for _ in range(GAMES):
        value = ending_value(state, simulation.play(start))
        busts += value is None
        values.append(table.bust_value if value is None else value)
    advice = advise(table, start)
    mean = sum(values) / GAMES
    value_error = math.sqrt(sum((v - mean) ** 2 for v in values) / (GAMES - 1) / GAMES)
    bust_rate = busts / GAMES
    bust_error = math.sqrt(advice.bust_chance * (1 - advice.bust_chance) / GAMES)
    print(
        f"\n{table_name:>5} | {name:<38} value solver {advice.value:.4f} sim {mean:.4f} ± {value_error:.4f}"
        f" | bust solver {advice.bust_chance:.4f} sim {bust_rate:.4f} ± {bust_error:.4f}"
    )
    assert abs(mean - advice.value) <= 4 * value_error
    assert abs(bust_rate - advice.bust_chance) <= 4 * bust_error


@pytest.mark.parametrize(("table_name", "tile"), [("early", 30), ("late", 31), ("late", 21)])
def test_simulated_turns_playing_for_a_tile_win_it_as_often_as_said(table_name, tile):
    table = {"early": EARLY, "late": LATE}[table_name]
    state, simulation = game_state(table), Simulation(table, f"{table_name}/for {tile}", target=tile)
    wins = 0
    for _ in range(GAMES):
        end = simulation.play(TurnDice())
        wins += end is not None and any(c.tile == tile for c in legal_claims(state, *end))
    chance = tile_chances(table, TurnDice())[tile]
    error = math.sqrt(chance * (1 - chance) / GAMES)
    print(f"\n{table_name:>5} | playing for {tile}: chance solver {chance:.4f} sim {wins / GAMES:.4f} ± {error:.4f}")
    assert abs(wins / GAMES - chance) <= 4 * error


def test_tile_chances_cover_every_claimable_tile():
    chances = tile_chances(LATE, dice((W, 2)))
    assert set(chances) == LATE.face_up | LATE.opponent_tops
    assert all(0.0 <= chance <= 1.0 for chance in chances.values())


def test_advice_playing_for_a_tile_says_its_chance_and_counts_every_other_ending_a_bust():
    chances = tile_chances(LATE, TurnDice())
    for tile, chance in chances.items():
        advice = advise(LATE, TurnDice(), target=tile)
        assert advice.value == pytest.approx(chance)
        assert advice.bust_chance == pytest.approx(1 - chance)


def test_playing_for_a_tile_nobody_can_claim_is_refused():
    with pytest.raises(RuleError):
        advise(LATE, TurnDice(), target=27)  # the player's own top tile


# -- Legality, over random tables, turns and rolls -------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> Table:
    face_up = draw(st.frozensets(st.sampled_from(TILES)))
    rest = sorted(set(TILES) - face_up)
    tops: list[int] = draw(st.lists(st.sampled_from(rest), unique=True, max_size=4)) if rest else []
    own_stack_empty: bool = draw(st.booleans())
    own = None if own_stack_empty or not tops else tops.pop()
    return Table(face_up, frozenset(tops), own)


@st.composite
def turns(draw: st.DrawFn) -> TurnDice:
    """A reachable turn: distinct faces, each kept at least once, 8 dice at most."""
    order = draw(st.permutations(FACES))
    now = TurnDice()
    for face in order[: draw(st.integers(min_value=0, max_value=6))]:
        if now.is_finished:
            break
        now = now.keep(face, draw(st.integers(min_value=1, max_value=now.dice_left)))
    return now


@settings(max_examples=100, deadline=None)
@given(table=tables(), now=turns(), data=st.data())
def test_advice_never_keeps_a_face_not_rolled_or_already_kept(table, now, data):
    if now.is_finished:
        advice = advise(table, now)
        assert advice.should_stop
        assert advice.roll_value is None
        return
    roll = tuple(data.draw(st.lists(st.sampled_from(FACES), min_size=now.dice_left, max_size=now.dice_left)))
    advice = advise(table, now, roll)
    keepable = now.keepable_faces(roll)
    assert {keep.face for keep in advice.keeps} == keepable
    assert all(keep.count == roll.count(keep.face) for keep in advice.keeps)
    for keep in advice.keeps:
        after = now.keep_from_roll(roll, keep.face)
        if keep.stop_after and not after.is_finished:
            assert legal_claims(game_state(table), after.total, after.has_worm)
    if keepable:
        assert advice.best_face in keepable
        assert not advice.roll_busts
        assert advice.keeps[0].value == max(keep.value for keep in advice.keeps)
    else:
        assert advice.roll_busts
        assert advice.best_face is None


@settings(max_examples=100, deadline=None)
@given(table=tables(), now=turns())
def test_stopping_is_advised_only_with_a_worm_and_a_claim(table, now):
    advice = advise(table, now)
    claims = legal_claims(game_state(table), now.total, now.has_worm)
    assert (advice.stop_tile is not None) == bool(claims)
    if advice.should_stop and not now.is_finished:
        assert now.has_worm
        assert claims
    if not claims:
        assert advice.stop_value == advice.bust_value
    # Every ending is worth at least a bust; only float rounding may show a hair below it.
    assert advice.value >= advice.bust_value - 1e-9
    assert 0.0 <= advice.bust_chance <= 1.0 + 1e-12


@settings(max_examples=100, deadline=None)
@given(table=tables(), total=st.integers(min_value=0, max_value=40))
def test_the_tables_claims_are_the_engines(table, total):
    state = game_state(table)
    engine_best = max(
        (worms_on(c.tile) * (1.0 if c.source == GRILL else 2.0) for c in legal_claims(state, total, True)),
        default=None,
    )
    claim = table.claim(total)
    assert (claim[2] if claim else None) == engine_best
    assert Table.of(state) == table


def test_nothing_to_claim_makes_stopping_worth_the_bust():
    kept = dice((W, 2), (FIVE, 2))  # 20 with a worm; nothing face up at or below it
    advice = advise(Table(frozenset({25, 30}), own_top=33), kept)
    assert advice.stop_tile is None
    assert advice.stop_value == advice.bust_value == -4
    assert not advice.should_stop


def test_eight_dice_kept_cannot_roll_on():
    kept = dice((W, 4), (FIVE, 4))
    advice = advise(EARLY, kept)
    assert advice.roll_value is None
    assert advice.should_stop
    assert advice.stop_tile == 36
    assert advice.value == 4.0
    with pytest.raises(RuleError):
        advise(EARLY, kept, (ONE,))


def test_all_six_faces_kept_ends_the_turn_with_dice_left():
    # 1 + 2 + 3 + 4 + 5 + 5 = 20: below every tile, so the forced stop is a bust.
    kept = dice((ONE, 1), (TWO, 1), (THREE, 1), (FOUR, 1), (FIVE, 1), (W, 1))
    advice = advise(LATE, kept)
    assert kept.dice_left == 2
    assert advice.roll_value is None
    assert advice.should_stop
    assert advice.stop_tile is None
    assert advice.bust_chance == 1.0
    assert advice.value == advice.bust_value == -2


def test_a_roll_of_the_wrong_size_is_refused():
    with pytest.raises(RuleError):
        advise(EARLY, dice((W, 2)), (ONE, TWO))


def test_a_fresh_turn_cannot_stop():
    advice = advise(EARLY, TurnDice())
    assert not advice.should_stop
    assert advice.stop_tile is None
    assert advice.roll_value == advice.value


def test_a_table_with_a_tile_in_two_places_is_refused():
    with pytest.raises(RuleError):
        Table(frozenset({21, 22}), opponent_tops=frozenset({22}))
