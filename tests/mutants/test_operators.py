import ast
import random

import pytest

from validator.mutants.operators import (
    RULES_MODULES,
    TEXT_RENDERING_MODULES,
    Mutant,
    module_source,
    mutants_of_module,
    rules_mutants,
)


@pytest.fixture(scope="module")
def mutants() -> list[Mutant]:
    return list(rules_mutants())


def test_every_mutant_compiles_and_changes_only_its_span(mutants: list[Mutant]) -> None:
    assert len(mutants) > 500  # eleven rules modules: every comparison alone is hundreds
    # A fixed sample: parsing a whole module per mutant for all of them takes minutes. Each
    # module's own tree is dumped once.
    unmutated: dict[str, str] = {}
    for mutant in random.Random(19).sample(mutants, 150):
        source = mutant.source
        compile(source, str(mutant.path), "exec")
        original = module_source(mutant.module).encode()
        changed = source.encode()
        assert changed[: mutant.start] == original[: mutant.start]
        assert changed[mutant.start + len(mutant.mutated.encode()) :] == original[mutant.end :]
        if mutant.module not in unmutated:
            unmutated[mutant.module] = ast.dump(ast.parse(module_source(mutant.module)))
        assert ast.dump(ast.parse(source)) != unmutated[mutant.module]


def test_ids_are_unique_and_stable(mutants: list[Mutant]) -> None:
    ids = [m.id for m in mutants]
    assert len(ids) == len(set(ids))
    again = [m.id for m in rules_mutants()]
    assert again == ids


def _function_spans(module: str) -> list[tuple[int, int, ast.FunctionDef]]:
    spans = []
    for node in ast.walk(ast.parse(module_source(module))):
        if isinstance(node, ast.FunctionDef):
            spans.append((node.lineno, node.end_lineno or node.lineno, node))
    return spans


@pytest.mark.parametrize("module", RULES_MODULES)
def test_only_function_bodies_are_mutated_never_messages(module: str) -> None:
    tree = ast.parse(module_source(module))
    raise_lines = {
        line
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise)
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    spans = _function_spans(module)
    for mutant in mutants_of_module(module):
        assert any(first < mutant.line <= last for first, last, _ in spans), mutant.id
        assert mutant.line not in raise_lines, mutant.id
        if mutant.operator not in ("statement", "augmented"):
            node = ast.parse(f"({mutant.original})", mode="eval").body
            assert not isinstance(node, ast.JoinedStr), mutant.id
            assert not (isinstance(node, ast.Constant) and isinstance(node.value, str)), mutant.id


@pytest.mark.parametrize("module", sorted(TEXT_RENDERING_MODULES))
def test_rendered_text_is_left_to_the_text_tests(module: str) -> None:
    text_functions = [
        node
        for _, _, node in _function_spans(module)
        if node.returns is not None and ast.unparse(node.returns) == "str"
    ]
    assert text_functions  # the effect language renders text in these modules
    for mutant in mutants_of_module(module):
        assert not any(
            node.lineno < mutant.line <= (node.end_lineno or node.lineno) for node in text_functions
        ), mutant.id


def test_the_escape_roll_has_its_off_by_one_mutant() -> None:
    # The rulebook: a 5 or more on the die escapes. Its comparison must be mutated to "more than 5".
    found = [
        m
        for m in mutants_of_module("runaway")
        if m.operator == "compare" and m.original == "total >= ESCAPE_ROLL"
    ]
    assert found and all(m.mutated == "(total > ESCAPE_ROLL)" for m in found)


def test_each_operator_family_is_used(mutants: list[Mutant]) -> None:
    used = {m.operator for m in mutants}
    assert used == {
        "compare",
        "arithmetic",
        "boolean",
        "negation",
        "number",
        "truth",
        "augmented",
        "builtin",
        "branch",
        "statement",
    }
