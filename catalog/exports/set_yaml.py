"""A whole set as one YAML file in the fixtures format (fixtures/sets/*.yaml).

The file is what `validator.engine.cards.parse_set` reads and what `authoring.transfer.set_import`
imports: `language`, a `set:` mapping and a `cards:` list of card documents. Only live cards are
written, each as its canonical dump (`dump_card`, keys in reading order), in the order they were
added to the set. The output is a function of the stored documents and the site's version only
(no clock), so exporting the same set twice gives the same bytes.

Exported with provenance (`export_set CODE --fixture`), the file is also what fixtures/sets/
holds: the set's `sources:` after `set:`, and on each card that has one a `provenance:` key
after its document (sources, confidence, uncertain name, and the accepted contributions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import yaml
from pydantic import ValidationError

from catalog.exports import register
from catalog.models import CardSet
from validator.engine import (
    LANGUAGE_VERSION,
    CardDocumentError,
    CardProvenance,
    SourceRef,
    dump_card,
    parse_card,
)

SITE_NAME = "Munchkin card site"


def _site_version() -> str:
    try:
        return version("cardsite")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown"


def _card_document(stored: Any) -> Any:
    """A stored document in dump order. The database may not keep key order (PostgreSQL's
    jsonb sorts keys), so the document is parsed and dumped again; a stored document that no
    longer parses is written as it is, for the import to report."""
    try:
        return dump_card(parse_card(stored))
    except CardDocumentError:
        return stored


@dataclass(frozen=True)
class SetFile:
    """What a set file holds: the set's code, its `set:` mapping and its live cards' stored
    documents in the order they were added (catalog.selectors.set_file reads them).

    With provenance read (`provenance` not None): the set's sources and, in the order of
    `documents`, each card's provenance with its accepted contributions merged in (an empty
    mapping for a card with none)."""

    code: str
    info: dict[str, Any]
    documents: list[Any]
    sources: list[dict[str, Any]] = field(default_factory=list)
    provenance: list[dict[str, Any]] | None = None


def set_info(card_set: CardSet) -> dict[str, Any]:
    """The `set:` mapping: the facts the fixtures format has, optional ones only when set."""
    info: dict[str, Any] = {"code": card_set.code, "name": card_set.name}
    if card_set.cards_in_box is not None:
        info["cards_in_box"] = card_set.cards_in_box
    info["official"] = bool(card_set.official)
    if card_set.year is not None:
        info["year"] = card_set.year
    if card_set.description:
        info["description"] = card_set.description
    return info


def _in_order[M: (SourceRef, CardProvenance)](model: type[M], stored: Any) -> Any:
    """A stored source or provenance in the order its model lists its keys (a database may
    sort them), defaults left out; written as it is if it no longer parses."""
    try:
        return model.model_validate(stored).model_dump(
            mode="json", exclude_none=True, exclude_defaults=True
        )
    except ValidationError:
        return stored


def _cards(set_file: SetFile) -> list[Any]:
    cards = [_card_document(stored) for stored in set_file.documents]
    if set_file.provenance is None:
        return cards
    # The provenance key goes last, after the document it speaks of (parse_set reads it there).
    return [
        {**card, "provenance": _in_order(CardProvenance, provenance)}
        if provenance and isinstance(card, dict)
        else card
        for card, provenance in zip(cards, set_file.provenance, strict=True)
    ]


def set_yaml_text(set_file: SetFile) -> str:
    """The set and its live cards as YAML text in the fixtures format; with the set's sources
    and each card's provenance when the SetFile has them read."""
    document: dict[str, Any] = {"language": LANGUAGE_VERSION, "set": set_file.info}
    if set_file.provenance is not None and set_file.sources:
        document["sources"] = [_in_order(SourceRef, source) for source in set_file.sources]
    document["cards"] = _cards(set_file)
    with_provenance = " with provenance" if set_file.provenance is not None else ""
    header = (
        # Only the code (a slug) goes in the comment: a name could hold a line break.
        f"# Set {set_file.code}, exported{with_provenance} from the {SITE_NAME} "
        f"{_site_version()} (effect language v{LANGUAGE_VERSION}).\n"
    )
    body = yaml.safe_dump(
        document, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )
    return header + body


@register
class SetYamlExporter:
    """A set as the YAML file `load_catalog` and the set import read."""

    identifier = "set-yaml"
    label = "Set file (YAML, fixtures format)"
    content_type = "application/yaml"

    def render(self, *, set_file: SetFile) -> tuple[str, str, bytes]:
        return (
            f"{set_file.code}.yaml",
            self.content_type,
            set_yaml_text(set_file).encode("utf-8"),
        )
