"""The pack format's JSON Schema and its documentation page, generated from the models of
pack/document.py (`make schema` writes both)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, Final

from validator.engine.cards import (
    Model,
    hoist_repeated_unions,
    parse_card,
)
from validator.engine.pack.document import (
    DeckEntry,
    PackDecks,
    PackDocument,
    PackSet,
    build_pack,
    pack_json,
)

PACK_FORMAT: Final = "munchkin-pack"
PACK_FORMAT_VERSION: Final = 1
# --------------------------------------------------------------------------------------------
# Schema and documentation
# --------------------------------------------------------------------------------------------


def pack_json_schema() -> dict[str, Any]:
    """The JSON Schema of a pack; the card documents in it are the card document schema."""
    schema = PackDocument.model_json_schema(by_alias=True)
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    cards = defs["PackSet"]["properties"]["cards"]
    defs["Card"] = {
        "description": "A card document: the effect language's card schema (card.schema.json).",
        **cards["items"],
    }
    cards["items"] = {"$ref": "#/$defs/Card"}
    schema = hoist_repeated_unions(schema)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"Munchkin pack, format version {PACK_FORMAT_VERSION}"
    return schema


def pack_json_schema_text() -> str:
    return json.dumps(pack_json_schema(), indent=2, sort_keys=True) + "\n"


_DOC_MODELS: tuple[type[Model], ...] = (PackDocument, PackSet, DeckEntry, PackDecks)


def _type_text(prop: dict[str, Any]) -> str:
    if "$ref" in prop:
        target = str(prop["$ref"]).rsplit("/", 1)[-1]
        if target == "Card":
            return "[card document](#card-documents)"
        return f"[{target}](#{target.lower()})"
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    if "anyOf" in prop:
        return " or ".join(_type_text(option) for option in prop["anyOf"])
    kind = prop.get("type")
    if kind == "array":
        return f"list of {_type_text(prop.get('items', {}))}"
    if kind == "string":
        if prop.get("format") == "date-time":
            return "string (ISO 8601 date-time with time zone)"
        if "pattern" in prop:
            return f"string matching `{prop['pattern']}`"
        bounds = (prop.get("minLength"), prop.get("maxLength"))
        if bounds != (None, None):
            return f"string ({bounds[0] or 0} to {bounds[1]} characters)".replace(
                " to None", " or more"
            )
        return "string"
    if kind == "integer":
        low, high = prop.get("minimum"), prop.get("maximum")
        if low is not None and high is not None:
            return f"integer {low} to {high}"
        if low is not None:
            return f"integer ≥ {low}"
        return "integer"
    if kind == "object":
        return "object"
    return str(kind)


def _model_table(name: str, model_schema: dict[str, Any]) -> list[str]:
    required = set(model_schema.get("required", []))
    out = [
        f"### {name}",
        "",
        str(model_schema.get("description", "")).replace("\n", " "),
        "",
        "| field | type | required | since | description |",
        "|---|---|---|---|---|",
    ]
    for field_name, prop in model_schema["properties"].items():
        if field_name in required:
            needed = "yes"
        elif "default" in prop:
            needed = f"no (default `{json.dumps(prop['default'])}`)"
        else:
            needed = "no (default `{}`)" if prop.get("type") == "object" else "no"
        description = str(prop.get("description", "")).replace("\n", " ").replace("|", "\\|")
        out.append(
            f"| `{field_name}` | {_type_text(prop)} | {needed} | {prop.get('since', '')} "
            f"| {description} |"
        )
    return [*out, ""]


def example_pack() -> dict[str, Any]:
    """A tiny pack, for the documentation: one set, one Door and one Treasure card."""
    ogre = {
        "name": "Example Ogre",
        "deck": "door",
        "kind": "monster",
        "copies": 1,
        "level": 4,
        "treasures": 1,
        "bad_stuff": [{"type": "lose_levels", "amount": 2}],
        "encoding": {"status": "full"},
    }
    club = {
        "name": "Example Club",
        "deck": "treasure",
        "kind": "item",
        "copies": 2,
        "slot": "one_hand",
        "bonus": 2,
        "gold": 300,
        "encoding": {"status": "full"},
    }
    cards = [parse_card(ogre), parse_card(club)]
    info = {
        "code": "example-set",
        "name": "Example Set",
        "official": False,
        "year": 2025,
        "cards_in_box": 3,
        "description": "Two cards to show the format.",
    }
    return build_pack(
        name="Example pack",
        sets=[(info, cards)],
        decks={
            "door": [("example-set", "Example Ogre", 1)],
            "treasure": [("example-set", "Example Club", 2)],
        },
        metadata={"query": "set:example-set"},
        generated_at=datetime(2025, 1, 1, 12, 0, tzinfo=UTC),
    )


_DOCS_INTRO = """\
# The pack format, version {version}

<!-- Generated from validator/engine/pack.py by `make schema`
     (python -m validator.engine.pack --write-docs): edit the models, not this page. -->

A pack is an engine-ready set of cards: one JSON document (YAML is read too) that holds the
sets it draws from, the full typed document of every card (the effect language's card
document, see [effect-language.md](effect-language.md)) and the Door and Treasure deck lists
with copies. The rules engine loads and checks a pack without Django and plays whole games
with it:

```sh
python -m validator.engine.pack my-pack.json     # what it holds, or what is wrong with it
```

```python
from validator.engine.pack import load_pack
from validator.engine.simulation import simulate

pack = load_pack(Path("my-pack.json"))  # raises PackError naming every problem
stats = simulate(pack.game_cards(), players=4, games=100, seed=1)
```

Its JSON Schema, generated from the same models, is `validator/engine/pack.schema.json` (served
at `/api/schema/pack.json`); the card documents in it are the card document schema
(`validator/engine/card.schema.json`). Every field below says the format version that
introduced it.

## Versions

- `format_version` is the version of this format. An engine reads every version up to its own
  ({version}) and refuses a newer one with "written by a newer version"; fields are only ever
  added, each with the version that introduced it.
- `engine_version` says which engine wrote the pack; it is informative and never checked.

| format version | change |
|---|---|
| 1 | the first version |

## What the engine checks, in order

1. The document is a mapping.
2. `format` is `"munchkin-pack"` ("this is not a munchkin pack").
3. `format_version` is a whole number, at least 1 and at most this engine's ({version}); a
   newer pack is refused before anything else is read.
4. `sha256` matches the content ("checksum mismatch": the pack was edited after it was
   generated, or damaged).
5. Every field and every card document is valid: unknown keys, kinds and effects are errors
   naming their path (`sets[1].cards[3].kidn: unknown key 'kidn'; did you mean 'kind'?`).
6. Set codes are unique, and card names unique within a set.
7. Each deck entry names a card of the pack, in the list of the card's own `deck`, and each
   card has at most one entry. A card whose `deck` is null (SpongeBob's Role cards) is in
   neither list; a card may also be left out of both (it is in the pack, but not played).

Every error names its path, and its line in a YAML file: `pack.yaml:12: decks.door[4]: no card
'Net Trol' in set 'munchkin-core' in this pack; did you mean 'Net Troll'?`.

## The checksum

`sha256` is the SHA-256, in lower-case hex, of the pack's canonical JSON without its `sha256`
key: keys sorted, no spaces (`separators=(",", ":")`), non-ASCII characters as they are
(`ensure_ascii=False`), encoded as UTF-8. It covers everything else, `metadata` included:

```python
import hashlib, json

content = {{key: value for key, value in pack.items() if key != "sha256"}}
canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
sha256 = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
```

Indentation and key order in the file do not matter, and a YAML pack hashes like the same pack
in JSON (quote `generated_at` in YAML, as the engine writes it, so that it stays a string).

## Fields
"""


def pack_docs_markdown() -> str:
    """docs/pack-format.md: the format, its checks, its checksum and every field, generated
    from the models (with an example made by build_pack)."""
    schema = pack_json_schema()
    defs = schema["$defs"]
    out = [_DOCS_INTRO.format(version=PACK_FORMAT_VERSION)]
    for model in _DOC_MODELS:
        model_schema = schema if model is PackDocument else defs[model.__name__]
        title = f"{model.__name__} (the document)" if model is PackDocument else model.__name__
        out.extend(_model_table(title, model_schema))
    out.append(
        "### Card documents\n\n"
        "Each card is the effect language's card document, exactly as in a set file: `name`, "
        "`deck`, `kind`, `copies`, the stats of its kind, `tags`, `effects`, `notes` and "
        "`encoding` (see [effect-language.md](effect-language.md)). Its schema is the card "
        "document schema, `validator/engine/card.schema.json`, embedded in the pack schema as "
        "`$defs/Card`.\n"
    )
    out.append("## Example\n")
    out.append(
        "A pack of one tiny set, as `build_pack` writes it (`pack_json`; `pack_yaml` writes the "
        "same document in YAML):\n"
    )
    out.append("```json\n" + pack_json(example_pack()).decode("utf-8") + "```\n")
    return "\n".join(out)
