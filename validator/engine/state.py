"""The table: cards, players, decks, the die, and the invariants that always hold.

Every physical card is a `CardInstance` (a unique id plus its immutable typed definition), and
every instance is in exactly one place: a deck, a discard pile, a hand, a player's table, or the
current combat. Moves check everything first and only then change the state, so a refused move
(`RuleViolation`) leaves the game exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from validator.engine.cards import CHARACTER_KINDS as CHARACTER_KINDS
from validator.engine.cards import (
    CardBase,
    CarryItem,
    CurseCard,
    DieRolls,
    EffectBase,
    ExtraBigItems,
    ExtraCharacterCard,
    ExtraPowerRank,
    FollowerCard,
    HandSize,
    ItemCard,
    LoseItems,
    MetaAbility,
    MonsterCard,
    OneShotCard,
)
from validator.engine.memo import IdentityMemo

WINNING_LEVEL = 10
HAND_LIMIT = 5


class RuleViolation(Exception):
    """A move the rules forbid. The message says which rule; the state is unchanged."""


class Die(Protocol):
    def roll(self) -> int: ...


class SeededDie:
    """A fair six-sided die driven by the game's seeded random generator."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def roll(self) -> int:
        return self._rng.randint(1, 6)


class ScriptedDie:
    """Forced results used in order, then the fallback die (scenarios' `dice:`)."""

    def __init__(self, results: Sequence[int], fallback: Die) -> None:
        self.results = list(results)
        self._fallback = fallback

    def roll(self) -> int:
        if self.results:
            return self.results.pop(0)
        return self._fallback.roll()


@dataclass(frozen=True, eq=False)
class CardInstance:
    """One physical card. Immutable, so copies of the game state share them."""

    uid: int
    card: CardBase
    set_code: str = ""
    # Copied from the definition once, because the engine reads them on every strength check.
    name: str = field(init=False)
    kind: str = field(init=False)
    slot: str = field(init=False)
    big: bool = field(init=False)
    bonus: int = field(init=False)
    usable_by: Any = field(init=False)
    not_usable_by: Any = field(init=False)

    timing: str = field(init=False)
    # The card's top-level effects by type, each under its class and every class it derives
    # from: effects_of's answers, read without a call where the engine asks most often.
    effects_by_type: dict[type[Any], tuple[Any, ...]] = field(init=False)
    gold: int = field(init=False)  # gold_value of the definition

    def __post_init__(self) -> None:
        for name, value in _card_facts(self.card).items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<{self.name}#{self.uid}>"

    def __deepcopy__(self, memo: dict[int, Any]) -> CardInstance:
        return self


def _compute_card_facts(card: CardBase) -> dict[str, Any]:
    """The definition's values a CardInstance copies: the fields it declares with init=False."""
    fields = card.__dict__  # the model's own field values: no slow attribute fallback
    bonus = fields.get("bonus")
    by_type: dict[type[Any], tuple[Any, ...]] = {}
    for effect in card.effects:
        for klass in type(effect).__mro__:
            by_type[klass] = (*by_type.get(klass, ()), effect)
    return {
        "name": card.name,
        "kind": fields["kind"],
        "slot": fields.get("slot") or "",
        "big": bool(fields.get("big", False)),
        "bonus": bonus if isinstance(bonus, int) else 0,
        "usable_by": fields.get("usable_by"),
        "not_usable_by": fields.get("not_usable_by"),
        "timing": fields.get("timing") or "",
        "effects_by_type": by_type,
        "gold": gold_value(card),
    }


_card_facts = IdentityMemo(_compute_card_facts)


def effects_of[T: EffectBase](card: CardBase, effect_type: type[T]) -> tuple[T, ...]:
    """The card's top-level effects of one type, in the card's order (computed once per card:
    cards are immutable)."""
    found: tuple[T, ...] = _card_facts(card)["effects_by_type"].get(effect_type, ())
    return found


def item_bonus(card: CardBase) -> int:
    bonus = card.__dict__.get("bonus", 0)
    return bonus if isinstance(bonus, int) else 0


def levels_for_kill(card: MonsterCard) -> int:
    """The levels killing this monster gives before any card's extra: its printed number, or,
    when the card states none, the rules' one level per monster."""
    stated = card.levels_gained
    return 1 if stated is None else stated


def gold_value(card: CardBase) -> int:
    gold = card.__dict__.get("gold")
    return gold if isinstance(gold, int) else 0


def is_big(card: CardBase) -> bool:
    return bool(card.__dict__.get("big", False))


@dataclass(frozen=True)
class Options:
    faster_play: bool = False
    shared_victory: bool = False


@dataclass
class Player:
    name: str
    level: int = 1
    sex: str = "male"
    hand: list[CardInstance] = field(default_factory=list)
    # Items in play: equipped ones give their bonus; carried ones do not.
    equipped: list[CardInstance] = field(default_factory=list)
    carried: list[CardInstance] = field(default_factory=list)
    # Character cards by axis (race, class...), attachments (Super Munchkin, Half-Breed).
    character: list[CardInstance] = field(default_factory=list)
    attachments: list[CardInstance] = field(default_factory=list)
    followers: list[CardInstance] = field(default_factory=list)
    curses: list[CardInstance] = field(default_factory=list)
    # Cheat! cards in play, each attached to one item (by uid).
    cheats: dict[int, CardInstance] = field(default_factory=dict)
    # Ship enhancers, by the uid of the Ship they are fitted to (Booty): they stay on it.
    ship_enhancers: dict[int, list[CardInstance]] = field(default_factory=dict)
    # Penalties waiting for the next combat (from curses such as Change Sex).
    next_combat: list[CardInstance] = field(default_factory=list)
    dead: bool = False
    needs_fresh_start: bool = False
    # Resurrection was used: the next face-up Door draw comes from the discards.
    draw_from_discard: bool = False
    # What pays for it, discarded once the card is taken (so it is not the card taken).
    pending_discards: list[CardInstance] = field(default_factory=list)
    double_sale_used: bool = False

    def __repr__(self) -> str:
        return f"<Player {self.name} L{self.level}>"

    # -- what the player is -----------------------------------------------------------------

    def axis_cards(self, axis: str) -> list[CardInstance]:
        return [c for c in self.character if c.kind == axis]

    def has_trait(self, axis: str, name: str) -> bool:
        """Whether one of the player's cards of this axis has this name (case aside); a player
        with no race card is Human. A plain walk: conditions ask this in every fight."""
        wanted = name.casefold()
        any_on_axis = False
        for card in self.character:
            if card.kind == axis:
                if card.name.casefold() == wanted:
                    return True
                any_on_axis = True
        return not any_on_axis and axis == "race" and wanted == "human"

    def extra_slots(self, axis: str) -> int:

        return sum(
            e.count
            for a in self.attachments
            for e in effects_of(a.card, ExtraCharacterCard)
            if e.axis == axis
        )

    def super_single(self, axis: str) -> bool:
        """Super Munchkin / Half-Breed with a single card: its drawbacks do not apply."""
        return self.extra_slots(axis) > 0 and len(self.axis_cards(axis)) == 1

    @property
    def items(self) -> list[CardInstance]:
        return self.equipped + self.carried

    def in_play(self) -> Iterator[CardInstance]:
        yield from self.character
        yield from self.attachments
        yield from self.equipped
        yield from self.carried
        yield from self.followers
        yield from self.curses
        yield from self.cheats.values()
        yield from self.next_combat
        for fitted in self.ship_enhancers.values():
            yield from fitted

    def passive_effects[T: EffectBase](self, effect_type: type[T]) -> list[T]:
        found: list[T] = []
        for pile in (self.character, self.attachments, self.followers, self.curses):
            for source in pile:
                found += source.effects_by_type.get(effect_type, ())
        return found

    def meta(self, ability: str) -> list[CardInstance]:
        """The cards in play that grant a meta-ability (Super Munchkin)."""

        granting = []
        for pile in (self.character, self.attachments, self.followers, self.equipped):
            for card in pile:
                for effect in card.effects_by_type.get(MetaAbility, ()):
                    if effect.ability == ability:
                        granting.append(card)
                        break
        return granting

    def power_limit(self) -> int:

        return self.level + sum(e.amount for e in self.passive_effects(ExtraPowerRank))

    def power_ranks(self) -> int:
        """The total Rank of the Powers in play (an unknown Rank counts as 1)."""
        return sum(getattr(c.card, "rank", None) or 1 for c in self.axis_cards("power"))

    def hand_limit(self) -> int:

        sizes = [e.size for e in self.passive_effects(HandSize)]
        return (max(sizes) if sizes else HAND_LIMIT) + len(self.meta("secret_hq"))


@dataclass
class Game:
    """The whole state of a game. `players[active]` is the player whose turn it is."""

    players: list[Player]
    door_deck: list[CardInstance] = field(default_factory=list)  # index 0 is the top
    treasure_deck: list[CardInstance] = field(default_factory=list)
    door_discard: list[CardInstance] = field(default_factory=list)
    treasure_discard: list[CardInstance] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)
    die: Die | None = None
    options: Options = field(default_factory=Options)
    combat: Combat | None = None
    last_combat: Combat | None = None
    active: int = 0
    phase: str = "start"  # start, kicked, after_door, charity
    turn_number: int = 1
    fought_this_turn: bool = False
    # The Gold value of the items the last outcome took (Income Tax makes others match it).
    last_lost_gold: int = 0
    last_combat_turn: int = 0
    loot_after_transfer: bool = False
    winner: Player | None = None
    winners: list[Player] = field(default_factory=list)
    win_reason: dict[str, str] = field(default_factory=dict)
    check_every_move: bool = True
    total_cards: int | None = None
    # What the invariants' checker saw at its last check (invariants.InvariantWatch), so that a
    # check after a move looks again only at what the move changed.
    invariant_watch: Any = field(default=None, repr=False, compare=False)
    log: list[str] = field(default_factory=list)
    # The turn of each line of the log, beside it (the table marks where a turn begins).
    log_turns: list[int] = field(default_factory=list)
    # How many lines at the end of the log say who won: a line noted later (what the winning
    # move drew, a helper's share) goes before them, so the game ends on its winners.
    closing_lines: int = 0
    # The card or monster whose outcomes are being applied (badstuff.apply_outcomes): each
    # line they write names it ("Net Troll's Bad Stuff: P3 loses Leather Armor").
    outcome_source: str = ""
    logging: bool = True
    # Who answers the choices the rules leave to players (choices.DefaultChooser, or a bot's):
    # given by whoever sets up the game (setup.deal, the scenario runner).
    chooser: Any = None
    # True while a move is only asked about (legality.refusal): it stops where it would change
    # the game. The bots' moves the rules refused all the same (a bug of the bots) are listed.
    trying: bool = field(default=False, repr=False, compare=False)
    bot_refusals: list[str] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.die is None:
            self.die = SeededDie(self.rng)

    # -- lookups ------------------------------------------------------------------------------

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name.casefold() == name.casefold():
                return p
        raise RuleViolation(f"there is no player named {name!r}")

    def neighbours(self, player: Player) -> tuple[Player, Player]:
        """(left, right): left is the next player in turn order."""
        i = self.players.index(player)
        n = len(self.players)
        return self.players[(i + 1) % n], self.players[(i - 1) % n]

    def others(self, player: Player, start: str = "left") -> list[Player]:
        i = self.players.index(player)
        n = len(self.players)
        step = 1 if start == "left" else -1
        return [self.players[(i + step * k) % n] for k in range(1, n)]

    def note(self, *messages: str, closing: bool = False, sourced: bool = False) -> None:
        """Lines of the log in words, each with its turn. `sourced`: lines of an outcome, which
        name the card or monster it comes from (`outcome_source`); `closing`: lines that end
        the game (who won), which stay after every line noted later."""
        if self.logging:
            for message in messages:
                if sourced and self.outcome_source:
                    message = f"{self.outcome_source}: {message}"
                at = len(self.log) - (0 if closing else self.closing_lines)
                self.log.insert(at, message)
                self.log_turns.insert(at, self.turn_number)
                self.closing_lines += closing

    def roll(self, player: Player | None = None) -> int:
        """A die roll, with the roller's die modifiers (Chicken on Your Head)."""

        assert self.die is not None
        result = self.die.roll()
        if player is not None:
            result += sum(e.amount for e in player.passive_effects(DieRolls))
        return result

    # -- decks --------------------------------------------------------------------------------

    def draw(self, deck: str) -> CardInstance:
        pile = self.door_deck if deck == "door" else self.treasure_deck
        if not pile:
            discard = self.door_discard if deck == "door" else self.treasure_discard
            if not discard:
                raise RuleViolation(f"the {deck} deck and its discards are empty")
            pile.extend(discard)
            discard.clear()
            self.rng.shuffle(pile)
        return pile.pop(0)

    def can_draw(self, deck: str) -> bool:
        if deck == "door":
            return bool(self.door_deck or self.door_discard)
        return bool(self.treasure_deck or self.treasure_discard)

    def discard(self, card: CardInstance) -> None:
        (self.door_discard if card.card.deck != "treasure" else self.treasure_discard).append(card)

    def discard_all(self, cards: Iterable[CardInstance]) -> None:
        for card in cards:
            self.discard(card)

    # -- where cards are ----------------------------------------------------------------------

    def card_piles(self) -> list[list[CardInstance]]:
        """Every list that holds cards, for the one-place invariant's fast path."""
        piles = [self.door_deck, self.treasure_deck, self.door_discard, self.treasure_discard]
        for p in self.players:
            piles += [
                p.hand,
                p.character,
                p.attachments,
                p.equipped,
                p.carried,
                p.followers,
                p.curses,
                p.next_combat,
                *p.ship_enhancers.values(),
                list(p.cheats.values()),
            ]
        if self.combat is not None:
            piles.append(list(self.combat.cards()))
        return piles

    def all_cards(self) -> Iterator[tuple[str, CardInstance]]:
        """Every card with the name of its place, for the one-place invariant."""
        for label, pile in (
            ("door deck", self.door_deck),
            ("treasure deck", self.treasure_deck),
            ("door discard", self.door_discard),
            ("treasure discard", self.treasure_discard),
        ):
            for card in pile:
                yield label, card
        for p in self.players:
            for card in p.hand:
                yield f"{p.name}'s hand", card
            for card in p.in_play():
                yield f"{p.name}'s table", card
        if self.combat is not None:
            for card in self.combat.cards():
                yield "combat", card


def remove_from(cards: list[CardInstance], card: CardInstance) -> None:
    for i, c in enumerate(cards):
        if c is card:
            del cards[i]
            return
    raise ValueError(f"{card!r} is not there")


def is_item(card: CardBase) -> bool:
    return isinstance(card, ItemCard)


def is_monster(card: CardBase) -> bool:
    return isinstance(card, MonsterCard)


def is_follower(card: CardBase) -> bool:
    return isinstance(card, FollowerCard)


def is_one_shot(card: CardBase) -> bool:
    return isinstance(card, OneShotCard)


def is_curse(card: CardBase) -> bool:
    return isinstance(card, CurseCard)


# -- the fight on the table ---------------------------------------------------------------------


@dataclass(eq=False)
class MonsterInPlay:
    """A monster in the fight. A Mate is its own entry that copies `mate_of`."""

    card: CardInstance
    enhancers: list[CardInstance] = field(default_factory=list)
    mate_of: MonsterInPlay | None = None
    # The card of the monster (a Mate's is the original's), found once: the engine reads the
    # monster many times a fight. A card instance, which a deep copy of the game shares; its
    # effects_by_type are the monster's effects.
    source: CardInstance = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.source = self.mate_of.card if self.mate_of is not None else self.card
        assert isinstance(self.source.card, MonsterCard)

    @property
    def monster(self) -> MonsterCard:
        return self.source.card  # type: ignore[return-value]  # a MonsterCard (__post_init__)

    @property
    def all_enhancers(self) -> list[CardInstance]:
        return self.mate_of.all_enhancers if self.mate_of is not None else self.enhancers

    @property
    def name(self) -> str:
        return f"{self.monster.name} (Mate)" if self.mate_of is not None else self.monster.name


@dataclass(eq=False)
class OneShotPlay:
    card: CardInstance
    by: Player
    side: str  # "player" or "monster"
    target: MonsterInPlay | None = None


@dataclass(eq=False)
class Combat:
    fighter: Player
    monsters: list[MonsterInPlay]
    helper: Player | None = None
    helper_treasures: int = 0
    helper_picks_first: bool = False
    one_shots: list[OneShotPlay] = field(default_factory=list)
    # Other cards played into the fight (Wandering Monster, Mate, curses...), discarded after.
    spent: list[CardInstance] = field(default_factory=list)
    ability_bonus: dict[str, int] = field(default_factory=dict)
    runaway_bonus: dict[str, int] = field(default_factory=dict)
    abilities_used: set[tuple[str, str]] = field(default_factory=set)
    # A Level that replaces a player's own in this fight (Power Switch).
    level_override: dict[str, int] = field(default_factory=dict)
    backstabbed: set[tuple[str, str]] = field(default_factory=set)
    # Monsters gone without being killed, with whether their Treasure is still drawn.
    removed: list[tuple[MonsterInPlay, bool]] = field(default_factory=list)
    # Monsters killed outright by a card: they pay out if the side wins the rest of the fight.
    slain: list[MonsterInPlay] = field(default_factory=list)
    loaded_die: dict[str, int] = field(default_factory=dict)
    glued: set[str] = field(default_factory=set)
    # Treasures a monster hands over instead of fighting (Amazon), drawn with the rest.
    extra_treasures: int = 0
    auto_escape: dict[str, int] = field(default_factory=dict)  # player -> monsters covered
    escape_after_fail: set[str] = field(default_factory=set)
    sacrificed: set[str] = field(default_factory=set)
    treasures_drawn: int = 0
    # Treasure is drawn face up when someone helped (everyone sees it), face down otherwise.
    treasures_face_up: bool = False
    outcome: str = "none"
    resolved: bool = False
    last_side_strength: int | None = None
    last_monster_strength: int | None = None

    @property
    def side(self) -> list[Player]:
        # A helper who dies in the fight leaves it: the dead help no one until revived at the
        # next player's turn (core rules, "Death").
        helper = self.helper
        return [self.fighter] + ([helper] if helper is not None and not helper.dead else [])

    def cards(self) -> Iterator[CardInstance]:
        for m in self.monsters:
            yield m.card
            yield from m.enhancers
        for m, _ in self.removed:
            yield m.card
            yield from m.enhancers
        for m in self.slain:
            yield m.card
            yield from m.enhancers
        for play in self.one_shots:
            yield play.card
        yield from self.spent

    def monster_effects[E: EffectBase](self, effect_type: type[E]) -> list[E]:
        return [e for m in self.monsters for e in m.source.effects_by_type.get(effect_type, ())]


def require_combat(game: Game) -> Combat:
    if game.combat is None:
        raise RuleViolation("there is no combat going on")
    return game.combat


def remove_monster(game: Game, combat: Combat, monster: MonsterInPlay, *, treasures: bool) -> None:
    """A monster leaves without being killed (no level; Treasure only when the card says so)."""
    combat.monsters.remove(monster)
    combat.removed.append((monster, treasures))
    # A Mate of this monster stays: it keeps copying the original and its enhancers.
    game.note(f"{monster.name} leaves the combat")


def big_allowance(player: Player) -> float:
    extra: float = 0
    for effect in player.passive_effects(ExtraBigItems):
        if effect.count == "unlimited":
            return float("inf")
        extra += effect.count
    extra += sum(1 for f in player.followers for _ in effects_of(f.card, CarryItem))
    return 1 + extra


def item_candidates(player: Player, effect: LoseItems) -> list[CardInstance]:
    pool = player.equipped if effect.worn else player.items
    out = []
    for item in pool:
        card = item.card
        if effect.slot is not None and item.slot != effect.slot:
            continue
        if effect.size == "big" and not is_big(card):
            continue
        if effect.size == "small" and is_big(card):
            continue
        if effect.tag is not None and effect.tag not in card.tags:
            continue
        out.append(item)
    return out
