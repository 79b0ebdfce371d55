"""Checks of refused moves: malformed moves that no scenario step and no bot ever makes (selling
nothing, one card named twice, another player's item offered as one's own...), but that a
player's input can (the play pages and API, issue 21), made straight on a small real game.

The engine's contract (docs/engine.md, "Refused moves"): a move the rules forbid raises
`RuleViolation` naming the reason, and changes nothing. Each check below sets a table with the
scenario format (`scenario_game`), makes one such move through the engine's front door and
expects both: the refusal, whose reason contains the words the contract gives for it, and the
game exactly as it was (the scenario runner's `fingerprint`, the few counters it leaves out,
and the invariants). A crash, an accepted move, another reason or a changed game fails it.

The cards are synthetic, defined here, so that no card of the five sets changes what they test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from validator.checks.reports import CardReport
from validator.engine import (
    CardInstance,
    Game,
    Player,
    RuleViolation,
    ScenarioError,
    bribe,
    check_invariants,
    equip,
    fingerprint,
    loot_room,
    offer_help,
    parse_scenario,
    sacrifice,
    scenario_game,
    sell,
    trade,
    use_ability,
)

_FULL = {"status": "full"}
GAIN = {"type": "gain_levels", "amount": 1, "target": "self"}

TRINKET = "Refusal Trinket"  # 600 Gold: sold twice it would make 1,200
GEM = "Refusal Gem"  # 1,000 Gold: a level on its own
ELF = "Refusal Elf"  # a Race: a card on the table that is no item
SAGE = "Refusal Sage"  # a Class whose ability costs nothing
MONK = "Refusal Monk"  # a Class whose ability costs two discards
ODDITY = "Refusal Oddity"  # a Class whose ability has an effect abilities never have
OGRE = "Refusal Ogre"
TOLL = "Refusal Toll Troll"  # takes an item worth 300 Gold or more instead of a fight
SLOOP = "Refusal Sloop"  # a Ship (Munchkin Booty)
SAILS = "Refusal Sails"  # a Ship enhancer, fitted to one Ship for good
PAL = "Refusal Pal"  # an Ally (SpongeBob)

CARDS: dict[str, dict[str, Any]] = {
    TRINKET: {"deck": "treasure", "kind": "item", "slot": "other", "bonus": 1, "gold": 600},
    GEM: {"deck": "treasure", "kind": "item", "slot": "other", "bonus": 1, "gold": 1000},
    ELF: {"deck": "door", "kind": "race"},
    SAGE: {
        "deck": "door",
        "kind": "class",
        "abilities": [{"name": "Insight", "timing": "any", "effects": [GAIN]}],
    },
    MONK: {
        "deck": "door",
        "kind": "class",
        "abilities": [
            {"name": "Fasting", "timing": "any", "cost": {"discard": 2}, "effects": [GAIN]}
        ],
    },
    ODDITY: {
        "deck": "door",
        "kind": "class",
        "abilities": [
            {"name": "Big Pockets", "timing": "any", "effects": [{"type": "hand_size", "size": 7}]}
        ],
    },
    OGRE: {
        "deck": "door",
        "kind": "monster",
        "level": 20,
        "treasures": 2,
        "levels_gained": 1,
        "bad_stuff": [{"type": "lose_levels", "amount": 1}],
    },
    TOLL: {
        "deck": "door",
        "kind": "monster",
        "level": 20,
        "treasures": 1,
        "levels_gained": 1,
        "bad_stuff": [{"type": "lose_levels", "amount": 1}],
        "effects": [{"type": "bribe", "min_gold": 300}],
    },
    SLOOP: {"deck": "door", "kind": "ship", "slot": "ship", "big": True, "bonus": 2, "gold": 400},
    SAILS: {
        "deck": "treasure",
        "kind": "item",
        "slot": "other",
        "bonus": 1,
        "gold": 200,
        "tags": ["ship-enhancer"],
    },
    PAL: {"deck": "treasure", "kind": "ally", "bonus": 1},
}

Move = Callable[[Game], object]


@dataclass(frozen=True)
class Refusal:
    """One malformed move: the table it is made at, the move, and the words its refusal must
    contain (docs/engine.md, "Refused moves")."""

    name: str
    table: dict[str, Any]
    move: Move
    reason: str

    def document(self) -> dict[str, Any]:
        """The scenario that sets the table: only the cards it names exist, so a deck holds
        only those of them that no one holds (none, when all are dealt)."""
        used = {
            name
            for player in self.table["players"]
            for place in ("hand", "in_play", "carried")
            for name in player.get(place, [])
        }
        used |= set(self.table.get("combat", {}).get("monsters", []))
        used |= {n for pile in self.table.get("deck", {}).values() for n in pile}
        cards = [{"name": n, **CARDS[n], "encoding": _FULL} for n in sorted(used)]
        return {"name": f"refused: {self.name}", "cards": cards, **self.table}


def _player(game: Game, name: str) -> Player:
    return next(p for p in game.players if p.name == name)


def _card(game: Game, owner: str, name: str) -> CardInstance:
    """The first copy of `name` in `owner`'s hand or in play."""
    player = _player(game, owner)
    return next(c for c in [*player.hand, *player.in_play()] if c.name == name)


def _snapshot(game: Game) -> tuple[Any, ...]:
    """What a move could change: the scenario runner's fingerprint and what it leaves out."""
    combat = game.combat
    helper = (combat.helper_treasures, combat.helper_picks_first) if combat else ()
    flags = tuple(
        (p.double_sale_used, p.draw_from_discard, tuple(c.uid for c in p.pending_discards))
        for p in game.players
    )
    return (
        fingerprint(game),
        helper,
        flags,
        game.active,
        game.turn_number,
        game.fought_this_turn,
    )


def _hero_and_rival(**hero: list[str]) -> list[dict[str, Any]]:
    return [{"name": "Hero", "level": 3, **hero}, {"name": "Rival", "level": 3}]


def _fight(monster: str, hero: dict[str, Any], rival: dict[str, Any]) -> dict[str, Any]:
    return {
        "players": [{"name": "Hero", "level": 3, **hero}, {"name": "Rival", "level": 3, **rival}],
        "combat": {"fighter": "Hero", "monsters": [monster]},
    }


REFUSALS: list[Refusal] = [
    # Selling (core rules: items are sold for a level per 1,000 Gold, on one's own turn).
    Refusal(
        "selling nothing",
        {"players": _hero_and_rival(hand=[GEM])},
        lambda g: sell(g, _player(g, "Hero"), []),
        "name the items to sell",
    ),
    Refusal(
        "selling one item named twice",
        {"players": _hero_and_rival(hand=[TRINKET])},
        lambda g: sell(g, _player(g, "Hero"), [_card(g, "Hero", TRINKET)] * 2),
        "sold once",
    ),
    Refusal(
        "selling a Race card from the table",
        {"players": _hero_and_rival(in_play=[ELF], hand=[GEM])},
        lambda g: sell(g, _player(g, "Hero"), [_card(g, "Hero", ELF)]),
        "not an item",
    ),
    Refusal(
        "selling another player's item",
        {"players": [{"name": "Hero", "level": 3}, {"name": "Rival", "in_play": [GEM]}]},
        lambda g: sell(g, _player(g, "Hero"), [_card(g, "Rival", GEM)]),
        "has no",
    ),
    # Trading (core rules: items in play change hands outside combat).
    Refusal(
        "a trade of nothing for nothing",
        {"players": [{"name": "Hero", "in_play": [GEM]}, {"name": "Rival", "in_play": [TRINKET]}]},
        lambda g: trade(g, _player(g, "Hero"), _player(g, "Rival"), [], []),
        "name what changes hands",
    ),
    # Abilities (a Class's or Race's ability is used from the card in play, its cost paid in
    # discards, each card discarded once).
    Refusal(
        "an ability paid with one card twice",
        {"players": _hero_and_rival(in_play=[MONK], hand=[TRINKET])},
        lambda g: use_ability(
            g,
            _player(g, "Hero"),
            _card(g, "Hero", MONK),
            None,
            discards=[_card(g, "Hero", TRINKET)] * 2,
        ),
        "discarded once",
    ),
    Refusal(
        "an ability of a card in the hand",
        {"players": _hero_and_rival(hand=[SAGE])},
        lambda g: use_ability(g, _player(g, "Hero"), _card(g, "Hero", SAGE), None),
        "in play",
    ),
    Refusal(
        "an ability with an effect the engine does not apply",
        {"players": _hero_and_rival(in_play=[ODDITY])},
        lambda g: use_ability(g, _player(g, "Hero"), _card(g, "Hero", ODDITY), None),
        "cannot use this ability",
    ),
    # Combat: a bribe is the briber's own item; a helper's share is Treasures, none or more.
    Refusal(
        "bribing a monster with another player's item",
        _fight(TOLL, {}, {"in_play": [GEM]}),
        lambda g: bribe(g, _player(g, "Hero"), _card(g, "Rival", GEM)),
        "has no",
    ),
    Refusal(
        "helping for a negative Treasure share",
        _fight(OGRE, {}, {}),
        lambda g: offer_help(g, _player(g, "Rival"), treasures=-1),
        "negative",
    ),
    Refusal(
        "sacrificing an item to escape",
        _fight(OGRE, {"in_play": [TRINKET]}, {}),
        lambda g: sacrifice(g, _player(g, "Hero"), _card(g, "Hero", TRINKET)),
        "not an Ally or a Sidekick",
    ),
    Refusal(
        "sacrificing an Ally still in the hand",
        _fight(OGRE, {"hand": [PAL]}, {}),
        lambda g: sacrifice(g, _player(g, "Hero"), _card(g, "Hero", PAL)),
        "has no",
    ),
    # Equipping: only an item in the hand or carried (Booty: an enhancer fitted to a Ship
    # stays with the Ship).
    Refusal(
        "equipping a Ship enhancer fitted to a Ship",
        {
            "players": _hero_and_rival(in_play=[SLOOP], hand=[SAILS]),
            "steps": [{"play": SAILS, "by": "Hero", "with": SLOOP}],
        },
        lambda g: equip(g, _player(g, "Hero"), _card(g, "Hero", SAILS)),
        "has no",
    ),
    Refusal(
        "equipping an item already equipped",
        {"players": _hero_and_rival(in_play=[GEM])},
        lambda g: equip(g, _player(g, "Hero"), _card(g, "Hero", GEM)),
        "already equipped",
    ),
    # Decks: a card is drawn from a deck, else from its discards shuffled; with both empty
    # there is none.
    Refusal(
        "drawing with the deck and its discards empty",
        {"players": _hero_and_rival(hand=[ELF])},
        lambda g: g.draw("door"),
        "empty",
    ),
    Refusal(
        "looting the room with the deck and its discards empty",
        {
            "players": _hero_and_rival(),
            "deck": {"door": [ELF]},
            "steps": [{"kick_door": "Hero"}],
        },
        lambda g: loot_room(g, _player(g, "Hero")),
        "no card to draw",
    ),
]


def check_refusal(refusal: Refusal, set_code: str) -> CardReport:
    """Make the refused move on its table: the report fails unless the move is refused with
    the contract's reason and the game is left as it was."""
    report = CardReport(set_code, f"refused: {refusal.name}", "scenarios", "full")

    def fail(message: str) -> CardReport:
        report.fail(f"{refusal.name}: {message}")
        return report

    try:
        game = scenario_game(parse_scenario(refusal.document()))
    except ScenarioError as exc:
        return fail(f"the table cannot be set: {exc}")
    except Exception as exc:  # an engine crash is this check's failure, not the run's
        return fail(f"the engine crashed setting the table: {type(exc).__name__}: {exc}")
    report.scenarios_run = 1
    before = _snapshot(game)
    try:
        refusal.move(game)
    except RuleViolation as exc:
        if refusal.reason.casefold() not in str(exc).casefold():
            fail(f"refused as {str(exc)!r}, expected a reason saying {refusal.reason!r}")
    except Exception as exc:
        return fail(f"the engine crashed instead of refusing: {type(exc).__name__}: {exc}")
    else:
        fail(f"accepted; expected a refusal saying {refusal.reason!r}")
    if _snapshot(game) != before:
        fail("the refused move changed the game")
    broken = check_invariants(game)
    if broken:
        fail(f"invariant broken: {'; '.join(broken)}")
    report.verified = report.status != "fail"
    return report
