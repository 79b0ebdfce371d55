"""Card faces read as Munchkin cards: rendered regions of real cards of each kind.

Expectations come from the fixture YAML (read here as plain YAML, not through the engine),
from arithmetic on pixels, or from the layout's constants (where the badge and the art box
are). The gallery test writes faces of each set to test-results/faces/ to look at.
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image, ImageChops

from prints.faces import (
    ART_TOP,
    BADGE_CENTRE,
    BADGE_RADIUS,
    BAND_BOTTOM,
    BAND_TOP,
    BONUS_GOLD,
    HEIGHT,
    INNER,
    LEVEL_RED,
    SAFE_MARGIN,
    STYLES,
    WIDTH,
    Face,
    card_background,
    render_face,
)
from tests.conftest import FIXTURE_SETS, REPO
from validator.engine import CardBase, SetDocument, load_set_file, rules_sentences

GALLERY = REPO / "test-results" / "faces"
# (set, card) of each kind the tests look at.
MONSTER = ("munchkin-core", "3,872 Orcs")
ITEM = ("munchkin-core", "Bad-Ass Bandana")
CURSE = ("munchkin-core", "Curse! Change Class")
TEXT_ONLY = ("munchkin-impossible", "British")
UNKNOWN_STATS = ("munchkin-super", "Electro-Mento Hat")
TAGGED_MONSTER = ("munchkin-booty", "Snark")
EVERY_KIND = [MONSTER, ITEM, CURSE, TEXT_ONLY, UNKNOWN_STATS]


@cache
def set_document(code: str) -> SetDocument:
    return load_set_file(FIXTURE_SETS / f"{code}.yaml")


@cache
def raw_cards(code: str) -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((FIXTURE_SETS / f"{code}.yaml").read_text(encoding="utf-8"))
    return {card["name"]: card for card in data["cards"]}


def card(which: tuple[str, str]) -> CardBase:
    code, name = which
    found: CardBase = next(c for c in set_document(code).cards if c.name == name)
    return found


def face(which: tuple[str, str], **options: Any) -> Face:
    return render_face(card(which), which[0], **options)


def image(result: Face) -> Image.Image:
    """The drawn picture, read back from its PNG: what a browser or an exporter receives."""
    return Image.open(io.BytesIO(result.png)).convert("RGB")


def share_of(region: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> float:
    """The share of the region's pixels within `tolerance` of `colour` on every channel."""
    difference = ImageChops.difference(region, Image.new("RGB", region.size, colour))
    masks = [band.point(lambda v: 255 if v <= tolerance else 0) for band in difference.split()]
    near = ImageChops.darker(ImageChops.darker(masks[0], masks[1]), masks[2])
    return near.histogram()[255] / (region.width * region.height)


def badge_box() -> tuple[int, int, int, int]:
    # The square inside the badge's inner disc (where its colour fills round the number).
    cx, cy = BADGE_CENTRE
    half = int((BADGE_RADIUS - 14) / 1.42)
    return cx - half, cy - half, cx + half, cy + half


MARGIN_3MM = round(3 / 25.4 * 300)  # 3 mm at 300 DPI: what a cutter may shave off


def outside_the_safe_area(
    picture: Image.Image, deck: str | None, ink_saving: bool
) -> list[tuple[int, int, int, int]]:
    """The strips of the 3 mm margin where the face differs from the blank card."""
    blank = card_background(deck, ink_saving)
    strips = [
        (0, 0, WIDTH, MARGIN_3MM),
        (0, HEIGHT - MARGIN_3MM, WIDTH, HEIGHT),
        (0, 0, MARGIN_3MM, HEIGHT),
        (WIDTH - MARGIN_3MM, 0, WIDTH, HEIGHT),
    ]
    return [
        strip
        for strip in strips
        if ImageChops.difference(picture.crop(strip), blank.crop(strip)).getbbox() is not None
    ]


def dark_pixels(picture: Image.Image) -> int:
    """Pixels of ink: darker than a light tint (luminance under 200)."""
    return sum(picture.convert("L").histogram()[:200])


def test_a_monsters_level_badge_is_drawn_and_says_its_level() -> None:
    raw = raw_cards(MONSTER[0])[MONSTER[1]]
    result = face(MONSTER)
    assert f"Level {raw['level']}" in result.texts
    # Over a third of the badge's inner square is its red; the curse has no badge there.
    assert share_of(image(result).crop(badge_box()), LEVEL_RED) > 0.35
    assert share_of(image(face(CURSE)).crop(badge_box()), LEVEL_RED) == 0


def test_a_monsters_footer_gives_its_treasures_and_levels() -> None:
    raw = raw_cards(MONSTER[0])[MONSTER[1]]
    texts = face(MONSTER).texts
    assert f"{raw['treasures']} Treasures" in texts and f"+{raw['levels_gained']} level" in texts
    # No sentence repeats the stats the badge and footer show.
    assert not any(re.search(r"Level \d+ monster|killing it is worth", t) for t in texts)


def test_an_items_bonus_badge_gold_and_slot_line() -> None:
    raw = raw_cards(ITEM[0])[ITEM[1]]
    result = face(ITEM)
    assert f"Bonus +{raw['bonus']}" in result.texts
    assert f"{raw['gold']} Gold" in result.texts
    assert share_of(image(result).crop(badge_box()), BONUS_GOLD) > 0.35
    assert "Headgear · Usable only by a Human" in result.texts  # slot and who, one line
    assert not any("Gold Pieces" in t or "+3 bonus" in t for t in result.texts)


def test_bad_stuff_is_in_its_own_panel() -> None:
    texts = face(TAGGED_MONSTER).texts
    heading = texts.index("Bad Stuff")
    clause = raw_cards(TAGGED_MONSTER[0])[TAGGED_MONSTER[1]]["encoding"]["clauses"][0]
    # The partly encoded Bad Stuff, without its "Bad Stuff:" label, under the heading.
    assert " ".join(texts[heading + 1 : heading + 3]).startswith(
        clause.removeprefix("Bad Stuff: ")[:40].capitalize()
    )
    assert "Shark" in texts[: texts.index("Bad Stuff")]  # its tag, as a mark


def test_a_text_only_card_shows_its_description() -> None:
    notes = raw_cards(TEXT_ONLY[0])[TEXT_ONLY[1]]["notes"]
    result = face(TEXT_ONLY)
    assert rules_sentences(card(TEXT_ONLY)).from_notes
    words = " ".join(result.texts)
    assert " ".join(notes.split()) in words


def test_unknown_stats_show_a_question_mark_and_a_provisional_mark() -> None:
    raw = raw_cards(UNKNOWN_STATS[0])[UNKNOWN_STATS[1]]
    assert raw["bonus"] is None and raw["gold"] is None  # what this test is about
    result = face(UNKNOWN_STATS)
    assert {"Bonus ?", "? Gold", "provisional"} <= set(result.texts)
    assert share_of(image(result).crop(badge_box()), BONUS_GOLD) > 0.35


def test_no_face_of_any_set_says_unknown_or_not_encoded_and_every_one_fits() -> None:
    codes = sorted(path.stem for path in FIXTURE_SETS.glob("*.yaml"))
    assert len(codes) == 5
    seen = 0
    for code in codes:
        for each in set_document(code).cards:
            result = render_face(each, code)
            words = " ".join(result.texts)
            assert not re.search(r"unknown|not encoded", words, re.IGNORECASE), (code, words)
            assert result.warnings == [], (code, each.name)
            # The picture as drawn (the renderer keeps it for the exporters): decoding 338 PNGs
            # again would add a third to this test; the PNG itself is read back elsewhere.
            assert result.image is not None
            assert outside_the_safe_area(result.image, each.deck, False) == [], each.name
            seen += 1
    assert seen == sum(len(raw_cards(code)) for code in codes)


@pytest.mark.parametrize("ink_saving", [False, True])
@pytest.mark.parametrize("which", EVERY_KIND)
def test_nothing_but_the_frame_is_drawn_outside_the_safe_area(
    which: tuple[str, str], ink_saving: bool
) -> None:
    assert MARGIN_3MM <= SAFE_MARGIN
    drawn = image(face(which, ink_saving=ink_saving))
    assert outside_the_safe_area(drawn, card(which).deck, ink_saving) == []
    # The check sees a mark: a dot in the margin is found.
    drawn.putpixel((WIDTH // 2, HEIGHT - 10), (1, 2, 3))
    assert outside_the_safe_area(drawn, card(which).deck, ink_saving) != []


def test_faces_are_deterministic_and_true_size() -> None:
    for which in (MONSTER, ITEM):
        first, second = face(which), face(which)
        assert first.png == second.png
        picture = Image.open(io.BytesIO(first.png))
        assert picture.size == (round(63 / 25.4 * 300), round(88 / 25.4 * 300))
        assert tuple(round(v) for v in picture.info["dpi"]) == (300, 300)


def test_the_ink_saving_face_uses_far_less_ink() -> None:
    for which in (MONSTER, ITEM):
        normal, saving = image(face(which)), image(face(which, ink_saving=True))
        assert dark_pixels(saving) < 0.5 * dark_pixels(normal)
        band = (INNER, BAND_TOP, BADGE_CENTRE[0] - BADGE_RADIUS, BAND_BOTTOM)
        frame = STYLES[card(which).deck or ""]["frame"]
        filled, outlined = share_of(normal.crop(band), frame), share_of(saving.crop(band), frame)
        assert filled > 0.5 and outlined < 0.5 * filled
        # The badge keeps its outline and number, on white.
        assert share_of(saving.crop(badge_box()), (255, 255, 255), 0) > 0.5


def test_art_is_drawn_in_the_art_box_when_given() -> None:
    green = (20, 160, 90)
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), green).save(buffer, "PNG")
    art = buffer.getvalue()
    box = (INNER + 40, ART_TOP + 20, WIDTH - INNER - 40, ART_TOP + 200)
    with_art = face(MONSTER, art=art)
    assert with_art.png == face(MONSTER, art=art).png
    assert share_of(image(with_art).crop(box), green, 2) > 0.99
    assert share_of(image(face(MONSTER)).crop(box), green, 30) == 0
    broken = face(MONSTER, art=b"not an image")
    assert broken.warnings == [
        "3,872 Orcs: its art could not be read; an ornament is drawn instead"
    ]


def test_the_gallery_of_each_set_is_written() -> None:
    """One monster, one item, one curse and one text-only card of each set (the first of
    each in the file), normal and ink-saving, for a person to look at."""
    GALLERY.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    picks: dict[str, CardBase]
    for path in sorted(FIXTURE_SETS.glob("*.yaml")):
        code = path.stem
        picks = {}
        for each in set_document(code).cards:
            text_only = rules_sentences(each).from_notes
            for label, fits in (
                ("monster", each.kind_name == "monster"),
                ("item", each.kind_name == "item"),
                ("curse", each.kind_name == "curse"),
                ("text", text_only),
            ):
                if fits and label not in picks:
                    picks[label] = each
        for label, chosen in picks.items():
            for suffix, saving in (("", False), ("-ink", True)):
                target = GALLERY / f"{code}-{label}{suffix}.png"
                target.write_bytes(render_face(chosen, code, ink_saving=saving).png)
                written.append(target)
    # Every set has monsters, items and a text-only card; not all have a curse.
    assert len(written) >= 5 * 3 * 2
