"""Small valid documents for tests, changed by keyword arguments (no Django: the engine's
tests use them too; rows in the database are made by tests/catalog/factories.py)."""

from typing import Any


def monster_document(name: str = "Test Ogre", **overrides: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "name": name,
        "deck": "door",
        "kind": "monster",
        "level": 7,
        "treasures": 2,
        "encoding": {"status": "full"},
    }
    document.update(overrides)
    return document
