"""The pack exporters: a built pack document as the file people download."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import slugify

from catalog.exports import register
from validator.engine import pack_json, pack_yaml


def _stem(document: Mapping[str, Any]) -> str:
    return slugify(str(document.get("name", ""))) or "pack"


@register
class PackJsonExporter:
    """The engine-ready pack (see docs/pack-format.md) as JSON."""

    identifier = "pack-json"
    label = "Engine-ready pack (JSON)"
    content_type = "application/json"

    def render(self, *, document: Mapping[str, Any]) -> tuple[str, str, bytes]:
        return f"{_stem(document)}.pack.json", self.content_type, pack_json(dict(document))


@register
class PackYamlExporter:
    """The engine-ready pack as YAML, for reading and hand edits."""

    identifier = "pack-yaml"
    label = "Engine-ready pack (YAML)"
    content_type = "application/yaml"

    def render(self, *, document: Mapping[str, Any]) -> tuple[str, str, bytes]:
        return f"{_stem(document)}.pack.yaml", self.content_type, pack_yaml(dict(document))


# The formats `export_pack --format` and the pack page's downloads offer, by file suffix.
PACK_FORMATS = ("json", "yaml")
