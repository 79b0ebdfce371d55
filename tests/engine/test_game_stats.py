"""What a simulation records for a pack's balance plots: game lengths, wins by seat, monsters
fought and beaten, and levels gained per turn."""

import json
from typing import Any

from validator.engine.scenario import CardLibrary, library_from_set_files
from validator.engine.simulation import Stats, simulate

# The keys `as_json()` had before the plots: they stay, with the same meaning.
EARLIER_KEYS = {
    "games",
    "games_per_second",
    "invariant_violations",
    "mean_turns",
    "wins_by_seat",
    "unfinished_games",
    "monsters",
    "violations",
}


def test_the_report_records_what_the_plots_need(core_library: CardLibrary) -> None:
    stats = simulate(list(core_library.cards()), players=3, games=12, seed=11)
    report = stats.as_json()
    assert set(report) >= EARLIER_KEYS
    json.dumps(report)  # JSON types only
    assert report["players"] == 3
    assert report["invariant_violations"] == 0

    lengths = report["game_lengths"]
    assert sum(lengths.values()) == 12
    assert [int(k) for k in lengths] == sorted(int(k) for k in lengths)
    assert sum(int(k) * n for k, n in lengths.items()) == sum(stats.turns)

    per_turn = report["levels_per_turn"]
    assert [int(k) for k in per_turn] == sorted(int(k) for k in per_turn)
    # One entry per turn played: a won game ends in its winner's turn, a game stopped at the
    # turn limit has played every turn up to it.
    assert sum(per_turn.values()) == sum(stats.turns) - stats.unfinished
    assert per_turn["1"] > 0 and per_turn["0"] > 0
    gained = sum(int(k) * n for k, n in per_turn.items())
    assert report["mean_levels_per_turn"] == round(gained / sum(per_turn.values()), 3)


def test_a_monster_is_never_beaten_more_often_than_fought() -> None:
    # Monsters that join a fight (Wandering Monster, a Mate) count as fought too.
    library = library_from_set_files(["munchkin-core", "munchkin-booty"])
    stats = simulate(list(library.cards()), players=4, games=120, seed=1, check_every_move=False)
    too_often = {
        name: (stats.fought[name], beaten)
        for name, beaten in stats.beaten.items()
        if beaten > stats.fought[name]
    }
    assert too_often == {}
    assert sum(stats.beaten.values()) > 0


def test_an_empty_report_is_still_complete() -> None:
    report = Stats().as_json()
    assert report["game_lengths"] == {} and report["levels_per_turn"] == {}
    assert report["mean_levels_per_turn"] == 0 and report["players"] == 0


def _statistics(
    library: CardLibrary, *, jobs: int, seed: int = 5
) -> tuple[dict[str, Any], list[int]]:
    played: list[int] = []
    stats = simulate(
        list(library.cards()), players=4, games=20, seed=seed, jobs=jobs, on_game=played.append
    )
    report = stats.as_json()
    report.pop("games_per_second")  # the only figure that is the machine's, not the games'
    return report, played


def test_the_same_seed_gives_the_same_statistics_in_any_number_of_processes(
    core_library: CardLibrary,
) -> None:
    alone, played = _statistics(core_library, jobs=1)
    assert played == list(range(20))
    assert alone["games"] == 20 and sum(alone["game_lengths"].values()) == 20
    for jobs in (2, 3):  # batches of 2 games, then of 1
        report, played = _statistics(core_library, jobs=jobs)
        assert report == alone
        assert played == list(range(20))  # progress in game order
    other_seed, _ = _statistics(core_library, jobs=2, seed=6)
    assert other_seed != alone  # the comparison can tell two runs apart
