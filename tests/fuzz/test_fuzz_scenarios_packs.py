"""Scenario and pack files: mutated documents are refused with paths, never with a crash."""

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORE_SET, REPO
from tests.fuzz import (
    assert_names_paths,
    json_values,
    load_core_catalog,
    mutate,
    names_something,
)
from validator.engine import (
    CardDocumentError,
    DocumentError,
    PackError,
    RuleViolation,
    ScenarioError,
    build_pack,
    library_from_set_files,
    load_pack,
    pack_content_hash,
    pack_json,
    parse_card,
    parse_pack,
    parse_scenario,
    read_yaml,
    run_scenario,
)

# The slow tier (make test-slow, run by CI): fuzzing at full depth.
pytestmark = pytest.mark.slow

SCENARIO_DIR = REPO / "fixtures" / "scenarios" / "munchkin-core"
# A handful of varied scenarios (combat, curses, classes, charity), read once.
SCENARIO_FILES = sorted(SCENARIO_DIR.glob("*.yaml"))[::25]
SCENARIOS: list[dict[str, Any]] = [
    read_yaml(path.read_text(encoding="utf-8")).data for path in SCENARIO_FILES
]
LIBRARY = library_from_set_files(["munchkin-core"])

SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


def test_the_seed_scenarios_run() -> None:
    assert len(SCENARIOS) >= 5
    for document in SCENARIOS:
        result = run_scenario(parse_scenario(document), library=LIBRARY)
        assert result.passed, (document["name"], result.failures)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(seed=st.sampled_from(SCENARIOS), data=st.data())
def test_mutated_scenarios_are_refused_with_a_path(
    seed: dict[str, Any], data: st.DataObject
) -> None:
    document = mutate(seed, data, nan=True)
    try:
        parsed = parse_scenario(document, source="fuzz.yaml")
    except (ScenarioError, CardDocumentError) as exc:
        assert_names_paths(exc.errors, "parse_scenario", document)
        return
    try:
        result = run_scenario(parsed, source="fuzz.yaml", library=LIBRARY)
    except ScenarioError as exc:
        assert_names_paths(exc.errors, "run_scenario", document)
    except RuleViolation as exc:  # a table the rules refuse (the API answers 400 for it)
        assert str(exc)
    else:
        assert isinstance(result.passed, bool)
        json.dumps(result.as_json(), default=str)


@pytest.fixture
def core_loaded(db: None) -> None:
    load_core_catalog()


@pytest.mark.django_db
@settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[*SLOW_OK, HealthCheck.function_scoped_fixture],
)
@given(seed=st.sampled_from(SCENARIOS), data=st.data())
def test_the_scenario_api_never_fails(
    core_loaded: None, client: Client, seed: dict[str, Any], data: st.DataObject
) -> None:
    cache.clear()  # the engine endpoints are throttled per address
    document = mutate(seed, data)
    response = client.post(
        "/api/scenarios/run/", json.dumps(document), content_type="application/json"
    )
    assert response.status_code < 500, (document, response.content[:500])
    body = response.json()
    if response.status_code == 200:
        assert body["object"] == "scenario_result"
    else:
        assert response.status_code == 400, (document, body)
        assert body["object"] == "error" and body["errors"], body
        for error in body["errors"]:
            assert error["message"], body
            named = DocumentError(error["path"] or "", error["message"], error.get("line"))
            assert names_something(named, document), body


# --------------------------------------------------------------------------------------------
# Packs
# --------------------------------------------------------------------------------------------

# Each card's document as the set file writes it; its `provenance:` sits beside it, not in it.
CORE_CARDS = {
    c["name"]: {key: value for key, value in c.items() if key != "provenance"}
    for c in read_yaml(CORE_SET.read_text(encoding="utf-8")).data["cards"]
}
PACK_CARDS = ["Dwarf", "Elf", "Bigfoot", "Boots of Running Really Fast"]


def small_pack() -> dict[str, Any]:
    cards = [parse_card(CORE_CARDS[name]) for name in PACK_CARDS]
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for card in cards:
        decks[str(card.deck)].append(("munchkin-core", card.name, 1))
    return build_pack(
        name="Fuzz pack",
        sets=[({"code": "munchkin-core", "name": "Munchkin", "year": 2001}, cards)],
        decks=decks,
    )


PACK = small_pack()


def test_the_small_pack_is_valid() -> None:
    assert parse_pack(PACK).name == "Fuzz pack"
    assert len(PACK["decks"]["door"]) == 3


def _parse_or_name_paths(data: Any) -> bool:
    try:
        parse_pack(data, source="fuzz.json")
    except PackError as exc:
        assert_names_paths(exc.errors, "parse_pack", data)
        assert str(exc)
        return False
    return True


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_a_mutated_pack_fails_its_checksum(data: st.DataObject) -> None:
    mutated = mutate(PACK, data, nan=True)
    unchanged = (
        isinstance(mutated, dict)
        and mutated.get("sha256") == PACK["sha256"]
        and pack_content_hash(mutated) == PACK["sha256"]
    )
    assert _parse_or_name_paths(mutated) == unchanged


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_a_mutated_resealed_pack_parses_or_names_paths(data: st.DataObject) -> None:
    mutated = mutate(PACK, data, nan=True)
    if isinstance(mutated, dict) and isinstance(mutated.get("sha256"), str):
        mutated["sha256"] = pack_content_hash(mutated)
    _parse_or_name_paths(mutated)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    version=st.sampled_from([0, -1, 2, 999, "1", 1.5, None, True, [1]]) | json_values(),
    checksum=st.sampled_from(["", "0" * 64, PACK["sha256"].upper(), None, 1])
    | st.text(max_size=70),
)
def test_versions_and_checksums(version: Any, checksum: Any) -> None:
    pack = dict(PACK, format_version=version, sha256=checksum)
    if version != 1 or type(version) is not int:
        assert not _parse_or_name_paths(pack)
    else:
        assert not _parse_or_name_paths(pack) or checksum == PACK["sha256"]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(
    cut=st.integers(0, len(pack_json(PACK))),
    insert=st.binary(max_size=8),
    suffix=st.sampled_from([".json", ".yaml"]),
)
def test_a_corrupted_pack_file_is_refused(cut: int, insert: bytes, suffix: str) -> None:
    raw = pack_json(PACK)
    corrupted = raw[:cut] + insert + raw[cut + len(insert) :]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"pack{suffix}"
        path.write_bytes(corrupted)
        try:
            load_pack(path)
        except PackError as exc:
            assert_names_paths(exc.errors, "load_pack")
            assert exc.source == str(path)
        else:
            assert corrupted == raw or pack_content_hash(json.loads(corrupted)) == PACK["sha256"]
