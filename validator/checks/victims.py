"""Outcomes delivered to a victim (a monster's Bad Stuff, a curse's cast): run on four kinds of
victim, with and without the traits the outcomes name, then at tables set to show what they do
to the other players (takers in turn, payers, character cards going down the Door discards),
each result checked against the oracle's prediction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from validator.checks.oracle import Seat, Victim, item_matches
from validator.checks.references import EQUIPMENT, ITEM_FACTS, axis_card, title_case, traits_of
from validator.checks.runner import (
    Accept,
    CheckContext,
    Judged,
    conditions_of,
    is_predictable,
    kinds_of,
    player,
    predicts,
    table_matches,
    trait_names,
    walk_effects,
)
from validator.engine import (
    ChangeCharacterCard,
    ChangeSex,
    Death,
    EffectBase,
    LoseCharacterCard,
    LoseGoldValue,
    LoseItems,
    LoseLevels,
    OthersPayValue,
    RivalsDiscard,
    RivalsTake,
)

VICTIMS = {
    "fully equipped": (5, EQUIPMENT, 3),
    "with nothing": (5, [], 0),
    "at Level 1": (1, ["Validator Helm", "Validator Sword"], 2),
    "at Level 9": (9, ["Validator Mail", "Validator Boots", "Validator Cart"], 1),
}
# Outcomes whose result depends on the rest of the table: predicted on the tables of
# `_table_runs`, not on the plain victims.
TABLE_OUTCOMES = (RivalsTake, RivalsDiscard, ChangeCharacterCard, OthersPayValue)

# A curse that kills, given inline, to have another player dead (until their next turn) when
# the outcome comes: the dead receive no cards.
DOOM = "Validator Doom"
DOOM_CARD = {
    "name": DOOM,
    "deck": "door",
    "kind": "curse",
    "effects": [{"type": "death"}],
    "encoding": {"status": "full"},
}

# A Cheat! given inline (the core set's card: discarded when its item leaves play), to see that
# an item lost with one on it takes it along rather than losing it from the game.
CHEAT = "Validator Cheat"
CHEAT_CARD = {
    "name": CHEAT,
    "deck": "door",
    "kind": "other_door",
    "effects": [{"type": "cheat"}],
    "encoding": {"status": "full"},
}

Predictor = Callable[[Victim, int], list[Victim]]
# (players, steps before the outcome, die) -> the scenario that delivers it to the Hero
Delivery = Callable[[list[dict[str, Any]], list[dict[str, Any]], int], dict[str, Any]]


def victim_runs(
    ctx: CheckContext,
    outcomes: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    pursued: int,
    dice: Sequence[int],
    label: str,
    covers: list[type[EffectBase] | str],
) -> None:
    """The outcomes on four kinds of victim (with and without the traits they name), then on
    the tables that show what they do to the other players."""
    traits = traits_of(c for e in outcomes for c in conditions_of(e))
    trait_sets: list[set[tuple[str, str]]] = [set()] + ([traits] if traits else [])
    for kind, (level, items, hand) in VICTIMS.items():
        if level < pursued:
            continue  # not pursued: nothing to see
        for trait_set in trait_sets:
            for die in dice:
                victim = Victim(level, list(items), hand, set(trait_set))
                hero = player(
                    "Hero",
                    level,
                    in_play=trait_names(trait_set) + list(items),
                    hand=["Validator Trinket"] * hand,
                )
                suffix = f" ({', '.join(n for _, n in trait_set)})" if trait_set else ""
                ctx.run(
                    f"{label} on a victim {kind}{suffix}, die {die}",
                    deliver([hero, player("Rival")], [], die),
                    table_matches(victim, predictor(victim, die), caught),
                    covers=covers,
                )
    if pursued <= 9:
        _table_runs(ctx, outcomes, predictor, deliver, caught=caught, level=max(pursued, 6))


def _table_runs(
    ctx: CheckContext,
    outcomes: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    walked = walk_effects(outcomes)
    covers = kinds_of(outcomes) if all(is_predictable(e) for e in outcomes) else []
    if any(isinstance(e, RivalsTake | RivalsDiscard) for e in walked):
        # Five players: the neighbours, the highest Levels (two, tied) and the first two each
        # way round are different pairs; two items, two hand cards, three Treasures can go.
        # The Treasure in hand (the Ram) is worth more than either item: a taker of items
        # still takes an item.
        seats = [Seat("Left", 2), Seat("Second", 5), Seat("Third", 5), Seat("Right", 3)]
        items = ["Validator Helm", "Validator Sword"]
        victim = Victim(level, items, 1, set(), doors=1, others=seats)
        hero = player("Hero", level, in_play=items, hand=["Validator Ram", "Validator Door"])
        ctx.run(
            "the other players take their share around a table of five",
            deliver([hero, *(player(s.name, s.level) for s in seats)], [], 3),
            table_matches(victim, predictor(victim, 3), caught),
            covers=covers,
        )
        if any(isinstance(e, RivalsTake) and e.what == "treasure" for e in walked):
            # A Door card is no Treasure: a victim holding only that gives nothing.
            doors_only = Victim(level, [], 0, set(), doors=1)
            ctx.run(
                "a victim with only a Door card in hand gives no Treasure",
                deliver([player("Hero", level, hand=["Validator Door"]), player("Rival")], [], 3),
                table_matches(doors_only, predictor(doors_only, 3), caught),
                covers=covers,
            )
        # Left (Level 2) was killed just before: it takes nothing; Right (Level 3, the highest
        # alive) takes as if Left were not there.
        seats = [Seat("Left", 2, dead=True), Seat("Right", 3)]
        victim = Victim(level, items, 1, set(), doors=1, others=seats)
        hero = player(
            "Hero", level, in_play=items, hand=[DOOM, "Validator Trinket", "Validator Door"]
        )
        document = deliver(
            [hero, player("Left", 2), player("Right", 3)],
            [{"play": DOOM, "by": "Hero", "on": "Left"}],
            3,
        )
        ctx.run(
            "a player killed just before takes nothing",
            {**document, "cards": [DOOM_CARD]},
            table_matches(victim, predictor(victim, 3), caught),
            covers=covers,
        )
    if any(isinstance(e, Death) for e in walked):
        # The body is looted by the living only: Left, the highest Level, was killed just before.
        seats = [Seat("Left", 7, dead=True), Seat("Right", 3)]
        items = ["Validator Helm", "Validator Sword"]
        victim = Victim(level, items, 1, set(), others=seats)
        hero = player("Hero", level, in_play=items, hand=[DOOM, "Validator Trinket"])
        document = deliver(
            [hero, player("Left", 7), player("Right", 3)],
            [{"play": DOOM, "by": "Hero", "on": "Left"}],
            1,
        )
        ctx.run(
            "a player killed just before loots nothing",
            {**document, "cards": [DOOM_CARD]},
            table_matches(victim, predictor(victim, 1), caught),
            covers=covers,
        )
    if any(isinstance(e, OthersPayValue) for e in walked):
        # The victim's only item is the 300 Gold Cart: the Rival can pay that, Third cannot,
        # and Fourth's own Cart pays it exactly (worth as much is enough: no level lost).
        seats = [
            Seat("Rival", 5, ["Validator Helm", "Validator Sword", "Validator Ram"]),
            Seat("Third", 4, ["Validator Trinket"]),
            Seat("Fourth", 3, ["Validator Cart"]),
        ]
        victim = Victim(level, ["Validator Cart"], 0, set(), others=seats)
        players = [player("Hero", level, in_play=["Validator Cart"])]
        players += [player(s.name, s.level, in_play=s.items) for s in seats]
        ctx.run(
            "the other players must pay as much",
            deliver(players, [], 3),
            table_matches(victim, predictor(victim, 3), caught),
            covers=covers,
        )
        # A victim who lost nothing set no price: the others keep every item and their Level.
        rival = Seat("Rival", 5, ["Validator Helm", "Validator Sword"])
        bare = Victim(level, [], 0, set(), others=[rival])
        ctx.run(
            "the other players pay nothing when the victim lost nothing",
            deliver([player("Hero", level), player("Rival", 5, in_play=rival.items)], [], 3),
            table_matches(bare, predictor(bare, 3), caught),
            covers=covers,
        )
        # The Rival's 200 Gold Sword covers the victim's 200 Gold Helm alone: the 400 Gold Ram
        # is kept (the cheapest payment that covers it).
        rival = Seat("Rival", 5, ["Validator Sword", "Validator Ram"])
        helm = Victim(level, ["Validator Helm"], 0, set(), others=[rival])
        players = [player("Hero", level, in_play=helm.items)]
        ctx.run(
            "the other players pay with the one item that covers it",
            deliver([*players, player("Rival", 5, in_play=rival.items)], [], 3),
            table_matches(helm, predictor(helm, 3), caught),
            covers=covers,
        )
    if any(isinstance(e, LoseGoldValue) for e in walked):
        # Thirteen items of 200 Gold: exactly enough of them go (1,000 Gold is five), not
        # none and not every one.
        small = ["Validator Helm", "Validator Mail", "Validator Boots", "Validator Sword"]
        many = [*small, "Validator Buckler"] * 2 + small[:3]
        rich = Victim(level, many, 0, set())
        ctx.run(
            "a victim with thirteen items gives up just enough of them",
            deliver([player("Hero", level, in_play=many), player("Rival")], [], 3),
            table_matches(rich, predictor(rich, 3), caught),
            covers=covers,
        )
    _named_character_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _cheated_item_run(ctx, walked, predictor, deliver, caught=caught, level=level)
    _big_limit_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _hostless_extra_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _power_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _follower_death_run(ctx, walked, predictor, deliver, level=level)
    _biggest_bonus_run(ctx, walked, predictor, deliver, caught=caught, level=level)
    _item_size_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _one_dear_item_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _sex_runs(ctx, walked, predictor, deliver, caught=caught, level=level)
    _fitted_ship_run(ctx, walked, predictor, deliver, level=level)
    for axis in sorted({e.axis for e in walked if isinstance(e, ChangeCharacterCard)}):
        one, two, three = (axis_card(axis, rank) for rank in range(3))
        decoy = axis_card("race" if axis != "race" else "class", 0)
        # Going down the Door discards: the decoy (another axis), then two, then three.
        seeded = Victim(level, [], 0, {one}, others=[Seat("Rival"), Seat("Third")])
        seeded.discard = [three, two, decoy]
        players = [
            player("Hero", level, in_play=trait_names([one])),
            player("Rival", in_play=trait_names([two, decoy])),
            player("Third", in_play=trait_names([three])),
        ]
        before = [
            {"discard_card": title_case(three[1]), "by": "Third"},
            {"discard_card": title_case(two[1]), "by": "Rival"},
            {"discard_card": title_case(decoy[1]), "by": "Rival"},
        ]
        passed = ctx.run(
            f"the first {axis} going down the Door discards replaces yours",
            deliver(players, before, 3),
            table_matches(seeded, predictor(seeded, 3), caught),
        )
        bare = Victim(level, [], 0, {one})
        if passed is not None:
            ctx.run(
                f"with no {axis} in the Door discards, yours is lost",
                deliver([players[0], player("Rival")], [], 3),
                table_matches(bare, predictor(bare, 3), caught),
                covers=covers,
            )
        # The card changes a card you have: without one on that axis (a Human, the
        # classless) nothing happens, though a card of it lies in the Door discards.
        lacking = Victim(level, [], 0, set(), others=[Seat("Rival")])
        lacking.discard = [two]
        ctx.run(
            f"without a {axis}, the one in the Door discards is not taken",
            deliver(
                [player("Hero", level), player("Rival", in_play=trait_names([two]))],
                [{"discard_card": title_case(two[1]), "by": "Rival"}],
                3,
            ),
            table_matches(lacking, predictor(lacking, 3), caught),
            covers=covers,
        )


def _named_character_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A loss that names its card (a Wizard loses the Wizard) on a victim holding another card
    of that axis too, put in play first: only the named one goes."""
    for effect in walked:
        if not isinstance(effect, LoseCharacterCard) or effect.name is None:
            continue
        named, other = (effect.axis, effect.name), axis_card(effect.axis, 0)
        victim = Victim(level, [], 0, {named, other})
        # The other card, and a Super Munchkin-like card that lets the victim hold both, are
        # plain and given inline: the card's library need not know them.
        extra = f"Validator Second {title_case(effect.axis)}"
        inline: list[dict[str, Any]] = [
            {"name": title_case(other[1]), "deck": "door", "kind": other[0]},
            {
                "name": extra,
                "deck": "door",
                "kind": "other_door",
                "effects": [{"type": "extra_character_card", "axis": effect.axis}],
            },
        ]
        hero = player("Hero", level, in_play=[title_case(other[1]), extra, title_case(named[1])])
        document = deliver([hero, player("Rival")], [], 3)
        ctx.run(
            f"a victim with another {effect.axis} keeps it and loses the {title_case(effect.name)}",
            {**document, "cards": [{**c, "encoding": {"status": "full"}} for c in inline]},
            table_matches(victim, predictor(victim, 3), caught),
        )


def _cheated_item_run(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """The victim's only item, one the first item loss can take, carries a Cheat!: the table
    ends as without it (the Cheat! is no item), and the run's card count shows that the
    Cheat! went to the discards with its item instead of vanishing."""
    losses = [e for e in walked if isinstance(e, LoseItems)]
    if not losses:
        return
    candidates = [*EQUIPMENT, "Validator Ram"]
    item = next((name for name in candidates if item_matches(losses[0], name)), None)
    if item is None:
        return
    victim = Victim(level, [item], 0, set())
    document = deliver(
        [player("Hero", level, in_play=[item], hand=[CHEAT]), player("Rival")],
        [{"play": CHEAT, "by": "Hero", "with": item}],
        3,
    )
    ctx.run(
        f"the {item} lost with a Cheat! on it takes the Cheat! along",
        {**document, "cards": [CHEAT_CARD]},
        table_matches(victim, predictor(victim, 3), caught),
    )


# Two plain Big items (the Ram is worth more): a victim carrying both needs something that lets
# them carry an extra Big item.
BIG_PAIR = ["Validator Ram", "Validator Cart"]


def _porter(axis: str) -> tuple[str, str]:
    """A character card (like the Dwarf) that lets its player carry one extra Big item."""
    return (axis, f"validator {axis} porter")


def _porter_card(axis: str) -> dict[str, Any]:
    return {
        "name": title_case(_porter(axis)[1]),
        "deck": "door",
        "kind": axis,
        "effects": [{"type": "extra_big_items", "count": 1}],
        "encoding": {"status": "full"},
    }


def _is_big(item: str) -> bool:
    return bool(ITEM_FACTS.get(item, {}).get("big"))


def _big_allowance(seat: Seat) -> int:
    # One Big item for everyone, one more for a porter (the rulebook's Dwarf).
    return 1 + sum(1 for trait in seat.traits if trait[1].endswith(" porter"))


def _shed_big_items(state: Victim, porter: tuple[str, str]) -> list[Victim]:
    """The rulebook's Big items rule: who loses what let them carry more than one Big item
    keeps one of their choice and gives the rest to the lowest-Level players able to carry
    them; what no one can carry is discarded. The dead receive nothing."""
    bigs = [item for item in state.items if _is_big(item)]
    if state.dead or porter in state.traits or len(bigs) <= 1:
        return [state]
    out = []
    for kept in sorted(set(bigs)):
        after = state.copy()
        excess = list(bigs)
        excess.remove(kept)
        for item in excess:
            after.items.remove(item)
            takers = sorted((s for s in after.others if not s.dead), key=lambda s: s.level)
            for taker in takers:
                if sum(1 for i in taker.items if _is_big(i)) < _big_allowance(taker):
                    taker.items.append(item)
                    break
        out.append(after)
    return out


def _big_limit_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A victim whose only card of the axis lost lets them carry a second Big item, and who
    carries two: the extra one goes to the lowest-Level living player able to carry it, or
    to the discards when no one can."""
    axes = sorted({e.axis for e in walked if isinstance(e, LoseCharacterCard) and e.name is None})
    for axis in axes:
        porter = _porter(axis)
        porter_name = title_case(porter[1])

        def shed(victim: Victim, die: int, porter: tuple[str, str] = porter) -> list[Victim]:
            found: dict[tuple[Any, ...], Victim] = {}
            for state in predictor(victim, die):
                for after in _shed_big_items(state, porter):
                    found.setdefault(after.key(), after)
            return list(found.values())

        hero = player("Hero", level, in_play=[porter_name, *BIG_PAIR], hand=[DOOM])
        # Dead (Level 1) was killed just before; Low (Level 2) already carries a Big item;
        # Mid (Level 3) carries only a Small one and takes it; High (Level 4) is not reached.
        seats = [
            Seat("Dead", 1, dead=True),
            Seat("Low", 2, ["Validator Ram"]),
            Seat("Mid", 3, ["Validator Sword"]),
            Seat("High", 4),
        ]
        victim = Victim(level, list(BIG_PAIR), 0, {porter}, others=seats)
        document = deliver(
            [hero, *(player(s.name, s.level, in_play=s.items) for s in seats)],
            [{"play": DOOM, "by": "Hero", "on": "Dead"}],
            3,
        )
        ctx.run(
            f"without the {axis} that carried it, the extra Big item goes to the lowest Level "
            "able to carry it",
            {**document, "cards": [DOOM_CARD, _porter_card(axis)]},
            table_matches(victim, shed(victim, 3), caught),
        )
        # A Rival who is a porter too and carries one Big item can carry a second.
        rival = Seat("Rival", 2, ["Validator Ram"], traits={porter})
        victim = Victim(level, list(BIG_PAIR), 0, {porter}, others=[rival])
        document = deliver(
            [
                player("Hero", level, in_play=[porter_name, *BIG_PAIR]),
                player("Rival", 2, in_play=[porter_name, *rival.items]),
            ],
            [],
            3,
        )
        ctx.run(
            f"without the {axis} that carried it, the extra Big item goes to a porter",
            {**document, "cards": [_porter_card(axis)]},
            table_matches(victim, shed(victim, 3), caught),
        )
        # No one can carry it: it is discarded.
        rival = Seat("Rival", 2, ["Validator Cart"])
        victim = Victim(level, list(BIG_PAIR), 0, {porter}, others=[rival])
        document = deliver(
            [
                player("Hero", level, in_play=[porter_name, *BIG_PAIR]),
                player("Rival", 2, in_play=rival.items),
            ],
            [],
            3,
        )
        ctx.run(
            f"without the {axis} that carried it, an extra Big item no one can carry is discarded",
            {**document, "cards": [_porter_card(axis)]},
            table_matches(victim, shed(victim, 3), caught),
        )


def _extra_card(axis: str) -> tuple[str, str]:
    """A Super Munchkin-like card (a second card of the axis), as a pseudo-trait the table
    check sees in play: it needs a card of its axis to stay."""
    return (f"{axis} extra", f"validator second {axis}")


def _drop_hostless(state: Victim, axes: Sequence[str]) -> Victim:
    """The rulebook's Super Munchkin and Half-Breed go when the last card of their axis goes."""
    after = state.copy()
    for axis in axes:
        if not any(trait[0] == axis for trait in after.traits):
            after.traits.discard(_extra_card(axis))
    return after


def _hostless_extra_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A victim with one card of the axis lost and a second-card card on it, and a card and a
    second-card card on another axis: the first second-card card goes with its host, the
    other stays."""
    axes = sorted({e.axis for e in walked if isinstance(e, LoseCharacterCard) and e.name is None})
    for axis in axes:
        other = "race" if axis != "race" else "class"
        host, other_host = axis_card(axis, 0), axis_card(other, 0)
        traits = {host, other_host, _extra_card(axis), _extra_card(other)}
        victim = Victim(level, [], 0, traits)
        inline: list[dict[str, Any]] = [
            {"name": title_case(host[1]), "deck": "door", "kind": axis},
            {"name": title_case(other_host[1]), "deck": "door", "kind": other},
            *(
                {
                    "name": title_case(_extra_card(a)[1]),
                    "deck": "door",
                    "kind": "other_door",
                    "effects": [{"type": "extra_character_card", "axis": a}],
                }
                for a in (axis, other)
            ),
        ]
        hero = player("Hero", level, in_play=trait_names(sorted(traits)))
        document = deliver([hero, player("Rival")], [], 3)
        states = [_drop_hostless(s, (axis, other)) for s in predictor(victim, 3)]
        ctx.run(
            f"a second {axis} card goes with the last {axis}, a second {other} card stays",
            {**document, "cards": [{**c, "encoding": {"status": "full"}} for c in inline]},
            table_matches(victim, states, caught),
        )


def _powers(count: int) -> list[tuple[str, str]]:
    """Plain Powers of Rank 1 (as traits): Super Munchkin lets a player have Powers whose total
    Rank is at most their Level."""
    return [("power", f"validator power {n}") for n in range(1, count + 1)]


# An Origin (Super Munchkin) that lets the Powers' total Rank exceed the Level by one.
ORIGIN = ("origin", "validator origin")


def _power_documents(count: int) -> list[dict[str, Any]]:
    powers: list[dict[str, Any]] = [
        {"name": title_case(name), "deck": "door", "kind": "power", "rank": 1}
        for _, name in _powers(count)
    ]
    origin: dict[str, Any] = {
        "name": title_case(ORIGIN[1]),
        "deck": "door",
        "kind": "origin",
        "effects": [{"type": "extra_power_rank", "amount": 1}],
    }
    return [{**d, "encoding": {"status": "full"}} for d in [*powers, origin]]


def _fit_powers(state: Victim) -> list[Victim]:
    """Super Munchkin's rules: a player who dies discards their Origins; one whose Powers'
    total Rank is then above their Level (plus what an Origin allows) discards Powers until it
    fits, no more than that. Every Power here is Rank 1: any of them may be the ones to go."""
    after = state.copy()
    if after.dead:
        after.traits.discard(ORIGIN)
    powers = sorted(t for t in after.traits if t[0] == "power")
    limit = after.level + (1 if ORIGIN in after.traits else 0)
    if len(powers) <= limit:
        return [after]
    out = []
    for kept in combinations(powers, limit):
        one = after.copy()
        one.traits -= set(powers) - set(kept)
        out.append(one)
    return out


def _power_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A victim whose Powers' total Rank is exactly what their Level allows: losing levels
    costs Powers; dying costs the Origin, and with it the Power it made room for."""
    runs: list[tuple[str, set[tuple[str, str]]]] = []
    if any(isinstance(e, LoseLevels) for e in walked):
        runs.append(("Powers up to the Level", set(_powers(level))))
    if any(isinstance(e, Death) for e in walked):
        runs.append(("an Origin and a Power more", {*_powers(level + 1), ORIGIN}))
    for label, traits in runs:
        victim = Victim(level, [], 0, traits)
        found: dict[tuple[Any, ...], Victim] = {}
        for state in predictor(victim, 3):
            for after in _fit_powers(state):
                found.setdefault(after.key(), after)
        hero = player("Hero", level, in_play=trait_names(sorted(traits)))
        document = deliver([hero, player("Rival")], [], 3)
        ctx.run(
            f"a victim with {label} keeps what the Level allows",
            {**document, "cards": _power_documents(len(traits))},
            table_matches(victim, list(found.values()), caught),
        )


HENCHMAN = "Validator Henchman"


def _follower_death_run(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    level: int,
) -> None:
    """Death takes all of a player's stuff: a Hireling (a follower) is no character card, so
    it leaves the dead victim's table with the rest (looted or discarded, never kept)."""
    if not any(isinstance(e, Death) for e in walked):
        return
    victim = Victim(level, [], 0, set())
    if not all(state.dead for state in predictor(victim, 3)):
        return  # the death is not certain here: nothing to say of the Hireling
    document = deliver([player("Hero", level, in_play=[HENCHMAN]), player("Rival")], [], 3)
    ctx.run(
        "a dead victim's Hireling goes with the rest of their stuff",
        {**document, "expect": {"not_in_play": {"Hero": [HENCHMAN]}}},
    )
    # The dead come back when the next player's turn begins, and on their own next turn
    # start by drawing four cards from each deck (core rules, Death): the victim (whose turn
    # it is) has eight cards once the Rival's turn and then the victim's own have begun.
    document = deliver([player("Hero", level), player("Rival")], [], 3)
    ctx.run(
        "the dead victim's next turn starts with four cards from each deck",
        {
            **document,
            "steps": [*document.get("steps", []), {"end_turn": True}, {"end_turn": True}],
            "expect": {"dead": [], "hand_sizes": {"Hero": 8}, "levels": {"Hero": level}},
        },
    )


# A one-shot Treasure given inline, carried on the table as potions may be: no card says it is
# Big, so it is Small (core rules, Big items: any item not marked Big is Small).
POTION = "Validator Potion"
POTION_CARD: dict[str, Any] = {
    "name": POTION,
    "deck": "treasure",
    "kind": "one_shot",
    "bonus": 2,
    "gold": 100,
    "encoding": {"status": "full"},
}


def _item_size_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A loss of a Small or a Big item on victims the plain ones do not show: one whose only
    item is the Big Cart (a Small item loss finds nothing), one carrying only a one-shot potion
    (a Small item: a Big item loss finds nothing), and one with both (whichever size goes,
    the other stays; the potion is no second Big item beside the Cart)."""
    if not any(isinstance(e, LoseItems) and e.size is not None for e in walked):
        return
    ITEM_FACTS.setdefault(POTION, POTION_CARD)
    victims = [
        ("only a Big item", ["Validator Cart"], []),
        ("only a carried potion", [], [POTION]),
        ("a Big item and a carried potion", ["Validator Cart"], [POTION]),
    ]
    for label, in_play, carried in victims:
        victim = Victim(level, [*in_play, *carried], 0, set())
        hero = player("Hero", level, in_play=in_play, carried=carried)
        ctx.run(
            f"an item of one size lost by a victim with {label}",
            {**deliver([hero, player("Rival")], [], 3), "cards": [POTION_CARD]},
            table_matches(victim, predictor(victim, 3), caught),
        )


def _biggest_bonus_run(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """The item that gives the biggest bonus is lost (the card says which): among the Helm
    (+1), the Sword (+1) and the Ram (+2) only the Ram can go; the plain victims' items all
    give +1 and cannot show it."""
    if not any(isinstance(e, LoseItems) and e.pick == "biggest_bonus" for e in walked):
        return
    items = ["Validator Helm", "Validator Sword", "Validator Ram"]
    victim = Victim(level, items, 0, set())
    ctx.run(
        "the item giving the biggest bonus is the one lost",
        deliver([player("Hero", level, in_play=items), player("Rival")], [], 3),
        table_matches(victim, predictor(victim, 3), caught),
    )


def _gold_of(item: str) -> int:
    return int(ITEM_FACTS[item].get("gold", 0))


def _treasure(name: str, gold: int) -> dict[str, Any]:
    """A plain item worth `gold`, known to the oracle (its facts join `ITEM_FACTS`)."""
    document = {
        "name": name,
        "deck": "treasure",
        "kind": "item",
        "slot": "other",
        "bonus": 1,
        "gold": gold,
        "encoding": {"status": "full"},
    }
    return ITEM_FACTS.setdefault(name, document)


def _one_dear_item_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A 200 Gold Helm and a Purse worth the whole price: the Purse alone pays (the least Gold
    that pays), the Helm is kept; the dearest item must be one the victim can pay with."""
    for amount in sorted({e.amount for e in walked if isinstance(e, LoseGoldValue)}):
        if amount <= _gold_of("Validator Helm"):
            continue  # the Helm alone would pay: nothing more to see
        purse = _treasure(f"Validator Purse of {amount}", amount)
        items = ["Validator Helm", purse["name"]]
        victim = Victim(level, items, 0, set())
        document = deliver([player("Hero", level, in_play=items), player("Rival")], [], 3)
        ctx.run(
            f"an item worth {amount} Gold pays alone, a cheaper one is kept",
            {**document, "cards": [purse]},
            table_matches(victim, predictor(victim, 3), caught),
        )


def _sex_runs(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    """A change of sex, on a male victim and on a female one: each ends the other sex (the
    table check does not look at sex)."""
    if not any(isinstance(e, ChangeSex) for e in walked):
        return
    for sex in ("male", "female"):
        victim = Victim(level, [], 0, set(), sex=sex)
        states = predictor(victim, 3)
        table = table_matches(victim, states, caught)
        sexes = sorted({state.sex for state in states})

        def accept(
            values: dict[str, Any],
            table: Accept = table,
            sexes: list[str] = sexes,
        ) -> str | None:
            wrong = table(values)
            if wrong is None and values["sex"]["Hero"] not in sexes:
                wrong = f"expected the victim {' or '.join(sexes)}, got {values['sex']['Hero']}"
            return wrong

        ctx.run(
            f"a {sex} victim changes sex",
            deliver([player("Hero", level, sex=sex), player("Rival")], [], 3),
            Judged(accept, predicts=predicts(table)),
        )


# A Ship and an enhancer fitted on it (Munchkin Booty), given inline: enhancers cannot move to
# another Ship, so they leave the table with theirs, whether it is lost or the body looted.
SHIP = "Validator Skiff"
ENHANCER = "Validator Cannons"
SHIP_CARD: dict[str, Any] = {
    "name": SHIP,
    "deck": "door",
    "kind": "ship",
    "slot": "ship",
    "big": True,
    "bonus": 1,
    "gold": 200,
    "encoding": {"status": "full"},
}
ENHANCER_CARD: dict[str, Any] = {
    "name": ENHANCER,
    "deck": "treasure",
    "kind": "item",
    "slot": "other",
    "bonus": 1,
    "gold": 200,
    "tags": ["ship-enhancer"],
    "encoding": {"status": "full"},
}


def _fitted_ship_run(
    ctx: CheckContext,
    walked: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    level: int,
) -> None:
    """A victim whose only item is a Ship with an enhancer fitted, when every prediction has
    the Ship gone (lost, or the body looted): the enhancer is gone with it. Outside a fight
    only (a curse's cast), where the enhancer can be fitted first."""
    if not any(isinstance(e, LoseItems | Death) for e in walked):
        return
    ITEM_FACTS.setdefault(SHIP, SHIP_CARD)
    victim = Victim(level, [SHIP], 0, set())
    states = predictor(victim, 3)
    if not states or not all(s.exact and (s.dead or SHIP not in s.items) for s in states):
        return
    document = deliver(
        [player("Hero", level, in_play=[SHIP], hand=[ENHANCER]), player("Rival")],
        [{"play": ENHANCER, "by": "Hero", "with": SHIP}],
        3,
    )
    if "combat" in document:
        return  # no item is put into play during a combat: the enhancer cannot be fitted
    ctx.run(
        "an enhancer fitted on the Ship lost leaves with it",
        {
            **document,
            "cards": [SHIP_CARD, ENHANCER_CARD],
            "expect": {"not_in_play": {"Hero": [SHIP, ENHANCER]}},
        },
    )
