"""A tournament between two bot policies (bot_policy.py): seeded games where half the seats play
one policy and half the other, and the same deals played by each policy alone.

The seating. Every game seats both policies, half the seats each (with an odd number of
players, one policy has the extra seat in one game of a pair and the other in the next). Games
come in pairs dealt from one seed: the first seats the new policy at one set of seats and the
old one at the others, the second swaps them, so that the cards, the seat order (who starts)
and the neighbours (who takes whose cards) favour neither. The sets of seats go round every way
of choosing half the seats (6 for 4 players: alternating and side by side), one per pair.
Whichever policy wins a game won it for all its seats: an even match wins half the games.

Half-and-half, rather than one seat against the rest, measures what the question asks (which
bots win when they meet) with the most information per game: each game is one trial of the
two, its winner's policy the outcome, and a 95% Wilson interval on the share of games won says
how sure the difference is.

The before and after: the same number of games dealt from the same seeds, every seat the old
policy, then every seat the new one, give the games' lengths in turns as each plays alone.

Deterministic for a seed in any number of processes: the run is one plan of numbered games
(simulation.RunPlan's, merged in game order by simulation.play_plan).
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from validator.engine.bot_policy import CLASSIC, SHREWD, BotPolicy
from validator.engine.cards import CardBase
from validator.engine.simulation import RunPlan, Stats, play_plan
from validator.engine.state import Options

Z95 = 1.959963984540054  # the normal distribution's 97.5th percentile


def wilson_interval(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): (low, high), (0, 1) when
    there was no trial."""
    if trials <= 0:
        return (0.0, 1.0)
    share = wins / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return (max(0.0, centre - half / denominator), min(1.0, centre + half / denominator))


def seatings(players: int, new: BotPolicy, old: BotPolicy) -> tuple[tuple[BotPolicy, ...], ...]:
    """The seatings the mixed games go round, in pairs: a way of giving the new policy half
    the seats (rounded down), then the same with the policies swapped; every way once (with
    an even number of players, a way's mirror is another way: those holding the first seat
    are enough)."""
    out: list[tuple[BotPolicy, ...]] = []
    for chosen in itertools.combinations(range(players), players // 2):
        if players % 2 == 0 and 0 not in chosen:
            continue
        out.append(tuple(new if seat in chosen else old for seat in range(players)))
        out.append(tuple(old if seat in chosen else new for seat in range(players)))
    return tuple(out)


@dataclass
class TournamentTally:
    """What the games of a tournament added up: the mixed games' statistics and, by policy
    name, the games it sat in, its seats, the games one of its seats won; the games each
    policy played alone (`alone`, by name)."""

    players: int
    mixed: Stats
    alone: dict[str, Stats]
    games: Counter[str] = field(default_factory=Counter)
    seats: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    # Games won by a seat of each policy at once (the rules let a helper win beside the
    # fighter): counted in both policies' wins.
    both_won: int = 0

    def merge(self, other: TournamentTally) -> None:
        """Add the games of `other`, played after these."""
        self.mixed.merge(other.mixed)
        for name, stats in other.alone.items():
            self.alone[name].merge(stats)
        self.games.update(other.games)
        self.seats.update(other.seats)
        self.wins.update(other.wins)
        self.both_won += other.both_won


@dataclass(frozen=True)
class TournamentPlan:
    """The tournament's games by number: 0 to games - 1 mixed, then `games` of the old policy
    alone, then `games` of the new one alone (each its own run of the plan's seed)."""

    mixed: RunPlan
    alone: tuple[RunPlan, ...]
    games: int

    @property
    def seed(self) -> int:
        return self.mixed.seed

    @property
    def total(self) -> int:
        return self.games * (1 + len(self.alone))

    def deal_seed(self, index: int) -> int:
        run, number = divmod(index, self.games)
        return (self.alone[run - 1] if run else self.mixed).deal_seed(number)

    def empty(self) -> TournamentTally:
        alone = {_alone_name(plan): plan.empty() for plan in self.alone}
        return TournamentTally(self.mixed.players, self.mixed.empty(), alone)

    def play(
        self, indexes: Iterable[int], on_game: Callable[[int], None] | None = None
    ) -> TournamentTally:
        tally = self.empty()
        for index in indexes:
            run, number = divmod(index, self.games)
            if run == 0:
                self._play_mixed(number, tally)
            else:
                plan = self.alone[run - 1]
                plan.play_one(number, tally.alone[_alone_name(plan)])
            if on_game is not None:
                on_game(index)
        return tally

    def _play_mixed(self, number: int, tally: TournamentTally) -> None:
        seating = self.mixed.seating(number)
        assert seating is not None
        game = self.mixed.play_one(number, tally.mixed)
        names = [policy.name for policy in seating]
        for name in set(names):
            tally.games[name] += 1
        tally.seats.update(names)
        if game is not None:
            won = {names[game.players.index(w)] for w in game.winners}
            tally.wins.update(won)
            tally.both_won += len(won) > 1


def _alone_name(plan: RunPlan) -> str:
    seating = plan.seating(0)
    assert seating is not None
    return seating[0].name


@dataclass
class TournamentResult:
    """A tournament's figures (`as_json` for the report)."""

    seed: int
    players: int
    games: int
    new: str
    old: str
    tally: TournamentTally
    seconds: float = 0.0

    def policy_figures(self, name: str) -> dict[str, Any]:
        """Games sat in, seats, games won, the share won and its 95% Wilson interval."""
        games, wins = self.tally.games[name], self.tally.wins[name]
        low, high = wilson_interval(wins, games)
        return {
            "games": games,
            "seats": self.tally.seats[name],
            "wins": wins,
            "win_rate": round(wins / games, 4) if games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
        }

    def as_json(self) -> dict[str, Any]:
        """JSON types only, keys in a fixed order."""
        mixed = self.tally.mixed
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "new": self.new,
            "old": self.old,
            "policies": {name: self.policy_figures(name) for name in (self.new, self.old)},
            "even_match_win_rate": 0.5,
            "games_both_won": self.tally.both_won,
            "mixed_games": {
                "mean_turns": _mean(mixed.turns),
                "unfinished_games": mixed.unfinished,
                "wins_by_seat": {str(k): mixed.wins_by_seat[k] for k in sorted(mixed.wins_by_seat)},
            },
            "alone": {
                name: {
                    "games": stats.games,
                    "mean_turns": _mean(stats.turns),
                    "median_turns": _median(stats.turns),
                    "unfinished_games": stats.unfinished,
                }
                for name, stats in self.tally.alone.items()
            },
            "invariant_violations": self._sum("invariant_violations"),
            "refused_bot_moves": self._sum("refused_bot_moves"),
            "problems": (mixed.violations + mixed.refusals)[:20],
            "games_per_second": (
                round(self.games * (1 + len(self.tally.alone)) / self.seconds, 1)
                if self.seconds
                else None
            ),
        }

    def _sum(self, what: str) -> int:
        runs = [self.tally.mixed, *self.tally.alone.values()]
        return sum(int(getattr(stats, what)) for stats in runs)


def _mean(values: Sequence[int]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def _median(values: Sequence[int]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def tournament(
    cards: Sequence[tuple[str, CardBase]],
    *,
    games: int = 1000,
    players: int = 4,
    seed: int = 1,
    new: BotPolicy = SHREWD,
    old: BotPolicy = CLASSIC,
    options: Options | None = None,
    check_every_move: bool = True,
    jobs: int = 1,
    on_game: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play `games` mixed games of `new` against `old` (the seating in the module's docstring),
    then `games` of `old` alone and `games` of `new` alone, from the same seed; the figures
    are the same for a seed whatever `jobs` is. `on_game` is called once per game played (3 *
    `games` in all), in the calling process."""
    if new.name == old.name:
        raise ValueError("a tournament needs two policies of different names")
    if not 2 <= players <= 6:
        raise ValueError("a game has 2 to 6 players")
    start = time.perf_counter()
    deck = tuple(cards)

    def run(seatings_: tuple[tuple[BotPolicy, ...], ...], deals: int) -> RunPlan:
        return RunPlan(deck, players, seed, options, check_every_move, seatings_, deals)

    plan = TournamentPlan(
        run(seatings(players, new, old), 2),
        (run(((old,) * players,), 1), run(((new,) * players,), 1)),
        games,
    )
    tally = play_plan(plan, plan.total, jobs, on_game)
    result = TournamentResult(seed, players, games, new.name, old.name, tally)
    result.seconds = time.perf_counter() - start
    return result
