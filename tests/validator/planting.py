"""One mutant of the mutation tool planted in this test's engine, for the validator tests that
show a rule broken in the engine fails the card whose check reads it; and a rule changed in the
engine's source (`planted_in_source`), for the tests that show a stored verdict of other code is
not reused."""

import importlib
import shutil
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from validator.checks import VERDICT_SOURCES, check_card, reports
from validator.engine import VALIDATOR_DIR, CardBase
from validator.mutants.operators import mutants_of_module
from validator.mutants.planting import function_object, plant
from validator.mutants.suite import forget_caches


@contextmanager
def planted(mutant_id: str) -> Iterator[None]:
    """The engine with one mutant planted (its function's or method's code swapped), restored
    after."""
    module = mutant_id.split(":")[0]
    mutant = next(m for m in mutants_of_module(module) if m.id == mutant_id)
    function = function_object(importlib.import_module(mutant.module_name), mutant.function)
    original = function.__code__
    # Memoised values computed by the real code would hide the mutant (and values computed by
    # the mutant would outlive it): the engine's memo tables are emptied on both sides.
    forget_caches()
    plant(mutant)
    try:
        yield
    finally:
        function.__code__ = original
        forget_caches()


def assert_planted_bug_fails(card: CardBase, set_code: str, mutant_id: str, check: str) -> None:
    """The card passes, and fails by the check named `check` (a part of its message) with the
    mutant planted."""
    assert check_card(card, set_code).status == "pass"
    with planted(mutant_id):
        report = check_card(card, set_code)
    assert report.status == "fail"
    assert any(check in message for message in report.messages), report.messages


@contextmanager
def planted_in_source(
    into: Path, module: str, function: str, old: str, new: str, *, hashed: bool = True
) -> Iterator[Path]:
    """A rule changed in the engine's *source*, as a deploy of the change would bring it: `old`
    replaced by `new` in validator/engine/<module>.py, in a copy of the engine and the checks
    made under `into`. The engine plays the changed `function` (its code swapped, as the
    mutants are); `hashed`, the code a verdict is kept under is the copy's digest, as the new
    code's own would be (else the digest is the real tree's: a change the key does not see).
    Restored after; yields the changed file."""
    copy = into / "validator"
    for part in VERDICT_SOURCES:
        shutil.copytree(
            VALIDATOR_DIR / part, copy / part, ignore=shutil.ignore_patterns("__pycache__")
        )
    path = copy / "engine" / f"{module.replace('.', '/')}.py"
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{old!r} is not in {module} once"
    path.write_text(source.replace(old, new), encoding="utf-8")
    namespace: dict[str, object] = {"__name__": f"planted.{module}"}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    changed = namespace[function]
    assert isinstance(changed, types.FunctionType)
    live = function_object(importlib.import_module(f"validator.engine.{module}"), function)
    original = live.__code__
    forget_caches()
    live.__code__ = changed.__code__
    if hashed:
        reports.VERDICT_ROOT = copy
        reports.code_hash.cache_clear()
    try:
        yield path
    finally:
        live.__code__ = original
        reports.VERDICT_ROOT = VALIDATOR_DIR
        reports.code_hash.cache_clear()
        forget_caches()
