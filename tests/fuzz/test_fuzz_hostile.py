"""Hostile YAML (tests.hostile.hostile_yaml) against every reader of YAML: the engine's own
(cards, set files, scenarios, packs) and the site's forms and API. Each answers with an error
that names what it refused, or reads a value within the limits; none crashes or runs away."""

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.models import CardSet
from catalog.services import set_create
from tests.hostile import hostile_yaml
from validator.engine import (
    CardDocumentError,
    PackError,
    ScenarioError,
    load_pack,
    load_set_file,
    parse_card,
    parse_scenario,
    read_json,
    read_yaml,
)

# The slow tier (make test-slow, run by CI): fuzzing at full depth.
pytestmark = pytest.mark.slow

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _refused_with_a_message(exc: CardDocumentError | ScenarioError) -> None:
    assert exc.errors and all(e.message for e in exc.errors)


@FUZZ
@given(text=hostile_yaml())
def test_read_yaml_refuses_or_reads_within_limits(text: str) -> None:
    try:
        parsed = read_yaml(text, "hostile.yaml")
    except CardDocumentError as exc:
        _refused_with_a_message(exc)
        return
    # What is read is small: it can be dumped as JSON without running away.
    assert len(json.dumps(parsed.data)) < 5_000_000


@FUZZ
@given(text=hostile_yaml())
def test_cards_scenarios_and_set_files_refuse_or_parse(text: str, tmp_path: Path) -> None:
    try:
        data: Any = read_yaml(text, "hostile.yaml").data
    except CardDocumentError as exc:
        _refused_with_a_message(exc)
    else:
        for parse in (parse_card, parse_scenario):
            try:
                parse(data)
            except (CardDocumentError, ScenarioError) as exc:
                _refused_with_a_message(exc)
    set_file = tmp_path / "hostile-set.yaml"
    set_file.write_text(text, encoding="utf-8")
    with pytest.raises(CardDocumentError) as caught:
        load_set_file(set_file)
    _refused_with_a_message(caught.value)


@FUZZ
@given(text=hostile_yaml(), suffix=st.sampled_from([".yaml", ".json"]))
def test_pack_files_refuse_with_a_message(text: str, suffix: str, tmp_path: Path) -> None:
    pack_file = tmp_path / f"hostile{suffix}"
    body = text if suffix == ".yaml" else json.dumps({"wrapped": text})
    pack_file.write_text(body, encoding="utf-8")
    with pytest.raises(PackError) as caught:
        load_pack(pack_file)
    _refused_with_a_message(caught.value)


@FUZZ
@given(depth=st.integers(41, 20_000), digits=st.integers(101, 20_000))
def test_read_json_refuses_depth_and_long_numbers(depth: int, digits: int) -> None:
    for text in ("[" * depth + "]" * depth, '{"a": ' + "7" * digits + "}"):
        with pytest.raises(CardDocumentError) as caught:
            read_json(text)
        _refused_with_a_message(caught.value)


@pytest.fixture
def author(alice: User) -> Client:
    set_create(owner=alice, code="alice-set", name="Alice's set")
    client = Client()
    client.force_login(alice)
    return client


@FUZZ
@given(text=hostile_yaml())
def test_site_forms_and_api_refuse_hostile_yaml(author: Client, text: str) -> None:
    # Every example is one person's burst: the counts of previews and imports start again.
    cache.clear()
    form = {
        "name": "Probe",
        "kind": "monster",
        "deck": "door",
        "copies": "1",
        "document_yaml": text,
    }
    preview = author.post("/author/preview/alice-set/", form)
    assert preview.status_code == 200 and preview.json()["ok"] is False
    saved = author.post("/author/sets/alice-set/add-card/", form)
    assert saved.status_code == 400
    imported = author.post("/sets/import/", {"text": text, "visibility": "private"})
    assert imported.status_code in (200, 400)
    validated = author.post(
        "/api/validate/", json.dumps({"yaml": text}), content_type="application/json"
    )
    assert validated.status_code == 400 and validated.json()["object"] == "error"
    assert list(CardSet.objects.values_list("code", flat=True)) == ["alice-set"]
