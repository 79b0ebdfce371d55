"""The card editor's model: a card document seen as form fields (its identity and the stats of
its kind) plus YAML for everything else (tags, effects, Bad Stuff, abilities, notes, encoding).

The stat fields are read off the engine's typed card definitions, so a new stat added to a kind
appears in the editor with no change here. Merging the two halves back into one document keeps
track of where each key came from, so every error lands on its form field or its YAML line.
"""

from __future__ import annotations

import base64
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from prints.faces import render_face
from validator.checks import check_card
from validator.engine import (
    CARD_TYPES,
    KINDS,
    CardBase,
    CardDocumentError,
    DocumentError,
    ReadLimits,
    designer_sentence,
    dump_card,
    line_for,
    parse_card,
    read_yaml,
    render_lines,
)

IDENTITY_FIELDS = ("name", "kind", "deck", "copies")

# One card's YAML: the longest real card takes under 2,000 characters.
MAX_CARD_YAML_CHARS = 20_000
# What the YAML half may read to: its bytes at four a character, and no more once its aliases
# are expanded, so a short YAML never stands for megabytes of card.
CARD_YAML_LIMITS = ReadLimits(max_bytes=4 * MAX_CARD_YAML_CHARS)
FieldType = Literal["int", "bool", "choice"]


@dataclass(frozen=True)
class StatField:
    """A stat shown as a form field, with the kinds that have it."""

    name: str
    type: FieldType
    kinds: tuple[str, ...]
    choices: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").capitalize()


def _plain(annotation: Any) -> Any:
    """`int | None` -> int, `Annotated[int, bounds]` -> int; a Literal stays a Literal."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _plain(members[0]) if len(members) == 1 else annotation
    if typing.get_origin(annotation) is typing.Annotated:
        return _plain(typing.get_args(annotation)[0])
    return annotation


def _field_type(annotation: Any) -> tuple[FieldType, tuple[str, ...]] | None:
    plain = _plain(annotation)
    if plain is bool:
        return "bool", ()
    if plain is int:
        return "int", ()
    if typing.get_origin(plain) is Literal:
        return "choice", tuple(str(a) for a in typing.get_args(plain))
    return None  # conditions, lists, nested models: edited as YAML


def _stat_fields() -> list[StatField]:
    base = set(CardBase.model_fields)
    found: dict[str, StatField] = {}
    for card_type in CARD_TYPES:
        kinds = tuple(typing.get_args(card_type.model_fields["kind"].annotation))
        for name, info in card_type.model_fields.items():
            if name in base or name == "kind":
                continue
            typed = _field_type(info.annotation)
            if typed is None:
                continue
            kind, choices = typed
            seen = found.get(name)
            if seen is not None and (seen.type, seen.choices) != (kind, choices):
                continue  # the same word means another thing on another kind: YAML only
            found[name] = StatField(
                name, kind, (*(seen.kinds if seen else ()), *kinds), choices=choices
            )
    return list(found.values())


STAT_FIELDS: list[StatField] = _stat_fields()
FORM_KEYS = (*IDENTITY_FIELDS, *(f.name for f in STAT_FIELDS))


def kinds_with(name: str) -> tuple[str, ...]:
    for stat in STAT_FIELDS:
        if stat.name == name:
            return stat.kinds
    return KINDS


# A new card's YAML: the one key every card needs beside the form's fields.
NEW_CARD_YAML = "encoding:\n  status: full\n"


def split_document(document: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """(form values, YAML of the rest). Unknown stats (null) stay in the YAML, visibly."""
    kind = document.get("kind")
    values: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    for key, value in document.items():
        on_form = key in IDENTITY_FIELDS or (key in FORM_KEYS and kind in kinds_with(key))
        if on_form and (value is not None or key in ("deck", "copies")):
            values[key] = value
        else:
            rest[key] = value
    text = yaml.safe_dump(rest, sort_keys=False, allow_unicode=True) if rest else ""
    return values, text


@dataclass
class EditorError:
    path: str
    message: str
    field: str | None = None  # the form field it belongs to
    line: int | None = None  # or the line of the YAML

    def as_dict(self) -> dict[str, Any]:
        """The error for the editor: `message` (the parser's, for the YAML view) and
        `sentence` (the designer's words, for the control the path leads to)."""
        return {
            "path": self.path,
            "message": self.message,
            "sentence": designer_sentence(self.path, self.message),
            "field": self.field,
            "line": self.line,
        }

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.path or '(document)'}: {self.message}"


@dataclass
class Merged:
    document: dict[str, Any] | None
    errors: list[EditorError] = field(default_factory=list)
    # The line of every key and item of the YAML, read once and shared by every error.
    lines: dict[tuple[str | int, ...], int] = field(default_factory=dict)
    # The YAML's own mapping as read (None: it did not read as one), for the editor's controls.
    rest: dict[str, Any] | None = None


def merge_document(values: dict[str, Any], yaml_text: str) -> Merged:
    """One card document from the form's values and the YAML; errors name field or line."""
    try:
        parsed = read_yaml(yaml_text or "{}", "yaml", CARD_YAML_LIMITS)
    except CardDocumentError as exc:
        return Merged(None, [EditorError(e.path, e.message, line=e.line) for e in exc.errors])
    rest = parsed.data if parsed.data is not None else {}
    if not isinstance(rest, dict):
        return Merged(None, [EditorError("", "the YAML must be a mapping of keys", line=1)])
    kind = values.get("kind") or rest.get("kind")
    errors = []
    document: dict[str, Any] = {}
    for key in IDENTITY_FIELDS:
        if key in values:
            document[key] = values[key]
    for stat in STAT_FIELDS:
        if stat.name in values and values[stat.name] is not None and kind in stat.kinds:
            document[stat.name] = values[stat.name]
    for key, value in rest.items():
        if key in document:
            line = line_for([key], parsed.lines)
            errors.append(EditorError(key, "also set in the form; keep one", line=line))
        else:
            document[key] = value
    if errors:
        return Merged(None, errors, parsed.lines, rest=rest)
    return Merged(document, lines=parsed.lines, rest=rest)


def locate(
    error: DocumentError, values: dict[str, Any], lines: dict[tuple[str | int, ...], int]
) -> EditorError:
    """Place an engine error on the form field or the YAML line it concerns."""
    top = error.path.split(".")[0].split("[")[0]
    if top in values and top in FORM_KEYS:
        return EditorError(error.path, error.message, field=top)
    parts: list[str | int] = []
    for piece in error.path.replace("]", "").replace("[", ".").split("."):
        if piece:
            parts.append(int(piece) if piece.isascii() and piece.isdigit() else piece)
    return EditorError(error.path, error.message, line=line_for(parts, lines) if parts else None)


@dataclass
class Preview:
    """What the editor shows while typing: errors, or the card's text, face and report."""

    errors: list[EditorError] = field(default_factory=list)
    document: dict[str, Any] | None = None
    # The YAML's mapping as read, for the controls (None: it did not read as one).
    rest: dict[str, Any] | None = None
    text: list[str] = field(default_factory=list)
    face_png: bytes | None = None
    status: str = ""
    messages: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        face = None
        if self.face_png is not None:
            face = "data:image/png;base64," + base64.b64encode(self.face_png).decode()
        return {
            "ok": not self.errors,
            "errors": [e.as_dict() for e in self.errors],
            "text": self.text,
            "face": face,
            "report": {"status": self.status, "messages": self.messages},
        }


def typed_card(values: dict[str, Any], yaml_text: str) -> tuple[CardBase | None, Merged]:
    merged = merge_document(values, yaml_text)
    if merged.document is None:
        return None, merged
    try:
        return parse_card(merged.document), merged
    except CardDocumentError as exc:
        merged.errors = [locate(e, values, merged.lines) for e in exc.errors]
        return None, merged


def preview(values: dict[str, Any], yaml_text: str, *, set_code: str) -> Preview:
    """Parse, render and check a card being edited; stores nothing."""
    card, merged = typed_card(values, yaml_text)
    if card is None:
        return Preview(errors=merged.errors, rest=merged.rest)
    report = check_card(card, set_code)
    return Preview(
        rest=merged.rest,
        document=dump_card(card),
        text=render_lines(card),
        face_png=render_face(card, set_code).png,
        status=report.status,
        messages=list(report.messages),
    )
