"""Trading limits beyond the item's own, checked with core Items: a broken rule on Ships (and a
Ship's price in a sale), followers, the dead or what is received fails the item by the check
that reads it."""

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.engine import SetDocument

# (card, mutant, the trade check that must see it)
CASES = [
    # A dead character is given nothing until the next turn brings him back (core, Death).
    ("Bad-Ass Bandana", "turn:trade:branch:30889886", "not given to a dead character"),
    # Received by a player who may use it and has the slot free, it is equipped at once.
    ("Bad-Ass Bandana", "turn:_receive:branch:612dc3fe", "stays in play with its new owner"),
    ("Bad-Ass Bandana", "turn:_receive:negation:e84b9a5a", "stays in play with its new owner"),
    # A Small item never counts against the receiver's Big one.
    ("Bad-Ass Bandana", "turn:trade:boolean:4c1f9909", "beside his Big item"),
    # One Ship at a time (Booty): the receiver's own Ship stays beside a Small item, a Ship
    # comes in for an item, a second Ship is refused.
    ("Bad-Ass Bandana", "turn:trade:number:1748a41f", "given to a player who has a Ship"),
    ("Bad-Ass Bandana", "turn:trade:compare:b8cda080", "given to a player who has a Ship"),
    ("Bad-Ass Bandana", "turn:trade:compare:fa243b3f", "given to a player who has a Ship"),
    ("Bad-Ass Bandana", "turn:trade:number:de89c2a8", "traded for a Ship by a player who has"),
    ("Bad-Ass Bandana", "turn:trade:branch:cb9ac6a2", "not traded for a second Ship"),
    ("Bad-Ass Bandana", "turn:trade:arithmetic:05d4c54d", "not traded for a second Ship"),
    ("Bad-Ass Bandana", "turn:trade:number:9f631158", "not traded for a second Ship"),
    ("Bad-Ass Bandana", "turn:trade:compare:6f0362b6", "not traded for a second Ship"),
    # A Ship is Big but not counted as one's Big item, held or coming in (Booty).
    ("Chainsaw of Bloody Dismemberment", "turn:check_can_hold:compare:bf551f9a", "second Ship"),
    # A Ship takes its fitted enhancer along, given away or taken back (Booty).
    ("Bad-Ass Bandana", "turn:trade:branch:124548e7", "a Ship with its enhancer, and back"),
    ("Bad-Ass Bandana", "turn:trade:branch:c7f8ce31", "a Ship with its enhancer, and back"),
    # Sold beside it, a Ship is worth its fitted enhancer's Gold too (Booty).
    ("Bad-Ass Bandana", "turn:ship_gold:arithmetic:d4f7b6e7", "sold with a Ship, whose price"),
    # Only Sidekicks with a Gold value change hands, and become the receiver's one Sidekick;
    # a Hireling never does, priced or not.
    ("Bad-Ass Bandana", "turn:_tradable:compare:496c32db", "Sidekick with a Gold value"),
    ("Bad-Ass Bandana", "turn:_tradable:compare:496c32db", "a Hireling, even one with a price"),
    ("Bad-Ass Bandana", "turn:_tradable:boolean:3ad355d4", "a Hireling, even one with a price"),
    ("Bad-Ass Bandana", "turn:_tradable:compare:81591334", "Sidekick without a Gold value"),
    ("Bad-Ass Bandana", "turn:_receive:branch:ddf116fa", "Sidekick with a Gold value"),
    ("Bad-Ass Bandana", "turn:play:compare:e7e4c80e", "Sidekick with a Gold value"),
    ("Bad-Ass Bandana", "turn:play:branch:7aa892bf", "Sidekick with a Gold value"),
    ("Bad-Ass Bandana", "turn:play:compare:a6228847", "Sidekick with a Gold value"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), CASES)
def test_a_broken_trading_limit_fails_the_item(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)
