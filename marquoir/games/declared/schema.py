"""The game file's JSON Schema, published at ``docs/game-file.schema.json`` for editors (a
TOML file names it on its first line: ``#:schema ../../../docs/game-file.schema.json``).

It is generated from the models Marquoir reads (``gamefile.GameFile``), never written by
hand: ``python -m marquoir.games.declared.schema`` writes it again, and a test fails while
the published one differs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .gamefile import GameFile

SCHEMA_PATH = Path(__file__).resolve().parents[3] / "docs" / "game-file.schema.json"
SCHEMA_ID = "https://marquoir.example/schemas/game-file.schema.json"


def json_schema() -> dict[str, Any]:
    """The schema of a game file (JSON Schema 2020-12)."""
    schema = GameFile.model_json_schema(mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def main() -> None:
    SCHEMA_PATH.write_text(json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
