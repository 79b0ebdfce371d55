"""The card editor's controls: what the browser needs to build a card's effects without YAML.

The controls are drawn by `static/authoring/card-controls.js` from the engine's own JSON Schema
of a card (`card_json_schema`, the published one), so an effect type, condition or field added
to the effect language appears in the editor with no change here or there. This module adds
what a schema cannot say: plain words for each effect type and condition (the engine's
glossary), a real catalog card that uses each, which fields the form above already shows, and
which lists hold outcomes only (Bad Stuff).

The controls edit the document itself (the YAML's mapping, as JSON), never a copy of it: a
part they cannot show is kept as it is and shown as YAML, so nothing is lost either way.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

from authoring.editor import CARD_YAML_LIMITS, IDENTITY_FIELDS, STAT_FIELDS
from validator.engine import (
    CONDITION_TYPES,
    EFFECT_TYPES,
    ENGINE_VERSION,
    FIELD_LABELS,
    KINDS,
    OUTCOME_TYPES,
    CardDocumentError,
    ConditionBase,
    EffectBase,
    OutcomeBase,
    card_json_schema,
    condition_entry,
    effect_entry,
    effect_type_name,
    language_source_hash,
    read_yaml,
)

# The order the controls list a card's parts in; parts not named here follow, in schema order.
PART_ORDER = (
    "effects",
    "bad_stuff",
    "usable_by",
    "not_usable_by",
    "requires",
    "abilities",
    "tags",
    "encoding",
    "notes",
)
# Lists that hold only what happens to a player (the engine refuses anything else there).
OUTCOME_ONLY_PARTS = ("bad_stuff",)
# The controls' JSON: the YAML box holds at most 20,000 characters, but aliases may expand it;
# past this size the YAML is edited as text only.
MAX_CONTROLS_DATA_CHARS = 100_000
JS_SAFE_INTEGER = 2**53 - 1


def form_fields() -> dict[str, list[str]]:
    """The keys the form's own fields show, with the kinds that have each."""
    fields = {name: list(KINDS) for name in IDENTITY_FIELDS}
    fields.update({stat.name: list(stat.kinds) for stat in STAT_FIELDS})
    return fields


def _example(examples: dict[str, dict[str, str]], key: str) -> dict[str, str] | None:
    return examples.get(key)


def controls_version() -> str:
    """What the controls' address carries (`?v=`), so that a browser holding them fetches them
    again once they change: the digest of the effect language's source, where the schema and
    the plain words come from (ENGINE_VERSION, raised by hand, once lagged behind them)."""
    return language_source_hash()[:12]


@functools.cache
def _published_schema() -> dict[str, Any]:
    """The engine's card schema, made once per process (its definitions never change while it
    runs, and making it takes a fifth of a second)."""
    return card_json_schema()


def controls_config(
    *,
    examples: dict[str, dict[str, dict[str, str]]],
    effect_types: tuple[type[EffectBase], ...] = EFFECT_TYPES,
    condition_types: tuple[type[ConditionBase], ...] = CONDITION_TYPES,
    schema: dict[str, Any] | None = None,
    suggestions: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Everything the controls' script reads: the card schema and the words around it.

    `examples` maps "effects" and "conditions" to {type or key: {"name", "url"}} (see
    `authoring.selectors.effect_examples`); `suggestions` the words to offer per condition
    key (`condition_suggestions`). The type lists and schema default to the engine's.
    """
    effects = {}
    for cls in effect_types:
        name = effect_type_name(cls)
        entry = effect_entry(cls)
        effects[name] = {
            "title": entry.title,
            "help": entry.help,
            "group": entry.group,
            "outcome": name in OUTCOME_TYPES or issubclass(cls, OutcomeBase),
            "example": _example(examples.get("effects", {}), name),
        }
    conditions = {}
    for cond in condition_types:
        entry = condition_entry(cond)
        conditions[cond.key] = {
            "title": entry.title,
            "help": entry.help,
            "group": entry.group,
            "example": _example(examples.get("conditions", {}), cond.key),
        }
    return {
        "version": ENGINE_VERSION,
        "schema": schema if schema is not None else _published_schema(),
        "effects": effects,
        "conditions": conditions,
        "labels": dict(FIELD_LABELS),
        "form_fields": form_fields(),
        "order": list(PART_ORDER),
        "outcome_only": list(OUTCOME_ONLY_PARTS),
        # Words the catalog's conditions use, per condition key (race: elf, dwarf...).
        "suggestions": suggestions or {},
    }


def controls_data(yaml_text: str) -> dict[str, Any] | None:
    """The YAML box's mapping as the controls edit it, or None when the YAML does not read
    as a mapping (the controls then send the designer to the YAML) or is too large."""
    try:
        parsed = read_yaml(yaml_text or "{}", "yaml", CARD_YAML_LIMITS)
    except CardDocumentError:
        return None
    data = parsed.data if parsed.data is not None else {}
    return controls_value(data if isinstance(data, dict) else None)


def controls_value(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """A mapping already read from the YAML, as the controls edit it (see `controls_data`)."""
    if data is None or not _plain_json(data):
        return None
    return data if len(json.dumps(data)) <= MAX_CONTROLS_DATA_CHARS else None


def _plain_json(value: Any, depth: int = 0) -> bool:
    """Whether the value survives JSON unchanged: text keys only (YAML's `1: x` would come
    back as `"1": x`), no dates, no infinite numbers."""
    if depth > 60:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain_json(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain_json(v, depth + 1) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) <= JS_SAFE_INTEGER  # a browser's numbers hold whole numbers to 2**53
    return value is None or isinstance(value, (str, bool))


def glossary_rows(
    *, examples: dict[str, dict[str, dict[str, str]]]
) -> dict[str, list[dict[str, Any]]]:
    """Every effect type and condition as the reference page lists them: the editor's title,
    the word in YAML, the line of help and an example card, grouped as the editor groups them."""
    config = controls_config(examples=examples)
    rows: dict[str, list[dict[str, Any]]] = {}
    for family in ("effects", "conditions"):
        entries = [{"name": name, **entry} for name, entry in config[family].items()]
        rows[family] = sorted(entries, key=lambda e: (e["group"], e["title"].lower()))
    return rows
