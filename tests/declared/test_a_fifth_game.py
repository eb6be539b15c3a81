"""A fifth declared game is its file and its two pages, nothing else: here Hearts, written
into a folder of its own, is found, read by the schema, compiled, its examples hold, its
pages load, and the one keeper keeps it (its API schemas, its options form, its words)."""

from __future__ import annotations

from pathlib import Path

from django.utils import translation

from marquoir.games.content import parse_content
from marquoir.games.declared import game_files, load_game
from marquoir.games.declared.examples import mismatches
from marquoir.keepers.declared.keeper import DeclaredKeeper

HEARTS = """
key = "hearts"
scored = "rounds"
winner = "lowest"

[box]
names = { en = "Hearts", fr = "Dame de pique" }
original_name = "Hearts"
category = "cards"
players = [4, 4]
minutes = 30
age = 10
released = 1880
sources = ["a rules file"]

[[inputs]]
key = "taken"
per = "player"
kind = "count"
label = { en = "Points taken", fr = "Points ramassés" }
min = 0
max = 26

[[points]]
key = "hand"
label = { en = "Hand", fr = "Donne" }
# Shooting the moon: all 26 to one player, who scores 0 and gives 26 to each other player.
formula = "all.taken.exists(t, t == 26) ? (taken == 26 ? 0 : 26) : taken"

[[checks]]
key = "all_points"
per = "round"
holds = "sum(all.taken) == 26"
message = { en = "The hearts and the queen make 26 points.", fr = "Les cœurs et la dame font 26 points." }
source = "the rules"

[end]
target = 100

[[examples]]
name = "Shooting the moon"
players = 4
rounds = [{ taken = [26, 0, 0, 0] }]
points = [0, 26, 26, 26]

[[examples]]
name = "25 points are not all the points"
players = 4
rounds = [{ taken = [20, 5, 0, 0] }]
refused = "rule"
rule = "all_points"
"""

PAGE = """+++
title = "{title}"
pitch = "x"
note = "x"
mechanics = ["x"]
contents = "x"
age = "x"
faces_note = "x"
+++

## {a}

x

## {b}

x

## {c}

x

## {d}

x

## {e}

x

## {f}

### {q}

x
"""


def test_a_fifth_game_is_its_file_and_its_two_pages(tmp_path: Path) -> None:
    folder = tmp_path / "hearts"
    (folder / "content").mkdir(parents=True)
    (folder / "game.toml").write_text(HEARTS, encoding="utf-8")
    (folder / "content" / "en.md").write_text(
        PAGE.format(title="Hearts", a="Setup", b="Play", c="Scoring", d="End", e="Variants", f="FAQ", q="Moon?"),
        encoding="utf-8",
    )
    (folder / "content" / "fr.md").write_text(
        PAGE.format(title="Dame de pique", a="Mise", b="Jeu", c="Points", d="Fin", e="Variantes", f="FAQ", q="Lune ?"),
        encoding="utf-8",
    )

    [path] = game_files(tmp_path)
    game = load_game(path)
    assert [mismatches(game, example) for example in game.file.examples] == [[], []]
    for language in ("en", "fr"):
        parse_content((folder / "content" / f"{language}.md").read_text(encoding="utf-8"))

    keeper = DeclaredKeeper(game)
    assert (keeper.key, keeper.min_players, keeper.max_players) == ("hearts", 4, 4)
    assert [model.__name__ for model in keeper.action_models] == ["HeartsRoundIn"]
    assert keeper.state_schema.__name__ == "HeartsStateOut"
    with translation.override("fr"):
        assert keeper.name() == "Dame de pique"
        assert keeper.wordings["rule"]({"check": "all_points"}, ["A", "B", "C", "D"]) == (
            "Les cœurs et la dame font 26 points."
        )
    assert keeper.describe()["inputs"][0]["key"] == "taken"
