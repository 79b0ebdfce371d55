"""Simulating a pack: the command, the services, the task backends, the pages and the plots."""

from __future__ import annotations

import io
import json
import signal
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.tasks import TaskResultStatus, task, task_backends
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.limits import BUSY_RETRY_SECONDS, TooManyRequests
from packs import simulations as services
from packs.models import Pack, PackSimulation, SimulationStatus
from packs.plots import PLOTS, PLOTS_BY_SLUG
from prints.background import STALE_AFTER
from tests.conftest import FIXTURE_SETS
from tests.engine.test_simulation_errors import CrashingOptions
from validator.engine import CardBase, build_pack, load_set_file, pack_json, simulate

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
THREAD = {"default": {"BACKEND": "cardsite.tasks_backends.ThreadBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
RESULT_KEYS = {
    "games",
    "invariant_violations",
    "mean_turns",
    "wins_by_seat",
    "monsters",
    "game_lengths",
    "levels_per_turn",
    "mean_levels_per_turn",
    "players",
    "seed",
    "pack",
}
SVG = "{http://www.w3.org/2000/svg}"


@cache
def pack_data(*codes: str) -> dict[str, Any]:
    """A pack of whole fixture sets, every card with its set file's copies."""
    sets = []
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for code in codes:
        document = load_set_file(FIXTURE_SETS / f"{code}.yaml")
        cards: list[CardBase] = list(document.cards)
        sets.append((document.set.model_dump(), cards))
        for card in document.cards:
            if card.deck in decks:
                decks[card.deck].append((code, card.name, card.copies or 1))
    return build_pack(name=" + ".join(codes), sets=sets, decks=decks)


def make_pack(owner: User | None = None, *codes: str) -> Pack:
    data = pack_data(*(codes or ("munchkin-core",)))
    return Pack.objects.create(
        owner=owner,
        name=data["name"],
        document=data,
        sha256=data["sha256"],
        card_count=sum(len(s["cards"]) for s in data["sets"]),
    )


@pytest.fixture
def immediate(settings: Any) -> None:
    settings.TASKS = IMMEDIATE


def wait_for(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


def detail_url(simulation: PackSimulation) -> str:
    return reverse(
        "packs:simulation_detail",
        kwargs={"pack_id": simulation.pack_id, "simulation_id": simulation.pk},
    )


# -- the command ------------------------------------------------------------------------------


def test_simulate_plays_a_pack_file_without_breaking_an_invariant(tmp_path: Path) -> None:
    pack_file = tmp_path / "core-booty.pack.json"
    pack_file.write_bytes(pack_json(pack_data("munchkin-core", "munchkin-booty")))
    out = io.StringIO()
    call_command("simulate", "--pack", str(pack_file), "--games", "12", "--no-progress", stdout=out)
    text = out.getvalue()
    assert "12 games of 4 players, pack 'munchkin-core + munchkin-booty'" in text
    assert "invariant violations: 0" in text
    assert text.rstrip().endswith("0 invariant violations")
    assert "wins by seat:" in text and "mean levels per turn:" in text

    out = io.StringIO()
    call_command("simulate", "--pack", str(pack_file), "--games", "12", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["invariant_violations"] == 0
    assert report["pack"] == "munchkin-core + munchkin-booty"
    assert report["sets"] == ["munchkin-core", "munchkin-booty"]
    assert sum(report["game_lengths"].values()) == 12
    # Booty's monsters are in play: the pack's decks, not the catalog's.
    assert "Lobster Mobster" in report["monsters"] or "Maul Rat" in report["monsters"]


def test_simulate_prints_the_same_statistics_in_one_process_or_two(tmp_path: Path) -> None:
    pack_file = tmp_path / "core.pack.json"
    pack_file.write_bytes(pack_json(pack_data("munchkin-core")))
    reports = []
    for jobs in ("1", "2"):
        out = io.StringIO()
        call_command(
            "simulate", "--pack", str(pack_file), "--games", "16", "--seed", "4",
            "--jobs", jobs, "--json", stdout=out,
        )  # fmt: skip
        report = json.loads(out.getvalue())
        report.pop("games_per_second")
        reports.append(report)
    assert reports[0] == reports[1]
    assert sum(reports[0]["game_lengths"].values()) == 16


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_names_the_game_that_crashed_and_its_seed_in_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    # Issue 36: a game that crashed in a worker ended the command with the worker's traceback
    # and, as the progress bar was drawn again at the interpreter's exit, a segmentation fault.
    from packs.management.commands import simulate as command

    pack_file = tmp_path / "core.pack.json"
    pack_file.write_bytes(pack_json(pack_data("munchkin-core")))
    monkeypatch.setattr(command, "Options", CrashingOptions)  # every game crashes at once
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "simulate", "--pack", str(pack_file), "--games", "6", "--seed", "3",
            "--jobs", jobs, stderr=err,
        )  # fmt: skip
    assert str(caught.value) == (
        "game 0 of the run with seed 3 (the game's seed 3000009) failed: "
        "ZeroDivisionError: the options broke"
    )
    assert "Traceback" not in err.getvalue()
    with pytest.raises(CommandError):
        call_command(
            "simulate", "--pack", str(pack_file), "--games", "2", "--jobs", jobs,
            "--no-progress", "--traceback", stderr=err,
        )  # fmt: skip
    assert "Traceback" in err.getvalue() and "faster_play" in err.getvalue()


def test_simulate_reports_the_bots_refused_moves_and_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import bots

    pack_file = tmp_path / "core.pack.json"
    pack_file.write_bytes(pack_json(pack_data("munchkin-core")))
    # A bot that looks for trouble with a card it does not hold: refused, listed, skipped.
    monkeypatch.setattr(
        bots,
        "beatable_monster",
        lambda game, player: game.door_deck[-1] if game.door_deck else None,
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"the rules refused \d+ move\(s\) the bots made"):
        call_command(
            "simulate", "--pack", str(pack_file), "--games", "2", "--jobs", "1",
            "--no-progress", stdout=out,
        )  # fmt: skip
    text = out.getvalue()
    assert "refused bot moves:" in text and "  ! game 0 (seed 1000003): turn " in text
    assert "looks for trouble with" in text


def test_simulate_refuses_a_number_of_processes_out_of_range() -> None:
    for jobs in ("0", "65"):
        with pytest.raises(CommandError, match="--jobs must be between 1 and 64"):
            call_command("simulate", "--games", "1", "--jobs", jobs)


def test_simulate_refuses_a_bad_pack_file_naming_the_problem(tmp_path: Path) -> None:
    data = json.loads(pack_json(pack_data("munchkin-core")))
    data["decks"]["door"][0]["copies"] = 99  # no longer matches its checksum
    broken = tmp_path / "broken.pack.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(CommandError, match=r"does not load:[\s\S]*broken\.pack\.json.*sha256"):
        call_command("simulate", "--pack", str(broken), "--games", "1", "--no-progress")

    with pytest.raises(CommandError, match="cannot read"):
        call_command("simulate", "--pack", str(tmp_path / "missing.json"), "--games", "1")


def test_simulate_takes_a_pack_or_sets_not_both(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="not allowed with"):
        call_command("simulate", "--pack", str(tmp_path / "x.json"), "--sets", "munchkin-core")


# -- the services -----------------------------------------------------------------------------


def test_a_simulation_runs_to_done_with_its_statistics(
    alice: User, immediate: None, django_capture_on_commit_callbacks: Any
) -> None:
    pack = make_pack(alice)
    with django_capture_on_commit_callbacks(execute=True):
        simulation = services.simulation_start(pack=pack, actor=alice, games=6, players=3, seed=4)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.DONE, simulation.error
    assert simulation.games_done == 6 and simulation.requested_by == alice
    assert simulation.task_id and simulation.started_at and simulation.finished_at
    result = simulation.result
    assert set(result) >= RESULT_KEYS
    assert result["games"] == 6 and result["players"] == 3 and result["seed"] == 4
    assert result["invariant_violations"] == 0
    assert result["pack"]["sha256"] == pack.sha256
    assert sum(result["game_lengths"].values()) == 6
    assert sum(result["levels_per_turn"].values()) > 6


def test_the_same_seed_stores_the_same_statistics(alice: User, immediate: None) -> None:
    pack = make_pack(alice)
    results = []
    for _ in range(2):
        simulation = PackSimulation.objects.create(pack=pack, games=4, players=4, seed=9)
        services.simulation_run(simulation_id=simulation.pk)
        simulation.refresh_from_db()
        result = dict(simulation.result)
        for key in ("games_per_second", "seconds"):
            result.pop(key)
        results.append(result)
    assert results[0] == results[1]


@pytest.mark.parametrize(
    ("games", "players", "message"),
    [
        (0, 4, "games must be between 1 and 5000"),
        (5001, 4, "games must be between 1 and 5000"),
        (10, 2, "players must be between 3 and 6"),
        (10, 7, "players must be between 3 and 6"),
    ],
)
def test_simulations_stay_within_their_limits(
    alice: User, games: int, players: int, message: str
) -> None:
    pack = make_pack(alice)
    with pytest.raises(ValidationError, match=message):
        services.simulation_start(pack=pack, actor=alice, games=games, players=players)
    assert not PackSimulation.objects.exists()


def test_a_user_has_only_a_few_simulations_waiting(alice: User, settings: Any) -> None:
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    settings.SIMULATIONS_PER_USER = 2
    pack = make_pack(alice)
    for _ in range(2):
        services.simulation_start(pack=pack, actor=alice, games=5)
    with pytest.raises(TooManyRequests, match=r"2 simulations waiting or running.*\(2\)"):
        services.simulation_start(pack=pack, actor=alice, games=5)
    assert PackSimulation.objects.count() == 2


def test_lost_simulations_fail_and_stop_counting(
    alice: User, client: Client, settings: Any
) -> None:
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    settings.SIMULATIONS_PER_USER = 3
    pack = make_pack(alice)
    long_ago = timezone.now() - STALE_AFTER - timedelta(minutes=1)
    lost = [
        PackSimulation.objects.create(pack=pack, requested_by=alice, games=5)
        for _ in range(settings.SIMULATIONS_PER_USER)
    ]
    PackSimulation.objects.filter(pk=lost[0].pk).update(created_at=long_ago)
    PackSimulation.objects.filter(pk=lost[1].pk).update(
        status=SimulationStatus.RUNNING, started_at=long_ago
    )
    PackSimulation.objects.filter(pk=lost[2].pk).update(
        status=SimulationStatus.RUNNING, started_at=timezone.now(), created_at=long_ago
    )
    client.force_login(alice)
    html = client.get(detail_url(lost[0])).content.decode()
    assert "http-equiv" not in html and "was lost before it finished" in html
    statuses = [PackSimulation.objects.get(pk=s.pk).status for s in lost]
    assert statuses == ["failed", "failed", "running"]  # the third is still playing
    services.simulation_start(pack=pack, actor=alice, games=5)  # two of three slots free


def test_progress_is_written_as_the_games_are_played(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = make_pack(alice)
    simulation = PackSimulation.objects.create(pack=pack, games=12, players=4, seed=2)
    seen: list[tuple[str, int]] = []
    save = services._save_progress

    def spy(simulation_id: int, games_done: int) -> None:
        save(simulation_id, games_done)
        row = PackSimulation.objects.get(pk=simulation_id)
        seen.append((row.status, row.games_done))

    monkeypatch.setattr(services, "_save_progress", spy)
    monkeypatch.setattr(services, "PROGRESS_SECONDS", 0.0)
    services.simulation_run(simulation_id=simulation.pk)
    assert seen == [("running", n) for n in range(1, 12)]
    simulation.refresh_from_db()
    assert (simulation.status, simulation.games_done) == ("done", 12)


def test_progress_writes_are_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[int] = []
    monkeypatch.setattr(services, "_save_progress", lambda _id, done: written.append(done))
    monkeypatch.setattr(services, "PROGRESS_SECONDS", 0.0)
    on_game = services._progress_writer(1, 500)
    for index in range(500):
        on_game(index)
    assert written == list(range(5, 500, 5))  # every 1%, the last left to the result

    # Fast games: no more than one write every PROGRESS_SECONDS (0.1 s of clock a game here).
    written.clear()
    clock = iter(0.1 * n for n in range(10_000))
    monkeypatch.setattr(services, "_clock", lambda: next(clock))
    monkeypatch.setattr(services, "PROGRESS_SECONDS", 0.5)
    on_game = services._progress_writer(1, 500)
    for index in range(500):
        on_game(index)
    assert written == list(range(5, 500, 5))  # slow enough: still every 1%...
    written.clear()
    clock = iter(0.01 * n for n in range(10_000))
    on_game = services._progress_writer(1, 500)
    for index in range(500):
        on_game(index)
    # ...and with games 10 times faster, a write every 50 games rather than every 5.
    assert written == list(range(50, 500, 50))


def test_a_failing_simulation_stores_its_error_and_no_result(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = make_pack(alice)
    simulation = PackSimulation.objects.create(pack=pack, games=8, players=4)

    def broken(*args: Any, on_game: Callable[[int], None], **kwargs: Any) -> Any:
        for index in range(3):
            on_game(index)
        raise RuntimeError("the dice rolled off the table")

    monkeypatch.setattr(services, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(services, "simulate", broken)
    services.simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.FAILED
    assert simulation.error == "RuntimeError: the dice rolled off the table"
    assert simulation.result == {} and simulation.games_done == 3
    assert simulation.finished_at is not None


def test_a_simulation_whose_game_crashed_names_the_game_and_its_seed(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = make_pack(alice)
    simulation = PackSimulation.objects.create(pack=pack, games=8, players=4, seed=2)

    def crashing(*args: Any, **kwargs: Any) -> Any:
        return simulate(*args, options=CrashingOptions(), **kwargs)

    monkeypatch.setattr(services, "simulate", crashing)
    services.simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.FAILED
    assert simulation.error == (
        "SimulationError: game 0 of the run with seed 2 (the game's seed 2000006) failed: "
        "ZeroDivisionError: the options broke"
    )
    assert simulation.result == {}


def test_a_pack_that_does_not_load_fails_the_simulation(
    alice: User, immediate: None, django_capture_on_commit_callbacks: Any
) -> None:
    pack = make_pack(alice)
    Pack.objects.filter(pk=pack.pk).update(document={"format": "munchkin-pack", "sets": []})
    pack.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        simulation = services.simulation_start(pack=pack, actor=alice, games=5)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.FAILED
    assert "the pack does not load" in simulation.error
    assert simulation.result == {}


# -- the task backends ------------------------------------------------------------------------


@task
def multiply(a: int, b: int) -> int:
    return a * b


@task
def explode() -> None:
    raise ValueError("kaboom")


@pytest.fixture
def thread_backend(settings: Any) -> None:
    settings.TASKS = THREAD


def test_the_thread_backend_runs_tasks_and_keeps_their_results(thread_backend: None) -> None:
    good, bad = multiply.enqueue(6, 7), explode.enqueue()
    # enqueue hands back the result as queued, before any worker thread has touched it.
    assert (good.status, bad.status) == (TaskResultStatus.READY, TaskResultStatus.READY)
    assert good.started_at is None and good.worker_ids == []
    backend = task_backends["default"]
    wait_for(lambda: backend.get_result(good.id).is_finished)
    wait_for(lambda: backend.get_result(bad.id).is_finished)
    good.refresh()
    assert good.status == TaskResultStatus.SUCCESSFUL and good.return_value == 42
    assert good.started_at and good.finished_at and len(good.worker_ids) == 1
    failed = backend.get_result(bad.id)
    assert failed.status == TaskResultStatus.FAILED
    assert failed.errors[0].exception_class_path == "builtins.ValueError"
    assert "kaboom" in failed.errors[0].traceback


@pytest.mark.django_db(transaction=True)
def test_the_thread_backend_simulates_in_the_background(
    thread_backend: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = User.objects.create_user("alice")
    pack = make_pack(alice)
    release = threading.Event()
    threads: list[str] = []

    def held(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        assert release.wait(30)
        return simulate(*args, **kwargs)

    monkeypatch.setattr(services, "simulate", held)
    simulation = services.simulation_start(pack=pack, actor=alice, games=8, players=4)
    # start returned the row as it stands: queued, or running already if the worker thread
    # won the race to it (a loaded machine), never past that while the games are held.
    assert (simulation.status, simulation.games_done) in (
        (SimulationStatus.QUEUED, 0),
        (SimulationStatus.RUNNING, 0),
    )
    wait_for(lambda: bool(threads))
    # The worker holds the games back, so the row stands at running, with none played yet.
    row = PackSimulation.objects.get(pk=simulation.pk)
    assert (row.status, row.games_done) == (SimulationStatus.RUNNING, 0)
    release.set()
    wait_for(lambda: PackSimulation.objects.get(pk=simulation.pk).status == "done")
    simulation.refresh_from_db()
    assert simulation.games_done == 8 and simulation.result["invariant_violations"] == 0
    assert threads and threads[0] != threading.current_thread().name
    assert threads[0].startswith("tasks")
    result = task_backends["default"].get_result(simulation.task_id)
    wait_for(lambda: task_backends["default"].get_result(simulation.task_id).is_finished)
    result.refresh()
    assert result.status == TaskResultStatus.SUCCESSFUL and result.return_value == "done"


@pytest.fixture
def restore_signals() -> Iterator[None]:
    # db_worker installs its own SIGINT/SIGTERM handlers for graceful shutdown.
    names = ("SIGINT", "SIGTERM", "SIGQUIT")
    saved = {
        name: signal.getsignal(getattr(signal, name)) for name in names if hasattr(signal, name)
    }
    yield
    for name, handler in saved.items():
        signal.signal(getattr(signal, name), handler)


# db_worker closes the database connection after its tasks, as a worker should: a test inside
# one rolled-back transaction would lose its connection, so this one commits.
@pytest.mark.django_db(transaction=True)
def test_the_database_backend_queues_and_db_worker_runs(
    alice: User,
    settings: Any,
    restore_signals: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TASKS = DATABASE
    pack = make_pack(alice)
    with django_capture_on_commit_callbacks(execute=True):
        simulation = services.simulation_start(pack=pack, actor=alice, games=5)
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.QUEUED
    row = DBTaskResult.objects.get()
    assert str(row.id) == simulation.task_id
    assert row.task_path == "packs.simulations.run_simulation"
    assert row.status == TaskResultStatus.READY

    call_command(
        "db_worker",
        "--batch",
        "--no-reload",
        "--no-startup-delay",
        verbosity=0,
        stdout=io.StringIO(),
    )
    simulation.refresh_from_db()
    assert simulation.status == SimulationStatus.DONE, simulation.error
    assert simulation.games_done == 5 and simulation.result["games"] == 5
    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL
    assert task_backends["default"].get_result(simulation.task_id).return_value == "done"


# -- the pages --------------------------------------------------------------------------------


def test_the_detail_page_shows_progress_and_reloads_until_done(alice: User, client: Client) -> None:
    pack = make_pack(alice)
    simulation = PackSimulation.objects.create(
        pack=pack, games=10, players=4, status=SimulationStatus.RUNNING, games_done=3
    )
    client.force_login(alice)
    response = client.get(detail_url(simulation))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<meta http-equiv="refresh" content="2">' in html
    assert '<progress value="3" max="10">' in html and "3 of 10 games (30%)" in html
    assert "<img" not in html
    assert "no-store" in response["Cache-Control"]
    plot = reverse(
        "packs:simulation_plot",
        kwargs={"pack_id": pack.pk, "simulation_id": simulation.pk, "plot": "wins-by-seat"},
    )
    assert client.get(plot).status_code == 404


def test_the_detail_page_of_a_failed_simulation_shows_the_error(
    alice: User, client: Client
) -> None:
    pack = make_pack(alice)
    simulation = PackSimulation.objects.create(
        pack=pack, games=10, status=SimulationStatus.FAILED, error="ValueError: <nope>"
    )
    client.force_login(alice)
    html = client.get(detail_url(simulation)).content.decode()
    assert "http-equiv" not in html
    assert "ValueError: &lt;nope&gt;" in html


def svg_elements(content: bytes) -> list[ET.Element]:
    root = ET.fromstring(content)
    assert root.tag == f"{SVG}svg"
    return list(root.iter())


def test_the_detail_page_lists_bot_moves_the_rules_refused(
    alice: User, client: Client, immediate: None, django_capture_on_commit_callbacks: Any
) -> None:
    pack = make_pack(alice)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("packs:simulation_start", kwargs={"pack_id": pack.pk}),
            {"games": "2", "players": "3"},
        )
    simulation = PackSimulation.objects.get()
    html = client.get(detail_url(simulation)).content.decode()
    assert '<td data-testid="refused-bot-moves">0</td>' in html
    assert 'data-testid="refusals"' not in html
    # What a run whose bots tried a move the rules refuse stores (simulation.Stats.as_json).
    refusal = "game 1 (seed 7000001): turn 3, P2 equip Electro-Mento Hat: usable only by a Mutant"
    simulation.result = {**simulation.result, "refused_bot_moves": 1, "refusals": [refusal]}
    simulation.save(update_fields=["result"])
    html = client.get(detail_url(simulation)).content.decode()
    assert '<td data-testid="refused-bot-moves">1</td>' in html
    assert "P2 equip Electro-Mento Hat: usable only by a Mutant" in html


def test_a_finished_simulation_shows_four_plots_that_are_clean_svg(
    alice: User, client: Client, immediate: None, django_capture_on_commit_callbacks: Any
) -> None:
    pack = make_pack(alice)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("packs:simulation_start", kwargs={"pack_id": pack.pk}),
            {"games": "8", "players": "4"},
        )
    simulation = PackSimulation.objects.get()
    assert response.status_code == 302 and response["Location"] == detail_url(simulation)
    assert simulation.status == SimulationStatus.DONE and simulation.games == 8

    html = client.get(detail_url(simulation)).content.decode()
    assert "http-equiv" not in html
    images = [line for line in html.splitlines() if "<img " in line]
    assert len(images) == 4 and all('.svg"' in line for line in images)
    assert '<td data-testid="invariant-violations">0</td>' in html

    for plot in PLOTS:
        url = reverse(
            "packs:simulation_plot",
            kwargs={"pack_id": pack.pk, "simulation_id": simulation.pk, "plot": plot.slug},
        )
        assert f'src="{url}"' in html
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "image/svg+xml"
        elements = svg_elements(response.content)
        assert not [e for e in elements if e.tag.endswith("script")]
        assert not [e for e in elements for a in e.attrib if a.lower().startswith("on")]
        assert b"<script" not in response.content.lower()
        assert "max-age" in response["Cache-Control"] and response["ETag"]
        assert "script-src" not in response["Content-Security-Policy"]
        assert "default-src 'none'" in response["Content-Security-Policy"]
        again = client.get(url, headers={"if-none-match": response["ETag"]})
        assert again.status_code == 304
        assert client.get(url).content == response.content  # deterministic

    unknown = reverse(
        "packs:simulation_plot",
        kwargs={"pack_id": pack.pk, "simulation_id": simulation.pk, "plot": "nope"},
    )
    assert client.get(unknown).status_code == 404


def test_plots_are_deterministic_and_treat_card_names_as_text() -> None:
    result = {
        "games": 3,
        "players": 3,
        "wins_by_seat": {"1": 2, "3": 1},
        "unfinished_games": 0,
        "monsters": {
            "Evil $Bill$ <script>alert(1)</script>": {"fought": 4, "beaten": 1},
            "Plant": {"fought": 2, "beaten": 2},
        },
        "game_lengths": {"12": 1, "30": 2},
        "levels_per_turn": {"-1": 2, "0": 30, "1": 40},
    }
    for plot in PLOTS:
        first, second = plot.svg(result), plot.svg(result)
        assert first == second
        assert b"<script" not in first.lower()
        svg_elements(first)
    monsters = PLOTS_BY_SLUG["monsters-beaten"].svg(result).decode()
    assert "Evil $Bill$ &lt;script&gt;" in monsters
    empty = PLOTS_BY_SLUG["monsters-beaten"].svg({})
    assert b"No monsters fought" in empty


# -- permissions ------------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(alice: User, client: Client) -> None:
    pack = make_pack(None)
    response = client.post(reverse("packs:simulation_start", kwargs={"pack_id": pack.pk}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert not PackSimulation.objects.exists()


def test_only_whoever_may_see_the_pack_simulates_it(
    alice: User, bob: User, client: Client, settings: Any
) -> None:
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    owned, shared = make_pack(alice), make_pack(None)
    simulation = PackSimulation.objects.create(pack=owned, games=5)
    start = "packs:simulation_start"

    client.force_login(bob)
    assert client.post(reverse(start, kwargs={"pack_id": owned.pk})).status_code == 404
    assert client.get(detail_url(simulation)).status_code == 404
    response = client.post(reverse(start, kwargs={"pack_id": shared.pk}), {"games": "5"})
    assert response.status_code == 302
    assert PackSimulation.objects.filter(pack=shared, requested_by=bob).count() == 1

    client.logout()
    assert client.get(detail_url(simulation)).status_code == 404
    shared_simulation = PackSimulation.objects.get(pack=shared)
    assert client.get(detail_url(shared_simulation)).status_code == 200

    client.force_login(alice)
    assert client.get(reverse(start, kwargs={"pack_id": owned.pk})).status_code == 405
    response = client.post(reverse(start, kwargs={"pack_id": owned.pk}))
    assert response.status_code == 302
    assert PackSimulation.objects.filter(pack=owned, requested_by=alice).get().games == 500


def test_a_refused_start_goes_back_with_the_reason(alice: User, client: Client) -> None:
    pack = make_pack(alice)
    client.force_login(alice)
    response = client.post(
        reverse("packs:simulation_start", kwargs={"pack_id": pack.pk}),
        {"games": "9999", "next": "/cards/"},
        follow=False,
    )
    assert response.status_code == 302 and response["Location"] == "/cards/"
    response = client.post(
        reverse("packs:simulation_start", kwargs={"pack_id": pack.pk}),
        {"players": "2", "next": "https://evil.example/"},
    )
    # Not off-site: back to the pack page (or the home page while there is none).
    assert response["Location"] in (f"/packs/{pack.pk}/", reverse("catalog:home"))
    assert not PackSimulation.objects.exists()


def test_a_start_past_the_users_limit_is_a_429_saying_when_to_retry(
    alice: User, bob: User, client: Client, settings: Any
) -> None:
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    settings.SIMULATIONS_PER_USER = 2
    pack, shared = make_pack(alice), make_pack(None)
    start = reverse("packs:simulation_start", kwargs={"pack_id": pack.pk})
    client.force_login(alice)
    assert [client.post(start, {"games": "5"}).status_code for _ in range(2)] == [302, 302]
    refused = client.post(start, {"games": "5"})
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(BUSY_RETRY_SECONDS)
    text = refused.content.decode()
    assert "the most one user may have at a time (2)" in text
    assert f"Try again in {BUSY_RETRY_SECONDS} seconds" in text
    assert PackSimulation.objects.filter(requested_by=alice).count() == 2
    other = Client()
    other.force_login(bob)
    shared_start = reverse("packs:simulation_start", kwargs={"pack_id": shared.pk})
    assert other.post(shared_start, {"games": "5"}).status_code == 302


def test_the_pack_page_partial_lists_simulations_with_a_start_button(alice: User) -> None:
    pack = make_pack(alice)
    PackSimulation.objects.create(
        pack=pack, games=50, status=SimulationStatus.RUNNING, games_done=20
    )
    request = RequestFactory().get("/packs/1/")
    request.user = alice
    html = render_to_string(
        "packs/_simulations.html",
        {"pack": pack, "simulations": services.pack_simulations(pack=pack)},
        request=request,
    )
    action = reverse("packs:simulation_start", kwargs={"pack_id": pack.pk})
    assert f'action="{action}"' in html and 'method="post"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert "Simulate 500 games" in html
    assert '<progress value="20" max="50" aria-label="Games played">' in html
