"""`python -m validator.engine.pack FILE`: what a pack holds, or what is wrong with it;
`--write-schema --write-docs` regenerates pack.schema.json and docs/pack-format.md."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from validator.engine.pack.document import (
    DOCS_PATH,
    SCHEMA_PATH,
    PackDocument,
    PackError,
    load_pack,
)
from validator.engine.pack.schema import pack_docs_markdown, pack_json_schema_text

PACK_FORMAT: Final = "munchkin-pack"
PACK_FORMAT_VERSION: Final = 1
# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def describe_pack(pack: PackDocument) -> list[str]:
    """What a pack holds, one line per fact, for the command line."""
    door = {(e.set, e.name) for e in pack.decks.door}
    treasure = {(e.set, e.name) for e in pack.decks.treasure}
    out = [
        f"name: {pack.name}",
        f"format: {pack.format} version {pack.format_version}, engine {pack.engine_version}",
        f"generated_at: {pack.generated_at.isoformat()}",
        f"checksum: OK (sha256 {pack.sha256})",
        f"sets: {len(pack.sets)}",
    ]
    out.extend(
        f"  {s.code}: {s.name}, {len(s.cards)} card{'' if len(s.cards) == 1 else 's'}"
        for s in pack.sets
    )
    out.append(f"Door: {pack.copies('door')} copies of {len(door)} cards")
    out.append(f"Treasure: {pack.copies('treasure')} copies of {len(treasure)} cards")
    outside = pack.outside_decks()
    names = ", ".join(card.name for _, card in outside[:5]) + (", ..." if len(outside) > 5 else "")
    out.append(f"outside both decks: {len(outside)} cards" + (f" ({names})" if outside else ""))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m validator.engine.pack FILE...``: what each pack holds or what is wrong (exit
    1 if any is bad); ``--write-schema`` / ``--write-docs`` regenerate the schema and the page."""
    parser = argparse.ArgumentParser(
        prog="python -m validator.engine.pack",
        description="Load and check Munchkin pack files without Django.",
    )
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="pack files")
    parser.add_argument("--write-schema", action="store_true", help=f"write {SCHEMA_PATH.name}")
    parser.add_argument("--write-docs", action="store_true", help=f"write {DOCS_PATH.name}")
    args = parser.parse_args(argv)
    if not (args.files or args.write_schema or args.write_docs):
        parser.error("give a pack FILE to check, or --write-schema / --write-docs")
    if args.write_schema:
        SCHEMA_PATH.write_text(pack_json_schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
    if args.write_docs:
        DOCS_PATH.write_text(pack_docs_markdown(), encoding="utf-8")
        print(f"wrote {DOCS_PATH}")
    status = 0
    for index, path in enumerate(args.files):
        if index:
            print()
        try:
            pack = load_pack(path)
        except PackError as exc:
            for line in exc.lines():
                print(line, file=sys.stderr)
            status = 1
            continue
        print(f"{path}: a munchkin pack")
        for line in describe_pack(pack):
            print(f"  {line}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
