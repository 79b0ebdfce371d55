"""The engine is a library: nothing under validator/engine/ may import Django or the apps."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "validator" / "engine"
FORBIDDEN = ("django", "rest_framework", "catalog", "cardsite")
FORBIDDEN_VALIDATOR_PARTS = ("models", "services", "checks", "views", "management", "apps")


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            if node.module == "validator":
                names += [f"validator.{alias.name}" for alias in node.names]
    return names


def test_engine_sources_import_nothing_of_django_or_the_apps() -> None:
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        for name in imported_modules(path):
            top, _, rest = name.partition(".")
            if top in FORBIDDEN or (
                top == "validator" and rest.split(".")[0] in FORBIDDEN_VALIDATOR_PARTS
            ):
                offenders.append(f"{path.relative_to(ENGINE.parent.parent)}: {name}")
    assert offenders == []


def test_importing_the_engine_loads_no_django() -> None:
    modules = [
        f"validator.engine.{p.stem}" for p in sorted(ENGINE.glob("*.py")) if p.stem != "__init__"
    ]
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        + repr(FORBIDDEN)
        + ")\nprint(','.join(bad))\n"
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
