"""The pack exporter: a built pack document as the file people download."""

from __future__ import annotations

from typing import Any, Literal

from django.utils.text import slugify

PackFormat = Literal["json", "yaml"]


class PackExporter:
    """The engine-ready pack (validator/engine/pack.py) as JSON or YAML."""

    identifier = "pack"
    label = "Engine-ready pack"
    formats: tuple[PackFormat, ...] = ("json", "yaml")

    def render(
        self, *, document: dict[str, Any], format: PackFormat = "json"
    ) -> tuple[str, str, bytes]:
        from validator.engine import pack_json, pack_yaml

        stem = slugify(str(document.get("name", ""))) or "pack"
        if format == "yaml":
            return f"{stem}.pack.yaml", "application/yaml", pack_yaml(document)
        return f"{stem}.pack.json", "application/json", pack_json(document)
