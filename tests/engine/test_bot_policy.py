"""The bots' policies (issue 37): the shrewd bots' decisions on small hand-built games, each
beside what the classic bots do there (the old behaviour, kept for the simulated games).

The playtest's complaints, each a test: a bot helped the leader; a bot cursed a player with
"Lose the Armor" when they wore none; a bot played a card against a fight and then helped in
it. The expectations come from the rules (who leads, what a curse takes, the winning Level)
and arithmetic (Gold to Levels), not from the bots' output."""

from collections import Counter
from typing import Any

import pytest

from validator.engine import turn
from validator.engine.bot_policy import (
    CLASSIC,
    SHREWD,
    BotPolicy,
    Play,
    Seats,
    cheapest_levels,
    curse_harm,
)
from validator.engine.bots import play_turn
from validator.engine.scenario import CardLibrary
from validator.engine.setup import deal
from validator.engine.simulation import simulate
from validator.engine.state import CardInstance, Combat, Game, Player


def bare(library: CardLibrary, players: int = 3, seed: int = 1) -> Game:
    """A dealt game whose hands are emptied (the cards discarded, so every card stays
    somewhere): each test gives the players what it needs."""
    game = deal(list(library.cards()), players=players, seed=seed)
    for player in game.players:
        for card in list(player.hand):
            player.hand.remove(card)
            game.discard(card)
    return game


def take(game: Game, name: str) -> CardInstance:
    """A card of that name out of the decks or the discards."""
    for pile in (game.door_deck, game.treasure_deck, game.door_discard, game.treasure_discard):
        for card in pile:
            if card.name == name:
                pile.remove(card)
                return card
    raise AssertionError(f"no {name} left in the decks")


def give(game: Game, player: Player, *names: str, where: str = "hand") -> None:
    getattr(player, where).extend(take(game, name) for name in names)


def levels(game: Game, *values: int) -> None:
    for player, level in zip(game.players, values, strict=True):
        player.level = level


def fight(game: Game, fighter: Player, monster: str) -> Combat:
    """`fighter`'s turn, the Door kicked open on `monster`."""
    game.active = game.players.index(fighter)
    game.door_deck.insert(0, take(game, monster))
    turn.kick_door(game, fighter)
    assert game.combat is not None
    return game.combat


# -- help -----------------------------------------------------------------------------------------


def test_a_shrewd_bot_refuses_to_help_the_leader_where_a_classic_one_helps(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 5, 3, 2)  # P1 leads
    fight(game, p1, "Lame Goblin")  # 1 Level, 1 Treasure
    assert not SHREWD.wants_to_help(game, p2, p1, 3)  # not even for 3 Treasures
    assert CLASSIC.wants_to_help(game, p2, p1, 1)


def test_a_shrewd_bot_helps_a_trailing_fighter_for_a_treasure(core_library: CardLibrary) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 2, 5, 4)
    fight(game, p1, "Lame Goblin")  # P1 ends at Level 3, two below the helper
    assert SHREWD.wants_to_help(game, p2, p1, 1)
    assert not SHREWD.wants_to_help(game, p2, p1, 0)  # nothing for the helper


def test_the_treasures_offered_must_pay_for_the_levels_the_fighter_gains(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 4, 4, 6)  # P3 leads; P1 would end at Level 5, one above the helper
    fight(game, p1, "Lame Goblin")
    # 1 Treasure for a fighter ending a Level below, 2 level with, 3 a Level above.
    assert not SHREWD.wants_to_help(game, p2, p1, 2)
    assert SHREWD.wants_to_help(game, p2, p1, 3)


def test_no_bot_helps_a_fighter_to_the_winning_level(core_library: CardLibrary) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 9, 7, 8)
    fight(game, p1, "Lame Goblin")  # Level 10 if won
    assert not SHREWD.wants_to_help(game, p2, p1, 5)
    assert not CLASSIC.wants_to_help(game, p2, p1, 5)
    assert CLASSIC.help_requests(game, game.combat) == []  # type: ignore[arg-type]
    assert SHREWD.help_requests(game, game.combat) == []  # type: ignore[arg-type]


def test_a_shrewd_bot_never_puts_a_fighter_one_level_short_of_the_win_above_itself(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 8, 7, 8)  # P1 does not lead (P3 is level), and would reach Level 9
    fight(game, p1, "Lame Goblin")
    assert not SHREWD.wants_to_help(game, p2, p1, 5)
    assert CLASSIC.wants_to_help(game, p2, p1, 1)


def test_a_bot_that_played_against_a_fight_refuses_to_help_in_it(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 2, 5, 4)  # a fighter the shrewd bot would help otherwise
    fight(game, p1, "Lame Goblin")
    assert SHREWD.wants_to_help(game, p2, p1, 1)
    assert not SHREWD.wants_to_help(game, p2, p1, 1, played_against=True)
    assert CLASSIC.wants_to_help(game, p2, p1, 1, played_against=True)  # the old way


class FightCount:
    """What play_turn counts of the fights (a bots.FightTally)."""

    def __init__(self) -> None:
        self.fought: Counter[str] = Counter()
        self.beaten: Counter[str] = Counter()


def meddler_then_asked(library: CardLibrary, rival: BotPolicy) -> tuple[Combat, Player]:
    """P1 (Level 3, the leader, classic) fights the Lame Goblin (Level 1); P2 (Level 1, +4 of
    gear, policy `rival`) holds Enraged (+5), which turns the fight (3 against 6), and is then
    the only one P1 can ask for help. P1's whole turn is played by the bots."""
    game = bare(library, players=2, seed=3)
    p2 = game.players[1]
    levels(game, 3, 1)
    give(game, p2, "Flaming Armor", "Boots of Butt-Kicking", where="equipped")
    give(game, p2, "Enraged")
    game.door_deck.insert(0, take(game, "Lame Goblin"))
    game.active = 0
    play_turn(game, FightCount(), Seats(game, [CLASSIC, rival]))
    assert game.last_combat is not None
    return game.last_combat, p2


def test_in_play_a_classic_bot_spoils_a_fight_and_then_helps_in_it_a_shrewd_one_does_not(
    core_library: CardLibrary,
) -> None:
    classic, rival = meddler_then_asked(core_library, CLASSIC)
    assert "Enraged" not in {c.name for c in rival.hand}  # played against the fight
    assert classic.helper is rival  # and then the fight helped: the playtest's bug
    assert classic.outcome == "won"  # 3 + 5 against 1 + 5

    shrewd, rival = meddler_then_asked(core_library, SHREWD)
    assert "Enraged" not in {c.name for c in rival.hand}
    assert shrewd.helper is None
    assert shrewd.outcome != "won"  # 3 against 6


# -- curses ---------------------------------------------------------------------------------------


def test_a_shrewd_bot_curses_with_lose_the_armor_only_a_player_wearing_armor(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, p3 = game.players
    levels(game, 4, 6, 5)  # P2 leads and wears no armor; P3 wears Leather Armor
    give(game, p3, "Leather Armor", where="equipped")
    give(game, p1, "Curse! Lose the Armor You Are Wearing")
    curse = p1.hand[0]
    assert curse_harm(game, p2, curse) == 0
    assert curse_harm(game, p3, curse) > 0
    assert SHREWD.curse_target(game, p1, curse) is p3
    assert SHREWD.curses(game, p1) == [Play(curse, player=p3)]
    assert CLASSIC.curse_target(game, p1, curse) is p2  # the leader, whatever it does to him

    p3.equipped.clear()  # no one wears armor: the curse is kept
    assert SHREWD.curse_target(game, p1, curse) is None
    assert SHREWD.curses(game, p1) == []


def test_a_shrewd_bot_curses_the_leader_with_the_curse_that_hurts_him_most(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 4, 6, 5)
    give(game, p2, "Horny Helmet", where="equipped")  # +1 headgear
    give(game, p1, "Curse! Lose the Headgear You Are Wearing", "Curse! Lose a Level")
    helmet, level = p1.hand
    # Both hurt the leader: a Level is worth more than a +1 hat.
    assert SHREWD.curses(game, p1) == [Play(level, player=p2), Play(helmet, player=p2)]
    # A Level-1 player cannot lose a Level: that curse does nothing to him.
    levels(game, 1, 1, 1)
    assert curse_harm(game, p2, level) == 0 and curse_harm(game, p2, helmet) > 0


# -- cards against a fight -------------------------------------------------------------------------


def test_a_shrewd_bot_spends_a_card_only_where_it_turns_a_leaders_fight(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 5, 3, 3)  # P1 leads; 5 against the Lame Goblin's 1
    combat = fight(game, p1, "Lame Goblin")
    give(game, p2, "Enraged")  # +5: 5 against 6, turned
    assert SHREWD.meddles_in(game, p2, combat)
    assert SHREWD.spoilers(game, p2, combat) == [Play(p2.hand[0], monster="Lame Goblin")]

    give(game, p1, "Pantyhose of Giant Strength", "Flaming Armor", where="equipped")  # +5
    # 10 against 6 even with Enraged: the shrewd bot keeps it, the classic one spends it.
    assert not SHREWD.meddles_in(game, p2, combat)
    assert CLASSIC.meddles_in(game, p2, combat)


def test_against_a_fight_for_the_win_a_shrewd_bot_spends_what_it_has(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 9, 3, 3)
    give(game, p1, "Pantyhose of Giant Strength", "Flaming Armor", where="equipped")
    combat = fight(game, p1, "Lame Goblin")  # 14 against 1: Level 10 if won
    give(game, p2, "Enraged", "Magic Missile")  # +5 and +5: not enough alone
    assert SHREWD.meddles_in(game, p2, combat)  # the others may add theirs
    assert {p.card.name for p in SHREWD.spoilers(game, p2, combat)} == {
        "Enraged",
        "Magic Missile",
    }


def test_a_shrewd_bot_leaves_a_trailing_fighter_alone(core_library: CardLibrary) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 2, 5, 4)
    combat = fight(game, p1, "Lame Goblin")
    give(game, p2, "Enraged")
    assert not SHREWD.meddles_in(game, p2, combat)
    assert SHREWD.threat(game, p2, combat) == 0


def test_a_bot_in_the_fight_never_plays_against_it(core_library: CardLibrary) -> None:
    game = bare(core_library)
    p1, p2, _ = game.players
    levels(game, 9, 3, 3)
    combat = fight(game, p1, "Lame Goblin")
    give(game, p2, "Enraged")
    combat.helper = p2
    assert not SHREWD.meddles_in(game, p2, combat)


# -- the bot's own fight --------------------------------------------------------------------------


def test_a_losing_shrewd_fighter_weakens_its_monster_then_takes_it_away(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1 = game.players[0]
    combat = fight(game, p1, "Lame Goblin")
    give(game, p1, "Baby", "Magic Lamp")
    baby, lamp = p1.hand
    assert SHREWD.weakening(game, combat, p1) == [Play(baby, monster="Lame Goblin")]
    assert SHREWD.last_resort(game, combat, p1) == [Play(lamp, monster="Lame Goblin")]
    assert CLASSIC.weakening(game, combat, p1) == []
    assert CLASSIC.last_resort(game, combat, p1) == []


def test_a_shrewd_fighter_plays_the_smallest_one_shot_that_wins(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1 = game.players[0]
    combat = fight(game, p1, "Snails on Speed")  # Level 4 against P1's 1: 3 short, 4 to win
    give(game, p1, "Magic Missile", "Flaming Poison Potion", "Sleep Potion")  # +5, +3, +2
    missile, flaming, sleep = p1.hand
    # +3 only ties (the monster wins ties): +5 is the smallest that wins; the rest keep.
    assert SHREWD.boost_order(game, combat, list(p1.hand), 3) == [missile, flaming, sleep]
    give(game, p1, "Potion of Idiotic Bravery")  # +2 as well
    assert SHREWD.boost_order(game, combat, list(p1.hand), 2)[0] is flaming
    assert CLASSIC.boost_order(game, combat, list(p1.hand), 2)[0] is missile  # the biggest


def test_a_shrewd_bot_looks_for_trouble_with_any_monster_it_beats(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1 = game.players[0]
    levels(game, 3, 1, 1)
    give(game, p1, "Flaming Armor", where="equipped")  # 3 + 2 = 5
    give(game, p1, "Snails on Speed")  # Level 4: beaten, but not by the classic 3 Levels
    snails = p1.hand[0]
    assert SHREWD.trouble(game, p1, None) is snails
    assert CLASSIC.trouble(game, p1, None) is None
    levels(game, 2, 1, 1)  # 4 against 4: the monster wins ties
    assert SHREWD.trouble(game, p1, None) is None


# -- selling --------------------------------------------------------------------------------------

ITEMS = (  # Gold: 600, 600, 400, 400, 200 = 2,200
    "Pantyhose of Giant Strength",
    "Horny Helmet",
    "Flaming Armor",
    "Boots of Butt-Kicking",
    "Leather Armor",
)


def test_a_shrewd_bot_sells_for_as_many_levels_as_it_can_for_the_least_gold(
    core_library: CardLibrary,
) -> None:
    game = bare(core_library)
    p1 = game.players[0]
    levels(game, 2, 1, 1)
    give(game, p1, *ITEMS, where="carried")
    # 2,200 Gold is 2 Levels; 600 + 600 + 400 + 400 = 2,000 is the least that buys them.
    sold = SHREWD.sale(game, p1)
    assert sorted(c.gold for c in sold) == [400, 400, 600, 600]
    # The classic bots sell the cheapest up to 1,000: 200 + 400 + 400, 1 Level.
    assert sorted(c.gold for c in CLASSIC.sale(game, p1)) == [200, 400, 400]


def test_a_shrewd_bot_never_sells_its_fight_cards(core_library: CardLibrary) -> None:
    game = bare(core_library)
    p1 = game.players[0]
    give(game, p1, "Flaming Armor", "Boots of Butt-Kicking", where="carried")  # 800
    give(game, p1, "Magic Missile", "Sleep Potion")  # +5 for 300 Gold, +2 for 100
    # 800 Gold of items is short of a Level, and the one-shots are kept for the fights.
    assert SHREWD.sale(game, p1) == []
    # The classic bots sell the cheapest up to 1,000: 100 + 300 + 400 + 400, potions and all.
    assert len(CLASSIC.sale(game, p1)) == 4
    give(game, p1, "Horny Helmet", where="carried")  # 1,400 of items: a Level for 1,000
    sold = SHREWD.sale(game, p1)
    assert sum(c.gold for c in sold) == 1000
    assert {c.name for c in sold} <= {"Flaming Armor", "Boots of Butt-Kicking", "Horny Helmet"}


def test_no_bot_sells_for_the_winning_level(core_library: CardLibrary) -> None:
    game = bare(core_library)
    p1 = game.players[0]
    levels(game, 9, 1, 1)
    give(game, p1, *ITEMS, where="carried")
    assert SHREWD.sale(game, p1) == [] and CLASSIC.sale(game, p1) == []
    levels(game, 8, 1, 1)  # one Level to buy, whatever the Gold
    assert sum(c.gold for c in SHREWD.sale(game, p1)) == 1000


@pytest.mark.parametrize(
    ("prices", "most", "spent"),
    [
        ([600, 600, 400, 400, 200], 5, 2000),
        ([700, 700, 300], 5, 1000),
        ([900], 5, 0),
        ([500, 500, 500, 500, 500], 1, 1000),
    ],
)
def test_the_cheapest_levels_spend_the_least_gold(
    core_library: CardLibrary, prices: list[int], most: int, spent: int
) -> None:
    game = bare(core_library)
    cards: list[tuple[int, Any]] = [(price, game.door_deck[i]) for i, price in enumerate(prices)]
    chosen = {id(card) for card in cheapest_levels(cards, most)}
    assert sum(price for price, card in cards if id(card) in chosen) == spent


# -- seats ----------------------------------------------------------------------------------------


def test_the_classic_bots_are_the_default(core_library: CardLibrary) -> None:
    cards = list(core_library.cards())
    default = simulate(cards, players=3, games=6, seed=2).as_json()
    classic = simulate(cards, players=3, games=6, seed=2, policies=[CLASSIC] * 3).as_json()
    shrewd = simulate(cards, players=3, games=6, seed=2, policies=[SHREWD] * 3).as_json()
    for report in (default, classic, shrewd):
        report.pop("games_per_second")
    assert default == classic
    assert shrewd != classic  # the comparison can tell the two apart
    with pytest.raises(ValueError, match="2 policies for 3 players"):
        simulate(cards, players=3, games=1, policies=[SHREWD, CLASSIC])


def test_mixed_seats_give_the_same_statistics_in_one_process_or_two(
    core_library: CardLibrary,
) -> None:
    cards = list(core_library.cards())
    reports = []
    for jobs in (1, 2):
        stats = simulate(
            cards, players=3, games=8, seed=5, jobs=jobs, policies=[SHREWD, CLASSIC, SHREWD]
        )
        report = stats.as_json()
        report.pop("games_per_second")
        reports.append(report)
        assert stats.refused_bot_moves == 0 and stats.invariant_violations == 0
    assert reports[0] == reports[1]
