"""The games declared as data: what a game costs to write, to load and to keep.

- lines of each game file (all, and without its worked examples and quick reference), and
  the Python written for it (the files under its folder ending in .py: the target is none);
- compiling each file (read by the schema, every formula compiled), median;
- evaluating one round of each game at its most players (its largest accepted worked
  example, each seat beyond it playing as one of the example's, or entering nothing where
  that breaks a rule), median, in µs: formulas evaluated in Python (``evaluate``), against
  the same round with every formula evaluated by cel-rust (how rounds were scored before);
- recording one round through the table screen's form (POST, no JavaScript) against
  ``GET /healthz`` in the same loop (Django in-process, a real SQLite file).
"""

from __future__ import annotations

import functools
import re
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from .bench_site import _median_ms, _setup_django, post_form
from .timing import median_seconds, report, steady_median_seconds


def _file_lines(path: Path) -> tuple[int, int]:
    """All the lines, and those before the first worked example or quick reference row."""
    lines = path.read_text(encoding="utf-8").splitlines()
    cut = next(
        (
            index
            for index, line in enumerate(lines)
            if line.strip() in {"[[examples]]", "[[reference]]"} or line.startswith("# The quick reference")
        ),
        len(lines),
    )
    return len(lines), cut


def _form_fields(game: Any, inputs: dict[str, Any], sides: int) -> dict[str, str]:
    """The table screen's round form for ``inputs``, as the pad sends it (the fields the
    keeper draws to correct a stored round: ``form_values``), for ``sides`` scoring."""
    from marquoir.tables.keepers import keeper_for  # after Django's set-up

    keeper = keeper_for(game.key)
    if keeper is None:
        raise RuntimeError(f"{game.key}: no keeper")
    kind = "turn" if game.by_turns else "round"
    fields = dict(keeper.correction_form({"type": kind, "inputs": inputs}) or {})
    return fields | {"players": str(sides), "drawn": ",".join(inputs)}


def _empty_entry(spec: Any) -> Any:
    """What a seat enters when it scores nothing: the input's default, else its least."""
    if spec.default is not None:
        return spec.default
    if spec.kind in ("list", "records"):
        return []
    if spec.kind == "flag":
        return False
    if spec.kind == "counts":
        return {part.key: part.min for part in spec.parts}
    return spec.min if isinstance(spec.min, int) else 0


def at_most_players(game: Any) -> tuple[Any, int, dict[str, Any]]:
    """A round of ``game`` at its most players, accepted: the state before it and its inputs."""
    from marquoir.games.declared import Setup, resolve_options
    from marquoir.games.declared.engine import score_round
    from marquoir.rules.errors import RuleError

    examples = [example for example in game.file.examples if example.refused is None and example.before is None]
    example = max(examples, key=lambda example: example.players)
    most = game.file.box.players[1]
    tried = [example.options, {}, *({option.key: True} for option in game.file.options if option.kind == "flag")]
    options = None
    for given in tried:
        try:
            options = resolve_options(game, most, given)
            break
        except RuleError:
            continue
    if options is None:
        raise RuntimeError(f"{game.key}: no options for {most} players")
    # The sides that score: the players, or a team game's teams as the rules form them.
    state = Setup(game, most, 0, options).initial_state()
    sides = state.player_count
    given = Setup(game, example.players, 0, resolve_options(game, example.players, example.options)).initial_state()
    per_seat = {spec.key: spec for spec in game.file.inputs if spec.per in ("player", "team")}
    shown = example.rounds[0]
    for fill in ("repeat", "empty"):
        inputs = {
            key: [
                value[seat]
                if seat < given.player_count
                else value[seat % given.player_count]
                if fill == "repeat"
                else _empty_entry(per_seat[key])
                for seat in range(sides)
            ]
            if key in per_seat and isinstance(value, list)
            else value
            for key, value in shown.items()
        }
        try:
            score_round(state, inputs)
        except RuleError:
            continue
        return state, most, inputs
    # A round the rules bind across the table (a rack that must be empty, tricks that add up)
    # does not widen: the example's own table, as the figure's players say.
    score_round(given, shown)
    return given, example.players, dict(shown)


def in_cel_only() -> Any:
    """A context in which every formula is evaluated by cel-rust, as before ``evaluate``."""
    import contextlib

    from marquoir.games.declared.formulas import Compiled

    @contextlib.contextmanager
    def patched() -> Any:
        python = Compiled.evaluate
        Compiled.evaluate = Compiled.evaluate_in_cel  # type: ignore[method-assign]
        try:
            yield
        finally:
            Compiled.evaluate = python  # type: ignore[method-assign]

    return patched()


def _format_models() -> dict[str, int]:
    """Each model of the game file's format (``gamefile``), with its number of fields."""
    import inspect

    from marquoir.games.declared import gamefile

    return {
        name: len(model.model_fields)
        for name, model in inspect.getmembers(gamefile, inspect.isclass)
        if issubclass(model, gamefile.Strict) and model is not gamefile.Strict and model.__module__ == gamefile.__name__
    }


def _sheet_rounds() -> None:
    """The score sheet's round, through its API's engine (``games/sheet``: its game file played
    by the declared engine), at 4 and at its 20 players. Its Python engine, before it became a
    game file, took 15 µs and 35 µs here (docs/game-file.md)."""
    from marquoir.games.sheet import Options, Round, apply, new_game

    for players in (4, 20):
        state = new_game(players, 0, Options(title="Skyjo", target=10_000))
        state, _ = apply(state, Round(tuple(range(players))))
        scores = Round(tuple((seat * 7) % 40 - 10 for seat in range(players)))
        report(
            f"sheet: evaluate one round, median ({players} players)",
            f"{steady_median_seconds(functools.partial(apply, state, scores)) * 1e6:.0f} µs",
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.test import Client

        from marquoir.games.declared import Setup, declared_games, game_files, load_game, resolve_options
        from marquoir.games.declared.engine import score_round

        print("Games declared as data (marquoir/games/<key>/game.toml)")
        for path in game_files():
            total, scoring = _file_lines(path)
            python = sum(len(file.read_text().splitlines()) for file in path.parent.rglob("*.py"))
            report(
                f"{path.parent.name}: lines of its file",
                f"{total}",
                f"{scoring} without examples and reference; Python {python}",
            )
        models = _format_models()
        report(
            "the format: models and fields",
            f"{len(models)} models",
            f"{sum(models.values())} fields (first version: 19 models, 126 fields, 4 flags for one game; now none)",
        )
        every_file = median_seconds(lambda: [load_game(path) for path in game_files()], repeats=10)
        report("load and type-check every game file", f"{every_file * 1000:.1f} ms", f"{len(game_files())} files")
        for path in game_files():
            report(
                f"{path.parent.name}: load and compile its file",
                f"{median_seconds(functools.partial(load_game, path), repeats=30) * 1000:.2f} ms",
            )

        _sheet_rounds()

        from django.test import override_settings

        client = Client()
        # 40 matches a game, back to back: out of the creation limit's reach (it is tested by pytest).
        unlimited = override_settings(MATCH_CREATION_LIMIT=10**6, MATCH_CREATION_ADDRESS_LIMIT=10**6)
        unlimited.enable()
        for game in declared_games():
            most_state, most, most_inputs = at_most_players(game)
            evaluate = steady_median_seconds(functools.partial(score_round, most_state, most_inputs))
            with in_cel_only():
                before = steady_median_seconds(functools.partial(score_round, most_state, most_inputs))
            report(
                f"{game.key}: evaluate one round, median",
                f"{evaluate * 1e6:.0f} µs",
                f"{most} players; every formula in cel-rust {before * 1e6:.0f} µs ({before / evaluate:.1f}x)",
            )
            example = next(
                example for example in game.file.examples if example.refused is None and example.before is None
            )
            inputs = example.rounds[0]

            names = {f"name_{seat}": f"P{seat}" for seat in range(example.players)}
            health, rounds = [], []
            for _ in range(40):
                setup = {
                    **names,
                    "first": "0",
                    **{
                        key: (
                            ", ".join(map(str, value))
                            if isinstance(value, list)
                            else ("on" if value is True else str(value))
                        )
                        for key, value in example.options.items()
                        if value is not False
                    },
                }
                # As the page sends its options: a choice and a number as drawn (their defaults),
                # a flag only when ticked, a list left empty for the rules' own.
                setup |= {
                    option.key: str(option.default)
                    for option in game.file.options
                    if option.kind in {"choice", "number"} and option.key not in setup and option.default is not None
                }
                created = client.post(f"/en/tables/new/{game.key}/", setup)
                if created.status_code != 303:
                    errors = re.findall(r"error[^>]*>([^<]+)", created.content.decode())
                    raise RuntimeError(f"{game.key}: the set-up was refused ({created.status_code}): {errors}")
                table = created["Location"]
                page = client.get(table).content.decode()
                seq = re.search(r'name="expected_seq" value="(\d+)"', page)
                if seq is None:
                    raise RuntimeError(f"{game.key}: no round form")
                sides = Setup(game, example.players, 0, resolve_options(game, example.players, {})).initial_state()
                fields = _form_fields(game, inputs, sides.player_count) | {
                    "expected_seq": seq.group(1),
                    "action_id": uuid.uuid4().hex,
                }
                start = time.perf_counter()
                client.get("/healthz")
                health.append(time.perf_counter() - start)
                start = time.perf_counter()
                answer = post_form(client, table + "act/", fields)
                rounds.append(time.perf_counter() - start)
                if answer.status_code != 303:
                    raise RuntimeError(f"{game.key}: the round was refused ({answer.status_code})")
            report(
                f"{game.key}: record a round (POST, no JS), median",
                _median_ms(rounds),
                f"baseline GET /healthz {_median_ms(health)}",
            )
            report(f"{game.key}: round / baseline", f"{statistics.median(rounds) / statistics.median(health):.1f}x")
        unlimited.disable()


if __name__ == "__main__":
    main()
