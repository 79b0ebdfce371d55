"""The slow tier's simulation fuzz (issue 36): the bots play every pair of the five official sets
and all five together, 3 to 6 players, several seeds, with the invariants checked after every
move and every probe of the bots asked of the engine first. Not one game may crash, not one
move the bots make may be refused by the rules, not one invariant may break.

Size: 11 mixes x 4 table sizes x 4 seeds x 100 games, 17,600 games (about 90 s of one core:
50 s with `-n 2` on the 2-core machine), and one mix played again in two processes to the same
statistics. With the bots' old equipment swap put back, it failed on the Electro-Mento Hat
(all five sets, 5 players, seed 33, game 88: "usable only by a Mutant").
"""

from itertools import combinations

import pytest

from validator.engine.scenario import library_from_set_files
from validator.engine.simulation import SimulationError, Stats, simulate

FIVE_SETS = (
    "munchkin-core",
    "munchkin-super",
    "munchkin-booty",
    "munchkin-impossible",
    "munchkin-spongebob",
)
MIXES = [*combinations(FIVE_SETS, 2), FIVE_SETS]
GAMES = 100
SEEDS = (1, 2, 3, 4)


def mix_id(sets: tuple[str, ...]) -> str:
    return "all-five" if len(sets) == 5 else "+".join(code.split("-")[1] for code in sets)


def played(sets: tuple[str, ...], players: int, seed: int, jobs: int = 1) -> Stats:
    cards = list(library_from_set_files(list(sets)).cards())
    try:
        return simulate(cards, players=players, games=GAMES, seed=seed, jobs=jobs)
    except SimulationError as exc:  # a crash: the game, its seed and where it broke
        pytest.fail(f"{mix_id(sets)}, {players} players: {exc}\n{exc.detail}")


@pytest.mark.slow
@pytest.mark.parametrize("sets", MIXES, ids=mix_id)
def test_the_bots_play_every_mix_of_the_official_sets_without_a_fault(
    sets: tuple[str, ...],
) -> None:
    for players in range(3, 7):
        for seed in SEEDS:
            stats = played(sets, players, seed * 7 + len(sets))
            where = f"{mix_id(sets)}, {players} players, seed {seed * 7 + len(sets)}"
            assert stats.games == GAMES
            assert stats.refused_bot_moves == 0, f"{where}: {stats.refusals}"
            assert stats.invariant_violations == 0, f"{where}: {stats.violations}"


@pytest.mark.slow
def test_the_fuzz_plays_the_same_games_in_two_processes() -> None:
    alone = played(FIVE_SETS, 5, 4).as_json()
    shared = played(FIVE_SETS, 5, 4, jobs=2).as_json()
    alone.pop("games_per_second")
    shared.pop("games_per_second")
    assert alone == shared
