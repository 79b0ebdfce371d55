"""The log's words: how the engine says what happened, as players say it at the table.

"1 Treasure", "2 Treasures" (never "Treasure(s)"); "P1 goes up to Level 3" (never
"level(s) -> 3"); lists of cards as a sentence ("A, B and C"); Gold with its thousands
separated ("1,200 Gold"). Each helper builds one phrase; the modules that act write the lines.
"""

from __future__ import annotations

from collections.abc import Iterable

from validator.engine.cards import count_phrase


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """ "1 Treasure", "2 Treasures", "3 Levels"."""
    return count_phrase(count, singular, plural)


def listed(names: Iterable[str]) -> str:
    """Names as a sentence lists them: "A", "A and B", "A, B and C"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def gold(amount: int) -> str:
    """ "400 Gold", "1,200 Gold"."""
    return f"{amount:,} Gold"


def level_change(name: str, change: int, level: int) -> str:
    """A Level won or lost: "P1 goes up to Level 3", "P2 goes down 2 Levels, to Level 1"."""
    way = "up" if change > 0 else "down"
    if abs(change) == 1:
        return f"{name} goes {way} to Level {level}"
    return f"{name} goes {way} {counted(abs(change), 'Level')}, to Level {level}"


def level_lines(name: str, delta: int, change: int, level: int, ceiling: int) -> list[str]:
    """What a change of `delta` Levels did: `change` of them taken (none below Level 1, none
    to `ceiling` but by a kill)."""
    if change:
        return [level_change(name, change, level)]
    if not delta:
        return []
    floor = "no one goes below Level 1" if delta < 0 else f"Level {ceiling} needs a kill"
    return [f"{name} stays at Level {level}: {floor}"]
