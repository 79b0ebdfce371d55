"""Whole games: the cards under test are kicked open first (Door cards) or dealt (Treasure
cards), a few per seeded 4-player game played by the bots, and each report says whether its
card was met in play. A crash, a broken invariant or a bot's move the rules refuse fails the
card; the batch is replayed card by card to find the one that brings it on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from validator.checks.reports import CardReport
from validator.engine import (
    CardBase,
    InvariantViolation,
    SeededDie,
    Stats,
    build_game,
    play_game,
)

GAME_TURNS = 12
BATCH = 8
# Rolls of the games' die tried before any game: a fair die misses a face in 600 rolls about
# once in ten thousand seeds, and the seed is fixed.
DIE_ROLLS = 600
# Reshuffles of a Treasure discard pile tried before any game: a fair shuffle of n >= 5 cards
# keeps their order with chance 1/n!, so four seeds in a row keep it about once in 2e8.
RESHUFFLE_SEEDS = 4


@dataclass
class Meeting:
    met: bool = False
    seed: int = 0
    crash: str | None = None


def _play_batch(
    deck: Sequence[tuple[str, CardBase]],
    doors: list[CardBase],
    treasures: list[CardBase],
    seed: int,
) -> tuple[set[str], str | None]:
    """One seeded 4-player game with these cards met early; the names seen, and any crash."""
    game = build_game(deck, players=4, seed=seed, top_doors=doors, dealt=treasures)
    forced = list(game.door_deck[: len(doors)])
    forced += [c for p in game.players for c in p.hand if c.set_code == "forced"]
    try:
        play_game(game, Stats(), max_turns=GAME_TURNS)
    except InvariantViolation as exc:
        return set(), f"an invariant broke: {exc}"
    except Exception as exc:  # a crash is a finding about the cards in play, not a stop
        return set(), f"the engine crashed ({type(exc).__name__}: {exc})"
    if game.bot_refusals:  # the bots misread a card: once a crash, still a finding
        return set(), f"the rules refused a bot's move ({game.bot_refusals[0]})"
    # A forced Door card is met once drawn; a dealt Treasure once it has left the hand.
    undrawn = {c.uid for c in game.door_deck}
    in_hands = {c.uid for p in game.players for c in p.hand}
    met = {
        c.name
        for c in forced
        if (c.card.deck == "door" and c.uid not in undrawn)
        or (c.card.deck == "treasure" and c.uid not in in_hands)
    }
    return met, None


def die_fault(seed: int) -> str | None:
    """What is wrong with the die the games roll, if anything: the rules' die has six faces,
    1 to 6, so many rolls show each of them and nothing else."""
    die = SeededDie(random.Random(seed))
    faces = sorted({die.roll() for _ in range(DIE_ROLLS)})
    if faces != [1, 2, 3, 4, 5, 6]:
        return f"the games' die is not six-sided: {DIE_ROLLS} rolls showed {faces}"
    return None


def reshuffle_fault(deck: Sequence[tuple[str, CardBase]], seed: int) -> str | None:
    """What is wrong with a deck made again from its discards, if anything: the rules shuffle
    the discards into a new deck, so every card comes back (and leaves the discards), and the
    order they were discarded in does not stay (with several seeds and at least five cards)."""
    kept_order = 0
    for offset in range(RESHUFFLE_SEEDS):
        game = build_game(deck, players=4, seed=seed * 31 + offset)
        discards = list(game.treasure_deck)
        if len(discards) < 5:
            return None  # too few cards to tell a shuffle from chance
        game.treasure_discard[:] = discards
        game.treasure_deck.clear()
        drawn = [game.draw("treasure") for _ in discards]
        if game.treasure_discard or sorted(c.uid for c in drawn) != sorted(c.uid for c in discards):
            return "a Treasure deck made again from its discards does not hold the same cards"
        kept_order += [c.uid for c in drawn] == [c.uid for c in discards]
    if kept_order == RESHUFFLE_SEEDS:
        return f"the discards made into a new deck are not shuffled ({RESHUFFLE_SEEDS} seeds)"
    return None


def meet_in_games(
    targets: Sequence[tuple[str, CardBase]], deck: Sequence[tuple[str, CardBase]], seed: int = 1
) -> dict[tuple[str, str], Meeting]:
    """Play seeded whole games with the target cards drawn or dealt first, a few per game, and
    say which were met in play and which a crash or a broken invariant followed."""
    results = {(code, card.name): Meeting() for code, card in targets}
    fault = die_fault(seed) or reshuffle_fault(deck, seed)
    if fault is not None:
        # Games with a wrong die or deck say nothing about the cards: each fails with it.
        return {key: Meeting(True, seed, fault) for key in results}
    doors = [(code, c) for code, c in targets if c.deck == "door"]
    treasures = [(code, c) for code, c in targets if c.deck == "treasure"]
    batches = max(-(-len(doors) // BATCH), -(-len(treasures) // BATCH))
    for index in range(batches):
        batch_doors = doors[index * BATCH : (index + 1) * BATCH]
        batch_treasures = treasures[index * BATCH : (index + 1) * BATCH]
        game_seed = seed * 7919 + index
        met, crash = _play_batch(
            deck, [c for _, c in batch_doors], [c for _, c in batch_treasures], game_seed
        )
        members = batch_doors + batch_treasures
        if crash is not None:
            # Find the card that brings the crash on by itself; else blame the whole batch.
            culprits = [
                (code, c)
                for code, c in members
                if _play_batch(
                    deck,
                    [c] if c.deck == "door" else [],
                    [c] if c.deck == "treasure" else [],
                    game_seed,
                )[1]
            ] or members
            for code, card in culprits:
                results[(code, card.name)] = Meeting(True, game_seed, crash)
            continue
        for code, card in members:
            results[(code, card.name)] = Meeting(card.name in met, game_seed)
    return results


def add_real_play(
    reports: Sequence[CardReport],
    cards: Sequence[tuple[str, CardBase]],
    deck: Sequence[tuple[str, CardBase]],
) -> None:
    """Add to each report what seeded whole games showed of its card."""
    by_key = {(r.set_code, r.name): r for r in reports}
    targets = [(code, card) for code, card in cards if (code, card.name) in by_key]
    if not targets or not deck:
        return
    for key, meeting in meet_in_games(targets, deck).items():
        report = by_key[key]
        if meeting.crash is not None:
            report.fail(f"in a seeded whole game (seed {meeting.seed}): {meeting.crash}")
            report.verified = False
        elif meeting.met:
            report.messages.append(f"info: in play in a seeded whole game (seed {meeting.seed})")
        else:
            report.messages.append(
                f"info: dealt in a seeded whole game (seed {meeting.seed}), but the bots kept it "
                "in hand"
            )
