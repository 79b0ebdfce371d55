"""The code a verdict is kept under (issue 36): a digest of every Python file of the engine and
the checks, their paths and bytes, so any change to them checks every card again and nothing
else does (validator/engine/version.py, validator/checks/reports.py)."""

import ast
import os
import shutil
from pathlib import Path

from validator.checks import VERDICT_SOURCES, check_version, code_hash
from validator.engine import (
    ENGINE_VERSION,
    LANGUAGE_SOURCES,
    VALIDATOR_DIR,
    source_digest,
    source_files,
)


def copy_of_the_sources(into: Path) -> Path:
    """The engine and the checks copied under `into`/validator (no compiled files)."""
    copy = into / "validator"
    for part in VERDICT_SOURCES:
        shutil.copytree(
            VALIDATOR_DIR / part, copy / part, ignore=shutil.ignore_patterns("__pycache__")
        )
    return copy


def test_every_python_file_of_the_engine_and_the_checks_is_hashed() -> None:
    listed = {relative for relative, _ in source_files(VALIDATOR_DIR, VERDICT_SOURCES)}
    on_disk = {
        path.relative_to(VALIDATOR_DIR).as_posix()
        for part in VERDICT_SOURCES
        for path in (VALIDATOR_DIR / part).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert listed == on_disk
    assert {"engine/strength.py", "engine/cards/effects/outcomes.py", "checks/reports.py"} <= listed
    code_hash.cache_clear()  # read afresh: the tree may have been edited since it was first read
    assert code_hash() == source_digest(VALIDATOR_DIR, VERDICT_SOURCES)
    # The hand-kept version is a label in front of the digest; the digest decides.
    assert check_version() == f"{ENGINE_VERSION}+{code_hash()}"


def test_the_digest_changes_with_any_hashed_file_and_with_nothing_else(tmp_path: Path) -> None:
    copy = copy_of_the_sources(tmp_path)
    base = source_digest(copy, VERDICT_SOURCES)
    assert len(base) == 64
    # Not where the files are, nor the order they are named or listed in.
    assert source_digest(copy, tuple(reversed(VERDICT_SOURCES))) == base
    # Not their times, compiled files, nor files of other kinds.
    for _, path in source_files(copy, VERDICT_SOURCES):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    (copy / "engine" / "__pycache__").mkdir()
    (copy / "engine" / "__pycache__" / "strength.cpython-313.pyc").write_bytes(b"\0\1")
    (copy / "engine" / "card.schema.json").write_text("{}")
    (copy / "checks" / "notes.txt").write_text("not source")
    assert source_digest(copy, VERDICT_SOURCES) == base
    # One byte more in any one file: a digest never seen before, and back when it goes.
    seen = {base}
    for relative, path in source_files(copy, VERDICT_SOURCES):
        data = path.read_bytes()
        path.write_bytes(data + b"\n")
        changed = source_digest(copy, VERDICT_SOURCES)
        assert changed not in seen, relative
        seen.add(changed)
        path.write_bytes(data)
    assert source_digest(copy, VERDICT_SOURCES) == base
    # A file added, then moved to another folder.
    added = copy / "checks" / "extra.py"
    added.write_text("")
    with_added = source_digest(copy, VERDICT_SOURCES)
    added.rename(copy / "engine" / "extra.py")
    moved = source_digest(copy, VERDICT_SOURCES)
    assert len({base, with_added, moved}) == 3


def _engine_imports(path: Path) -> set[str]:
    """The modules of the validator a source file imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("validator")}


def test_the_language_sources_are_all_a_faces_rules_text_is_made_by() -> None:
    """Faces are kept under the digest of LANGUAGE_SOURCES only (prints.faces.face_version),
    so a bot's or a rule's change draws no face again. That holds while the effect language's
    modules import nothing else of the engine, and while what the face renderer takes from the
    engine is defined in them."""
    language = ("validator.engine.cards", "validator.engine.text")
    for relative, path in source_files(VALIDATOR_DIR, LANGUAGE_SOURCES):
        outside = {m for m in _engine_imports(path) if not m.startswith(language)}
        assert not outside, f"{relative} imports {outside}: add it to LANGUAGE_SOURCES"
    import validator.engine as engine

    faces = VALIDATOR_DIR.parent / "prints" / "faces.py"
    for node in ast.walk(ast.parse(faces.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "validator.engine":
            for alias in node.names:
                if alias.name == "language_source_hash":
                    continue
                module = getattr(getattr(engine, alias.name), "__module__", "")
                assert module.startswith(language), f"prints/faces.py uses {alias.name}"
