"""Checks of the effects that come with playing a card or using an ability. Other cards and
followers are checked by these alone; one-shots and characters' abilities reuse them. A
`Source` says how the Hero brings the effect in (the card played, or its ability used);
outcomes are played at a table where there is something to take, removals against two
monsters, and every other effect by its check in `PLAYED_CHECKS` (doubled strength, a kill, a
fight handed over, dice changed, an escape undone, a curse cancelled, Cheat!, monsters added,
mated or swapped, items taken or carried, a level stolen), each with the refusals its card
implies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from validator.checks.oracle import Seat, Victim, _bonus, predict
from validator.checks.references import (
    IMP,
    ITEM_FACTS,
    OGRE,
    RAGE,
    SHIP_SETS,
    STRANGER,
    _axis_card,
    _monster,
    _stand_in,
    _title,
    _traits,
)
from validator.checks.runner import (
    Accept,
    CheckContext,
    _caught,
    _conditions,
    _kinds,
    _player,
    _predictable,
    _table_matches,
    _trait_names,
    _walk,
    expect_values,
)
from validator.checks.victims import DOOM, DOOM_CARD
from validator.engine import (
    Ability,
    AddMonster,
    AutomaticEscape,
    CancelCurse,
    CancelEscape,
    CardBase,
    CarryItem,
    ChangeDieRoll,
    Cheat,
    DoubleStrength,
    DrawTreasures,
    EffectBase,
    ExtraCharacterCard,
    GainLevels,
    KillMonster,
    Mate,
    OneShotCard,
    OutcomeBase,
    PlayersOnSide,
    RemoveMonster,
    ReplaceMonster,
    Roll,
    StealLevel,
    Strength,
    TakeFromDiscard,
    TakeItemInCombat,
    TransferCombat,
)


@dataclass
class Source:
    """How the Hero brings an effect into play: by playing the card, or using its ability."""

    card: CardBase
    ability: Ability | None = None

    @property
    def label(self) -> str:
        return self.ability.name if self.ability is not None else self.card.name

    def hand(self) -> list[str]:
        """What the user holds: the card, or what the ability's cost discards (all of it)."""
        if self.ability is None:
            return [self.card.name]
        cost = self.ability.cost
        if cost is None:
            return []
        count = 2 if cost.discard_hand else cost.discard or min(1, cost.discard_up_to)
        return ["Validator Trinket"] * count

    def table(self) -> list[str]:
        return [self.card.name] if self.ability is not None else []

    def step(self, by: str = "Hero", on: str | None = None) -> dict[str, Any]:
        step: dict[str, Any]
        if self.ability is None:
            step = {"play": self.card.name, "by": by}
        else:
            whole = self.ability.cost is not None and self.ability.cost.discard_hand
            step = {
                "use": self.card.name,
                "ability": self.ability.slug,
                "by": by,
                "discard": [] if whole else self.hand(),
            }
        return {**step, **({"on": on} if on else {})}


def _played_checks(ctx: CheckContext, card: CardBase) -> None:
    """Effects that come with playing the card, each checked by its type."""
    outcomes = [e for e in card.effects if isinstance(e, OutcomeBase)]
    removals = [e for e in card.effects if isinstance(e, RemoveMonster)]
    for removal in removals:
        _removal_check(ctx, Source(card), removal, outcomes)
    timing = getattr(card, "timing", "any")
    if outcomes and not removals:
        if timing == "on_draw":
            _on_draw_check(ctx, card, outcomes)
        elif timing not in ("combat", "running_away"):
            _outcomes_check(ctx, Source(card), outcomes)
    for effect in card.effects:
        check = PLAYED_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)


def _follower_checks(ctx: CheckContext, card: CardBase) -> None:
    """A follower's effects, and when it joins: one the card lets be played at any time (the
    core rules say so of the Hireling) joins on any turn, even in its player's own fight."""
    _played_checks(ctx, card)
    name = card.name
    if card.kind_name != "sidekick":
        # Only Items are traded (core rules, Trading; SpongeBob's Allies never are): a
        # Hireling or an Ally stays with its player, and so does what was offered back.
        ctx.run(
            "not traded away",
            {
                "players": [
                    _player("Hero", 3, in_play=[name]),
                    _player("Rival", 3, in_play=["Validator Trinket"]),
                ],
                "steps": [
                    {"give": [name], "by": "Hero", "to": "Rival", "take": ["Validator Trinket"]}
                ],
                "expect": {
                    "error": "not an Item",
                    "in_play": {"Hero": [name], "Rival": ["Validator Trinket"]},
                    "not_in_play": {"Rival": [name]},
                },
            },
        )
    if card.kind_name == "hireling":
        # The rules let Allies and Sidekicks be given up for an automatic escape; a Hireling
        # has no such power (the card says he carries an item, nothing more): refused, kept.
        ctx.run(
            "not sacrificed for an escape",
            {
                "players": [_player("Hero", 1, in_play=[name]), _player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"sacrifice": name, "by": "Hero"}],
                "expect": {"error": "cannot be sacrificed", "in_play": {"Hero": [name]}},
            },
        )
    if getattr(card, "timing", "any") != "any":
        return
    ctx.run(
        "played on another player's turn",
        {
            "players": [_player("Hero", 3), _player("Rival", 2, hand=[name])],
            "steps": [{"play": name, "by": "Rival"}],
            "expect": {"in_play": {"Rival": [name]}, "hand_sizes": {"Rival": 0}},
        },
    )
    ctx.run(
        "played in its player's fight",
        {
            "players": [_player("Hero", 3, hand=[name]), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"in_play": {"Hero": [name]}, "hand_sizes": {"Hero": 0}},
        },
    )


def _removal_check(
    ctx: CheckContext, source: Source, effect: RemoveMonster, outcomes: Sequence[OutcomeBase]
) -> None:
    """Against the Ogre and the Imp: the monsters removed leave without a kill (no level;
    their Treasure only if the effect says so); the others are fought as usual."""
    everyone = effect.count == "all" or int(effect.count) >= 2
    draws = [e for e in outcomes if isinstance(e, DrawTreasures)]
    only_draws = len(draws) == len(outcomes)  # other outcomes are not predicted here
    # A rival plays it when what it draws goes to the fighter, to show whose it is.
    by = (
        "Rival"
        if source.ability is None and any(e.recipient == "fighter" for e in draws)
        else "Hero"
    )
    hands = {"Hero": 0, "Rival": 0}
    for draw in draws:
        hands["Hero" if draw.recipient == "fighter" else by] += draw.count
    paid = 3 if everyone else 2  # the Ogre's 2 Treasures, and the Imp's 1 when it goes too
    treasures = (paid if effect.treasures else 0) + (0 if everyone else 1)
    hands["Hero"] += treasures
    user = _player(by, 3, in_play=source.table(), hand=source.hand())
    players = [user, _player("Rival")] if by == "Hero" else [_player("Hero", 3), user]
    steps = [source.step(by, on=None if everyone else OGRE)]
    ctx.run(
        f"{source.label}: {'every monster leaves' if everyone else 'one monster leaves'}",
        {
            "players": players,
            "combat": {"fighter": "Hero", "monsters": [OGRE, IMP]},
            "steps": steps if everyone else [*steps, {"resolve": True}],
        },
        expect_values(
            outcome="won",
            levels={"Hero": 3 if everyone else 4},
            treasures_drawn=treasures,
            hand_sizes=hands if only_draws else {},
        ),
        covers=[RemoveMonster] + ([DrawTreasures] if only_draws else []),
    )
    if not everyone:
        # One monster of two, none named: the card cannot choose, so it is refused before
        # anything changes (the card still in hand, both monsters still there).
        ctx.run(
            f"{source.label}: refused when two monsters are there and none is named",
            {
                "players": players,
                "combat": {"fighter": "Hero", "monsters": [OGRE, IMP]},
                "steps": [source.step(by)],
                "expect": {"error": True, "hand_sizes": {by: len(source.hand())}},
            },
            expect_values(monster_strength=5 + 1),
        )


OUTCOME_TABLE = [Seat("Rival", 5, ["Validator Helm", "Validator Ram"]), Seat("Third", 4)]


def _outcomes_check(
    ctx: CheckContext, source: Source, outcomes: Sequence[EffectBase], fight: bool = False
) -> None:
    """Outcomes for the player who uses the card, at a table where there is something to take:
    a rival with a Small and a Big item and a Level to spare, a Race card in the Door discards.
    A card that takes from one player is played on the lower one; a taken card is played (in a
    `fight`, where the Hero uses it while facing the Ogre, it is kept in the hand)."""
    walked = _walk(outcomes)
    target = "Third" if any(isinstance(e, StealLevel) for e in walked) else None
    takes = any(isinstance(e, TakeFromDiscard) for e in walked)
    play_taken = takes and not fight
    faces = sorted({o.min for e in walked if isinstance(e, Roll) for o in e.outcomes}) or [3]
    # A card that raises its user is also used at Level 9, where no card gives the winning level.
    raises = any(isinstance(e, GainLevels | StealLevel) for e in walked)
    for level in [3, 9] if raises and not fight else [3]:
        players = [
            _player("Hero", level, in_play=source.table(), hand=source.hand()),
            _player("Rival", 5, in_play=["Validator Stranger", *OUTCOME_TABLE[0].items]),
            _player("Third", 4),
        ]
        steps = [
            {"discard_card": "Validator Stranger", "by": "Rival"},
            source.step(on=target),
            *([{"play": "Validator Stranger", "by": "Hero"}] if play_taken else []),
        ]
        for face in faces:
            victim = Victim(level, [], 0, set(), others=[s.copy() for s in OUTCOME_TABLE])
            victim.discard, victim.target = [STRANGER], target
            states = predict(outcomes, victim, face)
            for state in states:
                if play_taken and STRANGER not in state.discard:
                    state.doors -= 1  # the Race card taken is then played
                    state.traits.add(STRANGER)
            refused = level == 9 and target is not None
            if refused:
                # Taking a level at Level 9 would be the winning one: the card is refused, still
                # in the hand, and the table stays as it was.
                kept = victim.copy()
                if source.ability is None and source.card.deck == "treasure":
                    kept.hand += 1
                elif source.ability is None:
                    kept.doors += 1
                states = [kept]
            ctx.run(
                ("in a fight: " if fight else "")
                + f"{source.label}, die {face}"
                + (f", at Level {level}" if level != 3 else ""),
                {
                    "players": players,
                    **({"combat": {"fighter": "Hero", "monsters": [OGRE]}} if fight else {}),
                    "steps": steps,
                    "dice": [face],
                    **({"expect": {"error": "winning level"}} if refused else {}),
                },
                _table_matches(victim, states),
                covers=_kinds(outcomes) if all(_predictable(e) for e in outcomes) else [],
            )
    if takes and not fight:
        # Both discard piles empty (no card discarded yet): there is nothing to take, and the
        # rest of the card acts as predicted.
        bare = Victim(3, [], 0, set(), others=[s.copy() for s in OUTCOME_TABLE])
        bare.target = target
        ctx.run(
            f"{source.label} with both discard piles empty",
            {
                "players": [
                    _player("Hero", 3, in_play=source.table(), hand=source.hand()),
                    _player("Rival", 5, in_play=OUTCOME_TABLE[0].items),
                    _player("Third", 4),
                ],
                "steps": [source.step(on=target)],
                "dice": [faces[0]],
            },
            _table_matches(bare, predict(outcomes, bare, faces[0])),
        )


def _on_draw_check(ctx: CheckContext, card: CardBase, outcomes: Sequence[EffectBase]) -> None:
    """Drawn the usual way (kicking the door, or as a monster's Treasure), it acts at once on
    whoever draws it; two others have the traits its conditions name, one of them at Level 9.
    Kicked open, a third with those traits was killed just before: the dead cannot level up
    nor receive cards (core rules, Death), so nothing the card gives reaches them."""
    traits = _traits(c for e in outcomes for c in _conditions(e))
    others = [Seat("Rival", 4, traits=set(traits)), Seat("Third", 9, traits=set(traits))]
    players = [_player(s.name, s.level, in_play=_trait_names(traits)) for s in others]
    if card.deck == "door":
        fallen = Seat("Fallen", 5, traits=set(traits), dead=True)
        victim = Victim(3, [], 0, set(), others=[*others, fallen])
        document = {
            "players": [
                _player("Hero", 3, hand=[DOOM]),
                *players,
                _player(fallen.name, fallen.level, in_play=_trait_names(traits)),
            ],
            "deck": {"door": [card.name]},
            "steps": [{"play": DOOM, "by": "Hero", "on": fallen.name}, {"kick_door": "Hero"}],
            "cards": [DOOM_CARD],
        }
    else:  # the first of the Ogre's 2 Treasures, after its level
        victim = Victim(4, ["Validator Gauntlet"], 1, set(), others=others)
        document = {
            "players": [_player("Hero", 3, in_play=["Validator Gauntlet"]), *players],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "deck": {"treasure": [card.name]},
            "steps": [{"resolve": True}],
        }
    ctx.run(
        "it acts as soon as it is drawn",
        document,
        _table_matches(victim, predict(outcomes, victim, 3)),
        covers=_kinds(outcomes) if all(_predictable(e) for e in outcomes) else [],
    )
    if card.deck == "treasure":
        _on_draw_by_helper_check(ctx, card, outcomes)
        if all(isinstance(e, DrawTreasures) for e in outcomes):
            _draws_past_the_deck_check(ctx, card)


def _draws_past_the_deck_check(ctx: CheckContext, card: CardBase) -> None:
    """Its draws run the Treasure deck out (every other Treasure of the table but one is in
    the Keeper's hand): the fighter gets the one left, and no more. Core rules, card
    management: an empty deck is made again from its discards, so the Ogre's second Treasure
    comes from the discards, where the card itself lies once it has acted (drawn again, it
    finds nothing left to draw); with no discards either, nothing is drawn."""
    treasures = [
        c.name for _, c in ctx.library.cards() if c.deck == "treasure" for _ in range(c.copies or 1)
    ]
    if treasures.count(card.name) != 1 or "Validator Gauntlet" not in treasures:
        return
    rest = [n for n in treasures if n not in (card.name, "Validator Gauntlet")]
    if not rest:
        return
    spare, kept = rest[0], rest[1:]
    ctx.run(
        "its draws run the Treasure deck out",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Gauntlet"]),
                _player("Keeper", 1, hand=kept),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "deck": {"treasure": [card.name, spare]},
            "steps": [{"resolve": True}],
        },
        expect_values(
            outcome="won", levels={"Hero": 4}, hand_sizes={"Hero": 1, "Keeper": len(kept)}
        ),
    )
    # The deck holds only the card, the rest but four in the Keeper's hand; the Hero sells
    # those four (1,000 Gold: a level) before kicking open the door to the Ogre. The Ogre's
    # second Treasure comes from the deck made again from the four sold, and the card's draws
    # take three of the other three: the Hero ends with four cards.
    sold = ["Validator Ram", "Validator Helm", "Validator Mail", "Validator Boots"]
    if not all(name in rest for name in sold):
        return
    kept = list(rest)
    for name in sold:
        kept.remove(name)
    ctx.run(
        "its draws after the deck was made again from the discards",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Gauntlet", *sold]),
                _player("Keeper", 1, hand=kept),
            ],
            "deck": {"treasure": [card.name], "door": [OGRE]},
            "steps": [{"sell": sold, "by": "Hero"}, {"kick_door": "Hero"}, {"resolve": True}],
        },
        expect_values(
            outcome="won", levels={"Hero": 5}, hand_sizes={"Hero": 4, "Keeper": len(kept)}
        ),
    )


def _on_draw_by_helper_check(
    ctx: CheckContext, card: CardBase, outcomes: Sequence[EffectBase]
) -> None:
    """Drawn by a helper as their share of the Ogre's Treasure (the helper was promised both,
    core rules, Asking for help): it acts on the helper who drew it, not on the fighter. The
    helper is the Hero here, the one whose table is predicted; the fighter gets a level and
    no card."""
    fighter = Seat("Fighter", 4, ["Validator Gauntlet"])
    victim = Victim(2, [], 1, set(), others=[fighter])  # the Ogre's second Treasure too
    ctx.run(
        "drawn by the helper, it acts for the helper",
        {
            "players": [
                _player("Fighter", 3, in_play=["Validator Gauntlet"]),
                _player("Hero", 2),
            ],
            "combat": {"fighter": "Fighter", "monsters": [OGRE]},
            "deck": {"treasure": [card.name]},
            "steps": [{"help": "Hero", "treasures": 2}, {"resolve": True}],
        },
        _table_matches(victim, predict(outcomes, victim, 3)),
    )


def _double_strength_check(ctx: CheckContext, card: CardBase, effect: DoubleStrength) -> None:
    ctx.run(
        "doubles the player's strength",
        {
            "players": [_player("Hero", 3, hand=[card.name]), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=6),
        covers=[DoubleStrength],
    )
    # Only a player in the fight can double their own strength: a bystander is refused, and
    # keeps the card.
    ctx.run(
        "refused to a player outside the combat",
        {
            "players": [_player("Hero", 3), _player("Rival", 1, hand=[card.name])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Rival"}],
            "expect": {"error": True, "hand_sizes": {"Rival": 1}},
        },
        expect_values(fighter_strength=3),
    )


def _automatic_escape_check(ctx: CheckContext, card: CardBase, effect: AutomaticEscape) -> None:
    if not isinstance(card, OneShotCard):
        return  # only a one-shot is played into a fight for it
    ctx.run(
        "an automatic escape",
        {
            "players": [_player("Hero", 6, hand=[card.name]), _player("Rival", 1, hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Hero"},
                {"resolve": True},
            ],
            "dice": [1, 1],
        },
        expect_values(outcome="escaped", levels={"Hero": 6}),
        covers=[AutomaticEscape],
    )
    if effect.players == 2 and effect.timing == "instead_of_roll":
        # For two, its player and the helper both get away, though both dice fail: neither
        # meets the Ogre's Bad Stuff (a level each).
        ctx.run(
            "an automatic escape for the fighter and the helper",
            {
                "players": [
                    _player("Hero", 6, hand=[card.name]),
                    _player("Rival", 3),
                    _player("Foe", 1, hand=[RAGE]),
                ],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [
                    {"help": "Rival"},
                    {"play": RAGE, "by": "Foe", "on": OGRE},
                    {"play": card.name, "by": "Hero"},
                    {"resolve": True},
                ],
                "dice": [1, 1],
            },
            expect_values(outcome="escaped", levels={"Hero": 6, "Rival": 3}),
            covers=[AutomaticEscape],
        )


def _strength_per_check(ctx: CheckContext, card: CardBase, effect: Strength) -> None:
    traits = _traits([effect.per.players_on_side] if isinstance(effect.per, PlayersOnSide) else [])
    if len(traits) != 1:
        return
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    ctx.run(
        "its bonus per matching player",
        {
            "players": [
                _player("Hero", 2, hand=[card.name], in_play=_trait_names(traits)),
                _player("Rival"),
            ],
            "combat": fight,
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=2 + effect.amount),
        covers=[Strength],
    )
    ctx.run(
        "nothing without one",
        {
            "players": [_player("Hero", 2, hand=[card.name]), _player("Rival")],
            "combat": fight,
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=2),
    )


def _strength_in_play_check(ctx: CheckContext, card: CardBase, effect: Strength) -> None:
    """A card that stays in play with a plain bonus (a Training, an Ally): its owner's
    strength is their Level plus the bonus; a rival's is not touched."""
    if isinstance(card, OneShotCard) or effect.when is not None:
        return  # a one-shot's bonus is checked as played; a conditional one is not staged
    ctx.run(
        "its bonus counts for its owner",
        {
            "players": [_player("Hero", 2, in_play=[card.name]), _player("Rival", 3)],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"help": "Rival"}],
        },
        expect_values(fighter_strength=2 + effect.amount + 3, monster_strength=5),
        covers=[Strength],
    )


def _kill_monster_check(ctx: CheckContext, card: CardBase, effect: KillMonster) -> None:
    monster = OGRE if effect.when is None else _stand_in(effect.when)
    if monster is None:
        return
    # The Ogre pays 2 Treasures; a stand-in (Level 10) pays 1.
    ctx.run(
        f"kills {monster} outright",
        {
            "players": [_player("Hero", 1, hand=[card.name]), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [monster]},
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(
            outcome="won", levels={"Hero": 2}, treasures_drawn=2 if monster == OGRE else 1
        ),
        covers=[KillMonster],
    )


def _transfer_check(ctx: CheckContext, card: CardBase, effect: TransferCombat) -> None:
    # The new fighter wins and takes the rewards; the first may still Loot the Room.
    ctx.run(
        "another player takes over the fight",
        {
            "players": [_player("Hero", 1, hand=[card.name]), _player("Rival", 8)],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "on": "Rival"},
                {"resolve": True},
                {"loot_room": "Hero"},
            ],
        },
        expect_values(
            outcome="won",
            fighter_strength=8,
            treasures_drawn=2,
            levels={"Hero": 1, "Rival": 9},
            hand_sizes={"Hero": 1, "Rival": 2},
        ),
        covers=[TransferCombat],
    )
    # The fight goes to another player: naming no one, or someone already fighting, is
    # refused and the card kept.
    for label, on in (("no one named", None), ("the fighter named", "Hero")):
        ctx.run(
            f"refused with {label}",
            {
                "players": [_player("Hero", 1, hand=[card.name]), _player("Rival", 8)],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"play": card.name, "by": "Hero", **({"on": on} if on else {})}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
            expect_values(fighter_strength=1),
        )


def _losing(card: CardBase, by: str, dice: Sequence[int] = ()) -> dict[str, Any]:
    """A fight the Level 3 Hero loses (the Rival holds a Rage), the card in `by`'s hand."""
    hand: dict[str, list[str]] = {"Hero": [], "Rival": [RAGE]}
    hand[by].append(card.name)
    return {
        "players": [_player("Hero", 3, hand=hand["Hero"]), _player("Rival", 1, hand=hand["Rival"])],
        "combat": {"fighter": "Hero", "monsters": [OGRE]},
        "dice": list(dice),
    }


def _die_check(ctx: CheckContext, card: CardBase, effect: ChangeDieRoll) -> None:
    # The runner sets the die to the number that helps most: a 6 escapes the Ogre.
    document = _losing(card, "Hero", dice=[1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Hero"},
        {"resolve": True},
    ]
    ctx.run(
        "a die of 1 becomes a 6",
        document,
        expect_values(outcome="escaped", levels={"Hero": 3}),
        covers=[ChangeDieRoll],
    )
    # The best a die can show is a 6: against a monster that is -2 to outrun, 6 - 2 = 4 is
    # still caught (ESCAPE_ROLL is 5), and the Level 3 Hero loses a level to it.
    slow = _monster("Validator Slug", 9, effects=[{"type": "runaway", "amount": -2}])
    ctx.run(
        "a die made a 6 is still short against a -2",
        {
            "cards": [slow],
            "players": [_player("Hero", 3, hand=[card.name]), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [slow["name"]]},
            "dice": [1],
            "steps": [{"play": card.name, "by": "Hero"}, {"resolve": True}],
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
    )


def _glue_check(ctx: CheckContext, card: CardBase, effect: CancelEscape) -> None:
    # A 6 escapes, is undone, and the second roll (1) is caught: the Ogre takes a level.
    document = _losing(card, "Rival", dice=[6, 1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Rival", "on": "Hero"},
        {"resolve": True},
    ]
    ctx.run(
        "an escape undone must be rolled again",
        document,
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[CancelEscape],
    )
    # Named no one, it holds the fighter (the one who would run).
    document = _losing(card, "Rival", dice=[6, 1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Rival"},
        {"resolve": True},
    ]
    ctx.run(
        "the fighter held when no one is named",
        document,
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[CancelEscape],
    )


def _cancel_curse_check(ctx: CheckContext, card: CardBase, effect: CancelCurse) -> None:
    # The Hex (-3 in the next combat) counts in this one until it is cancelled, mid-fight.
    ctx.run(
        "a curse cancelled in the middle of a fight",
        {
            "players": [
                _player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                _player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero", "on": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}},
        },
        expect_values(fighter_strength=4),
        covers=[CancelCurse],
    )
    # Named at no one, it cancels its player's own curse.
    ctx.run(
        "its player's own curse cancelled when no one is named",
        {
            "players": [
                _player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                _player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}},
        },
        expect_values(fighter_strength=4),
        covers=[CancelCurse],
    )
    # Out of combat too, named at no one, it cancels its player's own curse.
    ctx.run(
        "its player's own curse cancelled out of combat when no one is named",
        {
            "players": [
                _player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                _player("Rival"),
            ],
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}, "hand_sizes": {"Hero": 0}},
        },
        covers=[CancelCurse],
    )
    # With no curse on its target, there is nothing to cancel: refused, the card kept.
    ctx.run(
        "refused with no curse to cancel",
        {
            "players": [_player("Hero", 4, hand=[card.name]), _player("Rival")],
            "steps": [{"play": card.name, "by": "Hero", "on": "Hero"}],
            "expect": {"error": True, "hand_sizes": {"Hero": 1}},
        },
    )


def _extra_character_check(ctx: CheckContext, card: CardBase, effect: ExtraCharacterCard) -> None:
    """With one card of the axis, the Hater (+5 against the first) loses its bonus; a second
    card joins the first instead of replacing it, and the drawbacks are back."""
    one, two = (_title(_axis_card(effect.axis, rank)[1]) for rank in range(2))
    fight = {"fighter": "Hero", "monsters": [f"Validator {_title(effect.axis)} Hater"]}
    runs = [
        ("with one card, none of its drawbacks", [card.name], [card.name], 1),
        ("a second card joins the first, drawbacks and all", [card.name, two], [one, two], 6),
    ]
    with ctx.together([ExtraCharacterCard]):
        for label, played, kept, strength in runs:
            ctx.run(
                label,
                {
                    "players": [_player("Hero", 3, in_play=[one], hand=played), _player("Rival")],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Hero"} for name in played],
                    "expect": {"in_play": {"Hero": [card.name, *kept]}},
                },
                expect_values(monster_strength=strength),
            )
    # Played when its player could play a card of its axis (on their own turn: core rules,
    # Super Munchkin and Half-Breed); it needs a card to attach to when it says so.
    refusals = [
        (
            "refused on another player's turn",
            [_player("Hero", 3), _player("Rival", 3, in_play=[one], hand=[card.name])],
            "Rival",
        )
    ]
    if effect.needs_host:
        refusals.append(
            (
                f"refused with no {effect.axis} card to attach to",
                [_player("Hero", 3, hand=[card.name]), _player("Rival")],
                "Hero",
            )
        )
    # Such cards do not stack (one Super Munchkin or Half-Breed at a time): with one already
    # joining two cards of the axis, a second copy is refused and stays in the hand.
    ctx.run(
        "refused beside another copy of itself",
        {
            "players": [
                _player("Hero", 3, in_play=[one, card.name, two], hand=[card.name]),
                _player("Rival"),
            ],
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"error": "already has", "hand_sizes": {"Hero": 1}},
        },
    )
    for label, players, by in refusals:
        ctx.run(
            label,
            {
                "players": players,
                "steps": [{"play": card.name, "by": by}],
                "expect": {
                    "error": True,
                    "hand_sizes": {by: 1},
                    "not_in_play": {by: [card.name]},
                },
            },
        )


def _cheat_check(ctx: CheckContext, card: CardBase, effect: Cheat) -> None:
    # The Tiara is a second Headgear, and only for a female character: with Cheat! it counts.
    ctx.run(
        "an item used against the rules and its restriction",
        {
            "players": [
                _player("Hero", 1, in_play=["Validator Helm"], hand=[card.name, "Validator Tiara"]),
                _player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"kick_door": "Hero"},
            ],
            "expect": {
                "equipped": {"Hero": ["Validator Helm", "Validator Tiara"]},
                "in_play": {"Hero": [card.name]},
            },
        },
        expect_values(fighter_strength=1 + _bonus(["Validator Helm", "Validator Tiara"])),
        covers=[Cheat],
    )
    both = ["Validator Helm", "Validator Tiara"]
    # An item already on the table but carried (a second Headgear, for a female only) is
    # brought into use by the Cheat just the same.
    ctx.run(
        "a carried item brought into use",
        {
            "players": [_player("Hero", 1, in_play=both, hand=[card.name]), _player("Rival")],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"kick_door": "Hero"},
            ],
            "expect": {"equipped": {"Hero": both}, "hand_sizes": {"Hero": 0}},
        },
        expect_values(fighter_strength=1 + _bonus(both)),
        covers=[Cheat],
    )
    # Refused, the cards kept: with no item named; with an item from the hand in a combat, or
    # on another player's turn (items come into play from the hand only then: core rules).
    hand = [card.name, "Validator Tiara"]
    refusals: list[tuple[str, dict[str, Any]]] = [
        (
            "refused with no item named",
            {
                "players": [_player("Hero", 1, hand=hand), _player("Rival")],
                "steps": [{"play": card.name, "by": "Hero"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 2}},
            },
        ),
        (
            "refused for an item from the hand in a combat",
            {
                "players": [_player("Hero", 1, hand=hand), _player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"play": card.name, "by": "Hero", "with": "Validator Tiara"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 2}, "fighter_strength": 1},
            },
        ),
        (
            "refused for an item from the hand on another's turn",
            {
                "players": [_player("Hero", 1), _player("Rival", 1, hand=hand)],
                "steps": [{"play": card.name, "by": "Rival", "with": "Validator Tiara"}],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Rival": 2},
                    "not_in_play": {"Rival": ["Validator Tiara"]},
                },
            },
        ),
        (
            "refused a second time on the same item",
            {
                "players": [_player("Hero", 1, hand=[card.name, *hand]), _player("Rival")],
                "steps": [
                    {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                    {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                ],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
        ),
        (
            "refused on a card that is not an item",
            {
                "players": [
                    _player("Hero", 1, in_play=["Validator Henchman"], hand=[card.name]),
                    _player("Rival"),
                ],
                "steps": [{"play": card.name, "by": "Hero", "with": "Validator Henchman"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
        ),
    ]
    for label, document in refusals:
        ctx.run(label, document)
    # The item under Cheat! is outside the rules, so it takes no slot from another item: a
    # female Hero cheating with her Helm still wears the Tiara as her one Headgear.
    ctx.run(
        "an item under it leaves its slot free",
        {
            "players": [
                _player("Hero", 1, sex="female", in_play=["Validator Helm"], hand=hand),
                _player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Helm"},
                {"equip": "Validator Tiara", "by": "Hero"},
                {"kick_door": "Hero"},
            ],
            "expect": {"equipped": {"Hero": both}},
        },
        expect_values(fighter_strength=1 + _bonus(both)),
    )
    # It stays attached to the item: set aside and worn again, the Tiara is still the male
    # Hero's second Headgear.
    ctx.run(
        "an item under it worn again after being set aside",
        {
            "players": [
                _player("Hero", 1, in_play=["Validator Helm"], hand=hand),
                _player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"unequip": "Validator Tiara", "by": "Hero"},
                {"equip": "Validator Tiara", "by": "Hero"},
                {"kick_door": "Hero"},
            ],
            "expect": {"equipped": {"Hero": both}},
        },
        expect_values(fighter_strength=1 + _bonus(both)),
    )
    if ctx.set_code in SHIP_SETS:
        _second_ship_run(ctx, card)


def _second_ship_run(ctx: CheckContext, card: CardBase) -> None:
    """Munchkin Booty's rules name Cheat! as what lets a player have a second Ship; with more
    than one, the best Run Away bonus counts (not the sum, nor the worst). The Hero (Level 3)
    sails the +1 Ketch and cheats the +2 Clipper into play, then runs from the enraged Ogre:
    a 3 gets away with the Clipper's +2, where the Ketch's +1 would be caught."""
    ketch, clipper = "Validator Ketch", "Validator Clipper"
    ships = [
        {
            "name": name,
            "deck": "door",
            "kind": "ship",
            "slot": "ship",
            "big": True,
            "bonus": 1,
            "gold": 300,
            "effects": [{"type": "runaway", "amount": amount}],
            "encoding": {"status": "full"},
        }
        for name, amount in ((ketch, 1), (clipper, 2))
    ]
    ctx.run(
        "a second Ship under it, the best Run Away bonus counts",
        {
            "players": [
                _player("Hero", 3, in_play=[ketch], hand=[card.name, clipper]),
                _player("Rival", 1, hand=[RAGE]),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": clipper},
                {"kick_door": "Hero"},
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"resolve": True},
            ],
            "dice": [3],
            "cards": ships,
            "expect": {"in_play": {"Hero": [ketch, clipper]}},
        },
        expect_values(outcome="escaped", levels={"Hero": 3}),
    )
    ctx.run(
        "without it, a second Ship is refused",
        {
            "players": [_player("Hero", 3, in_play=[ketch], hand=[clipper])],
            "steps": [{"play": clipper, "by": "Hero"}],
            "cards": ships,
            "expect": {
                "error": "one Ship at a time",
                "in_play": {"Hero": [ketch]},
                "not_in_play": {"Hero": [clipper]},
                "hand_sizes": {"Hero": 1},
            },
        },
    )


def _add_monster_check(ctx: CheckContext, card: CardBase, effect: AddMonster) -> None:
    players = [
        _player("Hero", 1, in_play=["Validator Gauntlet"]),
        _player("Rival", hand=[card.name, IMP]),
    ]
    steps = [{"play": card.name, "by": "Rival", "with": IMP}, {"resolve": True}]
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    passed = ctx.run(
        "strengths add up, and both pay",
        {"players": players, "combat": fight, "steps": steps},
        expect_values(monster_strength=6, outcome="won", levels={"Hero": 3}, treasures_drawn=3),
    )
    # Fled separately: a 5 escapes one, a 1 is caught by the other (-1 for the Ogre, -2 the Imp).
    _monster_from_hand_refusals(ctx, card, {"players": players, "combat": fight}, "Rival", {})
    players[0] = _player("Hero", 4)
    if passed is not None:
        ctx.run(
            "each is fled from separately",
            {"players": players, "combat": fight, "steps": steps, "dice": [5, 1]},
            lambda v: (
                _caught(v)
                or (None if v["levels"]["Hero"] in (2, 3) else f"Level {v['levels']['Hero']}")
            ),
            covers=[AddMonster],
        )
    follower_kind = SACRIFICED_FOLLOWERS.get(ctx.set_code)
    if follower_kind is not None:
        _sacrifice_from_two_run(ctx, card, follower_kind)


# The sets whose rulebooks let a follower be given up to escape (SpongeBob's Allies, Super
# Munchkin's Sidekicks): "automatic escape from all monsters in a combat".
SACRIFICED_FOLLOWERS = {"munchkin-spongebob": "ally", "munchkin-super": "sidekick"}


def _sacrifice_from_two_run(ctx: CheckContext, card: CardBase, follower_kind: str) -> None:
    """The Imp brought in beside the Ogre (6 together): a plain follower of the kind the set's
    rulebook names lends its +3 (SpongeBob's Allies "may grant you combat bonuses": the card
    says how much), so the Level 4 Hero beats both, 7 to 6; enraged, they are too strong and the
    Hero gives it up instead of rolling: no die is rolled (the 1s would be caught by both), the
    Hero escapes both monsters and keeps the Level (the Rage makes the fight lost)."""
    follower = f"Validator {follower_kind.title()}"
    document = {
        "name": follower,
        "deck": "door",
        "kind": follower_kind,
        "bonus": 3,
        "encoding": {"status": "full"},
    }
    players = [_player("Hero", 4, in_play=[follower]), _player("Rival", hand=[card.name, IMP])]
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    brought = {"play": card.name, "by": "Rival", "with": IMP}
    ctx.run(
        f"the {follower_kind}'s bonus counts against both monsters",
        {"players": players, "combat": fight, "steps": [brought], "cards": [document]},
        expect_values(fighter_strength=4 + 3, monster_strength=6),
    )
    ctx.run(
        f"the {follower_kind} given up escapes both monsters",
        {
            "players": [players[0], _player("Rival", hand=[card.name, IMP, RAGE])],
            "combat": fight,
            "steps": [
                brought,
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"sacrifice": follower, "by": "Hero"},
                {"resolve": True},
            ],
            "dice": [1, 1],
            "cards": [document],
            "expect": {"not_in_play": {"Hero": [follower]}},
        },
        expect_values(outcome="escaped", levels={"Hero": 4}),
    )


def _mate_check(ctx: CheckContext, card: CardBase, effect: Mate) -> None:
    # Ogre (5) + Vigor (+3, +1 Treasure), twice: 16 strong, 2 levels and 6 Treasures.
    passed = ctx.run(
        "a copy with its enhancers: both to kill, both pay",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Gauntlet"]),
                _player("Rival", hand=["Validator Vigor", card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": "Validator Vigor", "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=16, outcome="won", levels={"Hero": 5}, treasures_drawn=6),
    )
    # An enhancer played on the copy afterwards enhances the pair, as one played before does.
    ctx.run(
        "an enhancer on the copy enhances both",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Gauntlet"]),
                _player("Rival", hand=["Validator Vigor", card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"play": "Validator Vigor", "by": "Rival", "on": f"{OGRE} (Mate)"},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=16, outcome="won", levels={"Hero": 5}, treasures_drawn=6),
    )
    # Named at the copy, it copies the same monster again: a third Ogre (15 strong, 3 levels
    # and 6 Treasures for a 33-strong Hero).
    ctx.run(
        "played on the copy, a third of the same monster",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Gauntlet"]),
                _player("Rival", hand=[card.name, card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Rival", "on": f"{OGRE} (Mate)"},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=15, outcome="won", levels={"Hero": 6}, treasures_drawn=6),
    )
    needed = 5 - effect.runaway
    if passed is None or not 2 <= needed <= 6:
        return
    # One die short of the modified roll is caught (by an Ogre: -1); the other roll escapes.
    ctx.run(
        f"running from the pair at {effect.runaway:+d}",
        {
            "players": [_player("Hero", 3), _player("Rival", hand=[card.name])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Rival", "on": OGRE}, {"resolve": True}],
            "dice": [needed - 1, needed],
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[Mate],
    )


def _replace_check(ctx: CheckContext, card: CardBase, effect: ReplaceMonster) -> None:
    # The Enraged Ogre goes, Rage and all; the Imp from the hand is fought instead.
    document = _losing(card, "Hero")
    document["players"][0]["hand"].append(IMP)
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Hero", "on": OGRE, "with": IMP},
        {"resolve": True},
    ]
    ctx.run(
        "a monster swapped for one from the hand",
        document,
        expect_values(monster_strength=1, outcome="won", levels={"Hero": 4}, treasures_drawn=1),
        covers=[ReplaceMonster],
    )
    _monster_from_hand_refusals(ctx, card, _losing(card, "Hero"), "Hero", {"on": OGRE})


def _monster_from_hand_refusals(
    ctx: CheckContext,
    card: CardBase,
    document: dict[str, Any],
    by: str,
    target: dict[str, Any],
) -> None:
    """The monster it brings in comes from its player's own hand, as the card says: named with
    something that is not a monster, or with nothing (while another player holds a monster), the
    card is refused and the fight is left as it was (the Ogre alone, every card still in hand)."""
    players = [dict(p) for p in document["players"]]
    player = next(p for p in players if p["name"] == by)
    other = next(p for p in players if p["name"] != by)
    # Its player holds no monster, only an item; the other player holds the Imp.
    player["hand"] = [card.name, "Validator Helm", *(h for h in player["hand"] if h != card.name)]
    player["hand"] = [h for h in player["hand"] if h != IMP]
    other["hand"] = [*other.get("hand", []), IMP]
    held = {by: len(player["hand"]), other["name"]: len(other["hand"])}
    for label, named in (
        ("a card that is not a monster", {"with": "Validator Helm"}),
        ("nothing", {}),
    ):
        ctx.run(
            f"refused with {label}",
            {
                **document,
                "players": players,
                "steps": [{"play": card.name, "by": by, **target, **named}],
                "expect": {"error": True, "hand_sizes": held},
            },
            expect_values(monster_strength=5),
        )


def _take_item_check(ctx: CheckContext, card: CardBase, effect: TakeItemInCombat) -> None:
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    rival = _player("Rival", in_play=["Validator Gauntlet", "Validator Helm"])

    def take(item: str) -> list[dict[str, Any]]:
        return [{"play": card.name, "by": "Hero", "on": "Rival", "with": item}]

    runs: list[tuple[str, dict[str, Any], Accept | None]] = [
        (
            "an item that turns the loss into a win",
            {
                "players": [_player("Hero", 1, hand=[card.name]), rival],
                "steps": [*take("Validator Gauntlet"), {"resolve": True}],
                "expect": {
                    "equipped": {"Hero": ["Validator Gauntlet"]},
                    "not_in_play": {"Rival": ["Validator Gauntlet"]},
                },
            },
            expect_values(fighter_strength=31, outcome="won", levels={"Hero": 2}),
        ),
        (
            "not an item that leaves the fight lost",
            {
                "players": [_player("Hero", 1, hand=[card.name]), rival],
                "steps": take("Validator Helm"),
                "expect": {"error": True, "in_play": {"Rival": ["Validator Helm"]}},
            },
            expect_values(fighter_strength=1),
        ),
        (
            "not while winning",
            {
                "players": [
                    _player("Hero", 1, hand=[card.name], in_play=["Validator Gauntlet"]),
                    _player("Rival", in_play=["Validator Helm"]),
                ],
                "steps": take("Validator Helm"),
                "expect": {"error": True, "in_play": {"Rival": ["Validator Helm"]}},
            },
            expect_values(fighter_strength=31),
        ),
    ]
    with ctx.together([TakeItemInCombat]):
        for label, document, accept in runs:
            ctx.run(label, {**document, "combat": fight}, accept)
    # Only the fighter plays it, and only on an item named on a rival's table.
    refusals: list[tuple[str, dict[str, Any]]] = [
        (
            "not by the helper",
            {
                "players": [
                    _player("Hero", 1),
                    _player("Rival", 1, hand=[card.name]),
                    _player("Third", in_play=["Validator Gauntlet"]),
                ],
                "steps": [
                    {"help": "Rival"},
                    {"play": card.name, "by": "Rival", "on": "Third", "with": "Validator Gauntlet"},
                ],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Rival": 1},
                    "in_play": {"Third": ["Validator Gauntlet"]},
                    "fighter_strength": 2,
                },
            },
        ),
        (
            "not with no one named",
            {
                "players": [
                    _player("Hero", 1, hand=[card.name, "Validator Gauntlet"]),
                    _player("Rival"),
                ],
                "steps": [{"play": card.name, "by": "Hero", "with": "Validator Gauntlet"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 2}, "fighter_strength": 1},
            },
        ),
        (
            "not an item from a rival's hand",
            {
                "players": [
                    _player("Hero", 1, hand=[card.name]),
                    _player("Rival", hand=["Validator Gauntlet"]),
                ],
                "steps": [
                    {"play": card.name, "by": "Hero", "on": "Rival", "with": "Validator Gauntlet"}
                ],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Hero": 1, "Rival": 1},
                    "fighter_strength": 1,
                },
            },
        ),
    ]
    for label, document in refusals:
        ctx.run(label, {**document, "combat": fight})


def _carry_check(ctx: CheckContext, card: CardBase, effect: CarryItem) -> None:
    # It carries one more Big item (when the card says so), and only one.
    bigs = ["Validator Ram"] * (2 if effect.big else 1)
    ctx.run(
        "carries one item past the limits" if effect.big else "carries no Big item",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Cart"], hand=[card.name, *bigs]),
                _player("Rival"),
            ],
            "steps": [{"play": name, "by": "Hero"} for name in [card.name, *bigs]],
            "expect": {
                "error": "Big",
                "in_play": {"Hero": [card.name, "Validator Cart", *bigs[1:]]},
            },
        },
        covers=[CarryItem],
    )
    # The same holds for a Big item received in a trade: the one Big item already on the
    # table counts once, and the follower carries the second (when it may carry a Big one).
    received = {"in_play": {"Hero": [card.name, "Validator Cart", "Validator Ram"]}}
    ctx.run(
        "a second Big item taken in trade" if effect.big else "no second Big item in trade",
        {
            "players": [
                _player("Hero", 3, in_play=[card.name, "Validator Cart"]),
                _player("Rival", 3, in_play=["Validator Ram"]),
            ],
            "steps": [{"give": ["Validator Ram"], "by": "Rival", "to": "Hero"}],
            "expect": received
            if effect.big
            else {"error": "Big", "in_play": {"Rival": ["Validator Ram"]}},
        },
    )
    if effect.big:
        _carrier_gone_run(ctx, card)


def _carrier_gone_run(ctx: CheckContext, card: CardBase) -> None:
    """The follower that carried the second Big item leaves play (a plain card discards it,
    as Kill the Hireling does): the core rules' Big items rule gives the excess Big item to the
    lowest-Level player who can carry one (the Rival, Level 2; Third, Level 1, already has
    his), the Hero keeping the other, which one being the Hero's choice. The Ram and the Cart
    make 700 Gold, too little to sell them for a level instead."""
    dismissal = "Validator Dismissal"
    bigs = ["Validator Cart", "Validator Ram"]
    # (kept by the Hero, given to the Rival): either way round is the Hero's choice
    shares = [(bigs[0], bigs[1]), (bigs[1], bigs[0])]

    def accept(values: dict[str, Any]) -> str | None:
        def items(name: str) -> list[str]:
            return sorted(i for i in values["in_play"][name] if i in ITEM_FACTS)

        got = (
            items("Hero"),
            items("Rival"),
            items("Third"),
            card.name in values["in_play"]["Hero"],
        )
        for kept, given in shares:
            if got == ([kept], [given], ["Validator Ram"], False):
                return None
        return f"expected the Hero to keep one Big item and the Rival to get the other; got {got}"

    ctx.run(
        "the extra Big item it carried goes to the lowest Level once it is gone",
        {
            "players": [
                _player("Hero", 3, in_play=[card.name, *bigs], hand=[dismissal]),
                _player("Rival", 2),
                _player("Third", 1, in_play=["Validator Ram"]),
            ],
            "steps": [{"play": dismissal, "by": "Hero"}],
            "cards": [
                {
                    "name": dismissal,
                    "deck": "treasure",
                    "kind": "other_treasure",
                    "effects": [{"type": "discard_card", "kind": card.kind_name}],
                    "encoding": {"status": "full"},
                }
            ],
        },
        accept,
    )


def _steal_level_check(ctx: CheckContext, card: CardBase, effect: StealLevel) -> None:
    """A level taken from another player: from one at Level 2 (never below 1); with no one
    named, from a player who has a level to spare (a Level 2 one too), and from no one when
    every other player is at Level 1 (no one goes below Level 1, so there is no level to move);
    at Level 8 (9 is not the winning level); never from a Level 1 player nor from oneself. The
    card is gone when it acted."""
    if getattr(card, "timing", "any") in ("combat", "running_away", "on_draw"):
        return  # played outside a fight here; such a card is tried where it acts
    runs: list[tuple[str, int, tuple[int, int], str | None, dict[str, Any]]] = [
        # (label, the Hero's Level, the Rival's and Third's, who is named, what is expected)
        ("from a Level 2 player", 3, (2, 4), "Rival", {"levels": {"Hero": 4, "Rival": 1}}),
        (
            "with no one named",
            3,
            (1, 4),
            None,
            {"levels": {"Hero": 4, "Rival": 1, "Third": 3}},
        ),
        (
            "with no one named, from the one Level 2 player",
            3,
            (1, 2),
            None,
            {"levels": {"Hero": 4, "Rival": 1, "Third": 1}},
        ),
        (
            "with no one named and everyone else at Level 1, no level moves",
            3,
            (1, 1),
            None,
            {"levels": {"Hero": 3, "Rival": 1, "Third": 1}},
        ),
        ("at Level 8", 8, (2, 4), "Rival", {"levels": {"Hero": 9, "Rival": 1}}),
        (
            "refused from a Level 1 player",
            3,
            (1, 4),
            "Rival",
            {"error": True, "levels": {"Rival": 1}},
        ),
        ("refused from its own player", 3, (2, 4), "Hero", {"error": True, "levels": {"Hero": 3}}),
    ]
    with ctx.together([StealLevel]):
        for label, level, (rival, third), named, expected in runs:
            refused = "error" in expected
            # Whether a card that finds no level to take is still spent is not said: with
            # everyone at Level 1 only the levels are judged.
            spent = {} if third == 1 else {"hand_sizes": {"Hero": 1 if refused else 0}}
            ctx.run(
                label,
                {
                    "players": [
                        _player("Hero", level, hand=[card.name]),
                        _player("Rival", rival),
                        _player("Third", third),
                    ],
                    "steps": [
                        {"play": card.name, "by": "Hero", **({"on": named} if named else {})}
                    ],
                    "expect": {**expected, **spent},
                },
            )


PLAYED_CHECKS: dict[type[EffectBase], Callable[[CheckContext, CardBase, Any], None]] = {
    DoubleStrength: _double_strength_check,
    AutomaticEscape: _automatic_escape_check,
    Strength: lambda ctx, card, e: (
        _strength_per_check(ctx, card, e) if e.per else _strength_in_play_check(ctx, card, e)
    ),
    KillMonster: _kill_monster_check,
    TransferCombat: _transfer_check,
    ChangeDieRoll: _die_check,
    CancelEscape: _glue_check,
    CancelCurse: _cancel_curse_check,
    ExtraCharacterCard: _extra_character_check,
    Cheat: _cheat_check,
    AddMonster: _add_monster_check,
    Mate: _mate_check,
    ReplaceMonster: _replace_check,
    TakeItemInCombat: _take_item_check,
    CarryItem: _carry_check,
    StealLevel: _steal_level_check,
}
