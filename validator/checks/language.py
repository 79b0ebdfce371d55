"""The effect language on synthetic cards: what no card of the five sets shows.

The per-card checks only try what the sets' cards say: an `otherwise` after an outcome that
never fails, a roll table's face no printed table has, a steal of a Big item, an outcome that
gains where the printed ones take... never reach the engine, however wrong it is there. A
designer's custom card can say all of it, so the validator tries it here: each entry of
`SYNTHETIC_CARDS` is a small card document written in the effect language (every outcome
type, each `otherwise` tried on victims where the outcome acts and where it cannot, each
condition true and false, roll tables with faces on their edges...), checked like a card of a
set by `check_card`, whose predictions come from the encoding and the rules (the oracle),
never from the engine. `LANGUAGE_SCENARIOS` add the runs a card's own checks do not generate
(the Theft meta-ability, Allies, Ship enhancers...), each with its expectation written from
the rules. The refused moves of `validator/checks/refusals.py` (selling nothing, one card
paid twice...) join the family, one unit each.

A synthetic card must come out *verified*: a check that no longer predicts one of its effects
is a failure here, not a warning, so the family cannot quietly stop seeing what it was written
for. `check_language` gives one report per synthetic card and scenario group, under the set
code `language`; `validate_cards` and the mutation run count them with the cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from validator.checks.references import EQUIPMENT, _library_for
from validator.checks.refusals import REFUSALS, Refusal, check_refusal
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext, expect_values
from validator.engine import CardBase, parse_card

LANGUAGE_SET = "language"
_FULL = {"status": "full"}

# Markers put in an `otherwise`: plain outcomes whose effect shows on any victim the checks
# use (a level gained shows below Level 9; a level lost above Level 1).
GAIN = {"type": "gain_levels", "amount": 1}
LOSE = {"type": "lose_levels", "amount": 1}


def _otherwise(outcome: dict[str, Any], marker: dict[str, Any] = GAIN) -> dict[str, Any]:
    return {**outcome, "otherwise": [marker]}


def _monster(name: str, bad_stuff: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A monster no victim beats (Level 20): its Bad Stuff is tried on the four victims of the
    monster checks and on the tables the outcomes need."""
    return {
        "name": f"Syn {name}",
        "deck": "door",
        "kind": "monster",
        "level": 20,
        "treasures": 1,
        "levels_gained": 1,
        "bad_stuff": bad_stuff,
        "encoding": _FULL,
        **extra,
    }


# Each outcome with an `otherwise`: the victims with nothing (no hand, no items, no rival
# above Level 1...) see the marker, the others see the outcome and no marker.
_OTHERWISE_MONSTERS = [
    _monster("Gain Or Else", [_otherwise({"type": "gain_levels", "amount": 1}, LOSE)]),
    _monster("Set Level Or Else", [_otherwise({"type": "set_level", "to": 3})]),
    _monster("Lose Levels Or Else", [_otherwise({"type": "lose_levels", "amount": 1})]),
    _monster("Lose Items Or Else", [_otherwise({"type": "lose_items", "count": 1})]),
    _monster("Gold Or Else", [_otherwise({"type": "lose_gold_value", "amount": 300})]),
    _monster("Discard Hand Or Else", [_otherwise({"type": "discard_hand"})]),
    _monster("Lose Cards Or Else", [_otherwise({"type": "lose_cards", "count": 2})]),
    _monster("Lose Race Or Else", [_otherwise({"type": "lose_character_card", "axis": "race"})]),
    _monster(
        "Change Class Or Else", [_otherwise({"type": "change_character_card", "axis": "class"})]
    ),
    _monster("Change Sex Or Else", [_otherwise({"type": "change_sex"})]),
    _monster(
        "Rivals Take Or Else",
        [_otherwise({"type": "rivals_take", "takers": "left_then_right", "what": "item"})],
    ),
    _monster(
        "Rivals Take Hand Or Else",
        [_otherwise({"type": "rivals_take", "takers": "highest_level", "what": "hand_card"})],
    ),
    _monster("Steal Item Or Else", [_otherwise({"type": "steal_item"})]),
    _monster("Steal Big Item Or Else", [_otherwise({"type": "steal_item", "size": "big"})]),
    _monster("Steal Level Or Else", [_otherwise({"type": "steal_level"})]),
    _monster("Take From Discard Or Else", [_otherwise({"type": "take_from_discard"})]),
    _monster("Draw Or Else", [_otherwise({"type": "draw_treasures", "count": 1}, LOSE)]),
    _monster(
        "Lost Items Paid Or Else",
        [{"type": "lose_items", "count": "all"}, _otherwise({"type": "others_pay_value"})],
    ),
    # A roll whose chosen effects find nothing: the roll's own `otherwise` runs.
    _monster(
        "Roll Or Else",
        [
            _otherwise(
                {
                    "type": "roll",
                    "outcomes": [
                        {"min": 1, "max": 2, "effects": [{"type": "discard_hand"}]},
                        {"min": 3, "max": 5, "effects": [{"type": "lose_items", "count": 1}]},
                        {"min": 6, "max": 6, "effects": [LOSE]},
                    ],
                }
            )
        ],
    ),
    _monster(
        "Roll Amount",
        [
            {
                "type": "roll",
                "outcomes": [
                    {"min": 1, "max": 1, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                    {"min": 2, "max": 5, "effects": [GAIN]},
                    {"min": 6, "max": 6, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                ],
            }
        ],
    ),
    _monster(
        "Choose Or Else",
        [
            _otherwise(
                {
                    "type": "choose",
                    "options": [[{"type": "discard_hand"}], [{"type": "lose_items", "count": 1}]],
                }
            )
        ],
    ),
]

# discard_card of a character card (the victims with the Elf the second outcome names) or of
# an item; with none of that kind, the marker.
_DISCARD_MONSTERS = [
    _monster(
        "Discard Race Or Else",
        [
            _otherwise({"type": "discard_card", "kind": "race"}),
            {"type": "lose_levels", "amount": 1, "when": {"race": "elf"}},
        ],
    ),
    _monster("Discard Item Or Else", [_otherwise({"type": "discard_card", "kind": "item"})]),
]

# Stats and conditions at values no printed card has.
_EDGE_CARDS = [
    # A monster that does not pursue low Levels, except a Dwarf, named nowhere else on it.
    {
        **_monster("Snob", [LOSE], level=10),
        "effects": [{"type": "no_pursuit", "max_level": 3, "unless": {"race": "dwarf"}}],
    },
    # A one-shot only for the monster's side (every printed one is "either" or "player").
    {
        "name": "Syn Monster Tonic",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 3,
        "gold": 100,
        "side": "monster",
        "encoding": _FULL,
    },
    # A +1 bonus against a class: no printed monster's conditional bonus is as small.
    {
        **_monster("Wizard Hater", [LOSE], level=6),
        "effects": [{"type": "strength", "amount": 1, "when": {"class": "wizard"}}],
    },
    # An enhancer whose Treasure floor is 0, not the 1 of the printed one (Baby).
    {
        "name": "Syn Zero Floor",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": -5,
        "treasures": -1,
        "strength_floor": 1,
        "treasures_floor": 0,
        "encoding": _FULL,
    },
]

SYNTHETIC_CARDS: list[dict[str, Any]] = [*_OTHERWISE_MONSTERS, *_DISCARD_MONSTERS, *_EDGE_CARDS]


@cache
def synthetic_cards() -> tuple[CardBase, ...]:
    """The synthetic card documents, parsed (a document that no longer parses is a bug of
    this module, raised at once)."""
    return tuple(parse_card(document) for document in SYNTHETIC_CARDS)


@dataclass(frozen=True)
class LanguageCheck:
    """One unit of the family: a synthetic card's checks, or a group of scenarios."""

    name: str
    run: Callable[[], CardReport]

    @property
    def key(self) -> str:
        return f"{LANGUAGE_SET} / {self.name}"


def _card_check(card: CardBase) -> LanguageCheck:
    def run() -> CardReport:
        from validator.checks.entry_points import check_card

        report = check_card(card, LANGUAGE_SET)
        if report.status != "fail" and not report.verified:
            # Written to be predicted in full: a warning here means a check stopped seeing it.
            warnings = "; ".join(m.removeprefix("warn: ") for m in report.messages)
            report.fail(f"a synthetic card must be verified ({warnings})")
        return report

    return LanguageCheck(card.name, run)


# --------------------------------------------------------------------------------------------
# Scenarios the cards' own checks do not generate
# --------------------------------------------------------------------------------------------

Scenarios = Callable[[CheckContext], None]


def _scenario_check(
    name: str, documents: list[dict[str, Any]], scenarios: Scenarios
) -> LanguageCheck:
    """A group of scenarios around synthetic cards (`documents`), each run with an
    expectation written from the rules; any failure fails the group's report."""

    def run() -> CardReport:
        cards = [parse_card(d) for d in documents]
        report = CardReport(LANGUAGE_SET, name, "scenarios", "full")
        library = _library_for(cards[0], LANGUAGE_SET)
        for card in cards[1:]:
            library.add(LANGUAGE_SET, card)
        ctx = CheckContext(cards[0], LANGUAGE_SET, report, library)
        scenarios(ctx)
        report.verified = report.status != "fail"
        return report

    return LanguageCheck(name, run)


def _power(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": "power", "rank": 1, "encoding": _FULL, **extra}


THEFT = {"type": "meta_ability", "ability": "theft"}
FINGERS, SLEIGHT, KNACK, KNAVE = "Syn Fingers", "Syn Sleight", "Syn Knack", "Syn Knave"
THEFT_CARDS = [
    _power(FINGERS, effects=[THEFT]),
    _power(SLEIGHT, effects=[THEFT]),
    _power(KNACK, effects=[THEFT]),
    _power(KNAVE, effects=[THEFT]),
    _power("Syn Brawn", effects=[{"type": "strength", "amount": 1}]),
    # A class with a Theft ability of its own (as the core Thief's): it counts as one more
    # card granting Theft beside a Power.
    {
        "name": "Syn Pickpocket",
        "deck": "door",
        "kind": "class",
        "abilities": [
            {
                "name": "Theft",
                "timing": "outside_combat",
                "cost": {"discard": 1},
                "effects": [
                    {
                        "type": "roll",
                        "outcomes": [
                            {"min": 1, "max": 3, "effects": [LOSE]},
                            {
                                "min": 4,
                                "max": 6,
                                "effects": [{"type": "steal_item", "size": "small"}],
                            },
                        ],
                    }
                ],
            }
        ],
        "notes": "A test class: Theft as the core Thief has it.",
        "encoding": _FULL,
    },
    _monster("Brute", [LOSE]),
]
# The Super Munchkin rules: Theft takes one discard and a roll of 4 or more; each other card
# granting Theft takes 1 off the roll needed, never below 2. A roll that falls short costs a
# level; one that makes it takes a Small item another player (not in a fight) has.
THEFT_NEEDS = {1: 4, 2: 3, 3: 2, 4: 2}


def _theft_scenarios(ctx: CheckContext) -> None:
    ring, ram = "Validator Helm", "Validator Ram"  # a Small item and a Big one

    def table(sources: int, *, hand: list[str], victim_items: list[str]) -> list[dict[str, Any]]:
        thieves = [FINGERS, SLEIGHT, KNACK, KNAVE][:sources]
        return [
            {"name": "Thief", "level": 4, "in_play": thieves, "hand": hand},
            {"name": "Mark", "level": 3, "in_play": victim_items},
        ]

    use = {"use": FINGERS, "ability": "theft", "by": "Thief", "discard": ["Validator Door"]}
    for sources, needed in THEFT_NEEDS.items():
        for roll, succeeds in ((needed, True), (needed - 1, False)):
            if roll < 1:
                continue
            players = table(sources, hand=["Validator Door"], victim_items=[ring, ram])
            ctx.run(
                f"Theft with {sources} card(s) granting it, roll {roll}",
                {"players": players, "steps": [use], "dice": [roll]},
                expect_values(
                    levels={"Thief": 4 if succeeds else 3, "Mark": 3},
                    hand_sizes={"Thief": 0},
                    carried={"Thief": [ring] if succeeds else []},
                    in_play={"Mark": sorted([ram] if succeeds else [ring, ram])},
                ),
            )
    # A class with Theft beside one Power granting it: two cards, a 3 is enough, a 2 is not.
    for roll, succeeds in ((3, True), (2, False)):
        players = table(1, hand=["Validator Door"], victim_items=[ring])
        players[0]["in_play"] = ["Syn Pickpocket", FINGERS]
        ctx.run(
            f"Theft with a Power beside a class that has it, roll {roll}",
            {"players": players, "steps": [use], "dice": [roll]},
            expect_values(
                levels={"Thief": 4 if succeeds else 3},
                carried={"Thief": [ring] if succeeds else []},
                in_play={"Mark": [] if succeeds else [ring]},
            ),
        )
    # Nothing Small to take: a good roll takes nothing (the Big item stays), and costs nothing.
    ctx.run(
        "Theft with no Small item to take",
        {
            "players": table(1, hand=["Validator Door"], victim_items=[ram]),
            "steps": [use],
            "dice": [6],
        },
        expect_values(levels={"Thief": 4}, hand_sizes={"Thief": 0}, in_play={"Mark": [ram]}),
    )
    refused = [
        ("paid with no card", {**use, "discard": []}, ["Validator Door"]),
        ("paid with two cards", {**use, "discard": ["Validator Door"] * 2}, ["Validator Door"] * 2),
        ("paid with the card granting it", {**use, "discard": [FINGERS]}, ["Validator Door"]),
    ]
    for label, step, hand in refused:
        players = table(1, hand=hand, victim_items=[ring])
        ctx.run(
            f"Theft {label} is refused",
            {"players": players, "steps": [step], "dice": [6], "expect": {"error": True}},
            expect_values(
                levels={"Thief": 4},
                hand_sizes={"Thief": len(hand)},
                in_play={"Thief": [FINGERS], "Mark": [ring]},
            ),
        )
    # Any card in play pays, another Power or an item (the Super Munchkin rules, Classes).
    for payment in ("Syn Brawn", "Validator Sword"):
        players = table(1, hand=[], victim_items=[ring])
        players[0]["in_play"] = [FINGERS, payment]
        ctx.run(
            f"Theft paid with {payment} in play",
            {"players": players, "steps": [{**use, "discard": [payment]}], "dice": [4]},
            expect_values(
                levels={"Thief": 4},
                in_play={"Thief": sorted([FINGERS, ring]), "Mark": []},
            ),
        )
    # Never while fighting: the Thief's own fight refuses it, with the card kept.
    players = table(1, hand=["Validator Door"], victim_items=[ring])
    ctx.run(
        "Theft refused to a fighting Thief",
        {
            "players": players,
            "combat": {"fighter": "Thief", "monsters": ["Syn Brute"]},
            "steps": [use],
            "dice": [6],
            "expect": {"error": "in combat"},
        },
        expect_values(hand_sizes={"Thief": 1}, in_play={"Mark": [ring]}),
    )
    # A player in a fight is not stolen from: the Mark fights, so the only Small item is safe.
    players = table(1, hand=["Validator Door"], victim_items=[ring])
    ctx.run(
        "Theft takes nothing from a fighting player",
        {
            "players": players,
            "combat": {"fighter": "Mark", "monsters": ["Syn Brute"]},
            "steps": [use],
            "dice": [6],
        },
        expect_values(levels={"Thief": 4}, hand_sizes={"Thief": 0}, in_play={"Mark": [ring]}),
    )


def _item(name: str, slot: str = "other", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "deck": "treasure",
        "kind": "item",
        "slot": slot,
        "bonus": 0,
        "gold": 100,
        "encoding": _FULL,
        **extra,
    }


OUTCOME_CARDS = [
    _monster("Big Thief", [_otherwise({"type": "steal_item", "size": "big"})]),
    _monster("Level Thief", [_otherwise({"type": "steal_level"})]),
    _monster("Grave Robber", [_otherwise({"type": "take_from_discard"})]),
    {**_power("Syn Gnomish"), "kind": "race"},
    _monster("Discard Two Or Else", [_otherwise({"type": "discard_from_hand", "count": 2})]),
    _monster(
        "Discard Three Or Pay",
        [{"type": "discard_from_hand", "count": 3, "if_fewer": [LOSE]}],
    ),
    _monster(
        "Income Tax",
        [{"type": "lose_items", "count": "all"}, {"type": "others_pay_value"}],
    ),
    _monster("Toll", [{"type": "lose_gold_value", "amount": 5}]),
    # An `otherwise` holding an effect that is no outcome (a combat rule): it does nothing to
    # the victim, and the outcome beside it still applies.
    _monster(
        "Odd Otherwise",
        [_otherwise({"type": "discard_hand"}) | {"otherwise": [{"type": "no_help"}, GAIN]}],
    ),
    _item("Syn Penny", gold=1),  # the least Gold an item can be worth
    _monster("Tithe", [{"type": "draw_treasures", "count": 1, "recipient": "fighter"}]),
    _monster(
        "Die Table",
        [
            {
                "type": "roll",
                "outcomes": [
                    {"min": 1, "max": 1, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                    {"min": 2, "max": 5, "effects": [GAIN]},
                    {"min": 6, "max": 6, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                ],
            }
        ],
    ),
    # Die modifiers come from character cards, curses and followers (Chicken on Your Head).
    {**_power("Syn Leaden Die", effects=[{"type": "die_rolls", "amount": -1}]), "kind": "race"},
    {**_power("Syn Loaded Die", effects=[{"type": "die_rolls", "amount": 1}]), "kind": "class"},
]


def _outcome_scenarios(ctx: CheckContext) -> None:
    cart, ram = "Validator Cart", "Validator Ram"  # two Big items

    # Stealing a Big item beside one's own: one Big item is all a player may carry (core
    # rules), so one of the two goes to the lowest-Level player able to carry it, the Rival.
    def one_big_each(values: dict[str, Any]) -> str | None:
        hero = [i for i in values["in_play"]["Hero"] if i in (cart, ram)]
        rival = [i for i in values["in_play"]["Rival"] if i in (cart, ram)]
        if len(hero) == 1 and len(rival) == 1:
            return None
        return f"expected one Big item each, got Hero {hero}, Rival {rival}"

    ctx.run(
        "a Big item stolen beside one's own",
        {
            "players": [
                {"name": "Hero", "level": 5, "in_play": [cart]},
                {"name": "Rival", "level": 3, "in_play": [ram]},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Big Thief"]},
            "steps": [{"resolve": True}],
            "dice": [1],
            "expect": {"outcome": "caught", "levels": {"Hero": 5, "Rival": 3}},
        },
        one_big_each,
    )
    # Outcomes that act on another player: the otherwise (a level) stays out when they do.
    ctx.run(
        "a level stolen from a rival above Level 1",
        {
            "players": [{"name": "Hero", "level": 5}, {"name": "Rival", "level": 3}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Level Thief"]},
            "steps": [{"resolve": True}],
            "dice": [1],
        },
        expect_values(outcome="caught", levels={"Hero": 6, "Rival": 2}),
    )
    ctx.run(
        "a card taken from the discards",
        {
            "players": [
                {"name": "Hero", "level": 5},
                {"name": "Rival", "level": 3, "in_play": ["Syn Gnomish"]},
            ],
            "steps": [
                {"discard_card": "Syn Gnomish", "by": "Rival"},
                {"kick_door": "Hero"},
                {"resolve": True},
            ],
            "deck": {"door": ["Syn Grave Robber"]},
            "dice": [1],
        },
        expect_values(outcome="caught", levels={"Hero": 5}, hand_sizes={"Hero": 1}),
    )
    # discard_from_hand acts when it throws away a card, even fewer than it asks for; with an
    # empty hand its otherwise comes instead. Holding fewer than asked costs a level too.
    for hand, level in ((3, 5), (1, 5), (0, 6)):
        ctx.run(
            f"discard two cards or else, holding {hand}",
            {
                "players": [
                    {"name": "Hero", "level": 5, "hand": ["Validator Door"] * hand},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": ["Syn Discard Two Or Else"]},
                "steps": [{"resolve": True}],
                "dice": [1],
            },
            expect_values(
                outcome="caught", levels={"Hero": level}, hand_sizes={"Hero": max(0, hand - 2)}
            ),
        )
    for hand, level in ((3, 5), (2, 4)):
        ctx.run(
            f"discard three cards, holding {hand}",
            {
                "players": [
                    {"name": "Hero", "level": 5, "hand": ["Validator Door"] * hand},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": ["Syn Discard Three Or Pay"]},
                "steps": [{"resolve": True}],
                "dice": [1],
            },
            expect_values(outcome="caught", levels={"Hero": level}, hand_sizes={"Hero": 0}),
        )
    # The others pay what the victim's lost items were worth, however little: 1 Gold costs
    # the Rival its cheapest item that covers it.
    ctx.run(
        "the others pay for an item worth 1 Gold",
        {
            "players": [
                {"name": "Hero", "level": 5, "in_play": ["Syn Penny"]},
                {"name": "Rival", "level": 3, "in_play": ["Validator Helm", "Validator Ram"]},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Income Tax"]},
            "steps": [{"resolve": True}],
            "dice": [1],
        },
        expect_values(
            outcome="caught", levels={"Rival": 3}, in_play={"Hero": [], "Rival": ["Validator Ram"]}
        ),
    )

    # Items worth at least 5 Gold go, the least that pays: five of thirteen 1-Gold Pennies.
    def pennies_left(count: int) -> Callable[[dict[str, Any]], str | None]:
        def accept(values: dict[str, Any]) -> str | None:
            left = values["in_play"]["Hero"].count("Syn Penny")
            return None if left == count else f"expected {count} Pennies left, got {left}"

        return accept

    ctx.run(
        "5 Gold paid from thirteen 1-Gold items",
        {
            "players": [
                {"name": "Hero", "level": 5, "in_play": ["Syn Penny"] * 13},
                {"name": "Rival"},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Toll"]},
            "steps": [{"resolve": True}],
            "dice": [1],
            "expect": {"outcome": "caught"},
        },
        pennies_left(8),
    )
    ctx.run(
        "an otherwise holding a combat rule beside a level",
        {
            "players": [{"name": "Hero", "level": 5}, {"name": "Rival"}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Odd Otherwise"]},
            "steps": [{"resolve": True}],
            "dice": [1],
        },
        expect_values(outcome="caught", levels={"Hero": 6}),
    )
    # Treasure the card gives "the fighter": a caught helper's draw goes to the fighter too.
    ctx.run(
        "a helper's Treasure drawn for the fighter",
        {
            "players": [{"name": "Hero", "level": 5}, {"name": "Rival", "level": 3}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Tithe"]},
            "steps": [{"help": "Rival"}, {"resolve": True}],
            "dice": [1, 1],
        },
        expect_values(outcome="caught", hand_sizes={"Hero": 2, "Rival": 0}),
    )
    # A die modifier takes a roll past the die's faces: it reads as the nearest face of the
    # table (a 0 as the 1, a 7 as the 6), and an amount "roll" is that face.
    for die_item, level, rolled, after in (
        ("Syn Leaden Die", 5, 1, 4),  # 1 - 1 = 0: the 1 face, one level lost
        ("Syn Loaded Die", 9, 6, 3),  # 6 + 1 = 7: the 6 face, six levels lost
        ("Syn Leaden Die", 5, 2, 4),  # 2 - 1 = 1: the 1 face
        ("Syn Loaded Die", 5, 1, 6),  # 1 + 1 = 2: a level gained
    ):
        ctx.run(
            f"the die table with {die_item}, die {rolled}",
            {
                "players": [{"name": "Hero", "level": level, "in_play": [die_item]}],
                "combat": {"fighter": "Hero", "monsters": ["Syn Die Table"]},
                "steps": [{"resolve": True}],
                "dice": [1, rolled],
            },
            expect_values(outcome="caught", levels={"Hero": after}),
        )


def _follower(name: str, kind: str, bonus: int, **extra: Any) -> dict[str, Any]:
    deck = "door" if kind == "ally" else "treasure"
    return {
        "name": name,
        "deck": deck,
        "kind": kind,
        "bonus": bonus,
        "encoding": _FULL,
        **extra,
    }


# Stand-ins for the Allies, Sidekicks and Ships whose printed facts no source gives (every one
# of the five sets is text_only or has unknown stats).
FOLLOWER_CARDS = [
    _follower("Syn Buddy", "ally", 1),
    _follower("Syn Pal", "ally", 2),
    _follower("Syn Squire", "sidekick", 1, gold=200),
    _follower("Syn Page", "sidekick", 1, gold=1),  # the least Gold value there is
    _follower("Syn Stray", "ally", 1, timing="own_turn"),
    # An Ally with an ability of its own: discard a card for +2 in its owner's fight.
    _follower(
        "Syn Hound",
        "ally",
        1,
        abilities=[
            {
                "name": "Fetch",
                "timing": "combat",
                "cost": {"discard": 1},
                "effects": [{"type": "strength", "amount": 2}],
            }
        ],
    ),
    _monster("Goon", [LOSE], level=6),
    _monster("Eel", [LOSE]),
    _monster("Crab", [LOSE], level=2),
    {
        "name": "Syn Sloop",
        "deck": "door",
        "kind": "ship",
        "slot": "ship",
        "big": True,
        "bonus": 2,
        "gold": 400,
        "encoding": _FULL,
    },
    _item("Syn Cannons", bonus=3, gold=600, tags=["ship-enhancer"]),
]


def _follower_scenarios(ctx: CheckContext) -> None:
    # One Ally at a time (SpongeBob rules): a new one takes the old one's place.
    ctx.run(
        "a second Ally replaces the first",
        {
            "players": [
                {"name": "Patrick", "level": 3, "in_play": ["Syn Buddy"], "hand": ["Syn Pal"]},
                {"name": "Sandy"},
            ],
            "steps": [{"play": "Syn Pal", "by": "Patrick"}],
            "expect": {
                "in_play": {"Patrick": ["Syn Pal"]},
                "not_in_play": {"Patrick": ["Syn Buddy"]},
            },
        },
        expect_values(hand_sizes={"Patrick": 0}),
    )
    # An Ally sacrificed lets its fighter and the helper both get away, no roll made.
    ctx.run(
        "an Ally sacrificed saves the fighter and the helper",
        {
            "players": [
                {"name": "Patrick", "level": 3, "in_play": ["Syn Buddy"]},
                {"name": "Sandy", "level": 4},
            ],
            "combat": {"fighter": "Patrick", "monsters": ["Syn Eel"]},
            "steps": [
                {"help": "Sandy"},
                {"sacrifice": "Syn Buddy", "by": "Patrick"},
                {"resolve": True},
            ],
            "dice": [1, 1],
            "expect": {"not_in_play": {"Patrick": ["Syn Buddy"]}},
        },
        expect_values(outcome="escaped", levels={"Patrick": 3, "Sandy": 4}),
    )
    # Only a player in the fight may sacrifice a Sidekick: the owner watching keeps it.
    ctx.run(
        "a Sidekick is not sacrificed by a player out of the fight",
        {
            "players": [
                {"name": "Kate", "level": 1},
                {"name": "Lex", "level": 3, "in_play": ["Syn Squire"]},
            ],
            "combat": {"fighter": "Kate", "monsters": ["Syn Crab"]},
            "steps": [{"sacrifice": "Syn Squire", "by": "Lex"}],
            "expect": {"error": "not fighting", "in_play": {"Lex": ["Syn Squire"]}},
        },
        expect_values(levels={"Kate": 1, "Lex": 3}),
    )
    # A follower played only on its owner's turn: refused on another's, kept in the hand.
    for active, allowed in (("Patrick", True), ("Sandy", False)):
        players = [{"name": "Patrick", "level": 3, "hand": ["Syn Stray"]}, {"name": "Sandy"}]
        if active == "Sandy":
            players.reverse()
        document: dict[str, Any] = {
            "players": players,
            "steps": [{"play": "Syn Stray", "by": "Patrick"}],
        }
        if not allowed:
            document["expect"] = {"error": "own turn"}
        ctx.run(
            f"an Ally played only on its owner's turn, on {active}'s turn",
            document,
            expect_values(
                hand_sizes={"Patrick": 0 if allowed else 1},
                in_play={"Patrick": ["Syn Stray"] if allowed else []},
            ),
        )
    # A Sidekick with a Gold value changes hands like an Item (Super Munchkin), even at 1 Gold.
    ctx.run(
        "a Sidekick worth 1 Gold given away",
        {
            "players": [
                {"name": "Lex", "level": 3, "in_play": ["Syn Page"]},
                {"name": "Kate", "level": 2},
            ],
            "steps": [{"give": ["Syn Page"], "by": "Lex", "to": "Kate"}],
        },
        expect_values(in_play={"Lex": [], "Kate": ["Syn Page"]}),
    )
    # An Ally's own ability: a card discarded for +2 to its owner in the fight.
    ctx.run(
        "an Ally's ability used in its owner's fight",
        {
            "players": [
                {
                    "name": "Patrick",
                    "level": 3,
                    "in_play": ["Syn Hound"],
                    "hand": ["Validator Door"],
                },
                {"name": "Sandy"},
            ],
            "combat": {"fighter": "Patrick", "monsters": ["Syn Goon"]},
            "steps": [
                {
                    "use": "Syn Hound",
                    "ability": "fetch",
                    "by": "Patrick",
                    "discard": ["Validator Door"],
                }
            ],
        },
        expect_values(fighter_strength=6, hand_sizes={"Patrick": 0}),
    )
    # A Ship enhancer is fitted on its owner's turn, outside their fight (Booty rules); the
    # Ship's bonus and the enhancer's then count together.
    ship = {"name": "Anne", "level": 3, "in_play": ["Syn Sloop"], "hand": ["Syn Cannons"]}
    fit = {"play": "Syn Cannons", "by": "Anne", "with": "Syn Sloop"}
    ctx.run(
        "a Ship enhancer fitted on its owner's turn",
        {
            "players": [ship, {"name": "Bart"}],
            "steps": [fit, {"kick_door": "Anne"}],
            "deck": {"door": ["Syn Crab"]},
            "expect": {"fighter_strength": 8},
        },
        expect_values(hand_sizes={"Anne": 0}),
    )
    ctx.run(
        "no Ship enhancer fitted during its owner's fight",
        {
            "players": [ship, {"name": "Bart"}],
            "combat": {"fighter": "Anne", "monsters": ["Syn Crab"]},
            "steps": [fit],
            "expect": {"error": "combat", "fighter_strength": 5},
        },
        expect_values(hand_sizes={"Anne": 1}),
    )
    ctx.run(
        "no Ship enhancer fitted on another player's turn",
        {
            "players": [{"name": "Bart", "level": 3}, {**ship}],
            "steps": [fit],
            "expect": {"error": "own turn"},
        },
        expect_values(hand_sizes={"Anne": 1}),
    )


def _meta(ability: str) -> dict[str, Any]:
    return {"type": "meta_ability", "ability": ability}


META_CARDS = [
    _power("Syn Wings", effects=[_meta("flight")]),
    _item("Syn Jetpack", effects=[_meta("flight")]),
    _power("Syn Lair", effects=[_meta("secret_hq")]),
    _power("Syn Bunker", effects=[_meta("secret_hq")]),
    _power("Syn Mask", effects=[_meta("secret_identity")]),
    _item("Syn Disguise", effects=[_meta("secret_identity")]),
    _monster("Brute", [LOSE]),
    # Races that let their player keep more cards (as the Dwarf does), and a card that lets a
    # player be two races at once (as Half-Breed does).
    {**_power("Syn Stout", effects=[{"type": "hand_size", "size": 6}]), "kind": "race"},
    {**_power("Syn Giant", effects=[{"type": "hand_size", "size": 7}]), "kind": "race"},
    {
        "name": "Syn Half",
        "deck": "door",
        "kind": "other_door",
        "effects": [{"type": "extra_character_card", "axis": "race"}],
        "encoding": _FULL,
    },
    {
        "name": "Syn Snare",
        "deck": "door",
        "kind": "trap",
        "effects": [LOSE],
        "encoding": _FULL,
    },
]


def _meta_scenarios(ctx: CheckContext) -> None:
    # Super Munchkin rules, meta-abilities. Flight: +1 to Run Away, however many cards grant
    # it (a 5 escapes; with Flight a 4 does, a 3 never).
    for flights, die, escapes in (
        (["Syn Wings"], 4, True),
        (["Syn Wings"], 3, False),
        (["Syn Wings", "Syn Jetpack"], 3, False),
        (["Syn Wings", "Syn Jetpack"], 4, True),
    ):
        ctx.run(
            f"Flight from {' and '.join(flights)}, die {die}",
            {
                "players": [{"name": "Amanda", "level": 4, "in_play": flights}, {"name": "Erin"}],
                "combat": {"fighter": "Amanda", "monsters": ["Syn Brute"]},
                "steps": [{"resolve": True}],
                "dice": [die],
            },
            expect_values(
                outcome="escaped" if escapes else "caught",
                levels={"Amanda": 4 if escapes else 3},
            ),
        )
    # Secret HQ: one more card kept in the hand per card granting it; Charity gives the rest
    # to the lowest Level (core rules: five cards at the end of the turn).
    for lairs in (["Syn Lair"], ["Syn Lair", "Syn Bunker"]):
        kept = 5 + len(lairs)
        ctx.run(
            f"Secret HQ from {len(lairs)} card(s) at the end of the turn",
            {
                "players": [
                    {"name": "Amanda", "level": 4, "in_play": lairs, "hand": ["Syn Snare"] * 8},
                    {"name": "Erin", "level": 1},
                ],
                "steps": [{"end_turn": True}],
            },
            expect_values(hand_sizes={"Amanda": kept, "Erin": 8 - kept}),
        )
    # The hand a race allows: the largest of those a player's races allow (each lets its player
    # keep that many); Secret HQ adds its card to it.
    for cards, kept in (
        (["Syn Stout"], 6),
        (["Syn Giant"], 7),
        (["Syn Stout", "Syn Half", "Syn Giant"], 7),
        (["Syn Giant", "Syn Half", "Syn Stout"], 7),
        (["Syn Stout", "Syn Lair"], 7),
    ):
        ctx.run(
            f"the hand kept with {', '.join(cards)}",
            {
                "players": [
                    {"name": "Amanda", "level": 4, "in_play": cards, "hand": ["Syn Snare"] * 9},
                    {"name": "Erin", "level": 1},
                ],
                "steps": [{"end_turn": True}],
            },
            expect_values(hand_sizes={"Amanda": kept, "Erin": 9 - kept}),
        )
    # Secret Identity: a Trap misses on 1-3, hits on 4-6, and on a 6 the card granting the
    # ability goes too (a Power or an item).
    for source in ("Syn Mask", "Syn Disguise"):
        for die, hits, lost in ((3, False, False), (4, True, False), (6, True, True)):
            ctx.run(
                f"a Trap on {source}'s owner, die {die}",
                {
                    "players": [
                        {"name": "Amanda", "level": 4, "in_play": [source]},
                        {"name": "Erin", "hand": ["Syn Snare"]},
                    ],
                    "steps": [{"play": "Syn Snare", "by": "Erin", "on": "Amanda"}],
                    "dice": [die],
                    "expect": {"not_in_play" if lost else "in_play": {"Amanda": [source]}},
                },
                expect_values(levels={"Amanda": 3 if hits else 4}, hand_sizes={"Erin": 0}),
            )


ONE_SHOT_CARDS = [
    # The first card's conditions bring their trait cards (an Elf) into the library.
    {
        "name": "Syn Elf Pie",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 3,
        "gold": 100,
        "side": "either",
        "usable_by": {"race": "elf"},
        "encoding": _FULL,
    },
    _monster("Goon", [LOSE], level=6),
    # A one-shot whose effect holds only for an Elf playing it (the printed ones with a
    # condition on an effect are only kills and doubles).
    {
        "name": "Syn Elf Charm",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 0,
        "gold": 100,
        "side": "player",
        "effects": [{"type": "strength", "amount": 4, "when": {"race": "elf"}}],
        "encoding": _FULL,
    },
    # One-shots whose escape or removal works only for an Elf playing them.
    {
        "name": "Syn Elf Wings",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 0,
        "gold": 100,
        "side": "player",
        "effects": [{"type": "automatic_escape", "when": {"race": "elf"}}],
        "encoding": _FULL,
    },
    {
        "name": "Syn Elf Banish",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 0,
        "gold": 100,
        "side": "either",
        "effects": [{"type": "remove_monster", "when": {"race": "elf"}}],
        "encoding": _FULL,
    },
    # A one-shot for the monster's side only: played without naming a monster, it still goes
    # to the monster.
    {
        "name": "Syn Monster Brew",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 3,
        "gold": 100,
        "side": "monster",
        "encoding": _FULL,
    },
]


def _one_shot_scenarios(ctx: CheckContext) -> None:
    ctx.run(
        "a monster-side one-shot played without naming the monster",
        {
            "players": [
                {"name": "Agent", "level": 3, "hand": ["Syn Monster Brew"]},
                {"name": "Other"},
            ],
            "combat": {"fighter": "Agent", "monsters": ["Syn Goon"]},
            "steps": [{"play": "Syn Monster Brew", "by": "Agent"}],
        },
        expect_values(fighter_strength=3, monster_strength=9, hand_sizes={"Agent": 0}),
    )
    # A one-shot usable only by an Elf: an Elf's bonus counts; anyone else is refused, the
    # card kept in the hand.
    for race, allowed in (("Elf", True), (None, False)):
        fighter = {"name": "Agent", "level": 3, "hand": ["Syn Elf Pie"]}
        if race:
            fighter["in_play"] = [race]
        document: dict[str, Any] = {
            "players": [fighter, {"name": "Other"}],
            "combat": {"fighter": "Agent", "monsters": ["Syn Goon"]},
            "steps": [{"play": "Syn Elf Pie", "by": "Agent"}],
        }
        if not allowed:
            document["expect"] = {"error": "usable only by"}
        charm = {**fighter, "hand": ["Syn Elf Charm"]}
        ctx.run(
            f"a one-shot's bonus for an Elf played by {race or 'a Human'}",
            {
                **document,
                "players": [charm, {"name": "Other"}],
                "steps": [{"play": "Syn Elf Charm", "by": "Agent"}],
                "expect": {},
            },
            expect_values(fighter_strength=7 if allowed else 3, hand_sizes={"Agent": 0}),
        )
        wings = {**fighter, "hand": ["Syn Elf Wings"]}
        ctx.run(
            f"an escape only for an Elf played by {race or 'a Human'}, die 1",
            {
                **document,
                "players": [wings, {"name": "Other"}],
                "steps": [{"play": "Syn Elf Wings", "by": "Agent"}, {"resolve": True}],
                "dice": [1],
                "expect": {},
            },
            expect_values(
                outcome="escaped" if allowed else "caught",
                levels={"Agent": 3 if allowed else 2},
                hand_sizes={"Agent": 0},
            ),
        )
        banish = {**fighter, "hand": ["Syn Elf Banish"]}
        ctx.run(
            f"a removal only for an Elf played by {race or 'a Human'}",
            {
                **document,
                "players": [banish, {"name": "Other"}],
                "steps": [{"play": "Syn Elf Banish", "by": "Agent", "on": "Syn Goon"}],
                "expect": {},
            },
            expect_values(
                outcome="won" if allowed else "none",
                levels={"Agent": 3},
                hand_sizes={"Agent": 0},
            ),
        )
        ctx.run(
            f"a one-shot only for an Elf played by {race or 'a Human'}",
            document,
            expect_values(
                fighter_strength=6 if allowed else 3, hand_sizes={"Agent": 0 if allowed else 1}
            ),
        )


def _origin(name: str, amount: int) -> dict[str, Any]:
    return {
        "name": name,
        "deck": "door",
        "kind": "origin",
        "effects": [{"type": "extra_power_rank", "amount": amount}],
        "encoding": _FULL,
    }


POWER_CARDS = [
    _origin("Syn Spider Bite", 2),
    _origin("Syn Lab Accident", 1),
    _power("Syn Might", effects=[{"type": "strength", "amount": 1}]),
    {**_power("Syn Blaze", effects=[{"type": "strength", "amount": 2}]), "rank": 2},
    {**_power("Syn Nova", effects=[{"type": "strength", "amount": 3}]), "rank": 3},
    {"name": "Syn Hex", "deck": "door", "kind": "curse", "effects": [LOSE], "encoding": _FULL},
    {
        "name": "Syn Doom",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "death"}],
        "encoding": _FULL,
    },
    {
        "name": "Syn Origin Thief",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "lose_character_card", "axis": "origin"}],
        "encoding": _FULL,
    },
]
RANKS = {"Syn Might": 1, "Syn Blaze": 2, "Syn Nova": 3}


def _power_scenarios(ctx: CheckContext) -> None:
    # Super Munchkin rules: any number of Origins; Powers up to a total Rank of the Level,
    # raised by what the Origins add; Origins lost at death.
    ctx.run(
        "two Origins played on one's turn",
        {
            "players": [
                {"name": "Amanda", "level": 2, "hand": ["Syn Spider Bite", "Syn Lab Accident"]},
                {"name": "Erin"},
            ],
            "steps": [
                {"play": "Syn Spider Bite", "by": "Amanda"},
                {"play": "Syn Lab Accident", "by": "Amanda"},
            ],
            "expect": {"in_play": {"Amanda": ["Syn Spider Bite", "Syn Lab Accident"]}},
        },
        expect_values(hand_sizes={"Amanda": 0}),
    )
    ctx.run(
        "an Origin is refused on another player's turn",
        {
            "players": [{"name": "Erin"}, {"name": "Amanda", "hand": ["Syn Spider Bite"]}],
            "steps": [{"play": "Syn Spider Bite", "by": "Amanda"}],
            "expect": {"error": "own turn"},
        },
        expect_values(hand_sizes={"Amanda": 1}),
    )
    for level, origins, power, allowed in (
        (2, [], "Syn Blaze", True),  # Rank 2 at Level 2
        (2, [], "Syn Nova", False),  # Rank 3 above Level 2
        (2, ["Syn Lab Accident"], "Syn Nova", True),  # Level 2 + 1
        (1, ["Syn Spider Bite"], "Syn Nova", True),  # Level 1 + 2
        (1, ["Syn Lab Accident"], "Syn Nova", False),  # Level 1 + 1
    ):
        document: dict[str, Any] = {
            "players": [
                {"name": "Amanda", "level": level, "in_play": origins, "hand": [power]},
                {"name": "Erin"},
            ],
            "steps": [{"play": power, "by": "Amanda"}],
        }
        if not allowed:
            document["expect"] = {"error": True}
        ctx.run(
            f"a Rank {RANKS[power]} Power at Level {level} with {origins or 'no Origin'}",
            document,
            expect_values(hand_sizes={"Amanda": 0 if allowed else 1}),
        )

    # Losing a level below the Powers' total Rank discards Powers (the player's pick) until
    # what is left fits the new Level.
    def fits(level: int) -> Callable[[dict[str, Any]], str | None]:
        def accept(values: dict[str, Any]) -> str | None:
            kept = [c for c in values["in_play"]["Amanda"] if c in RANKS]
            total = sum(RANKS[c] for c in kept)
            if values["levels"]["Amanda"] != level:
                return f"expected Level {level}, got {values['levels']['Amanda']}"
            if total > level or not kept:
                return f"the Powers kept {kept} (Rank {total}) do not fit Level {level}"
            if len(kept) == 2:
                return f"expected a Power discarded, kept {kept}"
            return None

        return accept

    ctx.run(
        "a level lost below the Powers' Rank",
        {
            "players": [
                {"name": "Amanda", "level": 3, "in_play": ["Syn Blaze", "Syn Might"]},
                {"name": "Bob", "hand": ["Syn Hex"]},
            ],
            "steps": [{"play": "Syn Hex", "by": "Bob", "on": "Amanda"}],
        },
        fits(2),
    )
    # Death takes the Origins: the Powers they made room for go too, down to the Level.
    ctx.run(
        "death discards the Origins and the Powers they made room for",
        {
            "players": [
                {"name": "Amanda", "level": 2, "in_play": ["Syn Spider Bite", "Syn Nova"]},
                {"name": "Bob", "hand": ["Syn Doom"]},
            ],
            "steps": [{"play": "Syn Doom", "by": "Bob", "on": "Amanda"}],
            "expect": {
                "dead": ["Amanda"],
                "not_in_play": {"Amanda": ["Syn Spider Bite", "Syn Nova"]},
            },
        },
        expect_values(levels={"Amanda": 2}),
    )
    # An Origin lost any other way stops making room too (the Powers' Rank rule, Origins
    # excepted): a Rank 3 Power at Level 2 goes with the Origin that allowed it.
    ctx.run(
        "an Origin lost to a curse takes the Powers it made room for",
        {
            "players": [
                {"name": "Amanda", "level": 2, "in_play": ["Syn Spider Bite", "Syn Nova"]},
                {"name": "Bob", "hand": ["Syn Origin Thief"]},
            ],
            "steps": [{"play": "Syn Origin Thief", "by": "Bob", "on": "Amanda"}],
            "expect": {"not_in_play": {"Amanda": ["Syn Spider Bite", "Syn Nova"]}},
        },
        expect_values(levels={"Amanda": 2}),
    )


def _bonus_monster(name: str, effect: dict[str, Any], level: int = 6) -> dict[str, Any]:
    return {**_monster(name, [LOSE], level=level), "effects": [effect]}


CONDITION_CARDS: list[dict[str, Any]] = [
    _bonus_monster(
        "Low Bully", {"type": "strength", "amount": 3, "when": {"level": {"min": 2, "max": 4}}}
    ),
    _bonus_monster(
        "Bottom Feeder", {"type": "strength", "amount": 3, "when": {"level_rank": "lowest"}}
    ),
    _bonus_monster(
        "Top Hunter", {"type": "strength", "amount": 3, "when": {"level_rank": "highest"}}
    ),
    _bonus_monster("Brawny", {"type": "strength", "amount": 2}),
    _item(
        "Syn Mid Stick",
        effects=[{"type": "runaway", "amount": 2, "when": {"monster_level": {"min": 3, "max": 8}}}],
    ),
    *(_monster(f"Level {n}", [LOSE], level=n) for n in (2, 3, 8, 9)),
    _item("Syn Pack Fighter", effects=[{"type": "strength", "amount": 2, "per": "monster"}]),
    # +2 for a player who has an Ally in play; an item is no Ally.
    _item(
        "Syn Leash", effects=[{"type": "strength", "amount": 2, "when": {"has_in_play": "ally"}}]
    ),
    _follower("Syn Buddy", "ally", 1),
    # A Level 0 monster (its +5 makes it win), and a Run Away bonus against Level 1 and up.
    _bonus_monster("Level 0", {"type": "strength", "amount": 5}, level=0),
    _item(
        "Syn Floor Stick",
        effects=[{"type": "runaway", "amount": 2, "when": {"monster_level": {"min": 1}}}],
    ),
    # An enhancer taking a Treasure off, down to a floor of none.
    {
        "name": "Syn Thin Floor",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": -5,
        "treasures": -1,
        "strength_floor": 1,
        "treasures_floor": 0,
        "encoding": _FULL,
    },
    {
        "name": "Syn Doom",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "death"}],
        "encoding": _FULL,
    },
]


def _condition_scenarios(ctx: CheckContext) -> None:
    # A bonus against a fighter of Level 2 to 4: both bounds count as inside.
    for level, bonus in ((1, 0), (2, 3), (4, 3), (5, 0)):
        ctx.run(
            f"+3 against Level 2 to 4, fighter at Level {level}",
            {
                "players": [{"name": "Hero", "level": level}, {"name": "Rival", "level": 3}],
                "combat": {"fighter": "Hero", "monsters": ["Syn Low Bully"]},
            },
            expect_values(monster_strength=6 + bonus, fighter_strength=level),
        )
    # Against the lowest (or highest) Level at the table: a tie counts as lowest (highest).
    for monster, rank in (("Syn Bottom Feeder", "lowest"), ("Syn Top Hunter", "highest")):
        for level in (2, 3, 4):
            holds = level <= 3 if rank == "lowest" else level >= 3
            ctx.run(
                f"+3 against the {rank} Level, fighter at {level}, the other at 3",
                {
                    "players": [{"name": "Hero", "level": level}, {"name": "Rival", "level": 3}],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                },
                expect_values(monster_strength=6 + 3 * holds),
            )
    # A monster's own unconditional bonus adds to its Level.
    ctx.run(
        "a monster's unconditional +2",
        {
            "players": [{"name": "Hero", "level": 3}, {"name": "Rival"}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Brawny"]},
        },
        expect_values(monster_strength=8),
    )
    # +2 to Run Away from a monster of Level 3 to 8 (both bounds inside): a 3 then escapes.
    for monster_level in (2, 3, 8, 9):
        escapes = 3 <= monster_level <= 8
        ctx.run(
            f"+2 to Run Away from Level 3 to 8, a Level {monster_level} monster, die 3",
            {
                "players": [
                    {"name": "Hero", "level": 1, "in_play": ["Syn Mid Stick"]},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": [f"Syn Level {monster_level}"]},
                "steps": [{"resolve": True}],
                "dice": [3],
            },
            expect_values(outcome="escaped" if escapes else "caught"),
        )
    # Against a Level 0 monster "Level 1 and up" does not hold: a 3 is caught.
    ctx.run(
        "+2 to Run Away from Level 1 and up, a Level 0 monster, die 3",
        {
            "players": [
                {"name": "Hero", "level": 1, "in_play": ["Syn Floor Stick"]},
                {"name": "Rival"},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Level 0"]},
            "steps": [{"resolve": True}],
            "dice": [3],
        },
        expect_values(outcome="caught"),
    )
    # An enhancer's Treasure floor of 0: the monster's one Treasure goes, none is drawn.
    ctx.run(
        "an enhancer's Treasure floor of none",
        {
            "players": [
                {"name": "Hero", "level": 5, "hand": ["Syn Thin Floor"]},
                {"name": "Rival"},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Level 2"]},
            "steps": [
                {"play": "Syn Thin Floor", "by": "Hero", "on": "Syn Level 2"},
                {"resolve": True},
            ],
        },
        expect_values(outcome="won", monster_strength=1, treasures_drawn=0, levels={"Hero": 6}),
    )
    # +2 with an Ally in play: not for an item, only for the Ally (+1 of its own).
    for table, strength in ((["Syn Leash", "Validator Helm"], 4), (["Syn Leash", "Syn Buddy"], 6)):
        ctx.run(
            f"+2 with an Ally in play, holding {', '.join(table)}",
            {
                "players": [{"name": "Hero", "level": 3, "in_play": table}, {"name": "Rival"}],
                "combat": {"fighter": "Hero", "monsters": ["Syn Level 8"]},
            },
            expect_values(fighter_strength=strength),
        )
    # +2 per monster in the fight: +2 against one, +4 against two.
    for monsters in (["Syn Level 8"], ["Syn Level 8", "Syn Level 9"]):
        ctx.run(
            f"+2 per monster against {len(monsters)}",
            {
                "players": [
                    {"name": "Hero", "level": 1, "in_play": ["Syn Pack Fighter"]},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": monsters},
            },
            expect_values(fighter_strength=1 + 2 * len(monsters)),
        )
    # The dead do not help: killed this turn, a player is back only when the next turn starts
    # (core rules, Death).
    ctx.run(
        "a player killed this turn cannot help",
        {
            "players": [
                {"name": "Hero", "level": 3, "hand": ["Syn Doom"]},
                {"name": "Rival", "level": 5},
            ],
            "steps": [
                {"play": "Syn Doom", "by": "Hero", "on": "Rival"},
                {"kick_door": "Hero"},
                {"help": "Rival"},
            ],
            "deck": {"door": ["Syn Level 9"]},
            "expect": {"error": True, "dead": ["Rival"]},
        },
        expect_values(fighter_strength=3),
    )


ABILITY_CARDS = [
    # A class whose ability, used at any time for nothing, has its player take the top Door
    # discard instead of kicking the deck (as the Cleric's Resurrection does, before a draw).
    {
        "name": "Syn Digger",
        "deck": "door",
        "kind": "class",
        "abilities": [{"name": "Dig", "timing": "any", "effects": [{"type": "draw_from_discard"}]}],
        "notes": "A test class: takes the top Door discard instead of kicking the deck.",
        "encoding": _FULL,
    },
    {**_power("Syn Gnomish"), "kind": "race"},
    _monster("Level 9", [LOSE], level=9),
    # An ability aimed at a fighting player, usable at any time: with no fight, no one is.
    {
        "name": "Syn Heckler",
        "deck": "door",
        "kind": "class",
        "abilities": [
            {
                "name": "Jeer",
                "timing": "any",
                "target": "fighting_player",
                "effects": [{"type": "strength", "amount": -2}],
            }
        ],
        "notes": "A test class: -2 to a fighting player, at any time.",
        "encoding": _FULL,
    },
    # Undead monsters, and a card carrying the undead tag that is no monster.
    {**_monster("Ghoul", [LOSE], level=4), "tags": ["undead"]},
    {**_monster("Wight", [LOSE], level=3), "tags": ["undead"]},
    {
        "name": "Syn Grave Dust",
        "deck": "door",
        "kind": "other_door",
        "tags": ["undead"],
        "encoding": _FULL,
    },
    # One more Treasure for a win on Level alone: no bonus on the fighting side.
    {
        **_monster("Purist", [LOSE], level=6),
        "effects": [{"type": "extra_treasures", "amount": 1, "when": {"bonuses_used": False}}],
    },
]


def _ability_scenarios(ctx: CheckContext) -> None:
    ctx.run(
        "an ability taking the top Door discard instead of the deck",
        {
            "players": [
                {"name": "Hero", "level": 3, "in_play": ["Syn Digger"]},
                {"name": "Rival", "level": 2, "in_play": ["Syn Gnomish"]},
            ],
            "steps": [
                {"discard_card": "Syn Gnomish", "by": "Rival"},
                {"use": "Syn Digger", "ability": "dig", "by": "Hero"},
                {"kick_door": "Hero"},
            ],
            "deck": {"door": ["Syn Level 9"]},
        },
        expect_values(outcome="none", hand_sizes={"Hero": 1}, levels={"Hero": 3}),
    )
    ctx.run(
        "an ability aimed at a fighting player, with no fight",
        {
            "players": [
                {"name": "Hero", "level": 3, "in_play": ["Syn Heckler"]},
                {"name": "Rival"},
            ],
            "steps": [{"use": "Syn Heckler", "ability": "jeer", "by": "Hero", "on": "Rival"}],
            "expect": {"error": True},
        },
        expect_values(levels={"Hero": 3, "Rival": 1}),
    )
    # An Undead monster from the hand joins a fight with an Undead (core rules); a card that
    # only carries the tag is no monster and does not.
    for card, joins in (("Syn Wight", True), ("Syn Grave Dust", False)):
        document: dict[str, Any] = {
            "players": [{"name": "Hero", "level": 3}, {"name": "Rival", "hand": [card]}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Ghoul"]},
            "steps": [{"join": card, "by": "Rival"}],
        }
        if not joins:
            document["expect"] = {"error": True}
        ctx.run(
            f"{card} joining an Undead's fight",
            document,
            expect_values(
                monster_strength=7 if joins else 4, hand_sizes={"Rival": 0 if joins else 1}
            ),
        )
    # A win on Level alone: the helper's Level is no bonus; an item on either member is.
    for gear, holder, treasures in (
        ([], None, 2),
        (["Validator Sword"], "Hero", 1),
        (["Validator Sword"], "Friend", 1),
    ):
        players = [
            {"name": "Hero", "level": 5, "in_play": gear if holder == "Hero" else []},
            {"name": "Friend", "level": 3, "in_play": gear if holder == "Friend" else []},
        ]
        ctx.run(
            f"a win on Level alone, with an item on {holder or 'nobody'}",
            {
                "players": players,
                "combat": {"fighter": "Hero", "monsters": ["Syn Purist"]},
                "steps": [{"help": "Friend"}, {"resolve": True}],
            },
            expect_values(outcome="won", treasures_drawn=treasures),
        )


TIMING_CARDS: list[dict[str, Any]] = [
    # A level for getting rid of an Ally in play, anyone's (as Kill the Hireling does).
    {
        "name": "Syn Pink Slip",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "requires": {"in_play_anywhere": "ally"},
        "effects": [GAIN, {"type": "discard_card", "kind": "ally", "owner": "any"}],
        "encoding": _FULL,
    },
    # A level only once a fight won this turn is over.
    {
        "name": "Syn Victory Lap",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "timing": "after_combat",
        "effects": [GAIN],
        "encoding": _FULL,
    },
    # A level once any fight of this turn is over, won, fled or lost.
    {
        "name": "Syn Aftermath",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "timing": "after_any_combat",
        "effects": [GAIN],
        "encoding": _FULL,
    },
    _follower("Syn Buddy", "ally", 1),
    _monster("Level 2", [LOSE], level=2),
    _monster("Level 8", [LOSE], level=8),
    # A reward for getting away (as the Tuba of Charm's): one Treasure drawn.
    _item(
        "Syn Horn",
        effects=[{"type": "after_escape", "effects": [{"type": "draw_treasures", "count": 1}]}],
    ),
]


def _timing_scenarios(ctx: CheckContext) -> None:
    # Whoever has the only Ally in play loses it, whatever their seat.
    for holder in ("Left", "Right"):
        players = [
            {"name": "Aric", "level": 3, "hand": ["Syn Pink Slip"]},
            {"name": "Left", "level": 2},
            {"name": "Right", "level": 2},
        ]
        players[1 if holder == "Left" else 2]["in_play"] = ["Syn Buddy", "Validator Helm"]
        ctx.run(
            f"a level for the only Ally in play, {holder}'s",
            {"players": players, "steps": [{"play": "Syn Pink Slip", "by": "Aric"}]},
            expect_values(
                levels={"Aric": 4},
                hand_sizes={"Aric": 0},
                in_play={holder: ["Validator Helm"]},
            ),
        )
    # With no Ally in play anywhere (other cards are), the card cannot be played.
    ctx.run(
        "a level for an Ally with none in play",
        {
            "players": [
                {"name": "Aric", "level": 3, "hand": ["Syn Pink Slip"]},
                {"name": "Left", "level": 2, "in_play": ["Validator Helm"]},
            ],
            "steps": [{"play": "Syn Pink Slip", "by": "Aric"}],
            "expect": {"error": True},
        },
        expect_values(levels={"Aric": 3}, hand_sizes={"Aric": 1}),
    )
    # After a fight won this turn: a level; before any fight, or during one: refused.
    lap = {"name": "Aric", "level": 3, "hand": ["Syn Victory Lap"]}
    play = {"play": "Syn Victory Lap", "by": "Aric"}
    for label, steps, allowed in (
        ("after a fight won", [{"kick_door": "Aric"}, {"resolve": True}, play], True),
        ("before any fight", [play], False),
        ("during the fight", [{"kick_door": "Aric"}, play], False),
    ):
        document: dict[str, Any] = {
            "players": [lap, {"name": "Left"}],
            "steps": steps,
            "deck": {"door": ["Syn Level 2"]},
        }
        if not allowed:
            document["expect"] = {"error": True}
        ctx.run(
            f"a level only after a won fight, played {label}",
            document,
            # After the win: a level for the kill, one for the card, and the kill's Treasure
            # in hand; refused: the card kept, no level.
            expect_values(levels={"Aric": 5}, hand_sizes={"Aric": 1})
            if allowed
            else expect_values(levels={"Aric": 3}, hand_sizes={"Aric": 1}),
        )
    # After any fight of this turn: fled (a 6) or lost (a 1, a level lost to the Level 8);
    # before any fight or during one: refused.
    after = {"name": "Aric", "level": 3, "hand": ["Syn Aftermath"]}
    play = {"play": "Syn Aftermath", "by": "Aric"}
    for label, steps, dice, level in (
        ("after a fled fight", [{"kick_door": "Aric"}, {"resolve": True}, play], [6], 4),
        ("after a lost fight", [{"kick_door": "Aric"}, {"resolve": True}, play], [1], 3),
        ("before any fight", [play], [], None),
        ("during the fight", [{"kick_door": "Aric"}, play], [], None),
    ):
        document = {
            "players": [after, {"name": "Left"}],
            "steps": steps,
            "deck": {"door": ["Syn Level 8"]},
            "dice": dice,
        }
        if level is None:
            document["expect"] = {"error": True}
        ctx.run(
            f"a level after any fight of the turn, played {label}",
            document,
            expect_values(
                levels={"Aric": level if level is not None else 3},
                hand_sizes={"Aric": 0 if level is not None else 1},
            ),
        )
    # The reward for getting away comes only for getting away from every monster.
    for dice, escaped_all in (([6, 6], True), ([6, 1], False)):
        ctx.run(
            f"a reward for getting away, dice {dice}",
            {
                "players": [
                    {"name": "Hero", "level": 1, "in_play": ["Syn Horn"]},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": ["Syn Level 8", "Syn Level 2"]},
                "steps": [{"resolve": True}],
                "dice": dice,
            },
            expect_values(hand_sizes={"Hero": 1 if escaped_all else 0}),
        )


UNSEEN_CARDS: list[dict[str, Any]] = [
    {
        "name": "Syn Blind Grab",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "rivals_take", "takers": "left_then_right", "what": "hand_card"}],
        "encoding": _FULL,
    }
]
UNSEEN_SEEDS = 4


def _unseen_scenarios(ctx: CheckContext) -> None:
    """A card pulled from a hand without looking (Curse! Lose Two Cards) comes at random: with
    five different cards in the hand, four seeds do not all give the takers the same ones (a
    taker's own pick would; a fair draw repeats itself four times about once in 10,000)."""
    hand = EQUIPMENT[:5]
    taken: set[tuple[str, ...]] = set()
    for seed in range(1, UNSEEN_SEEDS + 1):
        values = ctx.run(
            f"two cards pulled unseen, seed {seed}",
            {
                "seed": seed,
                "players": [
                    {"name": "Aric", "level": 3, "hand": hand},
                    {"name": "Left", "hand": ["Syn Blind Grab"]},
                    {"name": "Right"},
                ],
                "steps": [{"play": "Syn Blind Grab", "by": "Left", "on": "Aric"}],
            },
            expect_values(hand_sizes={"Aric": 3, "Left": 1, "Right": 1}),
        )
        if values is None:
            return
        taken.add((*values["hands"]["Left"], *values["hands"]["Right"]))
    if len(taken) == 1:
        ctx.report.fail(
            f"cards pulled unseen from a hand are the same ones for {UNSEEN_SEEDS} seeds: "
            f"{sorted(taken)[0]}, a pick rather than chance"
        )


LANGUAGE_SCENARIOS: list[tuple[str, list[dict[str, Any]], Scenarios]] = [
    ("Cards played at set moments", TIMING_CARDS, _timing_scenarios),
    ("Abilities and bonuses", ABILITY_CARDS, _ability_scenarios),
    ("Conditions at their bounds", CONDITION_CARDS, _condition_scenarios),
    ("Origins and Powers", POWER_CARDS, _power_scenarios),
    ("One-shots for some players", ONE_SHOT_CARDS, _one_shot_scenarios),
    ("Super Munchkin meta-abilities", META_CARDS, _meta_scenarios),
    ("Allies, Sidekicks and Ships", FOLLOWER_CARDS, _follower_scenarios),
    ("Theft granted by Powers", THEFT_CARDS, _theft_scenarios),
    ("Outcomes at the edges", OUTCOME_CARDS, _outcome_scenarios),
    ("Cards pulled unseen", UNSEEN_CARDS, _unseen_scenarios),
]


def language_checks() -> list[LanguageCheck]:
    """Every unit of the family, in a fixed order."""
    checks = [_card_check(card) for card in synthetic_cards()]
    checks += [_scenario_check(name, docs, run) for name, docs, run in LANGUAGE_SCENARIOS]
    checks += [_refusal_check(refusal) for refusal in REFUSALS]
    return checks


def _refusal_check(refusal: Refusal) -> LanguageCheck:
    """A malformed move the engine must refuse, changing nothing (validator/checks/refusals.py):
    one unit each, so the mutation runner judges a change by the refusals that reach it."""
    return LanguageCheck(f"refused: {refusal.name}", lambda: check_refusal(refusal, LANGUAGE_SET))


def check_language() -> list[CardReport]:
    """Run the whole family: one report per synthetic card or scenario group."""
    return [check.run() for check in language_checks()]
