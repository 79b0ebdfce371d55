"""The exporter registry: every file the site hands out comes from a registered exporter."""

import pytest

from catalog.exports import (
    Rendered,
    UnknownExporter,
    exporter_get,
    exporters,
    register,
    registered_instead,
)

# What docs/ARCHITECTURE.md lists, each with the content type its files have.
DOCUMENTED = {
    "card-face": "image/png",
    "pack-json": "application/json",
    "pack-tts": "application/zip",
    "pack-yaml": "application/yaml",
    "proxies": "application/pdf",
    "set-yaml": "application/yaml",
}


def test_every_documented_exporter_is_registered_with_its_content_type() -> None:
    found = {exporter.identifier: exporter.content_type for exporter in exporters()}
    assert found == DOCUMENTED
    for exporter in exporters():
        assert exporter.label


def test_an_unknown_identifier_names_the_nearest_one() -> None:
    with pytest.raises(UnknownExporter, match="no exporter 'pack-jsn'; did you mean 'pack-json'"):
        exporter_get("pack-jsn")


def test_two_exporters_may_not_share_an_identifier() -> None:
    class Impostor:
        identifier = "pack-json"
        label = "Not the pack"
        content_type = "text/plain"

        def render(self) -> Rendered:
            return "x.txt", self.content_type, b""

    with pytest.raises(ValueError, match="two exporters are called 'pack-json'"):
        register(Impostor)
    assert exporter_get("pack-json").label == "Engine-ready pack (JSON)"


def test_an_exporter_registered_instead_is_used_for_the_block_only() -> None:
    class StandIn:
        identifier = "pack-json"
        label = "A stand-in"
        content_type = "text/plain"

        def render(self) -> Rendered:
            return "x.txt", self.content_type, b""

    class New(StandIn):
        identifier = "brand-new"

    with registered_instead(StandIn), registered_instead(New):
        assert exporter_get("pack-json").label == "A stand-in"
        assert exporter_get("brand-new").label == "A stand-in"
    assert exporter_get("pack-json").label == "Engine-ready pack (JSON)"
    with pytest.raises(UnknownExporter):
        exporter_get("brand-new")
