"""The cards the bot commands (`simulate`, `tournament`) deal: a pack file's deck lists, or
whole sets of the catalog named by code or name, and the words that say which."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from catalog.models import CardSet
from catalog.selectors import catalog_card_library
from validator.engine import CardBase, PackError, load_pack

DEFAULT_SETS = "munchkin-core"


def dealt_cards(
    *, pack_file: Path | None, set_words: Sequence[str] | None
) -> tuple[list[tuple[str, CardBase]], dict[str, Any]]:
    """The cards to deal, and where they come from for the report (`pack` and `sets`).
    `set_words`: set codes or names, with spaces or commas between them (None: the core
    set). CommandError for a pack file that does not load or a set with no cards."""
    if pack_file is not None:
        try:
            pack = load_pack(pack_file)
        except PackError as exc:
            raise CommandError(
                "the pack file does not load:\n  " + "\n  ".join(exc.lines())
            ) from exc
        return pack.game_cards(), {"pack": pack.name, "sets": [s.code for s in pack.sets]}
    words = set_words or [DEFAULT_SETS]
    codes = [_set_code(c.strip()) for word in words for c in word.split(",") if c.strip()]
    library = catalog_card_library(set_codes=codes)
    missing = [c for c in codes if c not in library.sets]
    if missing:
        raise CommandError(
            f"no cards for set {', '.join(missing)}: run `python manage.py load_catalog`"
        )
    return list(library.cards()), {"sets": codes}


def source_words(report: dict[str, Any]) -> str:
    """Where a report's cards came from, as its first line says it."""
    sets = ", ".join(report["sets"])
    return f"pack {report['pack']!r} (sets {sets})" if "pack" in report else f"sets {sets}"


def _set_code(word: str) -> str:
    """A set's code, given its code or its name (any case): "munchkin" is the core set."""
    if CardSet.objects.filter(code=word).exists():
        return word
    named = CardSet.objects.filter(name__iexact=word).values_list("code", flat=True).first()
    return named or word
