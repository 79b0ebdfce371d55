"""The engine is a library: importing every module of it loads nothing of Django or the apps.

Which module may import which is held by the import-linter contracts in pyproject.toml (run by
`make lint`); this test checks what they cannot see: what is really loaded at run time.
"""

import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "validator" / "engine"
FORBIDDEN = (
    "django",
    "rest_framework",
    "accounts",
    "authoring",
    "catalog",
    "cardsite",
    "packs",
    "prints",
)


def engine_modules() -> list[str]:
    root = ENGINE.parent.parent
    modules = []
    for path in sorted(ENGINE.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join(parts))
    return modules


def test_importing_the_engine_loads_no_django() -> None:
    modules = engine_modules()
    assert "validator.engine.cards.reader" in modules  # subpackages are walked too
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        + repr(FORBIDDEN)
        + " or m in ('validator.checks', 'validator.models'))\nprint(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ENGINE.parent.parent,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert result.stdout.strip() == ""
