"""Every count on the home and set pages adds up to the fixture files (issue 17).

The expected numbers are computed here from each set's YAML with PyYAML alone, never through
the catalog's selectors: a count that drifts from the file fails."""

import io
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from catalog.models import Card
from catalog.services import card_delete
from tests.conftest import FIXTURE_SETS

pytestmark = pytest.mark.django_db

SET_FILES = sorted(FIXTURE_SETS.glob("*.yaml"))


@dataclass(frozen=True)
class Expected:
    code: str
    cards: int
    door: int
    treasure: int
    neither: int
    copies: int
    copies_known: int
    cards_in_box: int | None


def expected_from(path: Path) -> Expected:
    document: dict[str, Any] = yaml.safe_load(path.read_text())
    cards: list[dict[str, Any]] = document["cards"]
    decks = [card.get("deck") for card in cards]
    known = [card["copies"] for card in cards if card.get("copies") is not None]
    return Expected(
        code=document["set"]["code"],
        cards=len(cards),
        door=decks.count("door"),
        treasure=decks.count("treasure"),
        neither=sum(1 for deck in decks if deck not in ("door", "treasure")),
        copies=sum(known),
        copies_known=len(known),
        cards_in_box=document["set"].get("cards_in_box"),
    )


class Counts(HTMLParser):
    """The numbers a page shows in `data-count` elements, by the `data-set` around them
    (the set page has one set: key ""), and the `catalogued` sentences."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, dict[str, str]] = {}
        self.sentences: dict[str, str] = {}
        self.checklist_copies: list[str] = []
        self._set = ""
        self._reading: tuple[str, str] | None = None
        self._in_checklist = False
        self._cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "data-set" in found:
            self._set = found["data-set"] or ""
        if "data-count" in found:
            self._reading = ("count", found["data-count"] or "")
        if found.get("data-testid") == "catalogued":
            self._reading = ("sentence", "")
        if found.get("data-testid") == "checklist":
            self._in_checklist = True
        if self._in_checklist and tag == "tr":
            self._cells = []
        if self._in_checklist and tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("dd", "p"):
            self._reading = None
        if self._in_checklist and tag == "td" and self._cell is not None:
            self._cells.append("".join(self._cell).strip())
            self._cell = None
        if self._in_checklist and tag == "tr" and self._cells:
            self.checklist_copies.append(self._cells[-1])
        if tag == "table":
            self._in_checklist = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._reading is None:
            return
        what, name = self._reading
        if what == "count":
            self.counts.setdefault(self._set, {})[name] = (
                self.counts.get(self._set, {}).get(name, "") + data.strip()
            )
        else:
            self.sentences[self._set] = self.sentences.get(self._set, "") + data


def read(html: str) -> Counts:
    reader = Counts()
    reader.feed(html)
    return reader


@pytest.fixture
def whole_catalog(db: None) -> None:
    call_command("load_catalog", *map(str, SET_FILES), stdout=io.StringIO())


def check_counts(shown: dict[str, str], sentence: str, expected: Expected) -> None:
    assert shown["cards"] == str(expected.cards)
    assert shown["door"] == str(expected.door)
    assert shown["treasure"] == str(expected.treasure)
    # A set with no card outside both decks does not show the column.
    assert shown.get("neither", "0") == str(expected.neither)
    assert shown["copies"] == str(expected.copies)
    assert expected.door + expected.treasure + expected.neither == expected.cards

    sentence = " ".join(sentence.split())
    assert sentence.startswith(f"{expected.cards} distinct cards catalogued")
    if expected.copies_known == expected.cards:
        assert f"copies known for all of them: {expected.copies} in all" in sentence
    elif expected.copies_known == 0:
        assert "copies known for none of them" in sentence
    else:
        unknown = expected.cards - expected.copies_known
        assert (
            f"copies known for {expected.copies_known} of them ({expected.copies} in all), "
            f"not for the other {unknown}"
        ) in sentence
    if expected.cards_in_box:
        assert f"{expected.cards_in_box} cards" in sentence
    assert "at least" not in sentence.lower()


def test_the_five_fixture_sets_are_all_there() -> None:
    assert len(SET_FILES) == 5


@pytest.mark.parametrize("path", SET_FILES, ids=lambda p: p.stem)
def test_home_page_counts_match_the_set_file(
    client: Client, whole_catalog: None, path: Path
) -> None:
    expected = expected_from(path)
    page = read(client.get("/").content.decode())
    check_counts(page.counts[expected.code], page.sentences[expected.code], expected)


@pytest.mark.parametrize("path", SET_FILES, ids=lambda p: p.stem)
def test_set_page_counts_match_the_set_file(
    client: Client, whole_catalog: None, path: Path
) -> None:
    expected = expected_from(path)
    response = client.get(f"/sets/{expected.code}/", {"view": "checklist"})
    assert response.status_code == 200
    html = response.content.decode()
    page = read(html)
    check_counts(page.counts[""], page.sentences[""], expected)
    assert f'data-testid="total">{expected.cards} cards</p>' in html
    # The checklist lists each card once, its copies or "?" when they are not known.
    copies = page.checklist_copies
    assert len(copies) == expected.cards
    assert copies.count("?") == expected.cards - expected.copies_known
    assert sum(int(c) for c in copies if c != "?") == expected.copies


def test_the_counts_that_were_wrong_now_add_up(client: Client, whole_catalog: None) -> None:
    """The numbers the issue quotes, from the rulebook's and the reference's side: a pack of
    Booty holds Treasure cards, Super Munchkin's copies are not known, and Impossible lists
    36 cards."""
    page = read(client.get("/").content.decode())
    assert page.counts["munchkin-booty"]["treasure"] == "10"
    assert "copies known for none" in page.sentences["munchkin-super"]
    assert page.counts["munchkin-impossible"]["cards"] == "36"
    assert "44" not in page.sentences["munchkin-impossible"]


def test_a_deleted_card_leaves_every_count(client: Client, core_catalog: None) -> None:
    """A card in the trash is no longer in the set: its deck, its copies and the sentence
    lose it, on the home page and the set page alike (staff may delete official cards)."""
    staff = User.objects.create_user("staff", is_staff=True)
    core = expected_from(FIXTURE_SETS / "munchkin-core.yaml")
    troll = Card.objects.get(card_set__code="munchkin-core", name="Net Troll")
    card_delete(card=troll, actor=staff)
    # Net Troll in the fixture: a Door card, 1 copy.
    after = Expected(
        code=core.code,
        cards=core.cards - 1,
        door=core.door - 1,
        treasure=core.treasure,
        neither=core.neither,
        copies=core.copies - 1,
        copies_known=core.copies_known - 1,
        cards_in_box=core.cards_in_box,
    )
    home = read(client.get("/").content.decode())
    check_counts(home.counts[core.code], home.sentences[core.code], after)
    page = read(client.get(f"/sets/{core.code}/").content.decode())
    check_counts(page.counts[""], page.sentences[""], after)
