"""The engine's benchmark prints every figure it promises (their values are the machine's)."""

import json
import os

import pytest

from validator.engine.bench import main


def test_the_benchmark_reports_speed_and_the_scaling_over_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--games", "3", "--rounds", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 3
    assert figures["engine_invariant_violations"] == figures["checked_invariant_violations"] == 0
    for jobs in range(1, (os.cpu_count() or 1) + 1):
        assert figures[f"jobs_{jobs}_games_per_second"] > 0
    assert figures["scenarios"] >= 400  # every scenario file ran
