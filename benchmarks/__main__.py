"""Run every benchmark: `python -m benchmarks` (what `make bench` calls)."""

from . import bench_engine


def main() -> None:
    bench_engine.main()


if __name__ == "__main__":
    main()
