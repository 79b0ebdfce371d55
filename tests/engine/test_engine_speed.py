"""The engine's shortcuts (issue 20) give the answers of the slow ways they replace.

Each shortcut is held to what it stands for: the decks' shuffle to random.Random.shuffle, a
card instance's effects by type to effects_of, a fight resolved with the strengths the bots
just reckoned to one that reckons them again, and every move the bots skip as surely refused
to the rules refusing it."""

import copy
import random
from typing import Any

import pytest

from validator.engine import turn
from validator.engine.bots import FACTS, play_turn, surely_refused
from validator.engine.cards import EffectBase
from validator.engine.combat import resolve
from validator.engine.scenario import CardLibrary, library_from_set_files
from validator.engine.setup import build_game, shuffle
from validator.engine.simulation import Stats
from validator.engine.state import Game, RuleViolation, effects_of, gold_value
from validator.engine.strength import monsters_strength, side_strength

FIVE_SETS = [
    "munchkin-core",
    "munchkin-super",
    "munchkin-booty",
    "munchkin-impossible",
    "munchkin-spongebob",
]


def table(game: Game) -> list[Any]:
    """Everything a move can change that a player sees: where each card is, the Levels, the
    die's next numbers, whose turn it is and who won."""
    seen: list[Any] = [
        [c.uid for c in pile]
        for pile in (game.door_deck, game.treasure_deck, game.door_discard, game.treasure_discard)
    ]
    for p in game.players:
        seen.append((p.level, p.sex, p.dead, sorted((place, c.uid) for place, c in places(p))))
    seen += [game.rng.getstate(), game.active, game.phase, [w.name for w in game.winners]]
    return seen


def places(player: Any) -> list[tuple[str, Any]]:
    return [("hand", c) for c in player.hand] + [("table", c) for c in player.in_play()]


@pytest.mark.parametrize("length", [0, 1, 2, 7, 64, 95])
def test_the_decks_are_shuffled_as_random_shuffle_shuffles_them(length: int) -> None:
    for seed in range(30):
        expected, shuffled = list(range(length)), list(range(length))
        reference, ours = random.Random(seed), random.Random(seed)
        reference.shuffle(expected)
        shuffle(ours, shuffled)  # type: ignore[arg-type]
        assert shuffled == expected
        assert ours.getstate() == reference.getstate()  # the same draws, no more


def test_a_card_instance_holds_the_effects_effects_of_finds() -> None:
    library = library_from_set_files(FIVE_SETS)
    game = build_game(list(library.cards()), players=3, seed=1)
    instances = [card for _, card in game.all_cards()]
    assert len({i.card.name for i in instances}) >= 300  # the five sets, each card at least once
    for instance in instances:
        kinds = {klass for e in instance.card.effects for klass in type(e).__mro__}
        for kind in kinds | {EffectBase}:
            if isinstance(kind, type) and issubclass(kind, EffectBase):
                # effects_of and the instance share one table: both against a plain filter
                plain = tuple(e for e in instance.card.effects if isinstance(e, kind))
                assert effects_of(instance.card, kind) == plain
                assert instance.effects_by_type.get(kind, ()) == plain
        assert instance.gold == gold_value(instance.card)


def test_a_fight_resolved_with_the_strengths_just_reckoned_ends_as_one_reckoned_again(
    core_library: CardLibrary,
) -> None:
    fights = outcomes = 0
    for seed in range(60):
        game = build_game(list(core_library.cards()), players=4, seed=seed)
        turn.begin_turn(game)
        turn.kick_door(game, game.active_player)
        combat = game.combat
        if combat is None:
            continue
        twin = copy.deepcopy(game)
        reckoned = (side_strength(game, combat), monsters_strength(game, combat))
        outcome = resolve(game, reckoned)
        assert outcome == resolve(twin)
        assert table(game) == table(twin)
        fights += 1
        outcomes += outcome != "won"
    assert fights >= 15 and outcomes >= 3  # fights won and fights lost alike


def test_every_play_arrange_skips_is_one_the_rules_refuse(core_library: CardLibrary) -> None:
    skipped = 0
    for seed in range(8):
        game = build_game(list(core_library.cards()), players=4, seed=seed)
        game.check_every_move = False
        stats = Stats(players=4)
        turn.begin_turn(game)
        while game.winner is None and game.turn_number <= 200:
            for seat, player in enumerate(game.players):
                for card in list(player.hand):
                    for how in FACTS[card].ways:
                        if not surely_refused(game, player, card, how):
                            continue
                        trial = copy.deepcopy(game)
                        before = table(trial)
                        with pytest.raises(RuleViolation):
                            turn.play(trial, trial.players[seat], card)
                        assert table(trial) == before
                        skipped += 1
            play_turn(game, stats)
    assert skipped >= 20
