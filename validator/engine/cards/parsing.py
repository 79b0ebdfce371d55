"""Parsing, loading, dumping and hashing card documents, and the card JSON Schema."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from pydantic import (
    TypeAdapter,
    ValidationError,
)

from validator.engine.cards.documents import (
    MAX_ERRORS,
    CardDocumentError,
    DocumentError,
    count_values,
    errors_from_validation,
    format_path,
    line_for,
    more_errors,
    nearest_word,
    validation_errors,
)
from validator.engine.cards.kinds import Card, CardBase, SetDocument, card_adapter
from validator.engine.cards.provenance import CardProvenance
from validator.engine.cards.reader import ParsedYaml, read_yaml
from validator.engine.cards.vocabulary import (
    LANGUAGE_VERSION,
    MAX_CARDS_PER_SET,
    MAX_VALUES_PER_CARD,
)

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "card.schema.json"

# --------------------------------------------------------------------------------------------
# Entry points: parse, dump, schema
# --------------------------------------------------------------------------------------------


def parse_card(data: Any, source: str | None = None) -> CardBase:
    """Parse one card document (a mapping), or raise CardDocumentError naming each error."""
    too_large = _card_too_large(data, ())
    if too_large is not None:
        raise CardDocumentError([too_large], source)
    try:
        card: CardBase = card_adapter.validate_python(data)
    except ValidationError as exc:
        raise CardDocumentError(errors_from_validation(exc, Card), source) from exc
    return card


def _card_too_large(data: Any, path: tuple[str | int, ...]) -> DocumentError | None:
    """The refusal of a card document holding more than MAX_VALUES_PER_CARD values, checked
    before the validation, whose errors would grow with it."""
    if count_values(data, MAX_VALUES_PER_CARD) <= MAX_VALUES_PER_CARD:
        return None
    message = f"a card may hold at most {MAX_VALUES_PER_CARD:,} values (keys, items, numbers...)"
    if isinstance(data, dict) and data:
        # Name the key holding the most: that is where the card grew.
        sizes = {key: count_values(value, MAX_VALUES_PER_CARD) for key, value in data.items()}
        largest = max(sizes, key=lambda key: sizes[key])
        if sizes[largest] > MAX_VALUES_PER_CARD // 2:
            path = (*path, str(largest)[:40])
            held = sizes[largest]
            shown = (
                f"more than {MAX_VALUES_PER_CARD:,}" if held > MAX_VALUES_PER_CARD else f"{held:,}"
            )
            message += f"; {shown} of them are here"
    return DocumentError(format_path(path), message)


def _card_errors(data: Any, lines: dict[tuple[str | int, ...], int]) -> list[DocumentError]:
    """The errors of a set's cards, each card validated apart so that only one card's errors
    are ever held at once: the first MAX_ERRORS worded, the rest counted. Nothing when the
    set has no list of cards, or too many (the set's own validation says so)."""
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list) or len(cards) > MAX_CARDS_PER_SET:
        return []
    listed: list[DocumentError] = []
    not_listed = 0
    for index, card in enumerate(cards):
        too_large = _card_too_large(card, ("cards", index))
        if too_large is not None:
            if len(listed) < MAX_ERRORS:
                listed.append(too_large)
            else:
                not_listed += 1
            continue
        try:
            card_adapter.validate_python(card)
        except ValidationError as exc:
            if len(listed) >= MAX_ERRORS:
                not_listed += exc.error_count()
                continue
            found, more = validation_errors(
                exc, Card, lines, prefix=("cards", index), limit=MAX_ERRORS - len(listed)
            )
            listed += found
            not_listed += more
    return [*listed, more_errors(not_listed)] if not_listed else listed


def parse_set(
    data: Any, source: str | None = None, lines: dict[tuple[str | int, ...], int] | None = None
) -> SetDocument:
    """Parse a set document; duplicate card names are errors too. Each card's ``provenance:``
    key is read beside its document (never into it) and gathered in ``provenance`` by name;
    the source ids it cites must be in the set's ``sources:``."""
    cards_data, raw_provenance, split_errors = _split_provenance(data, lines or {})
    card_errors = _card_errors(cards_data, lines or {})
    if card_errors:
        # The set's own keys are checked without its cards, which were checked one by one.
        header = {**cards_data, "cards": []} if isinstance(cards_data, dict) else cards_data
        try:
            SetDocument.model_validate(header)
        except ValidationError as exc:
            card_errors = errors_from_validation(exc, SetDocument, lines) + card_errors
        errors = _name_the_cards(split_errors + card_errors, data)
        raise CardDocumentError(errors, source)
    try:
        document = SetDocument.model_validate(cards_data)
    except ValidationError as exc:
        errors = errors_from_validation(exc, SetDocument, lines)
        raise CardDocumentError(_name_the_cards(split_errors + errors, data), source) from exc
    provenance_errors = split_errors + _check_provenance(document, raw_provenance, lines or {})
    if provenance_errors:
        raise CardDocumentError(_name_the_cards(provenance_errors, data), source)
    if raw_provenance:
        provenance = {document.cards[index].name: value for index, value in raw_provenance.items()}
        document = document.model_copy(update={"provenance": provenance})
    duplicates: list[DocumentError] = []
    first_seen: dict[str, int] = {}
    for index, card in enumerate(document.cards):
        key = card.name.casefold()
        if key in first_seen:
            path = ("cards", index, "name")
            duplicates.append(
                DocumentError(
                    format_path(path),
                    f"duplicate card {card.name!r} (already cards[{first_seen[key]}]); "
                    "give one entry with copies instead",
                    line_for(path, lines or {}),
                )
            )
        else:
            first_seen[key] = index
    if duplicates:
        raise CardDocumentError(duplicates, source)
    return document


_provenance_adapter: TypeAdapter[CardProvenance] = TypeAdapter(CardProvenance)


def _split_provenance(
    data: Any, lines: dict[tuple[str | int, ...], int]
) -> tuple[Any, dict[int, CardProvenance], list[DocumentError]]:
    """The set document with each card's ``provenance`` key taken out, the parsed provenance
    by card index, and the errors of those that do not parse (paths under the card)."""
    if not isinstance(data, dict):
        return data, {}, []
    errors: list[DocumentError] = []
    if "provenance" in data:
        path = ("provenance",)
        errors.append(
            DocumentError("provenance", "provenance goes on each card", line_for(path, lines))
        )
        data = {k: v for k, v in data.items() if k != "provenance"}
    cards = data.get("cards")
    if not isinstance(cards, list):
        return data, {}, errors
    stripped: list[Any] = []
    found: dict[int, CardProvenance] = {}
    for index, card in enumerate(cards):
        if not (isinstance(card, dict) and "provenance" in card):
            stripped.append(card)
            continue
        stripped.append({k: v for k, v in card.items() if k != "provenance"})
        try:
            found[index] = _provenance_adapter.validate_python(card["provenance"])
        except ValidationError as exc:
            prefix: tuple[str | int, ...] = ("cards", index, "provenance")
            for error in errors_from_validation(exc, CardProvenance):
                errors.append(_under(prefix, error, lines))
    return {**data, "cards": stripped}, found, errors


def _under(
    prefix: tuple[str | int, ...], error: DocumentError, lines: dict[tuple[str | int, ...], int]
) -> DocumentError:
    """An error found in a part of the document, placed at its full path and line."""
    parts: list[str | int] = list(prefix)
    for piece in error.path.replace("]", "").replace("[", ".").split("."):
        if piece:
            parts.append(int(piece) if piece.isdigit() else piece)
    return DocumentError(format_path(parts), error.message, line_for(parts, lines))


def _check_provenance(
    document: SetDocument,
    provenance: dict[int, CardProvenance],
    lines: dict[tuple[str | int, ...], int],
) -> list[DocumentError]:
    """Source ids are unique in ``sources:``, and every id a card cites is one of them."""
    errors: list[DocumentError] = []
    known: dict[str, int] = {}
    for index, ref in enumerate(document.sources):
        if ref.id in known:
            path: tuple[str | int, ...] = ("sources", index, "id")
            errors.append(
                DocumentError(
                    format_path(path),
                    f"source id {ref.id!r} is also sources[{known[ref.id]}]",
                    line_for(path, lines),
                )
            )
        known.setdefault(ref.id, index)
    errors += _check_field_confidence(document, provenance, lines)
    for index, card_provenance in sorted(provenance.items()):
        for where, source_id in _cited_ids(card_provenance):
            if source_id in known:
                continue
            path = ("cards", index, "provenance", *where)
            near = nearest_word(source_id, known)
            hint = f"; did you mean {near!r}?" if near else ""
            listed = ", ".join(known) or "none"
            errors.append(
                DocumentError(
                    format_path(path),
                    f"no source {source_id!r} in the set's sources ({listed}){hint}",
                    line_for(path, lines),
                )
            )
    return errors


def _check_field_confidence(
    document: SetDocument,
    provenance: dict[int, CardProvenance],
    lines: dict[tuple[str | int, ...], int],
) -> list[DocumentError]:
    """A stat given its own confidence (``field_confidence``) is one the card has a value
    for: a guess about a stat the card leaves unknown, or does not have, says nothing."""
    errors: list[DocumentError] = []
    for index, card_provenance in sorted(provenance.items()):
        card = document.cards[index]
        for key, level in card_provenance.field_confidence.items():
            if key in type(card).model_fields and getattr(card, key) is not None:
                continue
            path: tuple[str | int, ...] = ("cards", index, "provenance", "field_confidence", key)
            errors.append(
                DocumentError(
                    format_path(path),
                    f"the card has no value for {key!r} to be {level}",
                    line_for(path, lines),
                )
            )
    return errors


def _cited_ids(
    provenance: CardProvenance,
) -> list[tuple[tuple[str | int, ...], str]]:
    """Each source id a card's provenance cites, with its path under ``provenance``: its
    sources, other printings' and each dispute's readings."""
    found: list[tuple[tuple[str | int, ...], str]] = [
        (("sources", i), source_id) for i, source_id in enumerate(provenance.sources)
    ]
    for i, reading in enumerate(provenance.printings):
        found += [(("printings", i, "sources", j), s) for j, s in enumerate(reading.sources)]
    for i, dispute in enumerate(provenance.disputed):
        for k, reading in enumerate(dispute.readings):
            found += [
                (("disputed", i, "readings", k, "sources", j), s)
                for j, s in enumerate(reading.sources)
            ]
    return found


_CARD_PATH = re.compile(r"^cards\[(\d+)\]")


def _name_the_cards(errors: list[DocumentError], data: Any) -> list[DocumentError]:
    """Say which card each error is in: a path alone is hard to find in a long file."""
    cards = data.get("cards") if isinstance(data, dict) else None
    out = []
    for error in errors:
        match = _CARD_PATH.match(error.path)
        if match and isinstance(cards, list) and int(match.group(1)) < len(cards):
            entry = cards[int(match.group(1))]
            name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(name, str):
                error = DocumentError(error.path, f"{error.message} (card {name!r})", error.line)
        out.append(error)
    return out


def load_set_file(path: Path) -> SetDocument:
    """Read and parse a set file; every error carries the file, line and path."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDocumentError([DocumentError("", f"cannot read: {exc}")], source) from exc
    parsed = _read_set_text(text, source)
    # The cached data is shared: parsing works on a copy (a hundredth of the reading's cost).
    return parse_set(copy.deepcopy(parsed.data), source, parsed.lines)


@functools.lru_cache(maxsize=16)
def _read_set_text(text: str, source: str) -> ParsedYaml:
    """Reading YAML is most of a set file's cost and the same text reads the same: a process
    that loads the same files again (a catalog reload, each test that loads the catalog) reads
    them once. Keyed by the whole text, so an edited file is read afresh; a failure is not
    cached (it raises)."""
    return read_yaml(text, source)


_FIRST_KEYS = ("name", "deck", "kind", "type", "copies")
_LAST_KEYS = ("tags", "effects", "bad_stuff", "abilities", "notes", "encoding")


def _ordered(value: Any) -> Any:
    """Keys in reading order: identity first, stats next, effects and status last."""
    if isinstance(value, dict):
        keys = sorted(
            value,
            key=lambda k: (
                0 if k in _FIRST_KEYS else 2 if k in _LAST_KEYS else 1,
                _FIRST_KEYS.index(k)
                if k in _FIRST_KEYS
                else _LAST_KEYS.index(k)
                if k in _LAST_KEYS
                else 0,
            ),
        )
        return {k: _ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def dump_card(card: CardBase) -> dict[str, Any]:
    """The card as a plain document, keys in reading order; parse_card(dump_card(c)) == c."""
    return dict(_ordered(card.model_dump(mode="json", by_alias=True, exclude_unset=True)))


def hoist_repeated_unions(schema: dict[str, Any]) -> dict[str, Any]:
    """Pydantic inlines a union at every use; name the repeated ones once under $defs."""
    counts: dict[str, int] = {}

    def key_of(node: dict[str, Any]) -> str:
        return json.dumps(node, sort_keys=True)

    def count(node: Any) -> None:
        if isinstance(node, dict):
            if len(node.get("oneOf", ())) >= 3:
                counts[key_of(node)] = counts.get(key_of(node), 0) + 1
            for value in node.values():
                count(value)
        elif isinstance(node, list):
            for value in node:
                count(value)

    count(schema)
    names: dict[str, str] = {}
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    for key, seen in counts.items():
        if seen < 2:
            continue
        node = json.loads(key)
        refs = json.dumps(node)
        name = (
            "Effect"
            if '"LoseLevels"' in refs
            else "Condition"
            if '"RaceIs"' in refs
            else f"Union{len(names) + 1}"
        )
        names[key] = name
        defs[name] = node

    def replace(node: Any, top: bool = False) -> Any:
        if isinstance(node, dict):
            if not top and key_of(node) in names:
                return {"$ref": f"#/$defs/{names[key_of(node)]}"}
            return {k: replace(v) for k, v in node.items()}
        if isinstance(node, list):
            return [replace(v) for v in node]
        return node

    hoisted = {k: replace(v) for k, v in schema.items() if k != "$defs"}
    hoisted["$defs"] = {
        name: (replace(value, top=name in names.values()) if isinstance(value, dict) else value)
        for name, value in defs.items()
    }
    return hoisted


def document_hash(document: dict[str, Any]) -> str:
    """The identity of a card document: sha256 of its canonical JSON."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def card_json_schema() -> dict[str, Any]:
    schema = hoist_repeated_unions(card_adapter.json_schema(by_alias=True))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"Munchkin card document, effect language v{LANGUAGE_VERSION}"
    return schema


def card_json_schema_text() -> str:
    return json.dumps(card_json_schema(), indent=2, sort_keys=True) + "\n"
