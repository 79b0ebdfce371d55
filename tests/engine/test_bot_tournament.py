"""The tournament between bot policies (issue 37): its seating, its interval, and figures that
are the same for a seed in any number of processes."""

from collections import Counter

import pytest

from validator.engine import CLASSIC, SHREWD, tournament, wilson_interval
from validator.engine.bot_tournament import seatings
from validator.engine.scenario import CardLibrary


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [
        # The Wilson score interval at 95%, as tabled by Newcombe (1998) and Agresti & Coull.
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_the_wilson_interval(wins: int, trials: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(wins, trials)
    assert round(got_low, 4) == low and round(got_high, 4) == high


def test_no_game_no_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_seatings_favour_neither_policy(players: int) -> None:
    rounds = seatings(players, SHREWD, CLASSIC)
    # Every way of choosing half the seats (rounded down), each beside its mirror: with an
    # even number of seats the mirror of a way is another way, so half of them come first.
    ways = {2: 2, 3: 3, 4: 6, 5: 10, 6: 20}[players]
    assert len(rounds) == (ways if players % 2 == 0 else 2 * ways)
    by_seat = Counter(seat for seating in rounds for seat, p in enumerate(seating) if p is SHREWD)
    assert set(by_seat.values()) == {len(rounds) // 2}  # each seat new in half the games
    for first, second in zip(rounds[::2], rounds[1::2], strict=True):
        assert all(
            {a.name, b.name} == {"shrewd", "classic"} for a, b in zip(first, second, strict=True)
        )
        assert first.count(SHREWD) == players // 2
    assert len(set(rounds)) == len(rounds)  # no seating twice


def test_the_figures_are_the_same_in_one_process_or_two(core_library: CardLibrary) -> None:
    cards = list(core_library.cards())
    played: list[int] = []
    alone = tournament(cards, games=8, players=4, seed=3, on_game=played.append).as_json()
    assert played == list(range(24))  # 8 mixed games, then 8 by each policy alone
    two = tournament(cards, games=8, players=4, seed=3, jobs=2).as_json()
    other = tournament(cards, games=8, players=4, seed=4, jobs=2).as_json()
    for report in (alone, two, other):
        report.pop("games_per_second")
    assert alone == two
    assert other != alone  # the comparison can tell two runs apart


def test_each_game_is_won_by_one_policy_or_none(core_library: CardLibrary) -> None:
    result = tournament(list(core_library.cards()), games=10, players=3, seed=2)
    report = result.as_json()
    shrewd, classic = report["policies"]["shrewd"], report["policies"]["classic"]
    assert shrewd["games"] == classic["games"] == 10  # both sit at every game
    assert shrewd["seats"] == classic["seats"] == 15  # 1 or 2 seats of 3, alternately
    unfinished = report["mixed_games"]["unfinished_games"]
    # A game's winning seats are of one policy, or (a helper winning beside the fighter) both.
    assert shrewd["wins"] + classic["wins"] == 10 - unfinished + report["games_both_won"]
    assert shrewd["win_rate"] == round(shrewd["wins"] / 10, 4)
    low, high = wilson_interval(shrewd["wins"], 10)
    assert shrewd["ci95"] == [round(low, 4), round(high, 4)]
    assert {name: figures["games"] for name, figures in report["alone"].items()} == {
        "classic": 10,
        "shrewd": 10,
    }
    assert report["refused_bot_moves"] == 0 and report["invariant_violations"] == 0


def test_a_tournament_needs_two_policies() -> None:
    with pytest.raises(ValueError, match="two policies"):
        tournament([], games=2, new=SHREWD, old=SHREWD)
