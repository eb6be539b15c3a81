"""Compile every locale/*/LC_MESSAGES/*.po into its .mo with polib (no GNU gettext needed).

Run by `make run` and `make test`, so the .mo files are never stale and never committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    for po_path in sorted(ROOT.glob("marquoir/**/locale/*/LC_MESSAGES/*.po")):
        catalog = polib.pofile(str(po_path))
        untranslated = [entry.msgid for entry in catalog.untranslated_entries()]
        fuzzy = [entry.msgid for entry in catalog.fuzzy_entries()]
        if untranslated or fuzzy:
            print(f"{po_path}: {len(untranslated)} untranslated, {len(fuzzy)} fuzzy", file=sys.stderr)
            for msgid in (untranslated + fuzzy)[:20]:
                print(f"  {msgid!r}", file=sys.stderr)
            return 1
        catalog.save_as_mofile(str(po_path.with_suffix(".mo")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
