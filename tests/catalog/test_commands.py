"""The engine's commands, fed from the catalog: scenario and simulate."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"


def test_scenario_command_passes_every_shipped_scenario() -> None:
    call_command("load_catalog", stdout=io.StringIO())  # every set the scenarios name
    out = io.StringIO()
    call_command("scenario", str(SCENARIOS), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[-1].endswith(" passed, 0 failed")
    assert any(line.startswith("PASS Aric fights the Net Troll") for line in lines)


def test_scenario_command_json_has_every_value(core_catalog: None) -> None:
    out = io.StringIO()
    example = SCENARIOS / "munchkin-core" / "rulebook-combat-example.yaml"
    call_command("scenario", str(example), "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert result["passed"] is True
    assert result["values"]["monster_strength"] == 15


def test_scenario_command_fails_on_a_failing_scenario(core_catalog: None, tmp_path: Path) -> None:
    path = tmp_path / "wrong.yaml"
    path.write_text(
        "name: wrong\nsets: [munchkin-core]\nplayers: [{name: A, level: 2}]\n"
        "combat: {fighter: A, monsters: [Lame Goblin]}\nsteps: [{resolve: true}]\n"
        "expect: {levels: {A: 5}}\n"
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 scenario"):
        call_command("scenario", str(path), stdout=out)
    assert "FAIL wrong" in out.getvalue() and "levels.A: expected 5, got 3" in out.getvalue()


def test_scenario_command_needs_the_catalog(tmp_path: Path) -> None:
    example = SCENARIOS / "munchkin-core" / "rulebook-combat-example.yaml"
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("scenario", str(example), stdout=out)
    assert "unknown card 'Warrior'" in out.getvalue()


def test_simulate_prints_the_same_statistics_for_the_same_seed(core_catalog: None) -> None:
    def report() -> dict[str, object]:
        out = io.StringIO()
        call_command("simulate", "--games", "8", "--seed", "5", "--json", stdout=out)
        data: dict[str, object] = json.loads(out.getvalue())
        data.pop("games_per_second")
        return data

    first, second = report(), report()
    assert first == second
    for key in ("games", "invariant_violations", "mean_turns", "wins_by_seat"):
        assert key in first
    assert first["games"] == 8 and first["invariant_violations"] == 0


def test_simulate_text_report(core_catalog: None) -> None:
    out = io.StringIO()
    call_command("simulate", "--games", "3", "--no-progress", stdout=out)
    text = out.getvalue()
    assert "3 games of 4 players" in text and "invariant violations: 0" in text


def test_simulate_refuses_unknown_sets(core_catalog: None) -> None:
    with pytest.raises(CommandError, match="no cards for set"):
        call_command("simulate", "--sets", "munchkin-nope", "--games", "1")


STRAGGLER = """
import threading, django
django.setup()
from django.db import connections
from catalog.management.scratch import scratch_database

opened = threading.Event()
def straggle():  # a background task that keeps its connection to the scratch database
    connections["default"].ensure_connection()
    opened.set()
    threading.Event().wait(30)

with scratch_database(purpose="straggler"):
    threading.Thread(target=straggle, daemon=True).start()
    assert opened.wait(10)
print("dropped")
"""


@pytest.mark.slow  # a child process that makes and drops a scratch database of its own
def test_a_scratch_database_is_dropped_while_a_task_still_holds_it() -> None:
    # On PostgreSQL, a connection left open by a background thread once made the drop fail
    # ("database ..._bench is being accessed by other users") and bench_search exit 1.
    result = subprocess.run(
        [sys.executable, "-c", STRAGGLER],
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardsite.settings"},
        cwd=Path(__file__).resolve().parents[2],
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "dropped"


@pytest.mark.slow  # a child process that migrates and fills a scratch database of its own
def test_bench_search_builds_its_own_catalog_and_reports_percentiles(tmp_path: Path) -> None:
    # A subprocess: the benchmark makes and drops its own scratch database, which must not
    # happen inside the test database of this session.
    configured = tmp_path / "untouched.sqlite3"
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_search",
            "--cards",
            "300",
            "--sets",
            "3",
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{configured}"},
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "generated 300 cards in 3 custom sets" in result.stdout
    assert re.search(r"all \d+ requests: p50 [\d.]+ ms, p95 [\d.]+ ms", result.stdout)
    assert "set:munchkin-core t:monster lvl>=16" in result.stdout
    # The configured database was at most opened (WAL mode set), never given a table.
    if configured.exists():
        import sqlite3

        with sqlite3.connect(configured) as db:
            assert db.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)
