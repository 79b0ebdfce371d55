"""One mutant of the mutation tool planted in this test's engine, for the validator tests that
show a rule broken in the engine fails the card whose check reads it."""

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from validator.checks import check_card
from validator.engine import CardBase
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
