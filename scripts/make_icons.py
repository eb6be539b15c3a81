"""Draw the app icons (PNG) from their SVG sources, once; the PNGs are committed.

    .venv/bin/python scripts/make_icons.py

Debian's Chromium, driven by Playwright, renders each SVG at the size asked and saves a
screenshot of exactly that many pixels (no Pillow). The sources:

- ``marquoir/static/favicon.svg``: the score card on a transparent ground, for the icons
  of purpose "any" (192 and 512 px);
- ``marquoir/static/icons/maskable.svg``: the same card on a full terracotta square, the card
  inside the central circle of 80 % that every mask keeps, for the "maskable" icons and for
  iOS's home screen (which rounds the corners itself and wants no transparency).

Run it again after changing either SVG; ``tests/site/test_pwa.py`` checks each PNG's size.
"""

from __future__ import annotations

import base64
import struct
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "marquoir" / "static"
ICONS = STATIC / "icons"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# (source SVG, PNG written, size in pixels, transparent ground)
ICON_SET: tuple[tuple[Path, Path, int, bool], ...] = (
    (STATIC / "favicon.svg", ICONS / "icon-192.png", 192, True),
    (STATIC / "favicon.svg", ICONS / "icon-512.png", 512, True),
    (ICONS / "maskable.svg", ICONS / "maskable-192.png", 192, False),
    (ICONS / "maskable.svg", ICONS / "maskable-512.png", 512, False),
    (ICONS / "maskable.svg", ICONS / "apple-touch-icon.png", 180, False),
)

PAGE = """<!doctype html><html><head><style>html, body {{ margin: 0; background: transparent; }}
img {{ display: block; }}</style></head><body><img alt="" width="{size}" height="{size}" src="{src}"></body></html>"""


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (the IHDR chunk right after the signature)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def main() -> int:
    ICONS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for source, target, size, transparent in ICON_SET:
                context = browser.new_context(viewport={"width": size, "height": size}, device_scale_factor=1)
                page = context.new_page()
                src = "data:image/svg+xml;base64," + base64.b64encode(source.read_bytes()).decode("ascii")
                page.set_content(PAGE.format(size=size, src=src))
                page.wait_for_function("document.images[0].complete && document.images[0].naturalWidth > 0")
                data = page.screenshot(
                    clip={"x": 0, "y": 0, "width": size, "height": size}, omit_background=transparent
                )
                context.close()
                if png_size(data) != (size, size):
                    print(f"{target.name}: Chromium drew {png_size(data)}, not {size}×{size}", file=sys.stderr)
                    return 1
                target.write_bytes(data)
                print(f"{target.relative_to(ROOT)}: {size}×{size}, {len(data)} bytes")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
