"""Choices the rules leave to a player ("the victim decides which item is lost").

The engine asks a chooser and never waits: `DefaultChooser` answers every question with a
deterministic, sensible policy (lose the least useful card, take the most useful one), so
scenarios and simulations replay exactly. Bots and future interactive front ends may subclass it.
"""

from __future__ import annotations

from collections.abc import Sequence

from validator.engine.cards import Death, DiscardHand, EffectBase, LoseItems, LoseLevels, SetLevel
from validator.engine.state import (
    CardInstance,
    Game,
    Player,
    is_item,
    item_candidates,
)


def card_worth(card: CardInstance) -> tuple[int, int, str]:
    """How much a card is worth keeping: bonus first, then Gold, then name (for ties)."""
    # card.bonus and card.gold are item_bonus and gold_value of the definition, read once when
    # the card was made.
    return (card.bonus, card.gold, card.name)


class DefaultChooser:
    def items_to_lose(
        self, game: Game, player: Player, candidates: Sequence[CardInstance], count: int
    ) -> list[CardInstance]:
        return sorted(candidates, key=card_worth)[:count]

    def cards_to_lose(
        self, game: Game, player: Player, candidates: Sequence[CardInstance], count: int
    ) -> list[CardInstance]:
        # Hand cards before items; within each, the least valuable first.
        return sorted(
            candidates, key=lambda c: (is_item(c.card) and c not in player.hand, card_worth(c))
        )[:count]

    def card_to_take(
        self, game: Game, taker: Player, candidates: Sequence[CardInstance]
    ) -> CardInstance:
        return max(candidates, key=card_worth)

    def item_to_discard_for(
        self, game: Game, chooser: Player, victim: Player, candidates: Sequence[CardInstance]
    ) -> CardInstance:
        """A rival's pick of the victim's items to be discarded (the Leperchaun's neighbours):
        the one worth most to the victim."""
        return max(candidates, key=card_worth)

    def option(self, game: Game, player: Player, options: Sequence[Sequence[EffectBase]]) -> int:
        def cost(option: Sequence[EffectBase]) -> int:
            total = 0
            for effect in option:
                if isinstance(effect, Death):
                    total += 1000
                elif isinstance(effect, LoseLevels):
                    total += 3 * (effect.amount if isinstance(effect.amount, int) else 4)
                elif isinstance(effect, SetLevel):
                    total += 3 * player.level
                elif isinstance(effect, DiscardHand):
                    total += len(player.hand)
                elif isinstance(effect, LoseItems):
                    total += 4
                else:
                    total += 2
            return total

        # An option that would find nothing to act on is no real choice: it is taken only when
        # every option is like that.

        def applies(option: Sequence[EffectBase]) -> bool:
            for effect in option:
                if isinstance(effect, LoseItems) and not item_candidates(player, effect):
                    return False
                if isinstance(effect, DiscardHand) and not player.hand:
                    return False
            return True

        usable = [i for i in range(len(options)) if applies(options[i])] or list(
            range(len(options))
        )
        return min(usable, key=lambda i: cost(options[i]))

    def charity(self, game: Game, player: Player, excess: int) -> list[CardInstance]:
        return sorted(player.hand, key=card_worth)[:excess]

    def discard_for_escape(
        self, game: Game, player: Player, candidates: Sequence[CardInstance]
    ) -> CardInstance | None:
        return min(candidates, key=card_worth) if candidates else None

    def abandon_ship(self, game: Game, player: Player, ship: CardInstance) -> bool:
        """Discard a Ship with a Run Away penalty before rolling? Yes: escaping comes first."""
        return True

    def discard_to_escape(self, game: Game, player: Player, item: CardInstance) -> bool:
        """Throw away an item that buys an escape (rather than risk the roll)? Yes."""
        return True

    def trade_treasures(
        self, game: Game, player: Player, candidates: Sequence[CardInstance], count: int
    ) -> list[CardInstance]:
        """Treasure cards to trade in for fresh ones: the `count` least useful (all of them when
        fewer; the rules then refuse the trade)."""
        return sorted(candidates, key=card_worth)[:count]
