"""The pack format: the document and its checks (document.py), its JSON Schema and
documentation page (schema.py); `python -m validator.engine.pack` is __main__.py."""

from validator.engine.pack.document import (
    DOCS_PATH,
    PACK_FORMAT,
    PACK_FORMAT_VERSION,
    SCHEMA_PATH,
    DeckEntry,
    PackDecks,
    PackDocument,
    PackError,
    PackSet,
    build_pack,
    load_pack,
    pack_content_hash,
    pack_json,
    pack_yaml,
    parse_pack,
)
from validator.engine.pack.schema import (
    example_pack,
    pack_docs_markdown,
    pack_json_schema,
    pack_json_schema_text,
)

__all__ = [
    "DOCS_PATH",
    "PACK_FORMAT",
    "PACK_FORMAT_VERSION",
    "SCHEMA_PATH",
    "DeckEntry",
    "PackDecks",
    "PackDocument",
    "PackError",
    "PackSet",
    "build_pack",
    "example_pack",
    "load_pack",
    "pack_content_hash",
    "pack_docs_markdown",
    "pack_json",
    "pack_json_schema",
    "pack_json_schema_text",
    "pack_yaml",
    "parse_pack",
]
