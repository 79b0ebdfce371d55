"""Everyone answers every fight (reaction windows) and a person's choices are theirs: a table
asks before a fight resolves, and asks the person the rules leave a choice to."""

from typing import Any

import pytest

from tests.engine.test_table import cards, rig, state, uid_of
from validator.engine import (
    RuleViolation,
    Table,
    apply_move,
    legal_moves,
    new_table,
    run_bots,
    seats_to_move,
    table_scenario,
    table_view,
)
from validator.engine.scenario import CardLibrary
from validator.engine.strength import monsters_strength, side_strength


def bots_fight(core_library: CardLibrary, seed: int = 4) -> Table:
    """P1, a bot holding only Boots of Butt-Kicking (+2), puts them on and kicks open the door
    on the Lame Goblin (Level 1): 3 against 1. P2, a person, holds Ancient (+10 to a
    monster)."""
    table = rig(
        new_table(cards(core_library), seats=["bot", "person"], seed=seed),
        door="Lame Goblin",
        hand={0: ["Boots of Butt-Kicking"], 1: ["Ancient"]},
    )
    hand = table.game.players[0].hand
    hand[:] = [c for c in hand if c.name == "Boots of Butt-Kicking"]
    return run_bots(table)


def test_a_bot_s_fight_waits_for_the_person_who_could_answer_it(
    core_library: CardLibrary,
) -> None:
    table = bots_fight(core_library)
    combat = table.game.combat
    assert combat is not None and combat.monsters[0].name == "Lame Goblin"
    assert table.log[-1] == (0, {"resolve": True})
    # Level 1 and the Boots' +2 against the Goblin's Level 1.
    assert (side_strength(table.game, combat), monsters_strength(table.game, combat)) == (3, 1)
    assert table.window == (1,) and seats_to_move(table) == [1]
    ancient = uid_of(table.game.players[1].hand, "Ancient")
    moves = legal_moves(table, 1)
    assert {"pass": True} in moves and {"play": ancient, "on": "Lame Goblin"} in moves
    assert legal_moves(table, 0) == []  # the fighter waits for the answer
    view = table_view(table, 1)
    assert view["window"] == {"seats": [1], "fighter": 0} and view["waiting_for"] == [1]


def test_a_person_s_enhancer_in_a_bot_s_fight_changes_its_result(
    core_library: CardLibrary,
) -> None:
    table = bots_fight(core_library)
    level = table.game.players[0].level
    passed = run_bots(apply_move(table, 1, {"pass": True}))
    assert passed.game.players[0].level == level + 1  # the Goblin is killed: one Level
    assert passed.resolved_at[-1] == len(table.log)  # the pass resolved the fight

    ancient = uid_of(table.game.players[1].hand, "Ancient")
    answered = apply_move(table, 1, {"play": ancient, "on": "Lame Goblin"})
    combat = answered.game.combat
    assert combat is not None and answered.window is None
    # Ancient's +10: 3 against 11, and the bot fighter answers first.
    assert (side_strength(answered.game, combat), monsters_strength(answered.game, combat)) == (
        3,
        11,
    )
    assert seats_to_move(answered) == [0]
    after = run_bots(answered)
    assert after.game.players[0].level <= level  # no kill: the bot ran (or fell)
    assert not any(seat == 1 and "pass" in move for seat, move in after.log[len(answered.log) :])


def test_a_seat_outside_the_window_and_the_fighter_are_refused_and_nothing_changes(
    core_library: CardLibrary,
) -> None:
    table = bots_fight(core_library)
    before = state(table)
    for seat, move in ((0, {"resolve": True}), (0, {"pass": True})):
        with pytest.raises(RuleViolation, match="may play into the fight or pass first"):
            apply_move(table, seat, move)
    with pytest.raises(RuleViolation, match="play a card into it, or pass"):
        apply_move(table, 1, {"end_turn": True})
    assert state(table) == before


def test_outside_a_window_a_pass_is_refused(core_library: CardLibrary) -> None:
    table = new_table(cards(core_library), seats=["person", "bot"], seed=3)
    with pytest.raises(RuleViolation, match="only before a fight resolves"):
        apply_move(table, 0, {"pass": True})


def test_no_window_when_no_one_else_could_play(core_library: CardLibrary) -> None:
    """A person with nothing to play into the fight is not made to pass."""
    table = rig(
        new_table(cards(core_library), seats=["person", "person"], seed=8),
        door="Lame Goblin",
    )
    table.game.players[1].hand.clear()
    table = apply_move(table, 0, {"kick_door": True})
    resolved = apply_move(table, 0, {"resolve": True})
    assert resolved.window is None and resolved.game.combat is None


def dealt_small_items(core_library: CardLibrary) -> Table:
    return rig(
        new_table(cards(core_library), seats=["person", "person"], seed=12),
        door="Curse! Lose a Small Item",
        hand={0: ["Boots of Butt-Kicking", "Horny Helmet"]},
    )


def small_items(core_library: CardLibrary) -> tuple[Table, int, int]:
    """P1 wears Boots of Butt-Kicking (+2, 400 Gold) and the Horny Helmet (+1, 600 Gold), and
    kicks open the door on Curse! Lose a Small Item: which one goes is P1's choice."""
    table = dealt_small_items(core_library)
    hand = table.game.players[0].hand
    boots, helmet = uid_of(hand, "Boots of Butt-Kicking"), uid_of(hand, "Horny Helmet")
    table = apply_move(apply_move(table, 0, {"play": boots}), 0, {"play": helmet})
    return table, boots, helmet


def names_in_play(table: Table, seat: int) -> set[str]:
    return {c.name for c in table.game.players[seat].in_play()}


def test_the_person_chooses_the_item_a_curse_takes(core_library: CardLibrary) -> None:
    table, boots, helmet = small_items(core_library)
    kicked = apply_move(table, 0, {"kick_door": True})
    # Asked, nothing done yet: the curse is still on the deck, both items in play.
    assert kicked.pending is not None and kicked.log[-1] == (0, {"kick_door": True})
    assert kicked.game.door_deck[0].name == "Curse! Lose a Small Item"
    assert {"Boots of Butt-Kicking", "Horny Helmet"} <= names_in_play(kicked, 0)
    view: dict[str, Any] = table_view(kicked, 0)["choice"]
    assert view["seat"] == 0 and view["question"] == "items_to_lose" and view["count"] == 1
    assert {c["id"] for c in view["candidates"]} == {boots, helmet}
    # The suggestion is the least worth: the Helmet's +1 against the Boots' +2.
    assert view["suggested"] == [helmet]
    assert seats_to_move(kicked) == [0] and legal_moves(kicked, 1) == []
    assert legal_moves(kicked, 0)[0] == {"choose": [helmet]}

    chosen = apply_move(kicked, 0, {"choose": [boots]})  # not the suggestion: P1's call
    assert chosen.pending is None
    assert "Horny Helmet" in names_in_play(chosen, 0)
    assert "Boots of Butt-Kicking" not in names_in_play(chosen, 0)
    # The log's moves alone give the same game.
    again = dealt_small_items(core_library)
    for seat, move in chosen.log:
        again = apply_move(again, seat, move)
    assert state(again) == state(chosen)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"choose": []}, "choose exactly 1 card, not 0"),
        ("both", "choose exactly 1 card, not 2"),
        ({"choose": [999]}, "card #999 is not one of the cards"),
        ({"choose_option": 0}, "answer with the cards chosen"),
    ],
)
def test_a_wrong_answer_is_refused_and_changes_nothing(
    core_library: CardLibrary, answer: Any, reason: str
) -> None:
    table, boots, helmet = small_items(core_library)
    kicked = apply_move(table, 0, {"kick_door": True})
    if answer == "both":
        answer = {"choose": [boots, helmet]}
    before = state(kicked)
    with pytest.raises(RuleViolation, match=reason):
        apply_move(kicked, 0, answer)
    with pytest.raises(RuleViolation, match="P1 chooses first"):
        apply_move(kicked, 1, {"end_turn": True})
    assert state(kicked) == before and kicked.pending is not None


def test_a_bot_s_choice_is_the_default_chooser_s(core_library: CardLibrary) -> None:
    table = rig(
        new_table(cards(core_library), seats=["bot", "person"], seed=12),
        door="Curse! Lose a Small Item",
        hand={0: ["Boots of Butt-Kicking", "Horny Helmet"]},
    )
    table = run_bots(table)
    assert table.pending is None
    lost = {"Boots of Butt-Kicking", "Horny Helmet"} - names_in_play(table, 0)
    # Played, then the curse took the one worth least to its owner (the Helmet's +1).
    assert lost == {"Horny Helmet"}


def test_a_saved_scenario_resolves_where_the_fight_resolved(core_library: CardLibrary) -> None:
    table = bots_fight(core_library)
    table = run_bots(apply_move(table, 1, {"pass": True}))
    steps = table_scenario(table, name="window")["steps"]
    # The bot's resolve opened the window; the fight resolved at P2's pass: one step.
    assert steps.count({"resolve": True}) == 1
    assert all("pass" not in step for step in steps)
