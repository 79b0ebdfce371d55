import pytest
import yaml

from validator.engine import run_paths
from validator.mutants.operators import Mutant, module_source, mutants_of_module
from validator.mutants.planted import PLANTED, PatchError, planted_mutant
from validator.mutants.planting import PlantingError, plant
from validator.mutants.runner import run_mutants
from validator.mutants.suite import FIXTURES, Reach, Suite

# One worker judges the unmutated engine once for every test that needs it (make test runs
# pytest-xdist with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("mutation-baseline")


def _escape_mutant() -> Mutant:
    source = module_source("runaway")
    line = source[: source.index("    if total >= ESCAPE_ROLL:\n")].count("\n") + 1
    (mutant,) = [
        m for m in mutants_of_module("runaway") if m.line == line and m.operator == "compare"
    ]
    return mutant


def test_an_escape_needing_six_fails_cards_in_a_child_and_the_parent_is_untouched(
    judged: tuple[Suite, Reach],
) -> None:
    suite, reach = judged
    (outcome,) = run_mutants([_escape_mutant()], suite, reach, workers=1, timeout=120)
    assert outcome.status == "killed" and outcome.phase == "validator"
    assert outcome.failures and all(" / " in f for f in outcome.failures)
    assert outcome.reached_by  # the cards whose checks roll to run away
    # The parent still runs the real rule: the rulebook's escape scenarios pass here.
    results = run_paths([FIXTURES / "scenarios"])
    assert results and all(r.passed for r in results)


def test_a_mutant_nobody_reaches_survives_without_a_run(judged: tuple[Suite, Reach]) -> None:
    suite, reach = judged
    unreached = [
        m
        for m in mutants_of_module("turn")
        if reach.observers(m.module, m.line, m.end_line) == (set(), set())
    ]
    if not unreached:
        pytest.skip("every line of turn.py is reached")
    (outcome,) = run_mutants(unreached[:1], suite, reach, workers=1, timeout=120)
    assert outcome.status == "survived" and outcome.seconds == 0.0


def _cards_with(effect_type: str, conditional: bool) -> set[str]:
    names = set()
    for path in (FIXTURES / "sets").glob("*.yaml"):
        for card in yaml.safe_load(path.read_text())["cards"]:
            for effect in card.get("effects") or []:
                if effect.get("type") == effect_type and (not conditional or "when" in effect):
                    names.add(card["name"])
    return names


def test_discarding_your_own_card_doing_nothing_fails_kill_the_hireling(
    judged: tuple[Suite, Reach],
) -> None:
    suite, reach = judged
    (outcome,) = run_mutants(
        [planted_mutant("discard-own-card-does-nothing")], suite, reach, workers=1, timeout=120
    )
    assert outcome.status == "killed"
    # The set cards that fail (the language checks' synthetic cards may fail as well).
    failing = {
        f.split(" / ", 1)[1].split(":", 1)[0]
        for f in outcome.failures
        if not f.startswith("language / ")
    }
    discarding = _cards_with("discard_card", conditional=False)  # Kill the Hireling
    assert "Kill the Hireling" in discarding
    assert discarding <= failing
    # Beyond the cards that discard: the Hireling, whose own check has a reference card
    # discard it while it carries a Big item (which must then go to another player).
    assert failing - discarding <= {"Hireling"}


def test_a_conditional_extra_treasure_ignored_fails_the_cards_that_have_one(
    judged: tuple[Suite, Reach],
) -> None:
    suite, reach = judged
    (outcome,) = run_mutants(
        [planted_mutant("conditional-extra-treasure-ignored")],
        suite,
        reach,
        workers=1,
        timeout=120,
    )
    assert outcome.status == "killed"
    # The set cards that fail (a language check's synthetic monster may fail as well).
    failing = {
        f.split(" / ", 1)[1].split(":", 1)[0]
        for f in outcome.failures
        if not f.startswith("language / ")
    }
    assert failing and failing <= _cards_with("extra_treasures", conditional=True)


def test_planted_bugs_are_patches_of_the_engine_as_it_is() -> None:
    for name, patch in PLANTED.items():
        mutant = planted_mutant(name)
        assert module_source(patch.module).count(patch.old) == 1
        assert patch.new in mutant.source and patch.old not in mutant.source
    with pytest.raises(PatchError, match="no planted bug 'nope'"):
        planted_mutant("nope")


def test_planting_names_a_function_that_is_not_there() -> None:
    mutant = _escape_mutant()
    ghost = Mutant(**{**mutant.__dict__, "function": "no_such_function"})
    with pytest.raises(PlantingError, match="no code for no_such_function"):
        plant(ghost)


def test_a_bug_only_a_synthetic_card_shows_is_killed_by_the_validator(
    judged: tuple[Suite, Reach],
) -> None:
    """Discarding an empty hand said to have acted skips its `otherwise`: no card of the five
    sets has one there, so only the language checks' synthetic cards reach and fail it."""
    suite, reach = judged
    (mutant,) = [
        m for m in mutants_of_module("badstuff") if m.id == "badstuff:_apply_one:truth:9b9bab2d"
    ]
    (outcome,) = run_mutants([mutant], suite, reach, workers=1, timeout=120)
    assert outcome.status == "killed" and outcome.phase == "validator"
    assert any(f.startswith("language / Syn Discard Hand Or Else") for f in outcome.failures)
    assert "language / Syn Discard Hand Or Else" in outcome.reached_by
