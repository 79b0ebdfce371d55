"""A game's setup: both decks built from the cards, shuffled by a seed, and the deal.

The simulated games (`build_game`) and a table's game (validator/engine/table.py) are dealt by
the same function, `deal`, so that a seed deals the same cards either way: the simulated bots
then put cards in play at once, where a table leaves each hand to its player.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from validator.engine.bots import arrange
from validator.engine.cards import CardBase
from validator.engine.choices import DefaultChooser
from validator.engine.state import CardInstance, Game, Options, Player

# A game not won by then is over without a winner, simulated or at a table.
MAX_TURNS = 600


def build_game(
    cards: Iterable[tuple[str, CardBase]],
    *,
    players: int,
    seed: int,
    options: Options | None = None,
    forced: Sequence[CardBase] = (),
    top_doors: Sequence[CardBase] = (),
    dealt: Sequence[CardBase] = (),
) -> Game:
    """A new game: both decks built with every copy, shuffled by seed, four of each dealt, and
    the bots' first cards put in play.

    `forced` cards are shuffled in; `top_doors` are put on top of the Door deck after the deal
    (the first doors kicked open) and `dealt` go one to each player's hand, so that the cards a
    check wants to meet are met early in real play."""
    game = deal(
        cards,
        players=players,
        seed=seed,
        options=options,
        forced=forced,
        top_doors=top_doors,
        dealt=dealt,
    )
    for player in game.players:
        arrange(game, player)
    return game


def deal(
    cards: Iterable[tuple[str, CardBase]],
    *,
    players: int,
    seed: int,
    options: Options | None = None,
    forced: Sequence[CardBase] = (),
    top_doors: Sequence[CardBase] = (),
    dealt: Sequence[CardBase] = (),
) -> Game:
    """A new game as `build_game` makes it, each hand left as it was dealt, not logging: the
    decks built with every copy (and the `forced` cards), shuffled by seed, a Role card to each
    player, four cards of each deck to each player, then `top_doors` and `dealt` given."""
    rng = random.Random(seed)
    game = Game(
        players=[Player(f"P{i + 1}", sex="female" if i % 2 else "male") for i in range(players)],
        rng=rng,
        options=options or Options(),
        chooser=DefaultChooser(),
    )
    game.logging = False
    doors, treasures, dealt_roles, uid = _instances(cards)
    game.door_deck.extend(doors)
    game.treasure_deck.extend(treasures)
    roles = list(dealt_roles)
    for card in forced:
        if card.deck is None:
            continue
        uid += 1
        instance = CardInstance(uid, card, "forced")
        (game.door_deck if card.deck == "door" else game.treasure_deck).append(instance)
    shuffle(rng, game.door_deck)
    shuffle(rng, game.treasure_deck)
    # SpongeBob: one Role card at random to every player, outside both decks.
    shuffle(rng, roles)
    for player, role in zip(game.players, roles, strict=False):
        player.character.append(role)
    left_in_box = max(0, len(roles) - players)
    for player in game.players:
        for deck in ("door", "treasure"):
            for _ in range(4):
                if game.can_draw(deck):
                    player.hand.append(game.draw(deck))
    for card in reversed(top_doors):
        uid += 1
        game.door_deck.insert(0, CardInstance(uid, card, "forced"))
    for index, card in enumerate(dealt):
        uid += 1
        game.players[index % players].hand.append(CardInstance(uid, card, "forced"))
    game.total_cards = uid - left_in_box
    return game


def shuffle(rng: random.Random, cards: list[CardInstance]) -> None:
    """rng.shuffle(cards), the same draws in the same order (random.Random.shuffle with its
    _randbelow written out): the two decks of every game are shuffled, and a call per card
    for each draw is most of what shuffling costs."""
    if type(rng) is not random.Random:  # a generator of its own may draw otherwise
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(cards))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


# The cards of a run of games, as instances, by the run's tuple of cards: every game of a
# simulation deals the same instances (they are immutable), shuffled by its own seed.
_INSTANCES: dict[int, tuple[Sequence[tuple[str, CardBase]], _Instances]] = {}
_Instances = tuple[list[CardInstance], list[CardInstance], list[CardInstance], int]


def _instances(cards: Iterable[tuple[str, CardBase]]) -> _Instances:
    """(Door deck, Treasure deck, Role cards, the last uid) in a fixed order, so that a seed
    gives the same game whatever the cards' source."""
    hit = _INSTANCES.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    uid = 0
    doors: list[CardInstance] = []
    treasures: list[CardInstance] = []
    roles: list[CardInstance] = []
    for code, card in sorted(cards, key=lambda entry: (entry[0], entry[1].name)):
        if card.kind_name == "role":
            uid += 1
            roles.append(CardInstance(uid, card, code))
            continue
        if card.deck is None:
            continue  # deck unknown
        for _ in range(card.copies or 1):
            uid += 1
            (doors if card.deck == "door" else treasures).append(CardInstance(uid, card, code))
    built = (doors, treasures, roles, uid)
    if isinstance(cards, tuple):  # only an immutable sequence is known to hold the same cards
        if len(_INSTANCES) >= 8:
            _INSTANCES.clear()
        _INSTANCES[id(cards)] = (cards, built)
    return built
