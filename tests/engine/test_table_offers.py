"""A rival offers to help a fight and the fighter answers; charity's receiver is the giver's
choice among players tied at the lowest Level."""

import pytest

from tests.engine.test_table import cards, rig, state
from validator.engine import (
    MoveError,
    RuleViolation,
    Table,
    apply_move,
    legal_moves,
    new_table,
    seats_to_move,
    table_scenario,
    table_view,
)
from validator.engine.scenario import CardLibrary
from validator.engine.strength import side_strength


def goblin_fight(core_library: CardLibrary) -> Table:
    """P1 (Level 1, nothing in play) kicks open the door on the Lame Goblin (Level 1, 1
    Treasure): a tie, which the monster wins."""
    table = rig(
        new_table(cards(core_library), seats=["person", "person"], seed=21), door="Lame Goblin"
    )
    return apply_move(table, 0, {"kick_door": True})


def test_a_rival_offers_to_help_and_the_fighter_accepts(core_library: CardLibrary) -> None:
    table = goblin_fight(core_library)
    assert {"offer_help": 1} in legal_moves(table, 1)
    offered = apply_move(table, 1, {"offer_help": 1})
    assert seats_to_move(offered) == [0]
    assert legal_moves(offered, 0) == [{"accept_help": True}, {"decline_help": True}]
    assert legal_moves(offered, 1) == []
    # Level 1 alone against the Goblin's 1; with P2's Level 1, 2 against 1.
    assert table_view(offered, 0)["offered"] == {
        "seat": 1,
        "treasures": 1,
        "without_helper": 1,
        "with_helper": 2,
        "monsters": 1,
    }
    before = state(offered)
    with pytest.raises(RuleViolation, match="the fighter answers first"):
        apply_move(offered, 0, {"resolve": True})
    assert state(offered) == before
    accepted = apply_move(offered, 0, {"accept_help": True})
    combat = accepted.game.combat
    assert combat is not None and combat.helper is accepted.game.players[1]
    assert side_strength(accepted.game, combat) == 2
    steps = table_scenario(accepted, name="offer")["steps"]
    assert steps[-1] == {"help": "P2", "treasures": 1}


def test_a_declined_offer_is_not_made_again_and_a_greedy_one_is_refused(
    core_library: CardLibrary,
) -> None:
    table = goblin_fight(core_library)
    with pytest.raises(RuleViolation, match="the monsters give 1 Treasure: 2 cannot be asked"):
        apply_move(table, 1, {"offer_help": 2})
    with pytest.raises(RuleViolation, match="cannot help themselves"):
        apply_move(table, 0, {"offer_help": 0})
    declined = apply_move(apply_move(table, 1, {"offer_help": 0}), 0, {"decline_help": True})
    combat = declined.game.combat
    assert combat is not None and combat.helper is None
    assert not any("offer_help" in m for m in legal_moves(declined, 1))
    with pytest.raises(RuleViolation, match="already asked or offered"):
        apply_move(declined, 1, {"offer_help": 0})


def test_charity_goes_to_the_tied_player_the_giver_chooses(core_library: CardLibrary) -> None:
    table = rig(
        new_table(cards(core_library), seats=["person", "person", "person"], seed=5),
        door="Elf",
    )
    table.game.players[0].level = 2  # P2 and P3 tie at Level 1, the lowest
    table = apply_move(apply_move(table, 0, {"kick_door": True}), 0, {"loot_room": True})
    hand = table.game.players[0].hand
    assert len(hand) > 5  # eight dealt, the Elf and the loot: over the limit of 5
    card = hand[0].uid
    moves = legal_moves(table, 0)
    assert {"charity": card, "to": "P2"} in moves and {"charity": card, "to": "P3"} in moves
    sizes = [len(p.hand) for p in table.game.players]
    given = apply_move(table, 0, {"charity": card, "to": "P3"})
    assert [len(p.hand) for p in given.game.players] == [sizes[0] - 1, sizes[1], sizes[2] + 1]
    for wrong, reason in (("P1", "P2 or P3"), ("P9", "no player named")):
        with pytest.raises(RuleViolation, match=reason):
            apply_move(table, 0, {"charity": card, "to": wrong})


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ({"offer_help": 10**9}, "a whole number from 0 to 20"),
        ({"offer_help": -1}, "a whole number from 0 to 20"),
        ({"offer_help": True}, "a whole number from 0 to 20"),
        ({"choose": list(range(1, 62))}, "a list of 1 to 60 card numbers"),
        ({"choose_option": 10**12}, "the number of an option"),
        ({"charity": 5, "to": "P" * 41}, "name the player who receives"),
        ({"accept_help": "yes"}, "the value is true"),
    ],
)
def test_an_oversized_or_misshapen_new_move_is_refused_before_anything(
    core_library: CardLibrary, move: dict[str, object], reason: str
) -> None:
    table = goblin_fight(core_library)
    before = state(table)
    with pytest.raises(MoveError, match=reason):
        apply_move(table, 1, move)
    assert state(table) == before
