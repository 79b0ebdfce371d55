"""What a player calls the catalog's codes: a card kind's label. Reads nothing but the
table below."""

KIND_LABELS = {
    "monster": "Monster",
    "curse": "Curse",
    "trap": "Trap",
    "monster_enhancer": "Monster Enhancer",
    "race": "Race",
    "class": "Class",
    "accent": "Accent",
    "loyalty": "Loyalty",
    "species": "Species",
    "power": "Power",
    "origin": "Origin",
    "training": "Training",
    "role": "Role",
    "item": "Item",
    "ship": "Ship",
    "one_shot": "One-Shot",
    "go_up_a_level": "Go Up a Level",
    "hireling": "Hireling",
    "ally": "Ally",
    "sidekick": "Sidekick",
    "other_door": "Other Door card",
    "other_treasure": "Other Treasure card",
}


def kind_label(kind: str) -> str:
    """A card kind as the pages name it ("one_shot": "One-Shot")."""
    return KIND_LABELS.get(kind, kind.replace("_", " ").title())
