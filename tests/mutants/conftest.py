import pytest

from validator.mutants.runner import baseline
from validator.mutants.suite import Reach, Suite, load_suite


@pytest.fixture(scope="session")
def judged() -> tuple[Suite, Reach]:
    """Every set's cards and scenario files, and what each reaches on the unmutated engine
    (judged in a forked child, as a mutation run does)."""
    suite = load_suite()
    cards_failing, scenarios_failing, reach, _ = baseline(suite)
    assert cards_failing == [] and scenarios_failing == [], "the unmutated engine must pass"
    return suite, reach
