"""Runs of whole games played by the bots (validator/engine/bots.py), seeded, in one process or
several, with the invariants checked after every move; `Stats` is what a run measured.

A game that breaks an invariant is counted and the run goes on; a bot's move the rules refused
is counted (`refused_bot_moves`) and skipped; a game that crashes (an exception of the engine)
stops the run with a `SimulationError` naming the game, its seed and the error, whichever
process played it.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from validator.engine import turn
from validator.engine.bot_facts import forget_reckoning
from validator.engine.bot_policy import BotPolicy, Seats
from validator.engine.bots import GameStuck, check, play_turn
from validator.engine.cards import CardBase
from validator.engine.invariants import InvariantViolation, check_invariants
from validator.engine.setup import MAX_TURNS, build_game
from validator.engine.state import Game, Options


@dataclass
class Stats:
    """What a run of games measured. `turns` holds each game's length in turns (every player's
    turn counts one); `levels_per_turn` counts turns by the levels their player gained in them
    (negative when a turn cost levels), the histogram behind a pack's pace."""

    games: int = 0
    players: int = 0
    turns: list[int] = field(default_factory=list)
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    fought: Counter[str] = field(default_factory=Counter)
    beaten: Counter[str] = field(default_factory=Counter)
    levels_per_turn: Counter[int] = field(default_factory=Counter)
    unfinished: int = 0
    invariant_violations: int = 0
    violations: list[str] = field(default_factory=list)
    # Moves the bots made that the rules refused (a bug of the bots, skipped): how many, and
    # the first REPORTED of them with their game.
    refused_bot_moves: int = 0
    refusals: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def merge(self, other: Stats) -> None:
        """Add the games of `other`, played after this run's (their lists follow these)."""
        self.games += other.games
        self.turns += other.turns
        self.wins_by_seat.update(other.wins_by_seat)
        self.fought.update(other.fought)
        self.beaten.update(other.beaten)
        self.levels_per_turn.update(other.levels_per_turn)
        self.unfinished += other.unfinished
        self.invariant_violations += other.invariant_violations
        self.violations += other.violations
        self.refused_bot_moves += other.refused_bot_moves
        self.refusals = (self.refusals + other.refusals)[:REPORTED]

    def count_refusals(self, refusals: Sequence[str], where: str) -> None:
        """Count a game's refused bot moves (`Game.bot_refusals`), keeping the first few."""
        self.refused_bot_moves += len(refusals)
        room = REPORTED - len(self.refusals)
        self.refusals += [f"{where}{r}" for r in refusals[: max(0, room)]]

    def as_json(self) -> dict[str, Any]:
        """The report: JSON types only, keys in a fixed order (histogram keys are strings of
        whole numbers, in numeric order)."""
        lengths = Counter(self.turns)
        turns_played = sum(self.levels_per_turn.values())
        levels_gained = sum(k * n for k, n in self.levels_per_turn.items())
        return {
            "games": self.games,
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "invariant_violations": self.invariant_violations,
            "mean_turns": round(sum(self.turns) / len(self.turns), 2) if self.turns else 0,
            "wins_by_seat": {str(k): self.wins_by_seat[k] for k in sorted(self.wins_by_seat)},
            "unfinished_games": self.unfinished,
            "monsters": {
                name: {"fought": self.fought[name], "beaten": self.beaten[name]}
                for name in sorted(self.fought)
            },
            "violations": self.violations[:REPORTED],
            "refused_bot_moves": self.refused_bot_moves,
            "refusals": self.refusals[:REPORTED],
            "players": self.players,
            "game_lengths": {str(k): lengths[k] for k in sorted(lengths)},
            "levels_per_turn": {
                str(k): self.levels_per_turn[k] for k in sorted(self.levels_per_turn)
            },
            "mean_levels_per_turn": round(levels_gained / turns_played, 3) if turns_played else 0,
        }


REPORTED = 20  # refused moves and broken invariants listed in a report (all are counted)


class SimulationError(Exception):
    """A game of a run crashed: which one (its number in the run and its own seed) and why.
    `detail` holds the traceback where the game was played (another process, maybe)."""

    def __init__(self, message: str, game: int | None = None, seed: int | None = None) -> None:
        super().__init__(message)
        self.game = game
        self.seed = seed
        self.detail = ""

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from a worker process whole
        return (SimulationError, (str(self), self.game, self.seed), {"detail": self.detail})


def game_seed(seed: int, index: int) -> int:
    """The seed of a run's game number `index` (from 0): the same in any number of processes."""
    return seed * 1_000_003 + index


def play_game(
    game: Game,
    stats: Stats,
    max_turns: int = MAX_TURNS,
    *,
    where: str = "",
    policies: Sequence[BotPolicy] | None = None,
) -> None:
    """Play one game to a winner (or the turn limit), checking invariants after every move.
    The bots' refused moves are counted in `stats`, each listed after `where`; a game the
    bots cannot go on with (GameStuck) ends there, unfinished. `policies`: each seat's bot
    policy, in seat order (the classic bots by default)."""
    levels_per_turn = stats.levels_per_turn
    seats = Seats(game, policies)
    try:
        turn.begin_turn(game)
        check(game)
        while game.winner is None and game.turn_number <= max_turns:
            player = game.active_player
            before = player.level
            play_turn(game, stats, seats)
            levels_per_turn[player.level - before] += 1
    except GameStuck:
        pass  # its refused move is listed with the others
    finally:
        forget_reckoning(game)
        stats.count_refusals(game.bot_refusals, where)
    stats.games += 1
    stats.turns.append(game.turn_number)
    if game.winner is None:
        stats.unfinished += 1
    else:
        stats.wins_by_seat[game.players.index(game.winner) + 1] += 1


def simulate(
    cards: Sequence[tuple[str, CardBase]],
    *,
    players: int = 4,
    games: int = 100,
    seed: int = 1,
    options: Options | None = None,
    on_game: Callable[[int], None] | None = None,
    check_every_move: bool = True,
    jobs: int = 1,
    policies: Sequence[BotPolicy] | None = None,
) -> Stats:
    """Play seeded games; the same seed gives the same games and the same statistics.

    With check_every_move (the default) the invariants are checked after every move; without,
    only at the end of each game (the engine's own speed, as a pack's user would run it).
    With `jobs` above 1 the games are played in that many processes: each game's seed comes
    from its number alone and the results are merged in game order, so the statistics are the
    same whatever `jobs` is (only the seconds differ). `on_game` is called once per game
    played, in the calling process. `policies`: each seat's bot policy, in seat order, the
    same in every game (the classic bots by default: bot_policy.CLASSIC).
    """
    start = time.perf_counter()
    seating = None if policies is None else tuple(policies)
    if seating is not None and len(seating) != players:
        raise ValueError(f"{len(seating)} policies for {players} players")
    seatings = None if seating is None else (seating,)
    plan = RunPlan(tuple(cards), players, seed, options, check_every_move, seatings)
    stats = play_plan(plan, games, jobs, on_game)
    stats.seconds = time.perf_counter() - start
    return stats


class Tally(Protocol):
    """What a run of games adds up: a later batch's merged after an earlier one's."""

    def merge(self, other: Self) -> None: ...


class GamePlan[T: Tally](Protocol):
    """A run's games, each played from its number alone (so that any process plays it the
    same): `play` plays some of them into a new tally, `empty` is the tally of none."""

    @property
    def seed(self) -> int: ...

    def play(self, indexes: Iterable[int], on_game: Callable[[int], None] | None = None) -> T: ...

    def empty(self) -> T: ...

    def deal_seed(self, index: int) -> int:
        """The seed game `index` is dealt from."""
        ...


def play_plan[T: Tally](
    plan: GamePlan[T], games: int, jobs: int = 1, on_game: Callable[[int], None] | None = None
) -> T:
    """Play the plan's games 0 to `games` - 1, in this process or in `jobs` processes: the
    tallies are merged in game order, so the result is the same whatever `jobs` is. The plan
    must be picklable (it crosses to each process once)."""
    if jobs <= 1 or games <= 1:
        return plan.play(range(games), on_game)
    return _play_in_processes(plan, games, jobs, on_game)


@dataclass(frozen=True)
class RunPlan:
    """What every game of a run shares; a game is then its number alone. `seatings`: the
    seats' policies, game `index` taking seating `index % len(seatings)` (None: the classic
    bots); `deals`: how many games in a row are dealt from one seed (the same cards, played
    again by other policies)."""

    cards: tuple[tuple[str, CardBase], ...]
    players: int
    seed: int
    options: Options | None
    check_every_move: bool
    seatings: tuple[tuple[BotPolicy, ...], ...] | None = None
    deals: int = 1

    def empty(self) -> Stats:
        return Stats(players=self.players)

    def seating(self, index: int) -> tuple[BotPolicy, ...] | None:
        """The seats' policies in game `index` (None: the classic bots)."""
        return None if not self.seatings else self.seatings[index % len(self.seatings)]

    def deal_seed(self, index: int) -> int:
        """The seed game `index` is dealt from."""
        return game_seed(self.seed, index // self.deals)

    def play(self, indexes: Iterable[int], on_game: Callable[[int], None] | None = None) -> Stats:
        stats = Stats(players=self.players)
        for index in indexes:
            self.play_one(index, stats)
            if on_game is not None:
                on_game(index)
        return stats

    def play_one(self, index: int, stats: Stats) -> Game | None:
        """Play game `index` into `stats`, and return it as it ended (None: it broke down
        before its first turn, on an invariant)."""
        seed = self.deal_seed(index)
        game = None
        try:
            game = build_game(self.cards, players=self.players, seed=seed, options=self.options)
            game.check_every_move = self.check_every_move
            where = f"game {index} (seed {seed}): "
            play_game(game, stats, where=where, policies=self.seating(index))
        except InvariantViolation as exc:
            stats.games += 1
            stats.invariant_violations += 1
            stats.violations.append(f"game {index}: {exc}")
        except Exception as exc:
            raise self.failure(index, exc) from exc
        if game is not None and not self.check_every_move:
            problems = check_invariants(game)
            if problems:
                stats.invariant_violations += 1
                stats.violations.append(f"game {index}: {'; '.join(problems)}")
        return game

    def failure(self, index: int, exc: Exception) -> SimulationError:
        """The error of a run whose game `index` raised `exc`."""
        seed = self.deal_seed(index)
        error = SimulationError(
            f"game {index} of the run with seed {self.seed} (the game's seed {seed}) failed: "
            f"{type(exc).__name__}: {exc}",
            index,
            seed,
        )
        error.detail = "".join(traceback.format_exception(exc))
        return error


# The plan of the run a worker process serves, set once by the pool's initializer so that the
# cards cross to each process once, not with every batch of games.
_WORKER_PLAN: GamePlan[Any] | None = None


def _worker_start(plan: GamePlan[Any]) -> None:
    global _WORKER_PLAN
    _WORKER_PLAN = plan


def _worker_play(first: int, stop: int) -> Any:
    assert _WORKER_PLAN is not None, "a worker plays only after its pool started it"
    return _WORKER_PLAN.play(range(first, stop))


def _play_in_processes[T: Tally](
    plan: GamePlan[T], games: int, jobs: int, on_game: Callable[[int], None] | None
) -> T:
    # Batches small enough that progress moves and the processes finish together, large
    # enough that handing them out costs little beside a game (a few milliseconds each).
    size = max(1, min(25, games // (jobs * 4)))
    batches = [(first, min(games, first + size)) for first in range(0, games, size)]
    # forkserver, not fork: the caller may be a web process with threads and open sockets.
    # The server imports the engine once; each worker is forked from it ready to play.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    merged = plan.empty()
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(batches)),
        mp_context=context,
        initializer=_worker_start,
        initargs=(plan,),
    ) as pool:
        futures = [pool.submit(_worker_play, first, stop) for first, stop in batches]
        try:
            for (first, stop), future in zip(batches, futures, strict=True):
                # In game order, whatever order they finished.
                merged.merge(_batch_result(future, first, stop, plan))
                if on_game is not None:
                    for index in range(first, stop):
                        on_game(index)
        except BaseException:
            # The games not begun are not played; the pool's processes end before the error
            # (or an interruption) goes on, so nothing is left running behind it.
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return merged


def _batch_result[T: Tally](future: Future[T], first: int, stop: int, plan: GamePlan[T]) -> T:
    """A batch's statistics, or a SimulationError naming its game that failed (any game of
    the batch, when its process died without saying which)."""
    try:
        return future.result()
    except SimulationError as exc:
        exc.__cause__ = None  # its detail holds the worker's traceback
        raise
    except BrokenProcessPool as exc:
        raise SimulationError(
            f"the process playing games {first} to {stop - 1} of the run with seed {plan.seed} "
            f"(the games' seeds {plan.deal_seed(first)} to {plan.deal_seed(stop - 1)}) "
            f"ended abruptly: {exc}"
        ) from None
