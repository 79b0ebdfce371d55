"""`python manage.py tournament` (issue 37): the shrewd bots against the classic ones, its report
in words and in JSON, the same in one process or two."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.packs.test_simulation import pack_data
from validator.engine import pack_json


@pytest.fixture
def core_pack(tmp_path: Path) -> Path:
    path = tmp_path / "core.pack.json"
    path.write_bytes(pack_json(pack_data("munchkin-core")))
    return path


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("tournament", *args, "--no-progress", stdout=out)
    return out.getvalue()


def test_the_report_names_each_policy_with_its_wins_and_interval(core_pack: Path) -> None:
    text = run("--pack", str(core_pack), "--games", "6", "--seed", "2")
    lines = text.splitlines()
    assert lines[0].startswith("6 games of 4 players, shrewd bots against classic ones")
    assert "pack 'munchkin-core' (sets munchkin-core), seed 2" in lines[0]
    assert lines[1].split() == ["policy", "games", "wins", "win", "rate", "95%", "interval"]
    shrewd, classic = lines[2].split(), lines[3].split()
    assert shrewd[:2] == ["shrewd", "6"] and classic[:2] == ["classic", "6"]
    assert int(shrewd[2]) + int(classic[2]) <= 6  # one winner a game at most
    assert "    all classic:  6 games, " in text and "    all shrewd:   6 games, " in text
    assert "invariant violations: 0" in text and "refused bot moves:    0" in text


def test_the_json_report_is_the_same_in_one_process_or_two(core_pack: Path) -> None:
    reports = []
    for processes in ("1", "2"):
        report = json.loads(
            run("--pack", str(core_pack), "--games", "6", "--processes", processes, "--json")
        )
        report.pop("games_per_second")
        reports.append(report)
    assert reports[0] == reports[1]
    report = reports[0]
    assert report["sets"] == ["munchkin-core"] and report["players"] == 4
    assert set(report["policies"]) == {"shrewd", "classic"}
    wins = report["policies"]["shrewd"]["wins"]
    assert report["policies"]["shrewd"]["win_rate"] == round(wins / 6, 4)
    assert set(report["alone"]) == {"shrewd", "classic"}


def test_a_set_is_named_by_its_code_or_its_name(core_catalog: None) -> None:
    by_name = json.loads(run("--sets", "munchkin", "--games", "2", "--json"))
    by_code = json.loads(run("--sets", "munchkin-core", "--games", "2", "--json"))
    assert by_name["sets"] == by_code["sets"] == ["munchkin-core"]
    with pytest.raises(CommandError, match="no cards for set munchkin-nowhere"):
        run("--sets", "munchkin-nowhere", "--games", "2")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "--players must be between 2 and 6"),
        (["--games", "0"], "--games must be at least 1"),
        (["--processes", "0"], "--processes must be between 1 and 64"),
        (["--new", "classic"], "two different policies"),
    ],
)
def test_the_command_refuses_what_it_cannot_play(
    core_pack: Path, args: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        run("--pack", str(core_pack), *args)


def test_progress_is_shown_on_stderr(core_pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    call_command("tournament", "--pack", str(core_pack), "--games", "4", stdout=out)
    # 4 mixed games, then the same 4 deals by each policy alone: 12 in all.
    assert "12/12" in capsys.readouterr().err
    assert "4 games of 4 players" in out.getvalue()
