"""The house kept (docs/ARCHITECTURE.md, "Keeping the house"): drift caught where it starts.

A module past 1,000 lines or a function past 80 is split along its seams before more goes in,
and a name used by another module is public (a leading underscore means "this module's own").
The functions already longer than that are listed here with their length: the list may only
shrink (a listed function that grows, or that fits again and is still listed, fails), so new
code is held to the rule and old code is split as it is next touched. The layer contracts run
in `make lint` (import-linter)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

MAX_MODULE_LINES = 1000
MAX_FUNCTION_LINES = 80

# The project's packages, the tests and the scripts; migrations are generated, not written.
PACKAGES = (
    "accounts",
    "authoring",
    "bulk",
    "cardsite",
    "catalog",
    "contributions",
    "packs",
    "play",
    "prints",
    "validator",
)
TOP_LEVEL = (*PACKAGES, "tests")

# Functions over MAX_FUNCTION_LINES when the rule came in, with their length then: data-heavy
# builders of synthetic cards and scenarios, a rendering pipeline, a restore. Shrink, never grow.
LONG_FUNCTIONS: dict[str, int] = {
    "packs/services.py::pack_build": 118,
    "prints/faces.py::_ornament": 112,
    "prints/faces.py::render_face": 134,
    "tests/cardsite/test_backup.py::snapshot": 110,
    "validator/checks/characters.py::ability_refusals": 124,
    "validator/checks/characters.py::character_checks": 449,
    "validator/checks/items.py::_sell_checks": 119,
    "validator/checks/items.py::_trade_checks": 113,
    "validator/checks/items.py::item_checks": 188,
    "validator/checks/monsters.py::_runaway_checks": 99,
    "validator/checks/one_shots.py::level_card_checks": 115,
    "validator/checks/trading.py::trade_limit_checks": 120,
    "validator/checks/turn_order.py::turn_order_checks": 212,
    "validator/checks/victims.py::_table_runs": 173,
    "validator/engine/abilities.py::use_ability": 146,
    "validator/engine/badstuff.py::_apply_one": 196,
    "validator/engine/scenario/runner.py::_apply_step": 121,
    "validator/engine/turn.py::_play_one_shot": 101,
    "validator/engine/turn.py::_play_other": 99,
}


def modules() -> Iterator[tuple[str, Path]]:
    """Every written module: (dotted name, path)."""
    for top in TOP_LEVEL:
        for path in sorted((REPO / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(REPO).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            yield ".".join(parts), path


def module_names() -> set[str]:
    return {name for name, _ in modules()}


def functions(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """(qualified name, lines) of every function and method, nested ones included."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    yield name, child.end_lineno - child.lineno + 1
                yield from walk(child, f"{name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def test_no_module_passes_a_thousand_lines() -> None:
    long = {
        str(path.relative_to(REPO)): lines
        for _, path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these along their seams: {long}"


def test_long_functions_only_shrink() -> None:
    found: dict[str, int] = {}
    for _, path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, lines in functions(tree):
            if lines > MAX_FUNCTION_LINES:
                found[f"{path.relative_to(REPO)}::{name}"] = lines
    new = {key: n for key, n in found.items() if key not in LONG_FUNCTIONS}
    assert new == {}, f"over {MAX_FUNCTION_LINES} lines: split them along their seams"
    grown = {key: (LONG_FUNCTIONS[key], n) for key, n in found.items() if n > LONG_FUNCTIONS[key]}
    assert grown == {}, "(listed, now): a long function grew; split it instead"
    fits = sorted(set(LONG_FUNCTIONS) - set(found))
    assert fits == [], "these fit now (or are gone): take them off LONG_FUNCTIONS"
    shorter = {key: (LONG_FUNCTIONS[key], n) for key, n in found.items() if n < LONG_FUNCTIONS[key]}
    assert shorter == {}, "(listed, now): write the new, shorter length into LONG_FUNCTIONS"


def private_uses(tree: ast.Module, known: set[str], *, attributes: bool = True) -> Iterator[str]:
    """Each use of another module's private name: `from m import _x`, or (with `attributes`)
    `m._x` where `m` is a project module bound by an import."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in TOP_LEVEL:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield f"from {node.module} import {alias.name}"
                if f"{node.module}.{alias.name}" in known:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree) if attributes else ():
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            yield f"{bound[node.value.id]}.{node.attr}"


def test_no_module_uses_another_modules_private_names() -> None:
    # A test may reach into a module's privates by attribute, to plant a fault in one function
    # (monkeypatch.setattr(turn, "_play_level", ...)) or call a helper it pins down; it imports
    # only public names, like the rest of the house.
    known = module_names()
    uses = {
        str(path.relative_to(REPO)): found
        for name, path in modules()
        if (
            found := sorted(
                set(
                    private_uses(
                        ast.parse(path.read_text("utf-8")),
                        known,
                        attributes=not name.startswith("tests."),
                    )
                )
            )
        )
    }
    assert uses == {}, "make a name public (no leading underscore) once another module uses it"


def test_the_checks_catch_what_they_are_for() -> None:
    # The detectors themselves, on code written for them (so a blind detector fails here).
    known = {"validator.engine.bots", "catalog.selectors"}
    source = (
        "from validator.engine import bots\n"
        "from catalog.selectors import _visible, card_search\n"
        "import catalog.selectors as sel\n"
        "bots._sale_price(1)\n"
        "sel._private\n"
        "bots.public\n"
    )
    assert sorted(private_uses(ast.parse(source), known)) == [
        "catalog.selectors._private",
        "from catalog.selectors import _visible",
        "validator.engine.bots._sale_price",
    ]
    body = "\n".join(f"    x = {n}" for n in range(MAX_FUNCTION_LINES))
    tree = ast.parse(f"class A:\n  def m(self):\n{body}\n    def inner():\n        pass\n")
    assert dict(functions(tree)) == {"A.m": MAX_FUNCTION_LINES + 3, "A.m.inner": 2}
