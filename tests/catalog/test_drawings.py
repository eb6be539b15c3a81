"""The Pickomino drawings: tiles and dice as labelled SVG using the page's sprites."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from .pages import Page


def draw(template: str, **context: object) -> Page:
    return Page(render_to_string(f"pickomino/{template}", context))


def test_the_sprites_are_a_hidden_svg_of_symbols():
    sprites = draw("sprites.html")
    svg = sprites.one("svg", cls="sprites")
    assert svg.attrs["aria-hidden"] == "true"
    assert {symbol.attrs["id"] for symbol in sprites.all("symbol")} == {"pk-worm", "pk-pip"}


def test_a_face_up_tile_shows_its_number_and_its_worms():
    tile = draw("tile.html", tile=27, worms=2, face="up")
    svg = tile.one("svg")
    assert svg.classes == ["tile", "tile--up"]
    assert svg.attrs["role"] == "img"
    assert svg.attrs["aria-label"] == "Tile 27, 2 worms"
    assert tile.one("text").text == "27"
    assert len(tile.all("use", href="#pk-worm")) == 2


@pytest.mark.parametrize("worms", [1, 2, 3, 4])
def test_a_tile_draws_as_many_worms_as_it_carries(worms: int):
    assert len(draw("tile.html", tile=20 + 4 * worms, worms=worms, face="up").all("use", href="#pk-worm")) == worms


def test_a_tile_is_face_up_unless_told_otherwise():
    assert draw("tile.html", tile=21, worms=1).one("svg").classes == ["tile", "tile--up"]


def test_one_worm_is_said_in_the_singular():
    assert draw("tile.html", tile=21, worms=1, face="up").one("svg").attrs["aria-label"] == "Tile 21, 1 worm"


def test_a_face_down_tile_shows_its_back_without_number():
    tile = draw("tile.html", tile=27, worms=2, face="down")
    svg = tile.one("svg")
    assert svg.classes == ["tile", "tile--down"]
    assert svg.attrs["aria-label"] == "Tile 27, face down"
    assert tile.all("text") == []
    assert "27" not in tile.html.replace('aria-label="Tile 27, face down"', "")


def test_tiles_are_labelled_in_french_with_the_publisher_s_words():
    with translation.override("fr"):
        assert draw("tile.html", tile=27, worms=2, face="up").one("svg").attrs["aria-label"] == "Pickomino 27, 2 vers"
        assert draw("tile.html", tile=21, worms=1, face="up").one("svg").attrs["aria-label"] == "Pickomino 21, 1 ver"
        assert (
            draw("tile.html", tile=27, worms=2, face="down").one("svg").attrs["aria-label"]
            == "Pickomino 27, face cachée"
        )


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
def test_a_numbered_die_face_shows_as_many_pips_as_its_value(value: int):
    die = draw("die.html", face=str(value))
    assert die.one("svg").attrs["aria-label"] == f"Die showing {value}"
    assert len(die.all("use", href="#pk-pip")) == value


def test_the_worm_face_shows_a_worm():
    die = draw("die.html", face="worm")
    assert die.one("svg").attrs["aria-label"] == "Die showing a worm"
    assert len(die.all("use", href="#pk-worm")) == 1
    assert die.all("use", href="#pk-pip") == []


def test_a_die_face_given_as_a_number_is_drawn_too():
    assert len(draw("die.html", face=3).all("use", href="#pk-pip")) == 3


def test_dice_are_labelled_in_french():
    with translation.override("fr"):
        assert draw("die.html", face="3").one("svg").attrs["aria-label"] == "Dé montrant un 3"
        assert draw("die.html", face="worm").one("svg").attrs["aria-label"] == "Dé montrant un ver"


def test_the_drawings_use_only_symbols_the_sprites_define_and_no_inline_style():
    defined = {symbol.attrs["id"] for symbol in draw("sprites.html").all("symbol")}
    drawings = [draw("tile.html", tile=36, worms=4), draw("tile.html", tile=36, worms=4, face="down")]
    drawings += [draw("die.html", face=face) for face in ("1", "2", "3", "4", "5", "worm")]
    used = {use.attrs["href"].removeprefix("#") for drawing in drawings for use in drawing.all("use")}
    assert used == defined
    assert not any(re.search(r"\sstyle=", drawing.html) for drawing in drawings)
