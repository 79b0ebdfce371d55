"""Asking the engine whether a move is legal (legality.refusal): the move's own checks, run up to
where it would change the game. The answer must be the move's (the same words when refused), and
asking must change nothing, for every kind of move a table offers."""

import random
from collections import Counter
from typing import Any

import pytest

from validator.engine import turn
from validator.engine.legality import TrialChangedTheGame, allowed, checks_passed, refusal
from validator.engine.scenario import fingerprint, library_from_set_files
from validator.engine.setup import deal
from validator.engine.state import Game, RuleViolation
from validator.engine.table import Table, apply_move, legal_moves, move_refusal, new_table
from validator.engine.table_moves import candidate_moves

FIVE_SETS = [
    "munchkin-core",
    "munchkin-super",
    "munchkin-booty",
    "munchkin-impossible",
    "munchkin-spongebob",
]


def state(table: Table) -> tuple[Any, ...]:
    game = table.game
    return (
        fingerprint(game),
        game.rng.getstate(),
        list(game.log),
        list(table.log),
        table.asked,
        sorted(table.asked_before),
        sorted(table.interfered),
        [(p.draw_from_discard, list(p.pending_discards), p.double_sale_used) for p in game.players],
        game.trying,
    )


def verdict(table: Table, seat: int, move: dict[str, Any]) -> str | None:
    try:
        apply_move(table, seat, move)  # on a copy
    except RuleViolation as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_asking_answers_as_the_move_does_and_changes_nothing(seed: int) -> None:
    cards = tuple(library_from_set_files(FIVE_SETS).cards())
    table = new_table(cards, seats=["person"] * 4, seed=seed)
    rng = random.Random(seed)
    answers: Counter[tuple[str, bool]] = Counter()
    for _ in range(150):
        if table.over:
            break
        for seat in range(4):
            moves = candidate_moves(
                table.game, seat, asked=table.asked, asked_before=table.asked_before
            )
            for move in moves:
                before = state(table)
                answer = move_refusal(table, seat, move)
                assert state(table) == before, move
                assert answer == verdict(table, seat, move), move
                answers[(next(iter(move)), answer is None)] += 1
        options = [(s, m) for s in range(4) for m in legal_moves(table, s)]
        # The turn moves on more often than not, so that many fights and turns are met.
        onward = [o for o in options if "play" not in o[1] and "give" not in o[1]]
        seat, move = rng.choice(onward if onward and rng.random() < 0.6 else options)
        table = apply_move(table, seat, move)
    allowed_verbs = {verb for verb, yes in answers if yes}
    assert {
        "ask_for_help",
        "charity",
        "discard_card",
        "end_turn",
        "equip",
        "give",
        "help",
        "kick_door",
        "look_for_trouble",
        "loot_room",
        "play",
        "refuse_help",
        "resolve",
        "unequip",
    } <= allowed_verbs
    assert sum(n for (_, yes), n in answers.items() if not yes) > 50  # refusals too


def test_asking_leaves_the_die_and_the_decks_as_they_were(core_library: Any) -> None:
    game = deal(list(core_library.cards()), players=3, seed=4)
    turn.begin_turn(game)
    player = game.active_player
    before = (fingerprint(game), game.rng.getstate())
    assert allowed(game, turn.kick_door, game, player)
    assert refusal(game, turn.loot_room, game, player) == (
        "looting the room: not in this phase of the turn (start)"
    )
    assert (fingerprint(game), game.rng.getstate()) == before
    assert game.trying is False
    turn.kick_door(game, player)  # and the move itself still changes the game
    assert fingerprint(game) != before[0]


def test_a_move_that_never_says_its_checks_passed_is_caught_in_a_trial() -> None:
    game = Game(players=[])

    def careless(game: Game) -> None:
        game.turn_number += 1

    with pytest.raises(TrialChangedTheGame, match="careless"):
        refusal(game, careless, game)
    assert game.trying is False


def test_a_trial_inside_a_trial_answers_and_leaves_the_outer_one_trying() -> None:
    game = Game(players=[])

    def inner(game: Game) -> None:
        checks_passed(game)

    def outer(game: Game) -> None:
        assert refusal(game, inner, game) is None
        assert game.trying
        raise RuleViolation("refused after the inner answer")

    assert refusal(game, outer, game) == "refused after the inner answer"
    assert game.trying is False


def test_a_wishing_ring_with_no_curse_to_cancel_is_refused_in_a_fight_before_it_is_played(
    core_library: Any,
) -> None:
    # Found by the test above: the Ring left the hand for the fight's one-shots, then was
    # refused ("no curse in play to cancel"), a refused move that had changed the game.
    game = deal(list(core_library.cards()), players=3, seed=1)
    turn.begin_turn(game)
    player = game.active_player
    ring = next(c for c in game.treasure_deck if c.name == "Wishing Ring")
    game.treasure_deck.remove(ring)
    player.hand.append(ring)
    monster = next(c for c in game.door_deck if c.name == "Net Troll")
    game.door_deck.remove(monster)
    game.door_deck.insert(0, monster)
    turn.kick_door(game, player)
    assert game.combat is not None
    before = fingerprint(game)
    with pytest.raises(RuleViolation, match="P1 has no curse in play to cancel"):
        turn.play(game, player, ring)
    assert fingerprint(game) == before and ring in player.hand
