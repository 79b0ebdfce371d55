"""`python -m validator.engine.cards [--write-schema]`: the card document's JSON Schema."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from validator.engine.cards.parsing import SCHEMA_PATH, card_json_schema_text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m validator.engine.cards",
        description="The effect language, version 1: typed card documents.",
    )
    parser.add_argument("--write-schema", action="store_true", help=f"write {SCHEMA_PATH.name}")
    args = parser.parse_args(argv)
    if args.write_schema:
        SCHEMA_PATH.write_text(card_json_schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
    else:
        sys.stdout.write(card_json_schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
