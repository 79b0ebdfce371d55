"""What the families of played effects share: how the Hero brings an effect in (`Source`),
a fight the Hero is losing, and the shape of a check (`PlayedCheck`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from validator.checks.references import OGRE, RAGE
from validator.checks.runner import CheckContext, player
from validator.engine import Ability, CardBase


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


PlayedCheck = Callable[[CheckContext, CardBase, Any], None]


def losing_fight(card: CardBase, by: str, dice: Sequence[int] = ()) -> dict[str, Any]:
    """A fight the Level 3 Hero loses (the Rival holds a Rage), the card in `by`'s hand."""
    hand: dict[str, list[str]] = {"Hero": [], "Rival": [RAGE]}
    hand[by].append(card.name)
    return {
        "players": [player("Hero", 3, hand=hand["Hero"]), player("Rival", 1, hand=hand["Rival"])],
        "combat": {"fighter": "Hero", "monsters": [OGRE]},
        "dice": list(dice),
    }
