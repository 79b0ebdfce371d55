"""`python -m validator.engine.scenario PATH...`: run scenario files without Django."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from validator.engine.scenario.runner import run_paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run scenario files without Django.")
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON object per scenario")
    args = parser.parse_args(argv)
    results = run_paths(args.paths)
    for result in results:
        print(json.dumps(result.as_json(), sort_keys=True) if args.json else result.line())
    failed = sum(not r.passed for r in results)
    if not args.json:
        print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed or not results else 0


if __name__ == "__main__":
    raise SystemExit(main())
