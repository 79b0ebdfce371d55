"""Super Munchkin's meta-abilities (Flight, Secret HQ, Secret Identity) and the hand a
player's races let them keep."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_item, syn_monster, syn_power
from validator.checks.runner import CheckContext, expect_values


def _meta(ability: str) -> dict[str, Any]:
    return {"type": "meta_ability", "ability": ability}


META_CARDS = [
    syn_power("Syn Wings", effects=[_meta("flight")]),
    syn_item("Syn Jetpack", effects=[_meta("flight")]),
    syn_power("Syn Lair", effects=[_meta("secret_hq")]),
    syn_power("Syn Bunker", effects=[_meta("secret_hq")]),
    syn_power("Syn Mask", effects=[_meta("secret_identity")]),
    syn_item("Syn Disguise", effects=[_meta("secret_identity")]),
    syn_monster("Brute", [LOSE]),
    # Races that let their player keep more cards (as the Dwarf does), and a card that lets a
    # player be two races at once (as Half-Breed does).
    {**syn_power("Syn Stout", effects=[{"type": "hand_size", "size": 6}]), "kind": "race"},
    {**syn_power("Syn Giant", effects=[{"type": "hand_size", "size": 7}]), "kind": "race"},
    {
        "name": "Syn Half",
        "deck": "door",
        "kind": "other_door",
        "effects": [{"type": "extra_character_card", "axis": "race"}],
        "encoding": FULL,
    },
    {
        "name": "Syn Snare",
        "deck": "door",
        "kind": "trap",
        "effects": [LOSE],
        "encoding": FULL,
    },
]


def meta_scenarios(ctx: CheckContext) -> None:
    """Flight, Secret HQ and the hand races allow, and Secret Identity against a Trap."""
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
