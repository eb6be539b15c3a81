"""Compare two directories of screenshots (scripts/screens.py's), picture by picture.

    .venv/bin/python scripts/screens_compare.py /tmp/screens/before /tmp/screens/after [--diff-dir DIR]

For each PNG file name found in either directory it prints the share of pixels that differ
(a pixel differs when any of its channels does; pixels outside the smaller of two pictures
of unequal size all count as differing), the bounding box of the difference (x0,y0-x1,y1 in
the picture's pixels, end excluded) and both sizes; for each pair that differs it writes a
diff picture to ``--diff-dir`` (default ``<after>.diff``): the after picture faded to grey,
its differing pixels in red. Files present on one side only are listed. A summary ends it.

It always exits 0: it is a tool to look with, not a test.

The virtualenv has no Pillow, and the harness installs nothing: the pictures are decoded,
compared and the diff drawn by Debian's Chromium through Playwright (canvas pixels, no
colour conversion). Two files with the same bytes are the same picture and are not decoded.
"""

from __future__ import annotations

import argparse
import base64
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Runs in the page: both pictures decoded without colour management, compared pixel by pixel
# over the union of their sizes, and the diff picture drawn (null when nothing differs).
DIFF_JS = """async ({before, after}) => {
  async function pixels(b64) {
    const blob = await (await fetch('data:image/png;base64,' + b64)).blob();
    const bitmap = await createImageBitmap(blob, {colorSpaceConversion: 'none', premultiplyAlpha: 'none'});
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d', {colorSpace: 'srgb'});
    context.drawImage(bitmap, 0, 0);
    const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    return {width: bitmap.width, height: bitmap.height, data};
  }
  const a = await pixels(before), b = await pixels(after);
  const width = Math.max(a.width, b.width), height = Math.max(a.height, b.height);
  const out = new ImageData(width, height);
  let differing = 0, x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inA = x < a.width && y < a.height, inB = x < b.width && y < b.height;
      const ia = (y * a.width + x) * 4, ib = (y * b.width + x) * 4, io = (y * width + x) * 4;
      let same = inA && inB;
      if (same) {
        for (let c = 0; c < 4; c++) { if (a.data[ia + c] !== b.data[ib + c]) { same = false; break; } }
      }
      if (same) {
        const grey = (b.data[ib] * 0.3 + b.data[ib + 1] * 0.59 + b.data[ib + 2] * 0.11);
        const faded = 255 - (255 - grey) * 0.25;
        out.data[io] = out.data[io + 1] = out.data[io + 2] = faded;
      } else {
        differing++;
        if (x < x0) x0 = x; if (y < y0) y0 = y; if (x > x1) x1 = x; if (y > y1) y1 = y;
        out.data[io] = 230; out.data[io + 1] = 0; out.data[io + 2] = 0;
      }
      out.data[io + 3] = 255;
    }
  }
  let diff = null;
  if (differing) {
    const canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d').putImageData(out, 0, 0);
    const bytes = new Uint8Array(await (await canvas.convertToBlob({type: 'image/png'})).arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    diff = btoa(text);
  }
  return {before: [a.width, a.height], after: [b.width, b.height], differing, total: width * height,
          box: differing ? [x0, y0, x1 + 1, y1 + 1] : null, diff};
}"""


@dataclass
class Difference:
    """What differs between two pictures of one name."""

    name: str
    differing: int
    total: int
    before_size: tuple[int, int]
    after_size: tuple[int, int]
    box: tuple[int, int, int, int] | None

    @property
    def share(self) -> float:
        return self.differing / self.total if self.total else 0.0

    def line(self) -> str:
        sizes = f"{self.before_size[0]}x{self.before_size[1]}"
        if self.after_size != self.before_size:
            sizes += f" -> {self.after_size[0]}x{self.after_size[1]}"
        if not self.differing:
            return f"same     0.000%  {sizes}  {self.name}"
        x0, y0, x1, y1 = self.box or (0, 0, 0, 0)
        return f"DIFFERS  {self.share:7.3%}  {sizes}  box {x0},{y0}-{x1},{y1}  {self.name}"


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR, which the format puts first."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def compare_pair(page: Page, name: str, before: bytes, after: bytes, diff_dir: Path) -> Difference:
    """Compare two pictures in the page; write the diff picture if they differ."""
    if before == after:
        size = _png_size(before)
        return Difference(name, 0, size[0] * size[1], size, size, None)
    encoded = {"before": base64.b64encode(before).decode(), "after": base64.b64encode(after).decode()}
    result: dict[str, Any] = page.evaluate(DIFF_JS, encoded)
    if result["diff"]:
        diff_dir.mkdir(parents=True, exist_ok=True)
        (diff_dir / name).write_bytes(base64.b64decode(result["diff"]))
    x0, y0, x1, y1 = result["box"] or (0, 0, 0, 0)
    return Difference(
        name,
        result["differing"],
        result["total"],
        (result["before"][0], result["before"][1]),
        (result["after"][0], result["after"][1]),
        (x0, y0, x1, y1) if result["box"] else None,
    )


def compare(before_dir: Path, after_dir: Path, diff_dir: Path) -> list[Difference]:
    """Every pair of pictures of the same name, compared; lines printed as they come."""
    before_names = {path.name for path in before_dir.glob("*.png")}
    after_names = {path.name for path in after_dir.glob("*.png")}
    for name in sorted(before_names - after_names):
        print(f"ONLY IN {before_dir}: {name}")
    for name in sorted(after_names - before_names):
        print(f"ONLY IN {after_dir}: {name}")
    differences: list[Difference] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto("about:blank")
            for name in sorted(before_names & after_names):
                difference = compare_pair(
                    page, name, (before_dir / name).read_bytes(), (after_dir / name).read_bytes(), diff_dir
                )
                differences.append(difference)
                print(difference.line(), flush=True)
        finally:
            browser.close()
    missing = len(before_names ^ after_names)
    differing = [difference for difference in differences if difference.differing]
    print(
        f"{len(differences)} pairs compared: {len(differences) - len(differing)} the same, {len(differing)} differ"
        + (f" (diff pictures in {diff_dir})" if differing else "")
        + (f"; {missing} on one side only" if missing else "")
    )
    return differences


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--diff-dir", type=Path, help="where the diff pictures go (default: <after>.diff)")
    arguments = parser.parse_args(argv)
    after = arguments.after.resolve()
    diff_dir = arguments.diff_dir or after.with_name(after.name + ".diff")
    compare(arguments.before.resolve(), after, diff_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
