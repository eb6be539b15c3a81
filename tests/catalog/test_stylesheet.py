"""The site's stylesheet: the custom properties other stylesheets rely on, light and dark, small."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.staticfiles import finders

PROPERTIES = {"--bg", "--surface", "--fg", "--muted", "--border", "--accent", "--accent-fg", "--danger", "--ok"}
SHAPES = {"--radius", "--space"}


def stylesheet() -> str:
    path = finders.find("css/site.css")
    assert isinstance(path, str)
    return Path(path).read_text(encoding="utf-8")


def root_blocks(css: str) -> list[set[str]]:
    return [set(re.findall(r"(--[a-z-]+)\s*:", block)) for block in re.findall(r":root\s*\{([^}]*)\}", css)]


def test_root_defines_exactly_the_shared_custom_properties():
    assert root_blocks(stylesheet())[0] == PROPERTIES | SHAPES


def test_dark_mode_redefines_every_colour():
    css = stylesheet()
    dark = css[css.index("prefers-color-scheme: dark") :]
    assert root_blocks(dark)[0] == PROPERTIES


def test_every_custom_property_used_is_one_of_the_shared_ones():
    assert set(re.findall(r"var\((--[a-z-]+)\)", stylesheet())) <= PROPERTIES | SHAPES


def test_the_stylesheet_stays_small_and_reads_at_arm_s_length():
    css = stylesheet()
    assert len(css.encode()) < 8 * 1024
    assert "html { font-size: 112.5%;" in css  # 18px with the browser's default of 16px
