"""Documents checked against the published JSON Schemas, for the tests.

The whole-pack and whole-set checks use jsonschema-rs, a second implementation of Draft
2020-12 written in Rust: the Python reference validator needs about 3 s for a two-set pack
(each card is tried against every card kind of the `oneOf`), jsonschema-rs a few
milliseconds. The Python `jsonschema` still checks the schemas themselves and single cards.
"""

from typing import Any

import jsonschema_rs


def schema_problems(schema: dict[str, Any], instance: Any) -> list[str]:
    """Every place `instance` breaks `schema`, as "JSON path: message" (none: it conforms)."""
    validator = jsonschema_rs.Draft202012Validator(schema)
    return [
        "$"
        + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.instance_path)
        + f": {error.message}"
        for error in validator.iter_errors(instance)
    ]
