"""What every bot reads of the cards and of a fight, worked out once: each card's facts (the
ways it is played, its price, whether it spoils a rival's fight), the leader, the cheapest
sale, and the bots' reckoning of the fight's strengths between two moves.

Shared by the bots' policies (bot_policy.py), the simulated games' bots (bots.py) and the
table's bots (table_bots.py); it makes no move.
"""

from __future__ import annotations

from validator.engine.cards import (
    CHARACTER_KINDS,
    CardBase,
    CurseCard,
    ExtraCharacterCard,
    LevelCard,
    MonsterCard,
    MonsterEnhancerCard,
    OneShotCard,
)
from validator.engine.state import (
    CardInstance,
    Combat,
    Game,
    Player,
    effects_of,
    gold_value,
    is_follower,
    is_item,
    is_monster,
    is_one_shot,
)
from validator.engine.strength import monsters_strength, side_strength, side_wins_ties

_ARRANGEMENTS: dict[int, tuple[CardBase, tuple[str, ...]]] = {}


def arrangements(definition: CardBase) -> tuple[str, ...]:
    """The ways `arrange` tries to play the card, in order (the table's bots try the same)."""
    hit = _ARRANGEMENTS.get(id(definition))
    if hit is not None and hit[0] is definition:
        return hit[1]
    kind = definition.kind_name
    ways = tuple(
        how
        for how, fits in (
            ("character", kind in CHARACTER_KINDS),
            ("attachment", bool(effects_of(definition, ExtraCharacterCard))),
            ("follower", kind in ("hireling", "ally", "sidekick")),
            ("item", is_item(definition)),
            ("level", isinstance(definition, LevelCard)),
        )
        if fits
    )
    _ARRANGEMENTS[id(definition)] = (definition, ways)
    return ways


_PRICES: dict[int, tuple[CardBase, int]] = {}


def sale_price(definition: CardBase) -> int:
    """What a card fetches when sold: its Gold if it is an item or a one-shot, else 0."""
    hit = _PRICES.get(id(definition))
    if hit is not None and hit[0] is definition:
        return hit[1]
    sellable = is_item(definition) or isinstance(definition, OneShotCard)
    price = gold_value(definition) if sellable else 0
    _PRICES[id(definition)] = (definition, price)
    return price


def cheapest_sale(player: Player) -> list[CardInstance]:
    """The cheapest handful of items worth a Level, as the simulated bots sell (none: the
    player's cards are not worth one)."""
    priced = sorted(
        ((price, c) for c in (*player.hand, *player.carried) if (price := sale_price(c.card)) > 0),
        key=lambda pair: pair[0],
    )
    chosen: list[CardInstance] = []
    value = 0
    for price, card in priced:
        chosen.append(card)
        value += price
        if value >= 1000:
            return chosen
    return []


class CardFacts:
    """What the bots read of a card again and again, worked out once from its definition."""

    __slots__ = ("boost", "curse", "host", "monster_level", "price", "spoils", "ways")

    def __init__(self, definition: CardBase) -> None:
        self.ways = arrangements(definition)  # the ways arrange tries
        self.price = sale_price(definition)
        self.curse = isinstance(definition, CurseCard)
        # A monster's Level (0 when unknown); None for any other card.
        self.monster_level = (
            (definition.level or 0) if isinstance(definition, MonsterCard) else None
        )
        # A one-shot that makes the player's side stronger (_boost plays them).
        self.boost = isinstance(definition, OneShotCard) and (definition.bonus or 0) > 0
        self.spoils = strengthens_monsters(definition)  # played on a rival's monster
        # (axis, whether it needs a card there) of a card that turn.play attaches to a
        # character axis (Super Munchkin, Half-Breed); None for any other card.
        self.host: tuple[str, bool] | None = None
        extra = effects_of(definition, ExtraCharacterCard)
        if extra and _played_as_other(definition):
            self.host = (extra[0].axis, extra[0].needs_host)


def _played_as_other(definition: CardBase) -> bool:
    """Whether turn.play plays the card as none of the kinds it tells apart first (curses,
    monster enhancers, levels, character cards, one-shots, items, followers, monsters)."""
    return not (
        isinstance(definition, CurseCard | MonsterEnhancerCard | LevelCard)
        or definition.kind_name in CHARACTER_KINDS
        or is_one_shot(definition)
        or is_item(definition)
        or is_follower(definition)
        or is_monster(definition)
    )


def strengthens_monsters(definition: CardBase) -> bool:
    """A monster enhancer that adds strength, or a one-shot with a bonus (either side's)."""
    if isinstance(definition, MonsterEnhancerCard):
        return (definition.strength or 0) > 0
    return isinstance(definition, OneShotCard) and (definition.bonus or 0) > 0


class _FactsByCard(dict[CardInstance, CardFacts]):
    """The facts of each card, by the card itself: a dict keyed by the instance (hashed by
    identity) answers in one lookup, and works a card's facts out the first time it is asked."""

    def __missing__(self, card: CardInstance) -> CardFacts:
        if len(self) >= 100_000:  # instances made for one game only (a check's forced cards)
            self.clear()
        facts = self[card] = CardFacts(card.card)
        return facts


FACTS = _FactsByCard()


def gold_value_of(card: CardInstance) -> int:
    """The card's Gold value, for sorting what to give or sell first."""
    return card.gold  # gold_value of its definition, read once when the card was made


def leader(game: Game, exclude: Player) -> Player | None:
    """The living rival of the highest Level (the first in seat order among equals)."""
    best = None
    for p in game.players:
        if p is not exclude and not p.dead and (best is None or p.level > best.level):
            best = p
    return best


# -- the bots' reckoning of a fight --------------------------------------------------------------

# The bots weigh a fight again and again between two moves; a move is always followed by
# bots.check(), which forgets this reckoning (a refused move changes nothing, so it may stay).
# Kept per game (games may be played in several threads at once), by the game's id with the
# game and the combat themselves, so that a reused id is never mistaken for them.
RECKONED: dict[int, tuple[Game, Combat, int, int]] = {}


def forget_reckoning(game: Game) -> None:
    """Forget the bots' reckoning of the game's fight: a move was made, or the game is over
    (or broke down) and its id may be given to another."""
    RECKONED.pop(id(game), None)


def reckoned(game: Game, combat: Combat) -> tuple[int, int] | None:
    """The strengths last reckoned for this fight, if no move came since (else None)."""
    known = RECKONED.get(id(game))
    if known is not None and known[0] is game and known[1] is combat:
        return known[2], known[3]
    return None


def strengths(game: Game, combat: Combat) -> tuple[int, int]:
    """The side's strength and the monsters', as the bots reckon them now."""
    known = RECKONED.get(id(game))
    if known is None or known[0] is not game or known[1] is not combat:
        known = (game, combat, side_strength(game, combat), monsters_strength(game, combat))
        RECKONED[id(game)] = known
    return known[2], known[3]


def winning(game: Game, combat: Combat) -> bool:
    """Whether the fighter's side would win the fight if it were resolved now."""
    known = RECKONED.get(id(game))  # strengths(), without a call when it is known
    if known is None or known[0] is not game or known[1] is not combat:
        ours, theirs = strengths(game, combat)
    else:
        ours, theirs = known[2], known[3]
    return ours > theirs or (ours == theirs and side_wins_ties(game, combat))
