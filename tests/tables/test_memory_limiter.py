"""The in-memory limiter (ratelimit.spend): a fixed window per key, per process, bounded
in memory and safe under threads."""

from __future__ import annotations

import threading

from hypothesis import given
from hypothesis import strategies as st

from marquoir.tables import ratelimit
from marquoir.tables.ratelimit import Allowance, MemoryLimiter


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_spend_allows_up_to_the_limit_then_refuses_with_the_wait_left() -> None:
    clock = Clock()
    limiter = MemoryLimiter(max_keys=10, clock=clock)
    answers = [limiter.spend("k", limit=3, window_seconds=10) for _ in range(3)]
    assert answers == [Allowance(True)] * 3
    clock.now += 4
    assert limiter.spend("k", limit=3, window_seconds=10) == Allowance(False, 6)


def test_a_refused_spend_takes_nothing_and_the_allowance_comes_back_after_the_window() -> None:
    clock = Clock()
    limiter = MemoryLimiter(max_keys=10, clock=clock)
    assert limiter.spend("k", limit=1, window_seconds=10).allowed
    for _ in range(50):
        assert not limiter.spend("k", limit=1, window_seconds=10).allowed
    clock.now += 10
    assert limiter.spend("k", limit=1, window_seconds=10).allowed


def test_a_cost_spends_that_many_and_one_too_big_is_refused_whole() -> None:
    limiter = MemoryLimiter(max_keys=10, clock=Clock())
    assert limiter.spend("k", limit=10, window_seconds=60, cost=7).allowed
    assert not limiter.spend("k", limit=10, window_seconds=60, cost=4).allowed
    assert limiter.spend("k", limit=10, window_seconds=60, cost=3).allowed
    assert not limiter.spend("k", limit=10, window_seconds=60).allowed


def test_keys_have_separate_allowances() -> None:
    limiter = MemoryLimiter(max_keys=10, clock=Clock())
    assert limiter.spend("a", limit=1, window_seconds=60).allowed
    assert limiter.spend("b", limit=1, window_seconds=60).allowed
    assert not limiter.spend("a", limit=1, window_seconds=60).allowed


def test_the_retry_after_is_at_least_one_second() -> None:
    clock = Clock()
    limiter = MemoryLimiter(max_keys=10, clock=clock)
    limiter.spend("k", limit=1, window_seconds=10)
    clock.now += 9.9
    assert limiter.spend("k", limit=1, window_seconds=10) == Allowance(False, 1)


def test_made_up_keys_by_the_thousand_keep_the_memory_bounded_and_drop_the_oldest() -> None:
    limiter = MemoryLimiter(max_keys=100, clock=Clock())
    limiter.spend("kept", limit=1, window_seconds=60)
    for number in range(5000):
        limiter.spend(f"made-up:{number}", limit=1, window_seconds=60)
        if number % 10 == 0:
            limiter.spend("kept", limit=10**6, window_seconds=60)  # used often: stays
    assert len(limiter) == 100
    # "kept" was used recently, so it is still counted; an old made-up key was dropped.
    assert not limiter.spend("kept", limit=1, window_seconds=60).allowed
    assert limiter.spend("made-up:0", limit=1, window_seconds=60).allowed


def test_spending_from_many_threads_at_once_counts_every_spend_exactly() -> None:
    limiter = MemoryLimiter(max_keys=10)
    allowed: list[bool] = []
    lock = threading.Lock()
    start = threading.Barrier(16)

    def worker() -> None:
        start.wait()
        for _ in range(100):
            answer = limiter.spend("shared", limit=700, window_seconds=3600).allowed
            with lock:
                allowed.append(answer)

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == 700
    assert len(allowed) == 1600


@given(
    limit=st.integers(1, 20),
    window=st.integers(1, 30),
    steps=st.lists(st.tuples(st.floats(0, 5, allow_nan=False), st.integers(1, 4)), max_size=60),
)
def test_no_window_ever_lets_more_than_the_limit_through(
    limit: int, window: int, steps: list[tuple[float, int]]
) -> None:
    """Over any sequence of spends, what is allowed from one window start never exceeds
    the limit, and a refusal always says to wait at least one second and at most the window."""
    clock = Clock()
    limiter = MemoryLimiter(max_keys=4, clock=clock)
    window_start, spent = -float(window), 0  # the first spend opens a window
    for delay, cost in steps:
        clock.now += delay
        if clock.now - window_start >= window:
            window_start, spent = clock.now, 0
        answer = limiter.spend("k", limit=limit, window_seconds=window, cost=cost)
        if answer.allowed:
            spent += cost
            assert spent <= limit
        else:
            assert spent + cost > limit
            assert 1 <= answer.retry_after <= window


def test_the_module_spend_uses_the_process_limiter() -> None:
    ratelimit.LIMITER.clear()
    assert ratelimit.spend("test-module", limit=1, window_seconds=60).allowed
    assert not ratelimit.spend("test-module", limit=1, window_seconds=60).allowed
    ratelimit.LIMITER.clear()
    assert ratelimit.spend("test-module", limit=1, window_seconds=60).allowed
