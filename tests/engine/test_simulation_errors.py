"""A game that crashes stops its run with a SimulationError naming the game, its seed and the
error, whether it was played in this process or in a worker; a worker process that dies says
which games it was playing. Never a bare traceback from a worker, never a parent brought down."""

import multiprocessing
import os
import pickle

import pytest

from validator.engine.scenario import CardLibrary
from validator.engine.simulation import SimulationError, game_seed, simulate
from validator.engine.state import Options


class CrashingOptions(Options):
    """Options whose faster-play rule cannot be read: each game crashes as its first turn
    begins. Pickled to the worker processes like any options (this module is importable)."""

    @property
    def faster_play(self) -> bool:
        raise ZeroDivisionError("the options broke")

    @faster_play.setter
    def faster_play(self, value: bool) -> None:
        pass


class DyingOptions(Options):
    """Options that end the worker process reading them, as a crash of the interpreter would
    (in the test's own process they only raise)."""

    @property
    def faster_play(self) -> bool:
        if multiprocessing.parent_process() is not None:
            os._exit(3)
        raise AssertionError("read in the test's own process")

    @faster_play.setter
    def faster_play(self, value: bool) -> None:
        pass


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_crashing_game_is_named_with_its_seed_in_any_number_of_processes(
    core_library: CardLibrary, jobs: int
) -> None:
    with pytest.raises(SimulationError) as caught:
        simulate(list(core_library.cards()), games=6, seed=5, options=CrashingOptions(), jobs=jobs)
    error = caught.value
    assert str(error) == (
        "game 0 of the run with seed 5 (the game's seed 5000015) failed: "
        "ZeroDivisionError: the options broke"
    )
    assert (error.game, error.seed) == (0, game_seed(5, 0)) == (0, 5000015)
    assert "Traceback" in error.detail and "faster_play" in error.detail
    assert error.__cause__ is None or jobs == 1  # a worker's traceback is in `detail`


def test_a_simulation_error_crosses_processes_whole() -> None:
    error = SimulationError("game 3 failed", 3, 17)
    error.detail = "Traceback ..."
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.game, again.seed, again.detail) == (
        "game 3 failed",
        3,
        17,
        "Traceback ...",
    )


def test_a_worker_that_dies_is_named_by_the_games_it_was_playing(
    core_library: CardLibrary,
) -> None:
    with pytest.raises(SimulationError, match=r"^the process playing games 0 to 0 .*abruptly"):
        simulate(list(core_library.cards()), games=4, seed=2, options=DyingOptions(), jobs=2)
