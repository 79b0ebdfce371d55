"""The game log says everything that matters, in players' words (issue 37, item 3).

Whole games of bots are played one move at a time and the log is cut by move, so the lines of
each move are known; each move is then checked against what the move was and what the table
shows before and after it (the cards sold and their printed Gold, the card played, the Levels,
the fight's outcome), not against the engine's own wording where that can be avoided. Small
hand-built games check the single lines of the effects that change an outcome."""

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.engine.conftest import run, scenario
from validator.engine import (
    Table,
    apply_move,
    bot_move,
    legal_moves,
    new_table,
    seats_to_move,
)
from validator.engine.cards import LevelCard
from validator.engine.scenario import CardLibrary
from validator.engine.state import Combat

SEEDS = (1, 2, 3, 4, 5, 6)
MAX_MOVES = 3000


@dataclass
class Step:
    """One move of a game and everything needed to judge the lines it wrote."""

    seat: int
    move: dict[str, Any]
    before: Table
    after: Table
    lines: list[str]
    turns: list[int]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _play(
    core_library: CardLibrary, seed: int, *, random_moves: bool = False, moves: int = MAX_MOVES
) -> list[Step]:
    """A seeded game of three bots, a move at a time (each move by the bot's choice, or at
    random among the legal moves, seeded), with the log's new lines of each move; the bots'
    games are played to the end."""
    table = new_table(tuple(core_library.cards()), seats=["bot", "bot", "bot"], seed=seed)
    rng = random.Random(seed)
    steps: list[Step] = []
    for _ in range(moves):
        if table.over:
            break
        seat = seats_to_move(table)[0]
        move = rng.choice(legal_moves(table, seat)) if random_moves else bot_move(table, seat)
        start = len(table.game.log)
        after = apply_move(table, seat, move)
        steps.append(
            Step(
                seat, dict(move), table, after, after.game.log[start:], after.game.log_turns[start:]
            )
        )
        table = after
    assert table.over or random_moves, f"seed {seed}: no winner in {moves} moves"
    return steps


@pytest.fixture(scope="module")
def games(core_library: CardLibrary) -> dict[int, list[Step]]:
    return {seed: _play(core_library, seed) for seed in SEEDS}


def _all_steps(games: dict[int, list[Step]]) -> Iterator[Step]:
    for steps in games.values():
        yield from steps


def _card(table: Table, uid: int) -> Any:
    return next(card for _, card in table.game.all_cards() if card.uid == uid)


def _player(table: Table, seat: int) -> Any:
    return table.game.players[seat]


def test_every_sale_names_each_card_sold_its_gold_and_the_level_reached(
    games: dict[int, list[Step]],
) -> None:
    sales = 0
    for step in _all_steps(games):
        if "sell" not in step.move:
            continue
        sales += 1
        sold = [_card(step.before, uid) for uid in step.move["sell"]]
        for card in sold:
            assert card.name in step.text, (card.name, step.lines)
        prices = sorted((card.card.gold or 0 for card in sold), reverse=True)
        plain, doubled = sum(prices), sum(prices) + prices[0]  # a Halfling sells one double
        said = [total for total in (plain, doubled) if f"{total:,} Gold" in step.text]
        assert said, (plain, step.lines)
        # 1,000 Gold a Level, no change given.
        before = _player(step.before, step.seat).level
        reached = before + said[0] // 1000
        assert _player(step.after, step.seat).level == reached
        assert f"Level {reached}" in step.text
    assert sales, "no game sold anything: the test proves nothing"


def test_every_room_looted_is_said_and_the_card_drawn_face_down_is_not_named(
    games: dict[int, list[Step]],
) -> None:
    loots = 0
    for step in _all_steps(games):
        if "loot_room" not in step.move:
            continue
        loots += 1
        name = _player(step.before, step.seat).name
        line = next(line for line in step.lines if "loot" in line)
        assert line.startswith(name) and "face-down Door card" in line
        deck = step.before.game.door_deck
        if deck and deck[0].timing != "on_draw":  # the top card, drawn (no reshuffle)
            assert deck[0].name not in step.text
    assert loots


def test_every_level_card_played_is_named_with_the_level_it_gives(
    games: dict[int, list[Step]],
) -> None:
    played = 0
    for step in _all_steps(games):
        if "play" not in step.move:
            continue
        card = _card(step.before, step.move["play"])
        if not isinstance(card.card, LevelCard):
            continue
        played += 1
        assert card.name in step.text
        target = step.move.get("on", _player(step.before, step.seat).name)
        level = step.after.game.player(target).level
        assert level > step.before.game.player(target).level
        assert any(target in line and f"Level {level}" in line for line in step.lines)
    assert played


def _fights_ended(games: dict[int, list[Step]]) -> Iterator[tuple[Step, Combat, Combat]]:
    """The moves that ended a fight: the fight as it stood before the move, and as it ended."""
    for step in _all_steps(games):
        combat = step.before.game.combat
        last = step.after.game.last_combat
        if combat is not None and step.after.game.combat is None and last is not None:
            yield step, combat, last


def test_every_run_away_ends_in_an_escape_or_a_catch_and_a_catch_in_its_bad_stuff(
    games: dict[int, list[Step]],
) -> None:
    runs = caught = 0
    for step, combat, last in _fights_ended(games):
        outcome = last.outcome
        if outcome not in ("escaped", "caught", "dead"):
            continue
        runs += 1
        for player in combat.side:
            for monster in combat.monsters:
                ends = [
                    line
                    for line in step.lines
                    if f"{player.name} escapes from {monster.name}" in line
                    or f"{monster.name} catches {player.name}" in line
                ]
                died_before = any(f"{player.name} dies" in line for line in step.lines)
                assert len(ends) == 1 or died_before, (player.name, monster.name, step.lines)
                if ends and "catches" in ends[0]:
                    caught += 1
                    after = step.lines[step.lines.index(ends[0]) + 1 :]
                    assert any("Bad Stuff" in line and monster.name in line for line in after)
        if outcome == "escaped":
            assert not any("catches" in line for line in step.lines)
    assert runs and caught


def test_the_caught_player_s_loss_is_in_the_bad_stuff_lines(
    games: dict[int, list[Step]],
) -> None:
    """Bad Stuff that costs Levels says the Level the victim is left at (read off the table)."""
    checked = 0
    for step, combat, last in _fights_ended(games):
        if last.outcome != "caught":
            continue
        for player in combat.side:
            before = step.before.game.player(player.name).level
            after = step.after.game.player(player.name).level
            if after < before:
                checked += 1
                assert any(
                    "Bad Stuff" in line or "goes down" in line
                    for line in step.lines
                    if f"Level {after}" in line and player.name in line
                ), step.lines
    assert checked


def test_every_reward_draw_names_who_gets_the_treasure(games: dict[int, list[Step]]) -> None:
    helped = 0
    for step, combat, last in _fights_ended(games):
        if last.outcome != "won" or not last.treasures_drawn:
            continue
        fighter = combat.fighter.name
        count = last.treasures_drawn
        noun = "Treasure" if count == 1 else "Treasures"
        assert any(line.startswith(f"{fighter} draws {count} {noun}") for line in step.lines)
        if combat.helper is not None and combat.helper_treasures:
            helped += 1
            helper = combat.helper.name
            # Face up: each player who got cards says which.
            assert any(line.startswith(f"{helper} takes ") for line in step.lines), step.lines
    assert helped


def test_the_win_is_the_last_line_after_what_the_winning_move_drew(
    games: dict[int, list[Step]],
) -> None:
    for steps in games.values():
        last = steps[-1]
        winners = last.after.game.winners
        assert winners
        log = last.after.game.log
        assert log[-1].startswith(f"{winners[0].name} wins the game")
        assert sum("wins the game" in line for line in log) == len(winners)
        if step_draws := [i for i, line in enumerate(last.lines) if " draws " in line]:
            assert max(step_draws) < len(last.lines) - len(winners)


def test_each_turn_is_announced_once_with_its_player_and_level(
    games: dict[int, list[Step]],
) -> None:
    for steps in games.values():
        final = steps[-1].after.game
        assert len(final.log_turns) == len(final.log)
        assert final.log_turns == sorted(final.log_turns)  # turns only go forward
        announced = [line for line in final.log if line.startswith("Turn ")]
        assert [line.split(":")[0] for line in announced] == [
            f"Turn {n}" for n in range(1, final.turn_number + 1)
        ]
        for step in steps:
            turn = step.after.game.turn_number
            if turn == step.before.game.turn_number:
                assert not any(line.startswith("Turn ") for line in step.lines)
                continue
            assert turn == step.before.game.turn_number + 1
            player = step.after.game.active_player
            # The Level said is the one the turn starts at: before the new turn's first move.
            said = next(line for line in step.lines if line.startswith(f"Turn {turn}:"))
            assert said == f"Turn {turn}: {player.name}'s turn (Level {player.level})"
            index = step.lines.index(said)
            assert step.turns[index] == turn
            assert all(t == turn - 1 for t in step.turns[:index])
            assert all(t == turn for t in step.turns[index:])


def test_no_line_says_maybe_plural_or_an_arrow(
    games: dict[int, list[Step]], core_library: CardLibrary
) -> None:
    # Random legal moves too: they reach moves the bots never make.
    random_games = [_play(core_library, seed, random_moves=True, moves=300) for seed in (7, 8)]
    every = [step for step in _all_steps(games)] + [s for g in random_games for s in g]
    for step in every:
        for line in step.lines:
            assert "(s)" not in line and "->" not in line, line


# -- single effects on hand-built tables -------------------------------------------------------


def _kraken(**extra: Any) -> dict[str, Any]:
    """A custom monster that chases no one of Level 5 or less, and takes 2 Levels."""
    return {
        "name": "Kraken",
        "deck": "door",
        "kind": "monster",
        "level": 20,
        "treasures": 3,
        "effects": [{"type": "no_pursuit", "max_level": 5}],
        "bad_stuff": [{"type": "lose_levels", "amount": 2}],
        "encoding": {"status": "full"},
        **extra,
    }


def test_a_monster_that_does_not_pursue_says_so_and_the_runner_escapes() -> None:
    result = run(
        scenario(
            cards=[_kraken()],
            players=[{"name": "Aric", "level": 4}, {"name": "Suzan"}],
            combat={"fighter": "Aric", "monsters": ["Kraken"]},
            steps=[{"resolve": True}],
            expect={"outcome": "escaped", "levels": {"Aric": 4}},
        )
    )
    assert result.passed, result.failures
    log = result.values["log"]
    assert any(line.startswith("Kraken does not pursue Aric") for line in log), log
    assert any("Aric escapes from Kraken" in line for line in log)
    assert not any("rolls" in line for line in log)  # no die was needed


def test_a_monster_that_pursues_a_higher_level_rolls_catches_and_takes_its_levels() -> None:
    result = run(
        scenario(
            cards=[_kraken()],
            dice=[2],
            players=[{"name": "Aric", "level": 6}, {"name": "Suzan"}],
            combat={"fighter": "Aric", "monsters": ["Kraken"]},
            steps=[{"resolve": True}],
            expect={"outcome": "caught", "levels": {"Aric": 4}},
        )
    )
    assert result.passed, result.failures
    log = result.values["log"]
    assert not any("does not pursue" in line for line in log)
    roll = next(line for line in log if "rolls" in line)
    assert "2" in roll and "5" in roll  # the die and what was needed (5 or more, the rules)
    caught = log.index(next(line for line in log if "Kraken catches Aric" in line))
    bad_stuff = log[caught + 1]
    assert "Kraken" in bad_stuff and "Bad Stuff" in bad_stuff and "Level 4" in bad_stuff


def _duckie() -> dict[str, Any]:
    return {
        "name": "Bathtub Duckie",
        "deck": "door",
        "kind": "monster",
        "level": 2,
        "treasures": 1,
        "effects": [{"type": "strength", "amount": 3, "when": {"race": "elf"}}],
        "bad_stuff": [{"type": "lose_levels", "amount": 1}],
        "encoding": {"status": "full"},
    }


@pytest.mark.parametrize(("race", "bonus"), [("Elf", True), ("Dwarf", False)])
def test_a_monster_s_bonus_against_a_race_is_a_line_naming_it(race: str, bonus: bool) -> None:
    result = run(
        scenario(
            cards=[_duckie()],
            dice=[6],
            players=[{"name": "Aric", "level": 3, "in_play": [race]}, {"name": "Suzan"}],
            combat={"fighter": "Aric", "monsters": ["Bathtub Duckie"]},
            steps=[{"resolve": True}],
            # Level 3 against 2, or against 2 + 3 = 5 for an Elf (a loss, then a 6 to escape).
            expect={"outcome": "escaped" if bonus else "won"},
        )
    )
    assert result.passed, result.failures
    lines = [line for line in result.values["log"] if "+3" in line]
    if bonus:
        assert len(lines) == 1 and "Bathtub Duckie" in lines[0] and "Elf" in lines[0]
    else:
        assert lines == []


def test_an_escape_card_is_named_and_the_fight_needs_no_roll() -> None:
    result = run(
        scenario(
            cards=[_kraken(effects=[])],
            players=[{"name": "Aric", "level": 6, "hand": ["Instant Wall"]}, {"name": "Suzan"}],
            combat={"fighter": "Aric", "monsters": ["Kraken"]},
            steps=[{"play": "Instant Wall", "by": "Aric"}, {"resolve": True}],
            expect={"outcome": "escaped", "levels": {"Aric": 6}},
        )
    )
    assert result.passed, result.failures
    log = result.values["log"]
    escape = next(line for line in log if "Aric escapes from Kraken" in line)
    assert "Instant Wall" in escape
    assert not any("rolls" in line for line in log)


def test_bad_stuff_names_the_item_it_takes_and_the_level_left() -> None:
    # The Face Sucker (core): +6 against Elves; the worn headgear and a Level when it wins.
    result = run(
        scenario(
            dice=[1],
            players=[
                {"name": "Aric", "level": 4, "in_play": ["Elf", "Helm of Courage"]},
                {"name": "Suzan"},
            ],
            combat={"fighter": "Aric", "monsters": ["Face Sucker"]},
            steps=[{"resolve": True}],
            expect={"outcome": "caught", "levels": {"Aric": 3}},
        )
    )
    assert result.passed, result.failures
    log = result.values["log"]
    steps = [line for line in log if line.startswith("Face Sucker's Bad Stuff")]
    assert any("Helm of Courage" in line for line in steps), log
    assert any("Level 3" in line for line in steps), log
    assert any("Face Sucker" in line and "+6" in line and "Elf" in line for line in log)


def test_a_sale_and_a_level_card_are_said_as_players_say_them() -> None:
    sold = ["Helm of Courage", "Mithril Armor", "Boots of Butt-Kicking"]
    result = run(
        scenario(
            players=[
                {"name": "Aric", "level": 2, "hand": [*sold, "1,000 Gold Pieces"]},
                {"name": "Suzan"},
            ],
            steps=[{"sell": sold, "by": "Aric"}, {"play": "1,000 Gold Pieces", "by": "Aric"}],
            # 200 + 600 + 400 = 1,200 Gold: one Level (no change given), then the card's one.
            expect={"levels": {"Aric": 4}},
        )
    )
    assert result.passed, result.failures
    log = result.values["log"]
    sale = next(line for line in log if "1,200 Gold" in line)
    assert all(name in sale for name in sold)
    after_sale = log[log.index(sale) + 1 :]
    assert any(line.startswith("Aric") and "Level 3" in line for line in after_sale[:1])
    card = next(i for i, line in enumerate(log) if "1,000 Gold Pieces" in line)
    assert any("Level 4" in line for line in log[card:])


def test_the_win_line_comes_after_the_treasure_the_winning_kill_draws() -> None:
    result = run(
        scenario(
            players=[{"name": "Aric", "level": 9}, {"name": "Suzan"}],
            combat={"fighter": "Aric", "monsters": ["Lame Goblin"]},
            steps=[{"resolve": True}],
            expect={"outcome": "won", "levels": {"Aric": 10}},
        )
    )
    assert result.passed, result.failures
    log = result.values["log"]
    assert log[-1] == "Aric wins the game"
    assert any(line.startswith("Aric draws 1 Treasure face down") for line in log[:-1])
    assert "Aric goes up to Level 10" in log
