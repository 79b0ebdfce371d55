"""Outcomes: what happens to a player when Bad Stuff, a curse or a card says so.

`apply_outcomes` runs a list of outcome effects on a victim. Each outcome reports whether it
found something to act on; when it did not (or its `when` condition does not hold), its
`otherwise` branch runs instead. Level never drops below 1 and never rises past the winning
level except by killing a monster.
"""

from __future__ import annotations

from collections.abc import Sequence

from validator.engine.cards import (
    ChangeCharacterCard,
    ChangeSex,
    Choose,
    Death,
    DiscardFromHand,
    DiscardHand,
    DiscardOwnCard,
    DrawTreasures,
    EffectBase,
    ExtraCharacterCard,
    GainLevels,
    LoseCards,
    LoseCharacterCard,
    LoseGoldValue,
    LoseItems,
    LoseLevels,
    OthersPayValue,
    OutcomeBase,
    RivalsDiscard,
    RivalsTake,
    Roll,
    SetLevel,
    StealItem,
    StealLevel,
    TakeFromDiscard,
)
from validator.engine.legality import checks_passed
from validator.engine.narration import hand_discarded, treasures_drawn
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    Player,
    RuleViolation,
    big_allowance,
    effects_of,
    gold_value,
    is_big,
    item_bonus,
    item_candidates,
    remove_from,
)
from validator.engine.strength import holds
from validator.engine.words import level_lines


def change_level(
    game: Game, player: Player, delta: int, *, may_win: bool = False, reason: str = "card"
) -> None:
    """Move a level up or down (never below 1; past 9 only when it may win)."""
    if player.dead and delta > 0:
        return
    ceiling = WINNING_LEVEL if may_win else WINNING_LEVEL - 1
    target = max(1, player.level + delta)
    if delta > 0:
        target = min(target, max(ceiling, player.level))
    change = target - player.level
    player.level = target
    if change < 0:
        enforce_power_ranks(game, player)
    game.note(*level_lines(player.name, delta, change, player.level, ceiling), sourced=True)
    if player.level >= WINNING_LEVEL and may_win:
        declare_winner(game, player, reason)


def steal_level(game: Game, thief: Player, victim: Player, card: CardInstance) -> None:
    """A card that takes a Level from another player and gives it to the one who plays it."""
    game.note(f"{thief.name} plays {card.name} on {victim.name}")
    change_level(game, victim, -1)
    change_level(game, thief, 1)


def enforce_power_ranks(game: Game, player: Player) -> None:
    """Powers whose total Rank is above the Level are discarded, lowest Rank first, until the
    rest fit (which keeps as much Rank as the player can)."""
    while player.power_ranks() > player.power_limit():
        weakest = min(player.axis_cards("power"), key=lambda c: getattr(c.card, "rank", None) or 1)
        discard_character(game, player, weakest)


def declare_winner(game: Game, player: Player, reason: str) -> None:
    """reason: "kill" (the rule), "card" (a card that says it can win) or "shared"."""
    game.win_reason.setdefault(player.name, reason)
    if game.winner is None:
        game.winner = player
    if player not in game.winners:
        game.winners.append(player)
    game.note(
        f"{player.name} wins the game"
        + (" too, for helping in the winning fight" if reason == "shared" else ""),
        closing=True,
    )


# -- taking cards off a player -------------------------------------------------------------------


def detach_item(game: Game, player: Player, item: CardInstance) -> None:
    """Take an item off the table (equipped or carried) with what hangs on it, then tidy up:
    Cheat! goes with its item, and curses that end with the item's slot go too."""
    if item in player.equipped:
        remove_from(player.equipped, item)
    else:
        remove_from(player.carried, item)
    cheat = player.cheats.pop(item.uid, None)
    if cheat is not None:
        game.discard(cheat)
    game.discard_all(player.ship_enhancers.pop(item.uid, []))  # they cannot move to another Ship
    slot = item.slot
    if slot:
        for curse in list(player.curses):
            if getattr(curse.card, "ends_with_slot", None) == slot:
                remove_from(player.curses, curse)
                game.discard(curse)
                game.note(f"{curse.name} leaves {player.name} with the {slot}")


def lose_item(game: Game, player: Player, item: CardInstance) -> None:
    detach_item(game, player, item)
    game.discard(item)
    game.note(f"{player.name} loses {item.name}", sourced=True)


def take_card(game: Game, victim: Player, card: CardInstance) -> None:
    """Remove any card of the victim's (hand or table) so another place can receive it."""
    if card in victim.hand:
        remove_from(victim.hand, card)
    elif card in victim.equipped or card in victim.carried:
        detach_item(game, victim, card)
    elif card in victim.followers:
        remove_from(victim.followers, card)
        enforce_big_limit(game, victim)
    else:
        raise ValueError(f"{card!r} is not {victim.name}'s")


def take_card_or_character(game: Game, player: Player, card: CardInstance) -> None:
    """Discard a card the player has in play, whatever kind of place it is in."""
    if card in player.character:
        discard_character(game, player, card)
    else:
        take_card(game, player, card)
        game.discard(card)


def from_hand_or_table(game: Game, player: Player, card: CardInstance) -> None:
    """The card played leaves the hand or the table, its play checked (a one-shot's, a Ring's)."""
    checks_passed(game)
    if card in player.hand:
        remove_from(player.hand, card)
    elif card in player.carried or card in player.equipped:
        # Off the table as any item leaves it: what hangs on it (Cheat!) goes too.
        detach_item(game, player, card)
    else:
        raise RuleViolation(f"{player.name} has no {card.name}")


def kill(game: Game, player: Player, combat: Combat | None = None) -> None:
    """Death: lose all your stuff (keep character cards, attachments, curses and Level); the
    others loot the body, highest Level first, one card each."""
    if player.dead:
        return
    game.note(f"{player.name} dies", sourced=True)
    body: list[CardInstance] = list(player.hand)
    player.hand.clear()
    for fitted in player.ship_enhancers.values():
        body.extend(fitted)
    player.ship_enhancers.clear()
    for item in list(player.items):
        detach_item(game, player, item)
        body.append(item)
    body.extend(player.followers)
    player.followers.clear()
    # Each Cheat! went with its item above (detach_item): one is only ever on an item in play.
    player.dead = True
    player.needs_fresh_start = True
    for origin in player.axis_cards("origin"):  # Origins are lost at death
        remove_from(player.character, origin)
        game.discard(origin)
    enforce_power_ranks(game, player)
    looters = sorted(
        (p for p in game.players if p is not player and not p.dead),
        key=lambda p: (-p.level, game.rng.random()),
    )
    for looter in looters:
        if not body:
            break
        pick = game.chooser.card_to_take(game, looter, body)
        remove_from(body, pick)
        looter.hand.append(pick)
        game.note(f"{looter.name} takes {pick.name} from {player.name}'s body")
    game.discard_all(body)


# -- outcomes -----------------------------------------------------------------------------------


def apply_outcomes(
    game: Game,
    victim: Player,
    effects: Sequence[EffectBase],
    *,
    source: str = "",
    rolled: int | None = None,
) -> bool:
    """Apply outcome effects in order; returns whether any of them acted. The lines they
    write in the log name `source`, the card or monster they come from."""
    outer = game.outcome_source
    game.outcome_source = source or outer
    try:
        acted = False
        for effect in effects:
            if victim.dead and not isinstance(effect, Death):
                break
            if not isinstance(effect, OutcomeBase):
                continue
            # For "each matching player", `when` picks the players; it is not about the victim.
            targets_others = (
                isinstance(effect, GainLevels) and effect.target == "each_matching_player"
            )
            if (
                effect.when is not None
                and not targets_others
                and not holds(effect.when, victim, game)
            ):
                if effect.otherwise:
                    acted |= apply_outcomes(
                        game, victim, effect.otherwise, source=source, rolled=rolled
                    )
                continue
            did = _apply_one(game, victim, effect, source, rolled)
            if not did and effect.otherwise:
                did = apply_outcomes(game, victim, effect.otherwise, source=source, rolled=rolled)
            acted |= did
        return acted
    finally:
        game.outcome_source = outer


def _amount(value: int | str, rolled: int | None, game: Game, victim: Player) -> int:
    if isinstance(value, int):
        return value
    return rolled if rolled is not None else game.roll(victim)


def _apply_one(
    game: Game, victim: Player, effect: OutcomeBase, source: str, rolled: int | None
) -> bool:
    if isinstance(effect, LoseLevels):
        change_level(game, victim, -_amount(effect.amount, rolled, game, victim))
        return True
    if isinstance(effect, GainLevels):
        targets = [victim]
        if effect.target == "each_matching_player":
            targets = [
                p for p in game.players if effect.when is None or holds(effect.when, p, game)
            ]
        for target in targets:
            change_level(game, target, effect.amount, may_win=effect.may_win)
        return True
    if isinstance(effect, SetLevel):
        if effect.to == "lowest_in_play":
            level = min(p.level for p in game.players)
        else:
            assert isinstance(effect.to, int)
            level = effect.to
        if level < victim.level:
            change_level(game, victim, level - victim.level)
        return True
    if isinstance(effect, Death):
        kill(game, victim)
        return True
    if isinstance(effect, LoseItems):
        candidates = item_candidates(victim, effect)
        if not candidates:
            return False
        if effect.pick == "biggest_bonus":
            chosen = [max(candidates, key=lambda c: (item_bonus(c.card), gold_value(c.card)))]
        elif effect.count == "all":
            chosen = candidates
        else:
            assert isinstance(effect.count, int)
            chosen = game.chooser.items_to_lose(game, victim, candidates, effect.count)
        game.last_lost_gold = sum(gold_value(i.card) for i in chosen)
        for item in chosen:
            lose_item(game, victim, item)
        return True
    if isinstance(effect, OthersPayValue):
        value = game.last_lost_gold
        if value <= 0:
            return False
        for other in game.others(victim):
            if other.dead:
                continue
            if sum(gold_value(i.card) for i in other.items) >= value:
                for item in _cheapest_payment(other.items, value):
                    lose_item(game, other, item)
            else:
                for item in list(other.items):
                    lose_item(game, other, item)
                change_level(game, other, -effect.levels)
        return True
    if isinstance(effect, LoseGoldValue):
        if not victim.items:
            return False
        for item in _cheapest_payment(victim.items, effect.amount):
            lose_item(game, victim, item)
        return True
    if isinstance(effect, DiscardHand):
        if not victim.hand:
            return False
        game.note(hand_discarded(victim), sourced=True)
        game.discard_all(victim.hand)
        victim.hand.clear()
        return True
    if isinstance(effect, DiscardFromHand):
        short = len(victim.hand) < effect.count
        chosen = game.chooser.cards_to_lose(game, victim, list(victim.hand), effect.count)
        for card in chosen:
            remove_from(victim.hand, card)
            game.discard(card)
            game.note(f"{victim.name} discards {card.name}", sourced=True)
        # The shortfall's penalty comes once the hand is gone, in the card's order.
        fell_short = (
            short
            and bool(effect.if_fewer)
            and bool(
                apply_outcomes(game, victim, effect.if_fewer or [], source=source, rolled=rolled)
            )
        )
        return bool(chosen) or fell_short
    if isinstance(effect, LoseCards):
        return _lose_cards(game, victim, _amount(effect.count, rolled, game, victim))
    if isinstance(effect, LoseCharacterCard):
        cards = victim.axis_cards(effect.axis)
        if effect.name is not None:
            cards = [c for c in cards if c.name.casefold() == effect.name]
        if not cards:
            return False
        chosen = cards if effect.count == "all" else cards[: int(effect.count)]
        for card in chosen:
            discard_character(game, victim, card)
        return True
    if isinstance(effect, ChangeCharacterCard):
        current = victim.axis_cards(effect.axis)
        if not current:
            return False
        for card in current:
            discard_character(game, victim, card)
        replacement = next(
            (c for c in reversed(game.door_discard) if c.kind == effect.axis and c not in current),
            None,
        )
        if replacement is not None:
            remove_from(game.door_discard, replacement)
            victim.character.append(replacement)
            game.note(f"{victim.name} becomes {replacement.name}", sourced=True)
        return True
    if isinstance(effect, ChangeSex):
        victim.sex = "female" if victim.sex == "male" else "male"
        game.note(f"{victim.name} is now {victim.sex}", sourced=True)
        return True
    if isinstance(effect, RivalsTake | RivalsDiscard):
        return _rivals_act(game, victim, effect)
    if isinstance(effect, Roll):
        result = game.roll(victim)
        face = max(1, min(6, result))
        game.note(f"{victim.name} rolls {result}")
        # The card parser makes the table cover each face 1 to 6 exactly once.
        hit = next(outcome for outcome in effect.outcomes if outcome.min <= face <= outcome.max)
        return apply_outcomes(game, victim, hit.effects, source=source, rolled=face)
    if isinstance(effect, Choose):
        index = game.chooser.option(game, victim, effect.options)
        return apply_outcomes(game, victim, effect.options[index], source=source, rolled=rolled)
    if isinstance(effect, StealItem):
        fighting = game.combat.side if game.combat is not None else []
        loot = [
            (p, i)
            for p in game.others(victim)
            if p not in fighting
            for i in p.items
            if effect.size is None or (effect.size == "big") == is_big(i.card)
        ]
        if not loot:
            return False
        owner, item = max(loot, key=lambda t: (item_bonus(t[1].card), gold_value(t[1].card)))
        detach_item(game, owner, item)
        victim.carried.append(item)
        enforce_big_limit(game, victim)
        game.note(f"{victim.name} steals {item.name} from {owner.name}", sourced=True)
        return True
    if isinstance(effect, StealLevel):
        others = [p for p in game.others(victim) if p.level > 1]
        if not others:
            return False
        target = max(others, key=lambda p: p.level)
        change_level(game, target, -1)
        change_level(game, victim, 1)
        return True
    if isinstance(effect, DrawTreasures):
        receiver = victim
        if effect.recipient == "fighter" and game.combat is not None:
            receiver = game.combat.fighter
        game.note(*treasures_drawn(game, receiver, effect.count), sourced=True)
        for _ in range(effect.count):
            if not game.can_draw("treasure"):
                break
            receive_drawn(game, receiver, game.draw("treasure"))
        return True
    if isinstance(effect, TakeFromDiscard):
        pile = game.treasure_discard + game.door_discard
        if not pile:
            return False
        pick = game.chooser.card_to_take(game, victim, pile)
        remove_from(
            game.treasure_discard if pick in game.treasure_discard else game.door_discard, pick
        )
        victim.hand.append(pick)
        game.note(f"{victim.name} takes {pick.name} from the discards", sourced=True)
        return True
    if isinstance(effect, DiscardOwnCard):
        # "any": a rival's card first (seat order from the player's left), then the player's.
        owners = [victim]
        if effect.owner == "any":
            seat = game.players.index(victim)
            owners = [*game.players[seat + 1 :], *game.players[:seat], victim]
        for owner in owners:
            candidates = [
                c for c in owner.in_play() if effect.kind is None or c.kind == effect.kind
            ]
            if not candidates:
                continue
            card = candidates[0]
            if card in owner.character:
                discard_character(game, owner, card)
            else:
                take_card(game, owner, card)
                game.discard(card)
            return True
        return False
    raise RuleViolation(f"the engine cannot apply {type(effect).__name__} yet")


def _lose_cards(game: Game, victim: Player, count: int) -> bool:
    """The victim loses `count` cards of their choice, from the hand or the table."""
    candidates = list(victim.hand) + list(victim.items)
    if not candidates:
        return False
    for card in game.chooser.cards_to_lose(game, victim, candidates, count):
        take_card(game, victim, card)
        game.discard(card)
        game.note(f"{victim.name} loses {card.name}", sourced=True)
    return True


def _cheapest_payment(items: Sequence[CardInstance], amount: int) -> list[CardInstance]:
    """The victim's choice of items worth at least `amount`: the least Gold that pays it
    (then the least bonus lost); everything when the items are worth less."""
    if sum(gold_value(i.card) for i in items) < amount:
        return list(items)
    priced = sorted(items, key=lambda c: (gold_value(c.card), item_bonus(c.card)))
    if len(priced) > 12:  # too many to try every set: pay with the cheapest first
        chosen, paid = [], 0
        for item in priced:
            if paid >= amount:
                break
            chosen.append(item)
            paid += gold_value(item.card)
        return chosen
    best: tuple[int, int] | None = None
    best_set: list[CardInstance] = list(priced)
    for mask in range(1, 1 << len(priced)):
        chosen = [item for bit, item in enumerate(priced) if mask >> bit & 1]
        paid = sum(gold_value(i.card) for i in chosen)
        if paid < amount:
            continue
        score = (paid, sum(item_bonus(i.card) for i in chosen))
        if best is None or score < best:
            best, best_set = score, chosen
    return best_set


def _rivals(game: Game, victim: Player, which: str) -> list[Player]:
    """The other players a rivals_take or rivals_discard names, in the order they act; the
    dead are left out (they receive no cards and choose nothing)."""
    if which == "left_then_right":
        left, right = game.neighbours(victim)
        rivals = [left] if left is right else [left, right]
    elif which == "highest_level":
        others = game.others(victim)
        top = max((p.level for p in others), default=0)
        rivals = [p for p in others if p.level == top]
    elif which == "each_other_from_left":
        rivals = game.others(victim, "left")
    else:
        rivals = game.others(victim, "right")
    return [p for p in rivals if not p.dead]


def _rivals_act(game: Game, victim: Player, effect: RivalsTake | RivalsDiscard) -> bool:
    """Other players take something of the victim's, or choose what the victim discards."""
    if isinstance(effect, RivalsTake):
        return _rivals_take(game, victim, effect)
    return _rivals_discard(game, victim, effect)


def _rivals_discard(game: Game, victim: Player, effect: RivalsDiscard) -> bool:
    """Each rival in turn chooses items of the victim's, which go to the discard pile."""
    discarded = False
    for chooser in _rivals(game, victim, effect.choosers):
        for _ in range(effect.count):
            pool = list(victim.items)
            if not pool:
                return discarded
            pick = game.chooser.item_to_discard_for(game, chooser, victim, pool)
            take_card(game, victim, pick)
            game.discard(pick)
            discarded = True
            game.note(f"{chooser.name} has {victim.name} discard {pick.name}", sourced=True)
    return discarded


def _rivals_take(game: Game, victim: Player, effect: RivalsTake) -> bool:
    took = False
    for taker in _rivals(game, victim, effect.takers):
        for _ in range(effect.count):
            if effect.what == "item":
                pool = list(victim.items)
            elif effect.what == "hand_card":
                pool = list(victim.hand)
            else:
                pool = [c for c in victim.items if c.card.deck == "treasure"] + [
                    c for c in victim.hand if c.card.deck == "treasure"
                ]
            if not pool:
                break
            if effect.what == "hand_card":
                pick = pool[game.rng.randrange(len(pool))]
            else:
                pick = game.chooser.card_to_take(game, taker, pool)
            take_card(game, victim, pick)
            taker.hand.append(pick)
            took = True
            game.note(f"{taker.name} takes {pick.name} from {victim.name}", sourced=True)
    return took


def discard_character(game: Game, player: Player, card: CardInstance) -> None:
    """Discard a race/class (or cousin) card; attachments go when nothing is left to hold them."""
    remove_from(player.character, card)
    game.discard(card)
    axis = card.kind
    if not player.axis_cards(axis):
        for attachment in list(player.attachments):
            if any(
                e.axis == axis and e.needs_host
                for e in effects_of(attachment.card, ExtraCharacterCard)
            ):
                remove_from(player.attachments, attachment)
                game.discard(attachment)
    game.note(f"{player.name} discards {card.name}", sourced=True)
    enforce_big_limit(game, player)
    if card.kind != "power":
        # An Origin (or any card) that made room for Powers: the rest must fit without it.
        enforce_power_ranks(game, player)


def enforce_big_limit(game: Game, player: Player) -> None:
    """Someone who loses what let them carry extra Big items gives the excess to the
    lowest-Level player(s) able to carry them, and discards what no one can take."""
    while True:
        bigs = [
            i for i in player.items if i.big and i.slot != "ship" and i.uid not in player.cheats
        ]
        if len(bigs) <= big_allowance(player):
            return
        item = min(bigs, key=lambda c: (item_bonus(c.card), gold_value(c.card)))
        detach_item(game, player, item)
        takers = sorted(
            (p for p in game.players if p is not player and not p.dead),
            key=lambda p: p.level,
        )
        for taker in takers:
            held = sum(1 for i in taker.items if is_big(i.card) and i.uid not in taker.cheats)
            if held + 1 <= big_allowance(taker):
                taker.carried.append(item)
                game.note(f"{player.name} gives the extra Big item {item.name} to {taker.name}")
                break
        else:
            game.discard(item)
            game.note(f"{player.name} discards the extra Big item {item.name}")


def receive_drawn(game: Game, player: Player, card: CardInstance) -> None:
    """A drawn card goes to the hand, unless it acts as soon as it is drawn (Hoard!)."""
    if card.timing == "on_draw":
        game.note(f"{player.name} draws {card.name}: it acts at once")
        # Discarded once it has acted: were it in the discards while its own draws empty the
        # deck, the reshuffle would hand it back and Hoard! would draw itself without end.
        apply_outcomes(game, player, card.card.effects, source=card.name)
        game.discard(card)
        return
    player.hand.append(card)
