import json
from pathlib import Path

import pytest

from validator.mutants.cli import main
from validator.mutants.operators import RULES_MODULES, mutants_of_module, rules_mutants
from validator.mutants.report import Explanation, Figures, SurvivorsFileError, load_explanations
from validator.mutants.runner import Outcome, run_mutants
from validator.mutants.suite import Reach, Suite

# One worker judges the unmutated engine once for every test that needs it (make test runs
# pytest-xdist with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("mutation-baseline")

CI_SAMPLE = Path(__file__).with_name("ci_sample.txt")


def _ci_sample() -> list[str]:
    ids = [line for line in CI_SAMPLE.read_text().splitlines() if line and line[0] != "#"]
    assert len(ids) == 12
    return ids


def test_a_fixed_sample_of_mutants_stays_killed(judged: tuple[Suite, Reach]) -> None:
    """CI's share of the mutation run: 12 mutants a full run killed, each planted again and
    judged on the baseline the other mutation tests share: a validator that grew weaker lets
    one live and fails this."""
    suite, reach = judged
    known = {m.id: m for m in rules_mutants(RULES_MODULES)}
    outcomes = run_mutants([known[i] for i in _ci_sample()], suite, reach, workers=1, timeout=120)
    assert [(o.mutant.id, o.status) for o in outcomes if o.status != "killed"] == []


@pytest.mark.slow
def test_the_command_judges_the_fixed_sample_from_scratch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same sample through the command line, which judges the unmutated engine itself and
    writes its report: the path `make mutants` takes."""
    ids = _ci_sample()
    report = tmp_path / "report.json"
    arguments = [f"--mutant={mutant_id}" for mutant_id in ids]
    status = main([*arguments, "--no-progress", "--json", str(report)])
    output = capsys.readouterr().out
    data = json.loads(report.read_text())
    not_killed = [m["id"] for m in data["mutants"] if m["status"] != "killed"]
    assert not_killed == [], output
    assert status == 0


def test_an_unknown_mutant_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--mutant", "turn:nowhere:compare:00000000"])
    assert exit_info.value.code == 2
    assert "no mutant turn:nowhere:compare:00000000" in capsys.readouterr().err


def test_the_survivors_file_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "survivors.yaml"
    path.write_text("- {id: a, kind: harmless, why: because}\n")
    with pytest.raises(SurvivorsFileError, match="entry 1: kind 'harmless' is not one of"):
        load_explanations(path)
    path.write_text("- {id: a, kind: equivalent, why: x}\n- {id: a, kind: equivalent, why: y}\n")
    with pytest.raises(SurvivorsFileError, match="entry 2: a is explained twice"):
        load_explanations(path)
    path.write_text("- {id: a, kind: unobservable, why: no card does it}\n")
    assert load_explanations(path) == {"a": Explanation("unobservable", "no card does it")}


def test_kill_rates_count_every_mutant_and_a_hang_for_the_run_that_hung() -> None:
    mutant = mutants_of_module("runaway")[0]
    figures = Figures()
    for status, phase in [
        ("killed", "validator"),
        ("killed", "validator"),
        ("killed by scenarios", "scenarios"),
        ("timed out", "validator"),
        ("timed out", "scenarios"),
        ("survived", ""),
        ("survived", ""),
        ("error", ""),
    ]:
        figures.add(Outcome(mutant, status, phase=phase))
    # 8 mutants: the validator caught 2 kills + 1 hang; with scenarios 1 kill + 1 hang more.
    assert figures.validator_rate == 3 / 8
    assert figures.rate == 5 / 8


def test_observable_rates_leave_out_only_explained_survivors() -> None:
    mutant = mutants_of_module("runaway")[0]
    figures = Figures()
    for status, phase, explained in [
        ("killed", "validator", False),
        ("killed by scenarios", "scenarios", False),
        ("survived", "", True),
        ("survived", "", False),
        # An explanation of a mutant that was killed after all leaves nothing out.
        ("killed", "validator", True),
    ]:
        figures.add(Outcome(mutant, status, phase=phase), explained=explained)
    # 5 mutants, one explained survivor: 4 observable, 2 caught by the validator, 3 in all.
    assert (figures.mutants, figures.observable) == (5, 4)
    assert figures.validator_rate == 2 / 5 and figures.rate == 3 / 5
    assert figures.observable_validator_rate == 2 / 4
    assert figures.observable_rate == 3 / 4
