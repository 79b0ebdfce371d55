"""The pack format: built from set files, round-tripped, played, checked, documented."""

import copy
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import FIXTURE_SETS
from tests.schema_check import schema_problems
from validator.engine import ENGINE_VERSION
from validator.engine import pack as pack_module
from validator.engine.cards import CardBase, SetDocument, dump_card, load_set_file, read_yaml
from validator.engine.pack import (
    DOCS_PATH,
    PACK_FORMAT,
    PACK_FORMAT_VERSION,
    SCHEMA_PATH,
    PackDocument,
    PackError,
    build_pack,
    load_pack,
    pack_content_hash,
    pack_docs_markdown,
    pack_json,
    pack_json_schema,
    pack_json_schema_text,
    pack_yaml,
    parse_pack,
)
from validator.engine.pack import __main__ as pack_command
from validator.engine.pack.__main__ import main
from validator.engine.scenario import run_scenario_file
from validator.engine.setup import build_game
from validator.engine.simulation import simulate

WHEN = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)


def set_file(code: str) -> SetDocument:
    return load_set_file(FIXTURE_SETS / f"{code}.yaml")


def pack_of(*codes: str, copies: dict[str, int] | None = None, **options: Any) -> dict[str, Any]:
    """A pack of whole set files, every card at its copies (or at `copies[name]`)."""
    sets: list[tuple[dict[str, Any], list[CardBase]]] = []
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for code in codes:
        document = set_file(code)
        sets.append((document.set.model_dump(), list(document.cards)))
        for card in document.cards:
            if card.deck is not None:
                count = (copies or {}).get(card.name, card.copies or 1)
                decks[card.deck].append((code, card.name, count))
    options.setdefault("generated_at", WHEN)
    return build_pack(name="Core and Booty", sets=sets, decks=decks, **options)


@pytest.fixture(scope="module")
def built() -> dict[str, Any]:
    return pack_of("munchkin-core", "munchkin-booty", metadata={"query": "set:core,booty"})


@pytest.fixture
def data(built: dict[str, Any]) -> dict[str, Any]:
    """A copy of the built pack, free to damage."""
    return copy.deepcopy(built)


def resealed(data: dict[str, Any]) -> dict[str, Any]:
    """The pack with its checksum recomputed, as if it had been generated that way."""
    data["sha256"] = pack_content_hash(data)
    return data


def errors_of(data: Any) -> list[str]:
    with pytest.raises(PackError) as caught:
        parse_pack(data, source="pack.json")
    return [f"{e.path}: {e.message}" for e in caught.value.errors]


# -- building and round trips -------------------------------------------------------------------


def test_build_pack_writes_the_envelope_and_seals_it(built: dict[str, Any]) -> None:
    assert list(built) == [
        "format",
        "format_version",
        "engine_version",
        "generated_at",
        "sha256",
        "name",
        "sets",
        "decks",
        "metadata",
    ]
    assert built["format"] == PACK_FORMAT == "munchkin-pack"
    assert built["format_version"] == PACK_FORMAT_VERSION == 1
    assert built["engine_version"] == ENGINE_VERSION
    assert built["generated_at"] == "2025-03-01T09:30:00+00:00"
    assert re.fullmatch(r"[0-9a-f]{64}", built["sha256"])
    assert built["sha256"] == pack_content_hash(built)
    assert [s["code"] for s in built["sets"]] == ["munchkin-core", "munchkin-booty"]
    assert list(built["sets"][0]) == [
        "code",
        "name",
        "official",
        "year",
        "cards_in_box",
        "description",
        "cards",
    ]
    assert built["decks"]["door"][0] == {"set": "munchkin-core", "name": "Dwarf", "copies": 3}


def test_the_checksum_is_the_canonical_json_without_the_checksum(built: dict[str, Any]) -> None:
    import hashlib

    content = {k: v for k, v in built.items() if k != "sha256"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert pack_content_hash(built) == hashlib.sha256(canonical.encode()).hexdigest()
    reordered = dict(reversed(list(built.items())))
    assert pack_content_hash(reordered) == built["sha256"]
    assert pack_content_hash({**built, "sha256": "0" * 64}) == built["sha256"]
    assert pack_content_hash({**built, "name": "Other"}) != built["sha256"]


def test_build_pack_refuses_bad_arguments() -> None:
    core = set_file("munchkin-core")
    info = core.set.model_dump()
    with pytest.raises(ValueError, match="timezone-aware"):
        build_pack(name="x", sets=[], decks={}, generated_at=datetime(2025, 1, 1))
    with pytest.raises(ValueError, match="unknown deck"):
        build_pack(name="x", sets=[], decks={"doors": []})
    with pytest.raises(TypeError, match="not JSON serializable"):
        build_pack(name="x", sets=[], decks={}, metadata={"when": WHEN})
    with pytest.raises(ValueError, match="unknown set info key"):
        build_pack(name="x", sets=[({**info, "slug": "core"}, [])], decks={})
    with pytest.raises(PackError, match="is a treasure card"):
        build_pack(
            name="x",
            sets=[(info, list(core.cards))],
            decks={"door": [("munchkin-core", "Bad-Ass Bandana", 1)]},
        )


def test_generated_at_defaults_to_now_in_utc() -> None:
    data = build_pack(name="empty", sets=[], decks={})
    when = datetime.fromisoformat(data["generated_at"])
    offset = when.utcoffset()
    assert offset is not None and offset.total_seconds() == 0
    assert abs((datetime.now(UTC) - when).total_seconds()) < 60


def test_metadata_is_stored_as_the_json_it_reads_back_as() -> None:
    data = build_pack(name="empty", sets=[], decks={}, metadata={"sets": ("a", "b"), "n": 1})
    assert data["metadata"] == {"sets": ["a", "b"], "n": 1}
    assert json.loads(pack_json(data)) == data
    assert parse_pack(data).metadata == {"sets": ["a", "b"], "n": 1}


@pytest.mark.parametrize(("suffix", "writer"), [(".json", pack_json), (".yaml", pack_yaml)])
def test_a_pack_round_trips_through_a_file(
    tmp_path: Path, built: dict[str, Any], suffix: str, writer: Any
) -> None:
    path = tmp_path / f"pack{suffix}"
    path.write_bytes(writer(built))
    pack = load_pack(path)
    assert pack.sha256 == built["sha256"]
    assert pack.generated_at == WHEN
    assert pack.metadata == {"query": "set:core,booty"}
    for code, pack_set in zip(("munchkin-core", "munchkin-booty"), pack.sets, strict=True):
        original = set_file(code)
        assert pack_set.code == code
        assert pack_set.name == original.set.name and pack_set.year == original.set.year
        assert [dump_card(c) for c in pack_set.cards] == [dump_card(c) for c in original.cards]
    text = path.read_text(encoding="utf-8")
    reread = json.loads(text) if suffix == ".json" else read_yaml(text).data
    assert reread == built


def test_the_serialisations_are_stable(built: dict[str, Any]) -> None:
    assert pack_json(built) == pack_json(copy.deepcopy(built))
    assert pack_yaml(built) == pack_yaml(copy.deepcopy(built))
    assert pack_json(built).endswith(b"}\n")
    assert pack_yaml(built).startswith(b"format: munchkin-pack\n")


def test_a_json_pack_with_another_suffix_loads(tmp_path: Path, built: dict[str, Any]) -> None:
    path = tmp_path / "blend.munchkin"
    path.write_bytes(pack_json(built))
    assert load_pack(path).name == "Core and Booty"


# -- what a pack offers --------------------------------------------------------------------------


def test_counts_and_library(built: dict[str, Any]) -> None:
    pack = parse_pack(built)
    core, booty = set_file("munchkin-core"), set_file("munchkin-booty")
    assert pack.card_count() == len(core.cards) + len(booty.cards)
    both = [*core.cards, *booty.cards]
    for deck in ("door", "treasure"):
        assert pack.copies(deck) == sum(c.copies or 1 for c in both if c.deck == deck)
    with pytest.raises(ValueError, match="unknown deck"):
        pack.copies("doors")
    library = pack.library()
    assert library.sets == ["munchkin-core", "munchkin-booty"]
    code, troll = library.lookup("Net Troll")
    assert code == "munchkin-core" and troll.kind_name == "monster"
    assert len(list(library.cards())) == pack.card_count()


def test_a_pack_plays_whole_games_without_breaking_an_invariant(built: dict[str, Any]) -> None:
    pack = parse_pack(built)
    stats = simulate(pack.game_cards(), games=20, seed=1)
    report = stats.as_json()
    assert report["games"] == 20
    assert report["invariant_violations"] == 0, report["violations"]
    assert sum(report["wins_by_seat"].values()) > 0


def test_game_cards_take_their_copies_from_the_deck_lists() -> None:
    pack = parse_pack(pack_of("munchkin-core", copies={"Net Troll": 4, "Dwarf": 1}))
    cards = dict((card.name, card) for _, card in pack.game_cards())
    assert cards["Net Troll"].copies == 4 and cards["Dwarf"].copies == 1
    assert next(c for c in pack.sets[0].cards if c.name == "Dwarf").copies == 3
    game = build_game(pack.game_cards(), players=3, seed=5)
    assert game.total_cards == pack.copies("door") + pack.copies("treasure")
    dealt = [i.card.name for p in game.players for i in p.hand]
    everywhere = dealt + [i.card.name for i in (*game.door_deck, *game.treasure_deck)]
    assert everywhere.count("Net Troll") == 4 and everywhere.count("Dwarf") == 1


def test_a_card_left_out_of_both_decks_is_not_played() -> None:
    core = set_file("munchkin-core")
    data = build_pack(
        name="two monsters",
        sets=[(core.set.model_dump(), list(core.cards))],
        decks={"door": [("munchkin-core", "Net Troll", 2)], "treasure": []},
        generated_at=WHEN,
    )
    pack = parse_pack(data)
    assert [(code, c.name, c.copies) for code, c in pack.game_cards()] == [
        ("munchkin-core", "Net Troll", 2)
    ]
    assert len(pack.outside_decks()) == len(core.cards) - 1


def test_cards_outside_both_decks_go_to_the_game_as_they_are() -> None:
    pack = parse_pack(pack_of("munchkin-spongebob"))
    outside = [card.name for _, card in pack.game_cards() if card.deck is None]
    assert outside == [card.name for _, card in pack.outside_decks()]
    assert any(card.kind_name == "role" for _, card in pack.outside_decks())
    game = build_game(pack.game_cards(), players=4, seed=2)
    assert all(any(c.card.kind_name == "role" for c in p.character) for p in game.players)


# -- bad packs: each problem says what and where -------------------------------------------------


def test_not_a_mapping() -> None:
    assert errors_of(["format", "munchkin-pack"]) == [
        ": a pack is a mapping (format, format_version, sets, decks...), not a list"
    ]


def test_a_wrong_format_is_not_a_pack(data: dict[str, Any]) -> None:
    assert errors_of({**data, "format": "munchkin-set"}) == [
        "format: this is not a munchkin pack (format: 'munchkin-set'); "
        "did you mean 'munchkin-pack'?"
    ]
    assert errors_of({**data, "format": "zip"}) == [
        "format: this is not a munchkin pack (format: 'zip'); a pack says 'munchkin-pack'"
    ]
    set_document = read_yaml((FIXTURE_SETS / "munchkin-core.yaml").read_text()).data
    assert errors_of(set_document) == [
        "format: this is not a munchkin pack (it has no format key); it looks like a set file"
    ]


def test_a_newer_format_version_is_refused_before_anything_else(data: dict[str, Any]) -> None:
    # Written by a newer engine: its content may be anything, the version is what matters.
    newer = {**data, "format_version": 2, "sha256": "x", "decks": "new shape"}
    assert errors_of(newer) == [
        "format_version: written by a newer version (format_version 2); this engine reads up "
        "to 1 — update the engine to load this pack"
    ]


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        (0, "format_version 0 is not a version: versions start at 1"),
        (-3, "format_version -3 is not a version: versions start at 1"),
        ("1", "format_version must be a whole number, not '1'"),
        (True, "format_version must be a whole number, not True"),
    ],
)
def test_an_impossible_format_version(data: dict[str, Any], version: Any, expected: str) -> None:
    assert errors_of({**data, "format_version": version}) == [f"format_version: {expected}"]


def test_a_missing_format_version(data: dict[str, Any]) -> None:
    del data["format_version"]
    assert errors_of(data) == [
        "format_version: required key is missing (this engine reads format_version 1)"
    ]


def test_content_edited_after_sealing_fails_the_checksum(data: dict[str, Any]) -> None:
    stated = data["sha256"]
    data["decks"]["door"][0]["copies"] = 9
    actual = pack_content_hash(data)
    assert actual != stated
    assert errors_of(data) == [
        f"sha256: checksum mismatch: the file says {stated}, its content hashes to {actual} — "
        "it was changed after it was generated or damaged"
    ]
    assert parse_pack(resealed(data)).decks.door[0].copies == 9


def test_a_malformed_or_missing_checksum(data: dict[str, Any]) -> None:
    actual = data["sha256"]
    assert errors_of({**data, "sha256": actual.upper()}) == [
        f"sha256: {actual.upper()!r} is not a sha256: give 64 lower-case hex digits "
        f"(the content hashes to {actual})"
    ]
    del data["sha256"]
    assert errors_of(data) == [f"sha256: required key is missing (the content hashes to {actual})"]


def test_a_broken_checksum_comes_first_and_the_other_errors_follow(data: dict[str, Any]) -> None:
    data["name"] = ""
    errors = errors_of(data)
    assert errors[0].startswith("sha256: checksum mismatch")
    assert errors[1:] == ["name: String should have at least 1 character"]


def test_a_misspelt_card_key_names_its_path_and_the_nearest_word(data: dict[str, Any]) -> None:
    card = data["sets"][1]["cards"][3]
    card["kidn"] = card.pop("kind")
    assert errors_of(resealed(data)) == [
        f"sets[1].cards[3].kidn: unknown key 'kidn'; did you mean 'kind'? (card {card['name']!r})"
    ]


def test_a_bad_stat_on_a_card_names_the_card(data: dict[str, Any]) -> None:
    troll = next(c for c in data["sets"][0]["cards"] if c["name"] == "Net Troll")
    index = data["sets"][0]["cards"].index(troll)
    troll["levle"] = 10
    assert errors_of(resealed(data)) == [
        f"sets[0].cards[{index}].levle: unknown key 'levle'; did you mean 'level'? "
        "(card 'Net Troll')"
    ]


def test_the_envelope_is_closed(data: dict[str, Any]) -> None:
    data["extra"] = 1
    data["generated_at"] = "2025-03-01T09:30:00"
    assert errors_of(resealed(data)) == [
        "generated_at: Input should have timezone info",
        "extra: unknown key 'extra'; valid keys: format, format_version, engine_version, "
        "generated_at, sha256, name, sets, decks, metadata",
    ]


def test_a_deck_entry_naming_no_card_of_the_pack(data: dict[str, Any]) -> None:
    data["decks"]["door"][4]["name"] = "Net Trol"
    data["decks"]["door"][5]["set"] = "munchkin-cor"
    data["decks"]["door"][6]["set"] = "munchkin-booty"
    name = data["decks"]["door"][6]["name"]
    assert errors_of(resealed(data)) == [
        "decks.door[4]: no card 'Net Trol' in set 'munchkin-core' in this pack; "
        "did you mean 'Net Troll'?",
        "decks.door[5]: no set 'munchkin-cor' in this pack; did you mean 'munchkin-core'?",
        f"decks.door[6]: no card {name!r} in set 'munchkin-booty' in this pack; "
        "it is in set 'munchkin-core'",
    ]


def test_a_card_in_the_wrong_deck_list(data: dict[str, Any]) -> None:
    entry = data["decks"]["treasure"].pop(0)
    data["decks"]["door"].append(entry)
    index = len(data["decks"]["door"]) - 1
    assert errors_of(resealed(data)) == [
        f"decks.door[{index}]: {entry['name']!r} (munchkin-core) is a treasure card: it belongs "
        "in decks.treasure, not decks.door"
    ]


def test_a_card_with_no_deck_is_in_no_list() -> None:
    data = pack_of("munchkin-spongebob")
    role = next(c for c in data["sets"][0]["cards"] if c["deck"] is None)
    data["decks"]["door"].append({"set": "munchkin-spongebob", "name": role["name"], "copies": 1})
    index = len(data["decks"]["door"]) - 1
    assert errors_of(resealed(data)) == [
        f"decks.door[{index}]: {role['name']!r} (munchkin-spongebob) belongs to neither deck "
        "(its deck is null): leave it out of the deck lists"
    ]


def test_a_card_in_two_entries(data: dict[str, Any]) -> None:
    data["decks"]["door"].append(dict(data["decks"]["door"][2]))
    index = len(data["decks"]["door"]) - 1
    name = data["decks"]["door"][2]["name"]
    assert errors_of(resealed(data)) == [
        f"decks.door[{index}]: {name!r} (munchkin-core) is already decks.door[2]; give one "
        "entry with all its copies"
    ]


def test_duplicate_sets_and_cards(data: dict[str, Any]) -> None:
    data["sets"][1]["code"] = "munchkin-core"
    dwarf = data["sets"][0]["cards"][0]
    data["sets"][0]["cards"].append({**dwarf, "name": dwarf["name"].upper()})
    last = len(data["sets"][0]["cards"]) - 1
    errors = errors_of(resealed(data))
    assert errors[:2] == [
        f"sets[0].cards[{last}].name: duplicate card 'DWARF' in set 'munchkin-core' "
        "(already sets[0].cards[0]); give one document and put its copies in the deck list",
        "sets[1].code: duplicate set 'munchkin-core' (already sets[0])",
    ]
    # The Booty deck entries now name a set the pack no longer has.
    booty_entries = [e for e in data["decks"]["door"] if e["set"] == "munchkin-booty"]
    found = (
        2
        + len(booty_entries)
        + sum(e["set"] == "munchkin-booty" for e in data["decks"]["treasure"])
    )
    # The first fifty are listed, the others counted (issue 34).
    assert found > 51
    assert len(errors) == 51
    assert f"...and {found - 50:,} more errors, not listed" in errors[-1]
    assert errors[2].endswith("no set 'munchkin-booty' in this pack; did you mean 'munchkin-core'?")


def test_a_deck_entry_needs_at_least_one_copy(data: dict[str, Any]) -> None:
    data["decks"]["treasure"][1]["copies"] = 0
    assert errors_of(resealed(data)) == [
        "decks.treasure[1].copies: Input should be greater than or equal to 1"
    ]


# -- files: syntax and lines ---------------------------------------------------------------------


def test_yaml_errors_carry_their_line(tmp_path: Path, data: dict[str, Any]) -> None:
    data["decks"]["door"][4]["name"] = "Net Trol"
    path = tmp_path / "pack.yaml"
    path.write_bytes(pack_yaml(resealed(data)))
    lines = path.read_text().splitlines()
    line = lines.index("    name: Net Trol")  # the entry starts on the line before (1-based)
    assert lines[line - 1] == "  - set: munchkin-core"
    with pytest.raises(PackError) as caught:
        load_pack(path)
    assert caught.value.lines() == [
        f"{path}:{line}: decks.door[4]: no card 'Net Trol' in set 'munchkin-core' in this pack; "
        "did you mean 'Net Troll'?"
    ]


def test_syntax_errors_name_the_line(tmp_path: Path) -> None:
    broken_yaml = tmp_path / "pack.yml"
    broken_yaml.write_text("format: munchkin-pack\nsets: [\n  {code: a\n")
    with pytest.raises(PackError) as caught:
        load_pack(broken_yaml)
    assert caught.value.errors[0].message.startswith("YAML syntax:")
    assert caught.value.errors[0].line is not None
    broken_json = tmp_path / "pack.json"
    broken_json.write_text('{\n  "format": "munchkin-pack",\n  "sets": [,]\n}\n')
    with pytest.raises(PackError) as caught:
        load_pack(broken_json)
    assert caught.value.lines() == [f"{broken_json}:3: JSON syntax: Expecting value (column 12)"]


def test_duplicate_json_keys_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "pack.json"
    path.write_text('{"format": "munchkin-pack", "format": "munchkin-pack"}')
    with pytest.raises(PackError, match="duplicate key 'format'"):
        load_pack(path)


def test_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="cannot read"):
        load_pack(tmp_path / "missing.json")


def test_an_unquoted_yaml_timestamp_still_hashes(tmp_path: Path, built: dict[str, Any]) -> None:
    path = tmp_path / "pack.yaml"
    text = pack_yaml(built).decode()
    assert "generated_at: '2025-03-01T09:30:00+00:00'" in text
    path.write_text(text.replace("'2025-03-01T09:30:00+00:00'", "2025-03-01T09:30:00+00:00"))
    assert load_pack(path).generated_at == WHEN


# -- the command line ----------------------------------------------------------------------------


def test_the_command_line_describes_a_good_pack(
    tmp_path: Path, built: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pack.json"
    path.write_bytes(pack_json(built))
    pack = load_pack(path)
    assert main([str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    core, booty = pack.sets
    door, treasure = len(pack.decks.door), len(pack.decks.treasure)
    assert out == [
        f"{path}: a munchkin pack",
        "  name: Core and Booty",
        f"  format: munchkin-pack version 1, engine {ENGINE_VERSION}",
        "  generated_at: 2025-03-01T09:30:00+00:00",
        f"  checksum: OK (sha256 {built['sha256']})",
        "  sets: 2",
        f"    munchkin-core: Munchkin, {len(core.cards)} cards",
        f"    munchkin-booty: Munchkin Booty, {len(booty.cards)} cards",
        f"  Door: {pack.copies('door')} copies of {door} cards",
        f"  Treasure: {pack.copies('treasure')} copies of {treasure} cards",
        # Booty's one card of unknown deck: the guest card the second research pass added.
        "  outside both decks: 1 cards (Rawk! Nice Chest!)",
    ]


def test_the_command_line_lists_every_error_and_fails(
    tmp_path: Path, data: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    stated = data["sha256"]
    data["name"] = "Renamed"
    actual = pack_content_hash(data)
    bad_json = tmp_path / "bad.json"
    bad_json.write_bytes(pack_json(data))
    data["decks"]["door"][0]["set"] = "nowhere"
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_bytes(pack_yaml(resealed(data)))
    line = bad_yaml.read_text().splitlines().index("  - set: nowhere") + 1
    assert main([str(bad_json), str(bad_yaml)]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"{bad_json}: sha256: checksum mismatch: the file says {stated}, its content hashes to "
        f"{actual} — it was changed after it was generated or damaged",
        f"{bad_yaml}:{line}: decks.door[0]: no set 'nowhere' in this pack; its sets: "
        "munchkin-core, munchkin-booty",
    ]
    assert "a munchkin pack" not in captured.out


def test_the_command_line_needs_something_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert "give a pack FILE" in capsys.readouterr().err


def test_the_command_line_writes_the_schema_and_the_docs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pack_command, "SCHEMA_PATH", tmp_path / "pack.schema.json")
    monkeypatch.setattr(pack_command, "DOCS_PATH", tmp_path / "pack-format.md")
    assert main(["--write-schema", "--write-docs"]) == 0
    assert (tmp_path / "pack.schema.json").read_text() == pack_json_schema_text()
    assert (tmp_path / "pack-format.md").read_text() == pack_docs_markdown()


# -- schema and documentation --------------------------------------------------------------------


def test_the_schema_accepts_a_built_pack_and_rejects_a_broken_one(
    built: dict[str, Any], data: dict[str, Any]
) -> None:
    jsonschema.Draft202012Validator.check_schema(pack_json_schema())
    assert schema_problems(pack_json_schema(), built) == []
    data["sets"][0]["cards"][0]["levle"] = 3
    data["decks"]["door"][0]["copies"] = 0
    del data["sha256"]
    problems = sorted(p.split(":")[0] for p in schema_problems(pack_json_schema(), data))
    assert "$" in problems  # sha256 is required
    assert "$.decks.door[0].copies" in problems
    assert any(p.startswith("$.sets[0].cards[0]") for p in problems)


def test_the_schema_embeds_the_card_schema() -> None:
    schema = pack_json_schema()
    cards = schema["$defs"]["PackSet"]["properties"]["cards"]
    assert cards["items"] == {"$ref": "#/$defs/Card"}
    assert schema["$defs"]["Card"]["discriminator"]["propertyName"] == "kind"
    assert "MonsterCard" in schema["$defs"]


def test_every_pack_field_has_a_description_and_a_version() -> None:
    schema = pack_json_schema()
    models = {"PackDocument": schema} | {
        name: schema["$defs"][name] for name in ("PackSet", "DeckEntry", "PackDecks")
    }
    for name, model in models.items():
        for field_name, prop in model["properties"].items():
            assert prop.get("description"), f"{name}.{field_name}"
            assert prop.get("since") == 1, f"{name}.{field_name}"
    assert set(PackDocument.model_fields) == set(schema["properties"])


def test_the_committed_schema_is_current() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == pack_json_schema_text(), (
        "pack.schema.json is stale: run `make schema`"
    )


def test_the_committed_docs_are_current() -> None:
    assert DOCS_PATH.read_text(encoding="utf-8") == pack_docs_markdown(), (
        "docs/pack-format.md is stale: run `make schema`"
    )


def test_the_docs_document_every_field_and_their_example_loads() -> None:
    docs = pack_docs_markdown()
    for model in (pack_module.PackDocument, pack_module.PackSet, pack_module.DeckEntry):
        for field_name in model.model_fields:
            assert f"| `{field_name}` |" in docs, field_name
    example = docs.split("```json\n", 1)[1].split("```", 1)[0]
    pack = parse_pack(json.loads(example))
    assert pack.copies("door") == 1 and pack.copies("treasure") == 2


# -- scenarios read packs ------------------------------------------------------------------------


def test_a_scenario_reads_its_cards_from_a_pack(tmp_path: Path, built: dict[str, Any]) -> None:
    (tmp_path / "pack.json").write_bytes(pack_json(built))
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: from a pack\npack: pack.json\nplayers: [{name: A, level: 4}]\n"
        "combat: {fighter: A, monsters: [Lame Goblin]}\nsteps: [{resolve: true}]\n"
        "expect: {outcome: won, levels: {A: 5}}\n"
    )
    result = run_scenario_file(path)
    assert result.passed, result.line()


def test_a_scenario_with_a_damaged_pack_says_why(tmp_path: Path, data: dict[str, Any]) -> None:
    data["name"] = "Renamed"
    (tmp_path / "pack.json").write_bytes(pack_json(data))
    path = tmp_path / "s.yaml"
    path.write_text("name: damaged\npack: pack.json\nplayers: [{name: A}]\n")
    result = run_scenario_file(path)
    assert not result.passed
    assert "checksum mismatch" in result.line()
