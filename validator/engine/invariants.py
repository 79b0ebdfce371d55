"""The invariants of a game, checked after every move of the simulated games and the checks:
every card in exactly one place, Levels 1 to 10, the equip limits held, a winner who won.

`check_invariants` looks at everything; `InvariantWatch` checks the same after each move,
looking again only at what the move changed.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    Player,
    big_allowance,
)


class InvariantViolation(Exception):
    """A move broke an invariant: a bug of the engine, never a refused move."""


def check_invariants(game: Game) -> list[str]:
    """Every card in exactly one place; levels 1..10; equip limits hold; a winner killed.

    From scratch, whatever happened before (InvariantWatch checks the same after each move,
    looking again only at what the move changed)."""
    problems: list[str] = []
    piles = game.card_piles()
    count = sum(map(len, piles))
    distinct = len(set(chain.from_iterable(piles)))
    if count != distinct or (game.total_cards is not None and count != game.total_cards):
        seen: dict[int, str] = {}
        for place, card in game.all_cards():
            if card.uid in seen:
                problems.append(f"{card.name} is both in {seen[card.uid]} and {place}")
            seen[card.uid] = place
        if game.total_cards is not None and count != game.total_cards:
            problems.append(f"{count} cards on the table, {game.total_cards} in the game")
    for p in game.players:
        if not 1 <= p.level <= WINNING_LEVEL:
            problems.append(f"{p.name} is at Level {p.level}")
        if p.level == WINNING_LEVEL and p not in game.winners:
            problems.append(f"{p.name} reached Level {WINNING_LEVEL} without winning")
        if len(p.equipped) > 1 or len(p.items) > 1:
            problems += _equip_problems(game, p)
    for winner in game.winners:
        if game.win_reason.get(winner.name) not in ("kill", "card", "shared"):
            problems.append(f"{winner.name} won without killing a monster")
    return problems


# What the invariants are about, by region: the decks and discards; each player's Level, hand,
# piles in play, Cheat! cards (by the item they free) and Ship enhancers (by their Ship); the
# combat's cards; the winners. A region is a list, compared with its copy in one C call.
_STANDING = -1  # the last region: the winners, why they won, the number of cards
_HAND = 1  # a player's region: [Level, hand, the piles in play (the equip limits' concern)...]


def _table(game: Game) -> list[list[Any]]:
    table: list[list[Any]] = [
        [game.door_deck, game.treasure_deck, game.door_discard, game.treasure_discard]
    ]
    for p in game.players:
        table.append(
            [
                p.level,
                p.hand,
                p.character,
                p.attachments,
                p.equipped,
                p.carried,
                p.followers,
                p.curses,
                p.next_combat,
                p.cheats,
                p.ship_enhancers,
            ]
        )
    combat = game.combat
    table.append([_combat_cards(combat) if combat is not None else []])
    table.append([game.winners, game.win_reason, game.total_cards])
    return table


def _combat_cards(combat: Combat) -> list[CardInstance]:
    """list(combat.cards()) without a generator's step per card (the same cards, in order)."""
    cards: list[CardInstance] = []
    for m in combat.monsters:
        cards.append(m.card)
        cards += m.enhancers
    for m, _ in combat.removed:
        cards.append(m.card)
        cards += m.enhancers
    for m in combat.slain:
        cards.append(m.card)
        cards += m.enhancers
    cards += [play.card for play in combat.one_shots]
    cards += combat.spent
    return cards


def _copy(entry: Any) -> Any:
    """A copy of a region's entry that later moves leave as it is."""
    if type(entry) is list:
        return entry.copy()
    if type(entry) is dict:
        return {k: v.copy() if type(v) is list else v for k, v in entry.items()}
    return entry  # a Level or a count: immutable


class InvariantWatch:
    """check_invariants after every move, looking again only at what the move changed.

    The watch keeps a copy of the table (_table) as it was at the last check, when the
    invariants held. A region equal to its copy (the same cards in the same order, compared in
    C) is not looked at again. From each pile that changed, the cards that left it and those
    that came into it are gathered (a draw from the top, cards added at the end or taken from
    it are told apart without going through the pile); when the cards that came are the cards
    that left, each card is still in exactly one place and the count is the same. A player
    whose Level changed has it checked again, one whose cards in play changed the equip limits.
    Any problem, a change of winners or of the table's shape sends the check to
    check_invariants, which looks at everything and names the problem, so both report alike."""

    def __init__(self) -> None:
        # Empty until a check from scratch found the invariants holding.
        self.copy: list[list[Any]] = []

    def check(self, game: Game) -> list[str]:
        table = self.copy
        now = _table(game)
        if now == table:
            return []
        if len(now) != len(table) or now[_STANDING] != table[_STANDING]:
            return self._from_scratch(game)
        left: list[CardInstance] = []
        came: list[CardInstance] = []
        players = game.players
        for index in range(len(now) - 1):  # the winners (the last region) are unchanged
            region, copy = now[index], table[index]
            if region == copy:
                continue
            in_play_changed = False
            for slot, entry in enumerate(region):
                before = copy[slot]
                if entry == before:
                    continue
                in_play_changed = in_play_changed or slot > _HAND
                if type(entry) is list:
                    copy[slot] = _moved(before, entry, left, came)
                    continue
                copy[slot] = _copy(entry)
                if type(entry) is dict:  # Cheat! cards, or the lists of Ship enhancers
                    for cards, found in ((before, left), (entry, came)):
                        for held in cards.values():
                            found += held if type(held) is list else [held]
            if not 1 <= index <= len(players):
                continue  # the decks or the combat: only where the cards are
            p = players[index - 1]
            if not 1 <= p.level < WINNING_LEVEL:  # a winner is checked from scratch
                return self._from_scratch(game)
            if (
                in_play_changed
                and (len(p.equipped) > 1 or len(p.items) > 1)
                and _equip_problems(game, p)
            ):
                return self._from_scratch(game)
        if (left or came) and (len(left) != len(came) or set(left) != set(came)):
            return self._from_scratch(game)
        return []

    def _from_scratch(self, game: Game) -> list[str]:
        problems = check_invariants(game)
        # A table that breaks the invariants is no base to compare the next one with.
        self.copy = [[_copy(e) for e in region] for region in _table(game)] if not problems else []
        return problems


def _moved(
    before: list[CardInstance],
    now: list[CardInstance],
    left: list[CardInstance],
    came: list[CardInstance],
) -> list[CardInstance]:
    """Add the cards that left a pile to `left`, those that came to `came` (any other change
    counts as every card leaving and the new ones coming), and return a copy of the pile as it
    is now: `before` (the watch's own copy) brought up to date in place for a draw from the
    top, cards taken from the end or added at the end, so that a deck is neither sliced nor
    copied whole for a draw."""
    had = len(before)
    kept = len(now)
    gone = had - kept
    if gone > 0:
        top = before[:gone]
        del before[:gone]
        if before == now:  # drawn from the top
            left += top
            return before
        before[:0] = top
        end = before[kept:]
        del before[kept:]
        if before == now:  # taken from the end
            left += end
            return before
        before += end
    else:
        before += now[had:]
        if before == now:  # added at the end
            came += now[had:]
            return before
        del before[had:]
    left += before
    came += now
    return now.copy()


def _equip_problems(game: Game, p: Player) -> list[str]:
    problems = []
    headgear = armor = footgear = vehicle = hands = 0
    for item in p.equipped:
        if item.uid in p.cheats:
            continue
        slot = item.slot
        if slot == "one_hand":
            hands += 1
        elif slot == "two_hands":
            hands += 2
        elif slot == "headgear":
            headgear += 1
        elif slot == "armor":
            armor += 1
        elif slot == "footgear":
            footgear += 1
        elif slot == "vehicle":
            vehicle += 1
    for slot, n in (
        ("headgear", headgear),
        ("armor", armor),
        ("footgear", footgear),
        ("vehicle", vehicle),
    ):
        if n > 1:
            problems.append(f"{p.name} has {n} {slot} equipped")
    if hands > 2:
        problems.append(f"{p.name} uses {hands} hands")
    ships = sum(1 for i in p.items if i.slot == "ship" and i.uid not in p.cheats)
    if ships > 1:
        problems.append(f"{p.name} has {ships} Ships")
    bigs = sum(1 for i in p.items if i.big and i.slot != "ship" and i.uid not in p.cheats)
    if bigs > 1 and bigs > big_allowance(p):
        problems.append(f"{p.name} carries {bigs} Big items")
    return problems
