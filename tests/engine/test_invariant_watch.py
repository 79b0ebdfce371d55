"""The invariants checked incrementally (invariants.InvariantWatch) catch what a full check catches.

The watch looks again only at the piles that changed since its last check; each test primes
it on a sound table, plants one corruption, and expects the problems check_invariants (which
looks at everything, from scratch) names for it."""

import random
from typing import Any

import pytest

from validator.engine.combat_specials import start_combat
from validator.engine.invariants import InvariantWatch, check_invariants
from validator.engine.scenario import CardLibrary
from validator.engine.setup import build_game
from validator.engine.simulation import Stats, play_game
from validator.engine.state import CardInstance, Game


def primed(library: CardLibrary, seed: int = 1, players: int = 4) -> tuple[Game, InvariantWatch]:
    game = build_game(list(library.cards()), players=players, seed=seed)
    watch = InvariantWatch()
    assert watch.check(game) == []
    return game, watch


def caught(game: Game, watch: InvariantWatch, words: str) -> None:
    problems = watch.check(game)
    assert problems == check_invariants(game)
    assert any(words in problem for problem in problems), problems


def test_a_legal_move_passes_and_becomes_the_new_base(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    player = game.players[0]
    player.hand.append(game.draw("door"))  # drawn from the top, into a hand
    assert watch.check(game) == []
    game.discard(player.hand.pop(0))
    assert watch.check(game) == []
    assert check_invariants(game) == []


def test_a_card_copied_into_a_second_place_is_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    game.players[1].hand.append(game.door_deck[5])
    caught(game, watch, "is both in")


def test_a_card_overwriting_another_is_caught_though_no_pile_changes_size(
    core_library: CardLibrary,
) -> None:
    game, watch = primed(core_library)
    game.players[2].hand[0] = game.treasure_deck[-1]  # one card twice, one gone
    caught(game, watch, "is both in")


def test_a_card_lost_from_the_top_of_a_deck_is_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    game.door_deck.pop(0)
    assert game.total_cards == 168  # the core set's Door and Treasure cards
    caught(game, watch, "167 cards on the table, 168 in the game")


def test_a_card_drawn_twice_is_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    card = game.door_deck.pop(0)
    game.players[0].hand.append(card)
    game.players[1].hand.append(card)
    caught(game, watch, "is both in")


def test_a_card_doubled_inside_one_pile_is_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    game.treasure_deck.append(game.treasure_deck[3])
    caught(game, watch, "is both in")


def test_a_cheat_card_left_in_the_deck_too_is_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    player = game.players[0]
    player.cheats[player.hand[0].uid] = game.door_deck[0]
    caught(game, watch, "is both in")


def test_a_card_in_the_combat_and_a_hand_is_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library)
    fighter = game.players[0]
    monster = next(c for c in game.door_deck if c.kind == "monster")
    game.door_deck.remove(monster)
    start_combat(game, fighter, monster)
    assert watch.check(game) == []
    game.players[3].hand.append(monster)
    caught(game, watch, "is both in")


def test_broken_equip_limits_on_one_player_are_caught(core_library: CardLibrary) -> None:
    game, watch = primed(core_library, seed=2)
    player = game.players[1]
    for card in [c for c in game.treasure_deck if c.slot == "headgear"][:2]:
        game.treasure_deck.remove(card)  # moved, not copied: only the limit breaks
        player.equipped.append(card)
    caught(game, watch, "has 2 headgear equipped")


def test_a_level_out_of_range_or_a_win_without_a_kill_is_caught(
    core_library: CardLibrary,
) -> None:
    game, watch = primed(core_library)
    game.players[0].level = 10
    caught(game, watch, "reached Level 10 without winning")
    game.players[0].level = 1
    assert watch.check(game) == []  # back to a sound table, which becomes the base
    game.players[3].level = 0
    caught(game, watch, "is at Level 0")
    game.players[3].level = 1
    assert watch.check(game) == []
    game.winners.append(game.players[2])
    caught(game, watch, "won without killing a monster")


def test_after_a_problem_the_next_check_looks_at_everything_again(
    core_library: CardLibrary,
) -> None:
    game, watch = primed(core_library)
    game.players[0].hand.append(game.door_deck[0])
    caught(game, watch, "is both in")
    game.door_deck.append(game.door_deck[1])  # a second corruption, in an unchanged pile
    caught(game, watch, "is both in")


PILES = ("door_deck", "treasure_deck", "door_discard", "treasure_discard")
HELD = ("hand", "character", "equipped", "carried", "followers", "curses", "next_combat")


def _piles(game: Game) -> list[list[CardInstance]]:
    return [getattr(game, name) for name in PILES] + [
        getattr(p, name) for p in game.players for name in HELD
    ]


@pytest.mark.parametrize("seed", range(6))
def test_random_moves_and_corruptions_get_the_full_checks_answer(
    core_library: CardLibrary, seed: int
) -> None:
    """Cards moved at random between random piles (from the top, the end or the middle, to
    the top, the end or the middle), now and then copied or lost instead: after each change
    the watch says exactly what the full check says."""
    rng = random.Random(seed)
    game, watch = primed(core_library, seed=seed)
    corruptions = 0
    for _ in range(400):
        piles = [pile for pile in _piles(game) if pile]
        source = rng.choice(piles)
        target = rng.choice(_piles(game))
        where = rng.choice((0, -1, len(source) // 2))
        card: CardInstance | None = source[where]
        sound = check_invariants(game) == []
        roll = rng.random()
        if sound and roll < 0.04:
            corruptions += 1  # copied: the card stays where it was too
        elif sound and roll < 0.08:
            del source[where]
            corruptions += 1
            card = None  # lost
        else:
            del source[where]  # moved (on a broken table, it stays broken)
        if card is not None:
            spot: Any = rng.choice((0, len(target), len(target) // 2))
            target.insert(spot, card)
        assert watch.check(game) == check_invariants(game)
        if rng.random() < 0.05:  # repair: a fresh deal the watch has never seen
            fresh = build_game(list(core_library.cards()), players=4, seed=rng.randrange(99))
            game.__dict__.update(
                {k: v for k, v in fresh.__dict__.items() if k != "invariant_watch"}
            )
            assert watch.check(game) == []
    assert corruptions > 5


def test_a_whole_game_checked_by_the_watch_breaks_nothing(core_library: CardLibrary) -> None:
    game = build_game(list(core_library.cards()), players=4, seed=3)
    play_game(game, Stats())  # check() after every move, through the watch
    assert game.invariant_watch is not None and game.invariant_watch.copy
    assert check_invariants(game) == []


def test_losing_the_card_that_allowed_a_second_big_item_is_caught(
    core_library: CardLibrary,
) -> None:
    """A Dwarf carries any number of Big items (core rules); the limit breaks when the Dwarf
    card goes, though only the character's pile changed."""
    game, watch = primed(core_library, seed=4)
    player = game.players[0]
    dwarf = next(c for c in game.door_deck if c.name == "Dwarf")
    game.door_deck.remove(dwarf)
    player.character.append(dwarf)
    for card in [c for c in game.treasure_deck if c.big and c.slot != "ship"][:2]:
        game.treasure_deck.remove(card)
        player.carried.append(card)
    assert watch.check(game) == []
    player.character.remove(dwarf)
    game.door_discard.append(dwarf)
    caught(game, watch, "carries 2 Big items")
