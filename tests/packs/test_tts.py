"""The Tabletop Simulator export: sheets TTS can read, a saved object that follows the format
(checked against a JSON Schema written from its documented fields), every card where its id
says, and the same bytes for the same pack."""

import io
import json
import zipfile
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from PIL import Image, ImageChops, ImageStat

from catalog.exports import exporter_get
from packs.tts.exporter import CARDS_PER_SHEET, CELL_HEIGHT, CELL_WIDTH, sheet_grid
from prints.faces import HEIGHT, WIDTH, render_back, render_face
from tests.conftest import CORE_SET, FIXTURE_SETS
from validator.engine import (
    CardBase,
    PackDocument,
    SetDocument,
    build_pack,
    load_set_file,
    parse_pack,
    render_text,
)

# One worker exports the core set once (make test runs pytest-xdist with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("tts-core-export")

SCHEMA = json.loads(
    (Path(__file__).parent / "schemas" / "tts-saved-object.schema.json").read_text("utf-8")
)
WHEN = datetime(2025, 1, 1, tzinfo=UTC)


def set_info(document: SetDocument) -> dict[str, Any]:
    return document.set.model_dump(exclude_none=True)


def make_pack(
    name: str,
    sets: list[tuple[SetDocument, list[CardBase]]],
    decks: dict[str, list[tuple[str, str, int]]],
) -> PackDocument:
    data = build_pack(
        name=name,
        sets=[(set_info(document), cards) for document, cards in sets],
        decks=decks,
        generated_at=WHEN,
    )
    return parse_pack(data)


@dataclass
class Export:
    pack: PackDocument
    filename: str
    content_type: str
    data: bytes

    @property
    def zip(self) -> zipfile.ZipFile:
        return zipfile.ZipFile(io.BytesIO(self.data))

    def json(self, name: str) -> Any:
        return json.loads(self.zip.read(name).decode("utf-8"))

    def image(self, name: str) -> Image.Image:
        image = Image.open(io.BytesIO(self.zip.read(name)))
        image.load()
        return image


def export(pack: PackDocument, base_url: str | None = None) -> Export:
    return Export(pack, *exporter_get("pack-tts").render(document=pack, base_url=base_url))


@pytest.fixture(scope="module")
def core_document() -> SetDocument:
    return load_set_file(CORE_SET)


@pytest.fixture(scope="module")
def core(core_document: SetDocument) -> Export:
    """The whole core set as a pack, every card at its box copies, exported once."""
    code = core_document.set.code
    decks = {
        deck: [(code, c.name, c.copies or 1) for c in core_document.cards if c.deck == deck]
        for deck in ("door", "treasure")
    }
    pack = make_pack("Munchkin Core", [(core_document, list(core_document.cards))], decks)
    return export(pack)


@pytest.fixture(scope="module")
def small(core_document: SetDocument) -> PackDocument:
    """Three Door cards (one of them twice), a one-card Treasure deck, a core card left out
    of the decks and a SpongeBob Role card (outside both decks by nature)."""
    doors = [c for c in core_document.cards if c.deck == "door"][:3]
    treasure = next(c for c in core_document.cards if c.deck == "treasure")
    left_out = next(c for c in core_document.cards if c.deck == "treasure" and c != treasure)
    spongebob = load_set_file(FIXTURE_SETS / "munchkin-spongebob.yaml")
    role = next(c for c in spongebob.cards if c.deck is None)
    code = core_document.set.code
    return make_pack(
        "Small Test Pack!",
        [(core_document, [*doors, treasure, left_out]), (spongebob, [role])],
        {
            "door": [(code, doors[0].name, 2), (code, doors[1].name, 1), (code, doors[2].name, 1)],
            "treasure": [(code, treasure.name, 1)],
        },
    )


def deck_objects(saved: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The Card objects of each deck object, by the deck's back file."""
    out: dict[str, list[dict[str, Any]]] = {}
    for state in saved["ObjectStates"]:
        cards = state["ContainedObjects"] if state["Name"] == "DeckCustom" else [state]
        sheets = {entry["BackURL"] for entry in state["CustomDeck"].values()}
        assert len(sheets) == 1, "one back per deck"
        out[sheets.pop()] = cards
    return out


def schema_errors(document: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"
        for error in validator.iter_errors(document)
    ]


# --------------------------------------------------------------------------------------------
# The core set
# --------------------------------------------------------------------------------------------


def test_the_zip_holds_every_file(core: Export) -> None:
    assert (core.filename, core.content_type) == ("munchkin-core-tts.zip", "application/zip")
    assert core.zip.namelist() == [
        "README.txt",
        "munchkin-core.json",
        "door-back.jpg",
        "door-sheet-1.jpg",
        "door-sheet-2.jpg",
        "treasure-back.jpg",
        "treasure-sheet-1.jpg",
        "treasure-sheet-2.jpg",
    ]
    assert core.zip.testzip() is None


def test_sheets_are_rgb_jpegs_that_tts_can_read(core: Export) -> None:
    saved = core.json("munchkin-core.json")
    entries = {
        entry["FaceURL"]: entry
        for state in saved["ObjectStates"]
        for entry in state["CustomDeck"].values()
    }
    sheets = sorted(name for name in core.zip.namelist() if "-sheet-" in name)
    assert sorted(entries) == sheets
    for name in sheets:
        image = core.image(name)
        entry = entries[name]
        assert (image.format, image.mode) == ("JPEG", "RGB"), name
        assert max(image.size) <= 4096, name
        assert 2 <= entry["NumWidth"] <= 10 and 2 <= entry["NumHeight"] <= 7, name
        assert image.size == (entry["NumWidth"] * CELL_WIDTH, entry["NumHeight"] * CELL_HEIGHT)
    full = core.image("door-sheet-1.jpg")  # a full 10 x 7 sheet
    assert full.size == (4040, 3948) and full.width * full.height <= 16_000_000
    assert abs(CELL_WIDTH / CELL_HEIGHT - WIDTH / HEIGHT) < 0.001  # the faces' aspect ratio


def test_backs_are_drawn_at_the_face_size(core: Export) -> None:
    for deck in ("door", "treasure"):
        back = core.image(f"{deck}-back.jpg")
        assert (back.format, back.mode, back.size) == ("JPEG", "RGB", (WIDTH, HEIGHT))
    door, treasure = core.image("door-back.jpg"), core.image("treasure-back.jpg")
    assert ImageStat.Stat(ImageChops.difference(door, treasure)).mean != [0.0, 0.0, 0.0]


def test_the_saved_object_follows_the_schema(core: Export) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    saved = core.json("munchkin-core.json")
    assert schema_errors(saved) == []
    assert [state["Name"] for state in saved["ObjectStates"]] == ["DeckCustom", "DeckCustom"]


def test_the_schema_catches_mistakes(core: Export) -> None:
    """The schema is strict enough to matter: a misspelt key, a string id or a grid TTS cannot
    read are each refused."""
    saved = core.json("munchkin-core.json")
    card = saved["ObjectStates"][0]["ContainedObjects"][0]
    card["Nickame"] = card.pop("Nickname")
    saved["ObjectStates"][1]["ContainedObjects"][0]["CardID"] = "100"
    saved["ObjectStates"][1]["CustomDeck"][next(iter(saved["ObjectStates"][1]["CustomDeck"]))][
        "NumWidth"
    ] = 11
    errors = schema_errors(saved)
    assert len(errors) == 2 and all(e.startswith("ObjectStates/") for e in errors)


def test_the_decks_hold_every_copy(core: Export, core_document: SetDocument) -> None:
    expected = Counter[str]()
    for card in core_document.cards:
        expected[card.deck or ""] += card.copies or 0
    assert (expected["door"], expected["treasure"]) == (95, 73)  # 168 cards in the box
    decks = deck_objects(core.json("munchkin-core.json"))
    assert len(decks["door-back.jpg"]) == core.pack.copies("door") == 95
    assert len(decks["treasure-back.jpg"]) == core.pack.copies("treasure") == 73


def test_nicknames_and_descriptions_are_the_cards(core: Export) -> None:
    decks = deck_objects(core.json("munchkin-core.json"))
    cards = {(s.code, c.name): c for s in core.pack.sets for c in s.cards}
    for deck, back in (("door", "door-back.jpg"), ("treasure", "treasure-back.jpg")):
        entries = getattr(core.pack.decks, deck)
        assert Counter(card["Nickname"] for card in decks[back]) == Counter(
            {entry.name: entry.copies for entry in entries}
        )
        for card in decks[back]:
            source = cards[("munchkin-core", card["Nickname"])]
            assert card["Description"].startswith("munchkin-core · ")
            assert source.kind_name.replace("_", " ").title() in card["Description"]
            assert render_text(source) in card["Description"]


def test_every_card_id_resolves_to_its_sheet_and_a_face_slot(core: Export) -> None:
    saved = core.json("munchkin-core.json")
    seen: dict[int, str] = {}
    for state in saved["ObjectStates"]:
        assert state["DeckIDs"] == [card["CardID"] for card in state["ContainedObjects"]]
        for card in state["ContainedObjects"]:
            sheet, slot = divmod(card["CardID"], 100)
            assert list(card["CustomDeck"]) == [str(sheet)]
            entry = state["CustomDeck"][str(sheet)]
            assert card["CustomDeck"][str(sheet)] == entry
            assert 0 <= slot < entry["NumWidth"] * entry["NumHeight"] - 1  # not the hidden cell
            # One id, one card: every copy shares its id and no two cards share one.
            assert seen.setdefault(card["CardID"], card["Nickname"]) == card["Nickname"]
    assert len(seen) == sum(len(s.cards) for s in core.pack.sets) == 147
    assert len(set(seen.values())) == len(seen)


def cell(sheet: Image.Image, columns: int, slot: int) -> Image.Image:
    x, y = (slot % columns) * CELL_WIDTH, (slot // columns) * CELL_HEIGHT
    return sheet.crop((x, y, x + CELL_WIDTH, y + CELL_HEIGHT))


def difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_each_card_id_shows_that_card_and_the_last_cell_the_back(core: Export) -> None:
    """The pixels agree with the ids: of all the cells of a sheet, the one a card's id names
    is the closest to that card's face (checked for the first and last card of each sheet),
    and each sheet's last cell holds the back."""
    saved = core.json("munchkin-core.json")
    cards = {c.name: c for s in core.pack.sets for c in s.cards}
    for state in saved["ObjectStates"]:
        by_id = {card["CardID"]: card["Nickname"] for card in state["ContainedObjects"]}
        for number, entry in state["CustomDeck"].items():
            sheet = core.image(entry["FaceURL"])
            columns, last = entry["NumWidth"], entry["NumWidth"] * entry["NumHeight"] - 1
            back = core.image(entry["BackURL"]).resize((CELL_WIDTH, CELL_HEIGHT))
            assert difference(cell(sheet, columns, last), back) < 2
            ids = sorted(i for i in by_id if i // 100 == int(number))
            for card_id in (ids[0], ids[-1]):
                png = render_face(cards[by_id[card_id]], "munchkin-core").png
                # Scaled as the exporter says it scales faces: an average over each cell pixel.
                face = (
                    Image.open(io.BytesIO(png))
                    .convert("RGB")
                    .resize((CELL_WIDTH, CELL_HEIGHT), Image.Resampling.BOX)
                )
                here = difference(cell(sheet, columns, card_id % 100), face)
                others = [
                    difference(cell(sheet, columns, i % 100), face) for i in ids if i != card_id
                ]
                # The sheet is a JPEG: faces with filled bands and badges carry more of its
                # error (up to about 2.2 here) while another card's cell differs by 5 or more.
                assert here < 3.0 and here < 0.75 * min(others), (entry["FaceURL"], card_id)


def test_the_readme_says_how_to_load_it(core: Export) -> None:
    readme = " ".join(core.zip.read("README.txt").decode("utf-8").split())
    assert "Saved Objects" in readme and "FaceURL" in readme
    assert "the Door deck (95 cards) and the Treasure deck (73 cards)" in readme
    assert "door-sheet-1.jpg: 69 faces on a 10 x 7 grid" in readme
    assert "Nothing: every card of the pack is in the Door or the Treasure deck." in readme


def test_urls_are_the_file_names_without_a_base(core: Export) -> None:
    saved = core.json("munchkin-core.json")
    names = set(core.zip.namelist())
    for state in saved["ObjectStates"]:
        for entry in state["CustomDeck"].values():
            assert {entry["FaceURL"], entry["BackURL"]} <= names


# --------------------------------------------------------------------------------------------
# A small pack: base URLs, left-out cards, a one-card deck, the same bytes every time
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("base", ["https://example.org/munchkin/", "https://example.org/munchkin"])
def test_a_base_url_makes_absolute_urls(small: PackDocument, base: str) -> None:
    result = export(small, base_url=base)
    saved = result.json("small-test-pack.json")
    names = set(result.zip.namelist())
    urls = [
        entry[key]
        for state in saved["ObjectStates"]
        for deck in [
            state["CustomDeck"],
            *(c["CustomDeck"] for c in state.get("ContainedObjects", [])),
        ]
        for entry in deck.values()
        for key in ("FaceURL", "BackURL")
    ]
    assert urls and all(url.startswith("https://example.org/munchkin/") for url in urls)
    assert {url.removeprefix("https://example.org/munchkin/") for url in urls} <= names
    assert "https://example.org/munchkin/<file name>" in result.zip.read("README.txt").decode()


def test_the_same_pack_gives_the_same_bytes(small: PackDocument) -> None:
    first, second = export(small), export(small)
    assert first.data == second.data
    assert {info.date_time for info in first.zip.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_cards_outside_both_decks_are_left_out_and_listed(small: PackDocument) -> None:
    result = export(small)
    assert result.filename == "small-test-pack-tts.zip"
    saved = result.json("small-test-pack.json")
    assert schema_errors(saved) == []
    exported = {card["Nickname"] for cards in deck_objects(saved).values() for card in cards}
    outside = small.outside_decks()
    assert len(outside) == 2
    readme = result.zip.read("README.txt").decode("utf-8")
    for set_code, card in outside:
        assert card.name not in exported
        assert f"  - {card.name} ({set_code}, " in readme


def test_a_one_card_deck_is_a_lone_card(small: PackDocument) -> None:
    result = export(small)
    saved = result.json("small-test-pack.json")
    readme = result.zip.read("README.txt").decode()
    assert "the Door deck (4 cards) and the Treasure deck (1 card)." in " ".join(readme.split())
    door, treasure = saved["ObjectStates"]
    assert door["Name"] == "DeckCustom" and len(door["ContainedObjects"]) == 4
    assert treasure["Name"] == "Card"
    assert treasure["Nickname"] == small.decks.treasure[0].name
    assert treasure["CardID"] == 200 and list(treasure["CustomDeck"]) == ["2"]


def test_a_pack_with_no_decks_gives_a_readme_and_no_sheets(core_document: SetDocument) -> None:
    pack = make_pack("Empty", [(core_document, list(core_document.cards[:1]))], {})
    result = export(pack)
    assert result.zip.namelist() == ["README.txt", "empty.json"]
    assert result.json("empty.json")["ObjectStates"] == []
    assert core_document.cards[0].name in result.zip.read("README.txt").decode()


# --------------------------------------------------------------------------------------------
# Sheet geometry
# --------------------------------------------------------------------------------------------


def test_sheet_grids() -> None:
    assert CARDS_PER_SHEET == 69
    assert sheet_grid(69) == (10, 7)
    assert sheet_grid(1) == (2, 2)
    assert sheet_grid(6) == (4, 2)
    for cards in range(1, 70):
        columns, rows = sheet_grid(cards)
        assert 2 <= columns <= 10 and 2 <= rows <= 7
        assert columns * rows - 1 >= cards  # room for every face and the hidden cell
    for bad in (0, 70):
        with pytest.raises(ValueError):
            sheet_grid(bad)


def test_backs_use_the_face_colours() -> None:
    from prints.faces import STYLES

    for deck in ("door", "treasure"):
        colours = {colour for _, colour in render_back(deck).getcolors(1_000_000) or []}
        assert STYLES[deck]["frame"] in colours and STYLES[deck]["band"] in colours


def test_each_face_is_drawn_once_whatever_its_copies(
    small: PackDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from packs.tts import exporter

    drawn: list[str] = []

    def counting(card: CardBase, set_code: str) -> Any:
        drawn.append(card.name)
        return render_face(card, set_code)

    monkeypatch.setattr(exporter, "render_face", counting)
    export(small)
    entries = [*small.decks.door, *small.decks.treasure]
    assert sorted(drawn) == sorted(entry.name for entry in entries)
    assert sum(entry.copies for entry in entries) == 5 > len(drawn) == 4
