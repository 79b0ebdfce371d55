"""Cards by name across sets: what scenarios and packs look cards up in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from validator.engine.cards import CardBase, load_set_file, nearest_word

DEFAULT_SET_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "sets"


class CardLibrary:
    """Cards by name, across sets. Earlier sources win over later ones for the same name."""

    def __init__(self) -> None:
        self._by_name: dict[str, list[tuple[str, CardBase]]] = {}
        self.sets: list[str] = []

    def add(self, set_code: str, card: CardBase) -> None:
        entries = self._by_name.setdefault(card.name.casefold(), [])
        if all(code != set_code for code, _ in entries):
            entries.append((set_code, card))
        if set_code not in self.sets:
            self.sets.append(set_code)

    def cards(self) -> Iterable[tuple[str, CardBase]]:
        for entries in self._by_name.values():
            yield from entries

    def lookup(self, reference: str) -> tuple[str, CardBase]:
        name, _, set_code = reference.partition("@")
        entries = self._by_name.get(name.strip().casefold(), [])
        if set_code:
            entries = [e for e in entries if e[0] == set_code.strip()]
        if not entries:
            names = [card.name for _, card in self.cards()]
            hint = nearest_word(name.strip(), names)
            where = f" in {set_code}" if set_code else ""
            raise KeyError(
                f"unknown card {reference!r}{where}" + (f"; did you mean {hint!r}?" if hint else "")
            )
        inline = [e for e in entries if e[0] == ""]
        if inline:
            return inline[0]
        if len(entries) > 1:
            options = ", ".join(f"{name}@{code}" for code, _ in entries)
            raise KeyError(f"{name!r} is in several sets; write one of {options}")
        return entries[0]


_SET_FILE_CACHE: dict[Path, tuple[float, list[CardBase]]] = {}


def _set_file_cards(path: Path) -> list[CardBase]:
    """A set file's cards, parsed once per version of the file (scenarios share them)."""
    mtime = path.stat().st_mtime
    hit = _SET_FILE_CACHE.get(path)
    if hit is None or hit[0] != mtime:
        hit = (mtime, list(load_set_file(path).cards))
        _SET_FILE_CACHE[path] = hit
    return hit[1]


def library_from_set_files(codes: Sequence[str], directory: Path = DEFAULT_SET_DIR) -> CardLibrary:
    library = CardLibrary()
    for code in codes:
        path = directory / f"{code}.yaml"
        if not path.exists():
            raise KeyError(f"unknown set {code!r} (no {path})")
        for card in _set_file_cards(path):
            library.add(code, card)
    return library
