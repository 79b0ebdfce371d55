"""`python -m validator.mutants` (or `make mutants`): mutation testing of the rules engine."""

from __future__ import annotations

import sys

from validator.mutants.cli import main

if __name__ == "__main__":
    sys.exit(main())
