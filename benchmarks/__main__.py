"""Run every benchmark: `python -m benchmarks` (what `make bench` calls)."""

from . import (
    bench_corrections,
    bench_declared,
    bench_engine,
    bench_groups,
    bench_growth,
    bench_odds,
    bench_own_games,
    bench_site,
    bench_yahtzee,
    capacity,
)


def main() -> None:
    bench_engine.main()
    print()
    bench_corrections.main()
    print()
    bench_site.main()
    print()
    bench_declared.main()
    print()
    bench_own_games.main()
    print()
    bench_groups.main([])
    print()
    bench_growth.main([])
    print()
    bench_odds.main()
    print()
    bench_yahtzee.main()
    print()
    capacity.main([])


if __name__ == "__main__":
    main()
