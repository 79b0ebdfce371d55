"""Simulating a pack: whole games between the engine's bots, run as a background task.

`simulation_start` records a PackSimulation and enqueues `run_simulation` on the default task
backend (settings.TASKS); the task calls `simulation_run`, which plays the games, writes its
progress now and then, and stores the statistics (`Stats.as_json()` of the engine, with what
the plots and the page need) in one write at the end.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from accounts.limits import job_address, lock_address, refuse_busy_jobs
from packs.models import Pack, PackSimulation, SimulationStatus
from prints.background import describe_error, jobs_expire_stalled
from validator.engine import PackError, SimulationError, parse_pack, simulate

logger = logging.getLogger(__name__)

MIN_GAMES, MAX_GAMES = 1, 5000
MIN_PLAYERS, MAX_PLAYERS = 3, 6
MAX_SEED = 2_147_483_647
# Progress is written when this share of the games more is done, and no more often than this
# (the page reloads every 2 s; each write is a commit, which costs SQLite an fsync).
PROGRESS_STEP = 0.01
PROGRESS_SECONDS = 0.5
_clock = time.monotonic

ACTIVE = (SimulationStatus.QUEUED, SimulationStatus.RUNNING)
# A simulation waiting or running longer than STALE_AFTER (an hour; the longest takes
# minutes) was lost. With the thread backend, a restart of the web process loses what it
# was running.
# Starting the worker processes costs about as much as playing 50 to 100 games: a
# simulation gets one process per 50 of its games, up to SIMULATION_JOBS.
GAMES_PER_PROCESS = 50
STALE_ERROR = (
    "The simulation was lost before it finished (the server restarted, or no worker ran it "
    "within an hour). Start it again."
)


class SimulationFailed(Exception):
    """The simulation ended failed (the error is on its row): the task fails with it."""


def _check_limits(*, games: int, players: int, seed: int) -> None:
    problems = []
    if not MIN_GAMES <= games <= MAX_GAMES:
        problems.append(f"games must be between {MIN_GAMES} and {MAX_GAMES}, not {games}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        problems.append(f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, not {players}")
    if not 0 <= seed <= MAX_SEED:
        problems.append(f"seed must be between 0 and {MAX_SEED}, not {seed}")
    if problems:
        raise ValidationError(problems)


def _check_active(user_id: int | None, address: str) -> None:
    """Refuse past the actor's SIMULATIONS_PER_USER, then past the address's
    SIMULATIONS_PER_ADDRESS (fresh accounts from one address share it)."""
    refuse_busy_jobs(
        waiting=PackSimulation.objects.filter(status__in=ACTIVE),
        owner=None if user_id is None else {"requested_by_id": user_id},
        address=address,
        user_limit=settings.SIMULATIONS_PER_USER,
        address_limit=settings.SIMULATIONS_PER_ADDRESS,
        what="simulations",
    )


def simulation_start(
    *,
    pack: Pack,
    actor: AbstractBaseUser | AnonymousUser | None,
    games: int = 500,
    players: int = 4,
    seed: int = 1,
    address: str = "",
) -> PackSimulation:
    """Record a simulation of `games` games of `players` players with `pack` and enqueue it.

    Raises ValidationError past the limits (games 1..5000, players 3..6), and
    TooManyRequests (nothing recorded) when the actor already has SIMULATIONS_PER_USER
    simulations queued or running, or `address` (the client address of the request that asks:
    `accounts.limits.client_address`; empty for none) SIMULATIONS_PER_ADDRESS, whatever the
    accounts. The task is enqueued once the current transaction commits
    (at once outside one); with an inline backend the simulation has finished when this
    returns. A backend that refuses the task leaves the simulation failed with its error.
    Returns the simulation as it stands."""
    _check_limits(games=games, players=players, seed=seed)
    simulation_expire_stalled()
    requested_by_id = actor.pk if actor is not None and actor.is_authenticated else None
    address = job_address(address)
    with transaction.atomic():
        # The user's row, locked, and the address's lock make two requests at once count one
        # after the other.
        if requested_by_id is not None:
            User.objects.select_for_update().filter(pk=requested_by_id).first()
        lock_address(address)
        _check_active(requested_by_id, address)
        simulation = PackSimulation.objects.create(
            pack=pack,
            requested_by_id=requested_by_id,
            requested_from=address,
            games=games,
            players=players,
            seed=seed,
            status=SimulationStatus.QUEUED,
        )
    simulation_id = simulation.pk

    def enqueue() -> None:
        try:
            result = run_simulation.enqueue(simulation_id=simulation_id)
        except Exception as exc:
            logger.exception("Simulation %s could not be enqueued", simulation_id)
            _finish_failed(simulation_id, f"could not be queued: {describe_error(exc)}")
            return
        PackSimulation.objects.filter(pk=simulation_id).update(task_id=result.id[:64])

    transaction.on_commit(enqueue)
    simulation.refresh_from_db()
    return simulation


def simulation_run(*, simulation_id: int) -> None:
    """Play the simulation's games and store the statistics; the work of the task.

    The row goes running (games_done 0), then its games_done is written every 1% of the games
    but at most every 0.5 s; at the end the result, games_done and status done are
    written together. Any exception leaves it failed with the error's text and an empty
    result: never a half-written one (a game that crashed, in any of the worker processes, is
    named with its seed: the engine's SimulationError). A simulation already done or failed
    is left alone (a task delivered twice plays once)."""
    simulation = PackSimulation.objects.select_related("pack").filter(pk=simulation_id).first()
    if simulation is None:
        logger.warning("Simulation %s no longer exists", simulation_id)
        return
    if simulation.status in (SimulationStatus.DONE, SimulationStatus.FAILED):
        return
    PackSimulation.objects.filter(pk=simulation_id).update(
        status=SimulationStatus.RUNNING,
        started_at=timezone.now(),
        finished_at=None,
        games_done=0,
        error="",
        result={},
    )
    try:
        _check_limits(games=simulation.games, players=simulation.players, seed=simulation.seed)
        pack = simulation.pack
        try:
            document = parse_pack(pack.document, source=f"pack {pack.pk}")
        except PackError as exc:
            raise ValueError("the pack does not load: " + "; ".join(exc.lines())) from exc
        stats = simulate(
            document.game_cards(),
            players=simulation.players,
            games=simulation.games,
            seed=simulation.seed,
            on_game=_progress_writer(simulation_id, simulation.games),
            jobs=min(settings.SIMULATION_JOBS, max(1, simulation.games // GAMES_PER_PROCESS)),
        )
        result: dict[str, Any] = stats.as_json()
        result.update(
            {
                "pack": {"id": pack.pk, "name": pack.name, "sha256": pack.sha256},
                "players": simulation.players,
                "seed": simulation.seed,
                "seconds": round(stats.seconds, 3),
            }
        )
    except SimulationError as exc:
        # A game crashed, in this process or a worker: the row names the game, its seed and
        # the error; the log has the traceback where the game was played.
        logger.error("Simulation %s failed: %s\n%s", simulation_id, exc, exc.detail)
        _finish_failed(simulation_id, describe_error(exc))
        return
    except Exception as exc:
        logger.exception("Simulation %s failed", simulation_id)
        _finish_failed(simulation_id, describe_error(exc))
        return
    PackSimulation.objects.filter(pk=simulation_id).update(
        status=SimulationStatus.DONE,
        games_done=stats.games,
        result=result,
        error="",
        finished_at=timezone.now(),
    )


def simulation_expire_stalled() -> int:
    """Mark failed the simulations queued or running for longer than STALE_AFTER, so that
    their page stops waiting and they no longer count against their user's limit. Returns how
    many. A lost task that runs after all then finds its simulation failed and plays nothing."""
    return jobs_expire_stalled(
        PackSimulation.objects.all(), error=STALE_ERROR, running_since="started_at"
    )


@task
def run_simulation(simulation_id: int) -> str:
    """The background task: `simulation_run`, failing (for the backend's records) when the
    simulation ended failed. Returns the simulation's final status."""
    simulation_run(simulation_id=simulation_id)
    status = (
        PackSimulation.objects.filter(pk=simulation_id).values_list("status", flat=True).first()
    )
    if status == SimulationStatus.FAILED:
        raise SimulationFailed(f"simulation {simulation_id} failed")
    return str(status)


def _finish_failed(simulation_id: int, error: str) -> None:
    PackSimulation.objects.filter(pk=simulation_id).update(
        status=SimulationStatus.FAILED, error=error[:10_000], result={}, finished_at=timezone.now()
    )


def _save_progress(simulation_id: int, games_done: int) -> None:
    PackSimulation.objects.filter(pk=simulation_id, status=SimulationStatus.RUNNING).update(
        games_done=games_done
    )


def _progress_writer(simulation_id: int, games: int) -> Callable[[int], None]:
    """The engine's on_game callback: writes games_done, throttled (see PROGRESS_*)."""
    step = max(1, int(games * PROGRESS_STEP))
    written = 0
    written_at = _clock()

    def on_game(index: int) -> None:
        nonlocal written, written_at
        done = index + 1
        if done >= games:
            return  # the final write stores it, with the result
        now = _clock()
        if done - written < step or now - written_at < PROGRESS_SECONDS:
            return
        _save_progress(simulation_id, done)
        written, written_at = done, now

    return on_game


def pack_simulations(*, pack: Pack, limit: int = 10) -> list[PackSimulation]:
    """The pack's latest simulations, newest first: what the pack page lists (pass them to
    packs/_simulations.html as `simulations`)."""
    return list(PackSimulation.objects.filter(pack=pack).order_by("-created_at", "-id")[:limit])
