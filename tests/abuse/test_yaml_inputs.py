"""Hostile YAML on every form that reads YAML (issue 15, items 1, 2 and 12)."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from catalog.services import set_create
from tests.abuse.conftest import Probed


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The 602-byte document of the report: each level is nine copies of the one before."""
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


@pytest.fixture
def own_set(probe: Callable[..., Probed], alice: User) -> str:
    return set_create(owner=alice, code="alice-set", name="Alice's set", visibility="private").code


def card_form(document_yaml: str, **fields: str) -> dict[str, str]:
    return {
        "name": "Probe",
        "kind": "monster",
        "deck": "door",
        "copies": "1",
        "document_yaml": document_yaml,
        **fields,
    }


def preview(probe: Callable[..., Probed], code: str, document_yaml: str) -> Probed:
    return probe(
        {
            "method": "POST",
            "path": f"/author/preview/{code}/",
            "data": card_form(document_yaml),
            "user": "alice",
        }
    )


def test_alias_bomb_on_the_editor_preview_is_refused_cheaply(
    probe: Callable[..., Probed], own_set: str
) -> None:
    bomb = alias_bomb()
    assert len(bomb) < 700  # the size of the reported document
    answer = preview(probe, own_set, bomb)
    assert answer.within_budget(), answer
    errors = answer.json()["errors"]
    assert any("alias" in e["message"] for e in errors), errors
