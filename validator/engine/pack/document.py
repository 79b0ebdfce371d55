"""The pack format: an engine-ready card pack, loaded and checked without Django.

A pack is one JSON (or YAML) document: the format's name and version, the engine version that
wrote it, when it was generated, the sha256 of its content, the sets it draws from with every
card's full typed document (the card document of ``cards.py``), and the Door and Treasure deck
lists with copies. ``docs/pack-format.md`` documents it field by field; both it and
``pack.schema.json`` are generated from the models below.

Run ``python -m validator.engine.pack FILE`` to see what a pack holds (or what is wrong with
it), and ``python -m validator.engine.pack --write-schema --write-docs`` (``make schema``) to
regenerate the schema and the page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import yaml
from pydantic import AwareDatetime, Field, ValidationError
from pydantic.config import JsonDict

from validator.engine.cards import (
    Card,
    CardBase,
    CardDocumentError,
    CardName,
    DocumentError,
    Model,
    Prose,
    ReadLimits,
    SetCode,
    dump_card,
    errors_from_validation,
    format_path,
    line_for,
    nearest_word,
    read_json,
    read_yaml,
)
from validator.engine.library import CardLibrary
from validator.engine.version import ENGINE_VERSION

PACK_FORMAT: Final = "munchkin-pack"
PACK_FORMAT_VERSION: Final = 1
SCHEMA_PATH = Path(__file__).resolve().parents[1] / "pack.schema.json"
DOCS_PATH = Path(__file__).resolve().parents[3] / "docs" / "pack-format.md"

DECKS: Final = ("door", "treasure")
_SHA256_PATTERN: Final = r"^[0-9a-f]{64}$"
_SET_INFO_KEYS: Final = ("code", "name", "official", "year", "cards_in_box", "description")

Lines = dict[tuple[str | int, ...], int]


def since(version: int) -> JsonDict:
    """The schema annotation saying which format version introduced a field."""
    return {"since": version}


# --------------------------------------------------------------------------------------------
# The document
# --------------------------------------------------------------------------------------------


class PackSet(Model):
    """A set the pack draws from, with the full typed document of each of its cards in the
    pack. A blended pack may hold only some of a set's cards."""

    code: SetCode = Field(
        description="The set's code (lower-case words joined by hyphens), unique in the pack; "
        "deck entries name it.",
        json_schema_extra=since(1),
    )
    name: Annotated[str, Field(min_length=1, max_length=120)] = Field(
        description="The set's name, as printed.", json_schema_extra=since(1)
    )
    official: bool = Field(
        default=True,
        description="Whether the set is a published one (false: a custom set).",
        json_schema_extra=since(1),
    )
    year: int | None = Field(
        default=None,
        ge=1990,
        le=2100,
        description="The year the set came out; null when not known.",
        json_schema_extra=since(1),
    )
    cards_in_box: int | None = Field(
        default=None,
        ge=1,
        description="How many cards the box holds; null when not known.",
        json_schema_extra=since(1),
    )
    description: Prose | None = Field(
        default=None, description="A short description of the set.", json_schema_extra=since(1)
    )
    cards: list[Card] = Field(
        description="The set's cards in this pack: each a full card document (see the card "
        "document schema, card.schema.json). A name appears once per set; `copies` in a "
        "document says how many the box holds, the deck lists say how many the pack plays.",
        json_schema_extra=since(1),
    )


class DeckEntry(Model):
    """One card of a deck list: the set it comes from, its name and how many copies to play."""

    set: SetCode = Field(
        description="The code of the set the card is in (one of the pack's `sets`).",
        json_schema_extra=since(1),
    )
    name: CardName = Field(
        description="The card's name, exactly as in its document.", json_schema_extra=since(1)
    )
    copies: int = Field(
        ge=1,
        description="How many copies of the card the deck holds.",
        json_schema_extra=since(1),
    )


class PackDecks(Model):
    """The two decks a game is played with. Each card of the pack appears at most once, in the
    list of its own deck; a card whose deck is null (SpongeBob's Role cards) is in neither."""

    door: list[DeckEntry] = Field(
        description="The Door deck: cards whose `deck` is door.", json_schema_extra=since(1)
    )
    treasure: list[DeckEntry] = Field(
        description="The Treasure deck: cards whose `deck` is treasure.",
        json_schema_extra=since(1),
    )


class PackDocument(Model):
    """An engine-ready Munchkin card pack."""

    format: Literal["munchkin-pack"] = Field(
        description='Always "munchkin-pack": what the document is.', json_schema_extra=since(1)
    )
    format_version: int = Field(
        ge=1,
        description="The version of this format the pack is written in. An engine reads every "
        "version up to its own and refuses newer ones.",
        json_schema_extra=since(1),
    )
    engine_version: str = Field(
        min_length=1,
        description="The version of the rules engine that wrote the pack (informative).",
        json_schema_extra=since(1),
    )
    generated_at: AwareDatetime = Field(
        description="When the pack was generated: an ISO 8601 date and time with its time zone.",
        json_schema_extra=since(1),
    )
    sha256: str = Field(
        pattern=_SHA256_PATTERN,
        description="The sha256 of the pack's content, in lower-case hex: see "
        '"The checksum". A pack whose content does not hash to it is refused.',
        json_schema_extra=since(1),
    )
    name: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description="The pack's name.", json_schema_extra=since(1)
    )
    sets: list[PackSet] = Field(
        description="The sets the pack draws from, each with its cards.",
        json_schema_extra=since(1),
    )
    decks: PackDecks = Field(
        description="The Door and Treasure deck lists, with copies.", json_schema_extra=since(1)
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="Free-form facts about how the pack was made (the site puts its blend "
        "report, search query and selection here). The engine does not read it; the "
        "checksum covers it.",
        json_schema_extra=since(1),
    )

    def library(self) -> CardLibrary:
        """Every card of the pack under its set code, for scenarios and look-ups by name."""
        library = CardLibrary()
        for pack_set in self.sets:
            for card in pack_set.cards:
                library.add(pack_set.code, card)
        return library

    def game_cards(self) -> list[tuple[str, CardBase]]:
        """The cards to play with, ready for ``setup.build_game`` and ``simulation.simulate``.

        Every card of the deck lists, its ``copies`` set to the list's copies; then the cards
        whose deck is null (SpongeBob's Role cards, which ``build_game`` deals apart from both
        decks) as they are."""
        by_key = {
            (pack_set.code, card.name): card for pack_set in self.sets for card in pack_set.cards
        }
        cards: list[tuple[str, CardBase]] = []
        for entry in (*self.decks.door, *self.decks.treasure):
            card = by_key[(entry.set, entry.name)]
            cards.append((entry.set, card.model_copy(update={"copies": entry.copies})))
        cards.extend(
            (pack_set.code, card)
            for pack_set in self.sets
            for card in pack_set.cards
            if card.deck is None
        )
        return cards

    def card_count(self) -> int:
        """How many card documents the pack holds (each once, whatever its copies)."""
        return sum(len(pack_set.cards) for pack_set in self.sets)

    def copies(self, deck: str) -> int:
        """How many cards the named deck ("door" or "treasure") holds, copies counted."""
        if deck not in DECKS:
            raise ValueError(f"unknown deck {deck!r}: door or treasure")
        entries: list[DeckEntry] = getattr(self.decks, deck)
        return sum(entry.copies for entry in entries)

    def outside_decks(self) -> list[tuple[str, CardBase]]:
        """The cards of the pack in neither deck list (a null deck, or left out of the decks)."""
        listed = {(e.set, e.name) for e in (*self.decks.door, *self.decks.treasure)}
        return [
            (pack_set.code, card)
            for pack_set in self.sets
            for card in pack_set.cards
            if (pack_set.code, card.name) not in listed
        ]


class PackError(CardDocumentError):
    """A pack that cannot be loaded: ``.errors`` name each path (and line, from YAML) and
    ``.source`` the file; ``str()`` and ``.lines()`` print them."""


# --------------------------------------------------------------------------------------------
# The checksum
# --------------------------------------------------------------------------------------------


def _json_default(value: Any) -> Any:
    # YAML reads an unquoted timestamp as a datetime; hash it as the ISO 8601 text it was.
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def pack_content_hash(data: dict[str, Any]) -> str:
    """The sha256 (lower-case hex) of a pack's content: its canonical JSON without "sha256"."""
    content = {key: value for key, value in data.items() if key != "sha256"}
    canonical = json.dumps(
        content,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=_json_default,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------------


def _set_entry(info: dict[str, Any], cards: list[CardBase]) -> dict[str, Any]:
    unknown = sorted(set(info) - set(_SET_INFO_KEYS))
    if unknown:
        raise ValueError(
            f"unknown set info key(s) {', '.join(unknown)}; give {', '.join(_SET_INFO_KEYS)}"
        )
    if "code" not in info or "name" not in info:
        raise ValueError("a set needs at least its code and name")
    return {
        "code": info["code"],
        "name": info["name"],
        "official": info.get("official", True),
        "year": info.get("year"),
        "cards_in_box": info.get("cards_in_box"),
        "description": info.get("description"),
        "cards": [dump_card(card) for card in cards],
    }


def build_pack(
    *,
    name: str,
    sets: list[tuple[dict[str, Any], list[CardBase]]],
    decks: dict[str, list[tuple[str, str, int]]],
    metadata: dict[str, Any] | None = None,
    generated_at: datetime | None = None,
) -> dict[str, Any]:
    """A pack as a plain JSON-ready dict, keys in a stable order, its sha256 filled in.

    ``sets``: each set's info (code, name, official, year, cards_in_box, description) with its
    cards; ``decks``: ``{"door": [(set_code, card_name, copies)], "treasure": [...]}``.
    ``generated_at`` must be timezone-aware (default: now, in UTC); ``metadata`` must be plain
    JSON (TypeError otherwise). The result is checked as ``parse_pack`` checks a file: an
    inconsistent pack raises PackError, a bad argument ValueError."""
    unknown_decks = sorted(set(decks) - set(DECKS))
    if unknown_decks:
        raise ValueError(f"unknown deck(s) {', '.join(unknown_decks)}: door or treasure")
    when = generated_at or datetime.now(UTC).replace(microsecond=0)
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("generated_at must be timezone-aware")
    data: dict[str, Any] = {
        "format": PACK_FORMAT,
        "format_version": PACK_FORMAT_VERSION,
        "engine_version": ENGINE_VERSION,
        "generated_at": when.isoformat(),
        "sha256": "",
        "name": name,
        "sets": [_set_entry(info, cards) for info, cards in sets],
        "decks": {
            deck: [
                {"set": set_code, "name": card_name, "copies": copies}
                for set_code, card_name, copies in decks.get(deck, [])
            ]
            for deck in DECKS
        },
        # Through JSON and back: the dict is what a reader of the file gets, and hashes so.
        "metadata": json.loads(json.dumps(metadata or {}, ensure_ascii=False)),
    }
    data["sha256"] = pack_content_hash(data)
    parse_pack(data, source="build_pack")
    return data


def pack_json(data: dict[str, Any]) -> bytes:
    """A pack dict as UTF-8 JSON, indented, keys in the dict's order, ending in a newline."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def pack_yaml(data: dict[str, Any]) -> bytes:
    """A pack dict as UTF-8 YAML, keys in the dict's order; it loads back to the same dict."""
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return text.encode("utf-8")


# --------------------------------------------------------------------------------------------
# Parsing and checking
# --------------------------------------------------------------------------------------------


def _error(path: Sequence[str | int], message: str, lines: Lines | None) -> DocumentError:
    return DocumentError(format_path(path), message, line_for(path, lines) if lines else None)


def _not_a_pack(data: dict[str, Any]) -> str:
    given = data.get("format")
    if "format" not in data:
        message = "this is not a munchkin pack (it has no format key)"
        if "set" in data and "cards" in data:
            message += "; it looks like a set file"
        return message
    message = f"this is not a munchkin pack (format: {given!r})"
    hint = nearest_word(str(given), [PACK_FORMAT]) if isinstance(given, str) else None
    return message + (f"; did you mean {hint!r}?" if hint else f"; a pack says {PACK_FORMAT!r}")


def _version_problem(data: dict[str, Any]) -> str | None:
    if "format_version" not in data:
        return f"required key is missing (this engine reads format_version {PACK_FORMAT_VERSION})"
    version = data["format_version"]
    if isinstance(version, bool) or not isinstance(version, int):
        return f"format_version must be a whole number, not {version!r}"
    if version > PACK_FORMAT_VERSION:
        return (
            f"written by a newer version (format_version {version}); this engine reads up to "
            f"{PACK_FORMAT_VERSION} — update the engine to load this pack"
        )
    if version < 1:
        return f"format_version {version} is not a version: versions start at 1"
    return None


def _checksum_problem(data: dict[str, Any]) -> str | None:
    try:
        actual = pack_content_hash(data)
    except (TypeError, ValueError) as exc:
        return f"cannot compute the checksum: {exc}"
    if "sha256" not in data:
        return f"required key is missing (the content hashes to {actual})"
    stated = data["sha256"]
    if not isinstance(stated, str) or len(stated) != 64 or stated.strip("0123456789abcdef"):
        return (
            f"{stated!r} is not a sha256: give 64 lower-case hex digits "
            f"(the content hashes to {actual})"
        )
    if stated != actual:
        return (
            f"checksum mismatch: the file says {stated}, its content hashes to {actual} — "
            "it was changed after it was generated or damaged"
        )
    return None


def _name_the_cards(errors: list[DocumentError], data: dict[str, Any]) -> list[DocumentError]:
    """Say which card an error under sets[i].cards[j] is in: paths alone are hard to follow."""
    out: list[DocumentError] = []
    for error in errors:
        name = _card_name_at(error.path, data)
        if name is not None:
            error = DocumentError(error.path, f"{error.message} (card {name!r})", error.line)
        out.append(error)
    return out


def _card_name_at(path: str, data: dict[str, Any]) -> str | None:
    if not path.startswith("sets["):
        return None
    try:
        set_index = int(path[len("sets[") : path.index("]")])
        rest = path[path.index("]") + 1 :]
        if not rest.startswith(".cards["):
            return None
        card_index = int(rest[len(".cards[") : rest.index("]")])
        name = data["sets"][set_index]["cards"][card_index]["name"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return name if isinstance(name, str) else None


def _consistency_errors(document: PackDocument, lines: Lines | None) -> list[DocumentError]:
    """What the schema cannot say: unique sets and names, deck lists that match the cards."""
    errors: list[DocumentError] = []
    set_index: dict[str, int] = {}
    cards: dict[tuple[str, str], CardBase] = {}
    for i, pack_set in enumerate(document.sets):
        if pack_set.code in set_index:
            errors.append(
                _error(
                    ("sets", i, "code"),
                    f"duplicate set {pack_set.code!r} (already sets[{set_index[pack_set.code]}])",
                    lines,
                )
            )
            continue
        set_index[pack_set.code] = i
        first_seen: dict[str, int] = {}
        for j, card in enumerate(pack_set.cards):
            key = card.name.casefold()
            if key in first_seen:
                errors.append(
                    _error(
                        ("sets", i, "cards", j, "name"),
                        f"duplicate card {card.name!r} in set {pack_set.code!r} "
                        f"(already sets[{i}].cards[{first_seen[key]}]); give one document and "
                        "put its copies in the deck list",
                        lines,
                    )
                )
            else:
                first_seen[key] = j
                cards[(pack_set.code, card.name)] = card
    listed: dict[tuple[str, str], str] = {}
    for deck in DECKS:
        entries: list[DeckEntry] = getattr(document.decks, deck)
        for k, entry in enumerate(entries):
            path = ("decks", deck, k)
            where = format_path(path)
            problem = _entry_problem(entry, deck, set_index, cards)
            if problem is None:
                entry_key = (entry.set, entry.name)
                if entry_key in listed:
                    problem = (
                        f"{entry.name!r} ({entry.set}) is already {listed[entry_key]}; give one "
                        "entry with all its copies"
                    )
                else:
                    listed[entry_key] = where
            if problem is not None:
                errors.append(_error(path, problem, lines))
    return errors


def _entry_problem(
    entry: DeckEntry,
    deck: str,
    set_index: dict[str, int],
    cards: dict[tuple[str, str], CardBase],
) -> str | None:
    if entry.set not in set_index:
        hint = nearest_word(entry.set, set_index)
        return f"no set {entry.set!r} in this pack" + (
            f"; did you mean {hint!r}?" if hint else f"; its sets: {', '.join(set_index) or '-'}"
        )
    card = cards.get((entry.set, entry.name))
    if card is None:
        message = f"no card {entry.name!r} in set {entry.set!r} in this pack"
        elsewhere = [code for code, name in cards if name == entry.name]
        if elsewhere:
            return message + f"; it is in set {elsewhere[0]!r}"
        hint = nearest_word(entry.name, [name for code, name in cards if code == entry.set])
        return message + (f"; did you mean {hint!r}?" if hint else "")
    if card.deck is None:
        return (
            f"{card.name!r} ({entry.set}) belongs to neither deck (its deck is null): "
            "leave it out of the deck lists"
        )
    if card.deck != deck:
        return (
            f"{card.name!r} ({entry.set}) is a {card.deck} card: it belongs in "
            f"decks.{card.deck}, not decks.{deck}"
        )
    return None


def parse_pack(data: Any, source: str | None = None, lines: Lines | None = None) -> PackDocument:
    """Check a pack document and return it typed, or raise PackError naming every problem.

    The checks run in order, the most useful first: a mapping; the format; the format version
    (a newer or impossible one stops here); the checksum; the fields and every card document;
    then unique set codes and card names, and deck lists that name the pack's cards, each in
    its own deck and once."""
    if not isinstance(data, dict):
        raise PackError(
            [
                DocumentError(
                    "",
                    f"a pack is a mapping (format, format_version, sets, decks...), "
                    f"not {_kind_of(data)}",
                )
            ],
            source,
        )
    if data.get("format") != PACK_FORMAT:
        raise PackError([_error(("format",), _not_a_pack(data), lines)], source)
    version_problem = _version_problem(data)
    if version_problem is not None:
        raise PackError([_error(("format_version",), version_problem, lines)], source)
    errors: list[DocumentError] = []
    checksum_problem = _checksum_problem(data)
    if checksum_problem is not None:
        errors.append(_error(("sha256",), checksum_problem, lines))
    try:
        document = PackDocument.model_validate(data)
    except ValidationError as exc:
        found = errors_from_validation(exc, PackDocument, lines)
        reported = {e.path for e in errors}
        errors.extend(e for e in _name_the_cards(found, data) if e.path not in reported)
        raise PackError(errors, source) from exc
    errors.extend(_consistency_errors(document, lines))
    if errors:
        raise PackError(errors, source)
    return document


def _kind_of(data: Any) -> str:
    if data is None:
        return "an empty document"
    if isinstance(data, list):
        return "a list"
    return f"a {type(data).__name__}"


# A pack file given on the command line is the operator's own: room for many large sets.
PACK_FILE_LIMITS = ReadLimits(max_bytes=64_000_000, max_nodes=5_000_000)


def load_pack(path: Path) -> PackDocument:
    """Read and check a pack file: YAML when it ends in .yaml or .yml, JSON otherwise.

    Raises PackError naming the file, and the line of a syntax error (of every error, in
    YAML)."""
    source = str(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError([DocumentError("", f"cannot read: {exc}")], source) from exc
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            parsed = read_yaml(text, source, PACK_FILE_LIMITS)
            return parse_pack(parsed.data, source, parsed.lines)
        data = read_json(text, source, PACK_FILE_LIMITS)
    except CardDocumentError as exc:
        raise PackError(exc.errors, source) from exc
    return parse_pack(data, source)
