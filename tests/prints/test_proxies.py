"""Printable proxy sheets: every test reads the PDF back (pdfplumber) or rasterises it
(pypdfium2) and measures what a printer would get.

The reference image of `test_page_matches_the_stored_reference` (tests/prints/references/,
committed) is regenerated only by hand, with
`python -m tests.prints.write_reference`, after a deliberate change of the
faces or the layout: look at the new PNG (each card's name, Level and Treasures legible, the
two cards side by side) before committing it. The test never writes it.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest
from django.core.management import CommandError, call_command
from PIL import Image, ImageChops, ImageFilter, ImageStat
from rest_framework.test import APIClient

from catalog.exports import exporter_get
from prints import proxies
from prints.proxies import (
    build_pdf,
    face_jpeg,
    proxy_cards_from_pack,
    render_preview,
)
from prints.selectors import proxy_cards_from_catalog
from prints.sheets import (
    CARD_SIZES,
    INSTRUCTION_TEXT,
    ProxyCard,
    ProxyError,
    ProxyOptions,
    back_cells,
    layout,
    parse_size,
    plan_pages,
)
from tests.factories import monster_document
from validator.engine import CardBase, SetDocument, document_hash, dump_card, parse_card

# One worker renders each face once into the session's face cache (make test runs
# pytest-xdist with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("proxy-faces")

PT_PER_MM = 72 / 25.4
TOLERANCE_MM = 0.1
REFERENCES = Path(__file__).resolve().parent / "references"
REFERENCE_PAGE = REFERENCES / "proxy-page-100dpi.png"
# Enough for a face's numbers to be a few dozen pixels each: a wrong Level shows.
REFERENCE_DPI = 100


# --- helpers ----------------------------------------------------------------------------------


def proxy(card: CardBase, set_code: str = "munchkin-core", copies: int | None = None) -> ProxyCard:
    document = dump_card(card)
    return ProxyCard(
        set_code=set_code,
        name=card.name,
        deck=card.deck,
        copies=copies if copies is not None else (card.copies or 1),
        document=document,
        document_hash=document_hash(document),
    )


def reference_cards() -> list[ProxyCard]:
    """Two made-up monsters: the reference page does not change when the fixtures do."""
    return [
        proxy(parse_card(monster_document("Reference Ogre", level=4)), "test-set", 1),
        proxy(
            parse_card(monster_document("Reference Troll", level=12, treasures=3)), "test-set", 1
        ),
    ]


REFERENCE_OPTIONS = ProxyOptions(
    paper="custom", paper_size=(100, 140), orientation="landscape", instructions=False
)


def export(cards: list[ProxyCard], **options: Any) -> bytes:
    name, content_type, content = exporter_get("proxies").render(
        cards=cards, options=ProxyOptions(**options)
    )
    assert (name, content_type) == ("proxies.pdf", "application/pdf")
    assert content.startswith(b"%PDF-")
    return content


def mm(points: float) -> float:
    return points / PT_PER_MM


def image_boxes(page: Any) -> list[tuple[float, float, float, float]]:
    """(left, top, width, height) of every image of a page, in mm, in drawing order."""
    return [
        (mm(im["x0"]), mm(im["top"]), mm(im["x1"] - im["x0"]), mm(im["bottom"] - im["top"]))
        for im in page.images
    ]


def image_digest(image: dict[str, Any]) -> str:
    return hashlib.sha256(image["stream"].get_rawdata()).hexdigest()


def colour(line: dict[str, Any]) -> str:
    """A line's stroke colour: "black", "white" or the raw value."""
    value = line["stroking_color"]
    channels = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if all(float(c) == 0 for c in channels):
        return "black"
    if all(float(c) == 1 for c in channels):
        return "white"
    return str(value)


def rasterise(content: bytes, index: int, dpi: int) -> Image.Image:
    document = pypdfium2.PdfDocument(content)
    try:
        bitmap = document[index].render(scale=dpi / 72)
        image: Image.Image = bitmap.to_pil().convert("RGB")
        return image
    finally:
        document.close()


def mean_difference(a: Image.Image, b: Image.Image) -> list[float]:
    width, height = min(a.width, b.width), min(a.height, b.height)
    diff = ImageChops.difference(a.crop((0, 0, width, height)), b.crop((0, 0, width, height)))
    return [float(value) for value in ImageStat.Stat(diff).mean]


def pixels_astray(a: Image.Image, b: Image.Image, tolerance: int = 48) -> int:
    """How many pixels of `a` fall outside the range of `b`'s 3 x 3 neighbourhood, widened by
    `tolerance`, in any channel: anti-aliasing and a one-pixel shift of an edge stay inside, a
    glyph or line that is not in `b` does not."""
    low = b.filter(ImageFilter.MinFilter(3))
    high = b.filter(ImageFilter.MaxFilter(3))
    worst = ImageChops.lighter(ImageChops.subtract(low, a), ImageChops.subtract(a, high))
    return sum(worst.convert("L").histogram()[tolerance:])


def close(a: float, b: float, tolerance: float = TOLERANCE_MM) -> bool:
    return abs(a - b) <= tolerance


@pytest.fixture(scope="session")
def faces_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One face cache for the whole session: each face is rendered once."""
    return tmp_path_factory.mktemp("faces")


@pytest.fixture(autouse=True)
def faces_cache(settings: Any, faces_dir: Path) -> Iterator[None]:
    settings.CACHES = {
        **settings.CACHES,
        "faces": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(faces_dir),
            "TIMEOUT": None,
        },
    }
    yield


@pytest.fixture(scope="session")
def core_cards(core_set: SetDocument) -> list[ProxyCard]:
    return [proxy(card) for card in core_set.cards]


def few(cards: list[ProxyCard], deck: str, count: int) -> list[ProxyCard]:
    """`count` copies' worth of a deck's cards, one copy each."""
    chosen = [c for c in cards if c.deck == deck][:count]
    return [ProxyCard(c.set_code, c.name, c.deck, 1, c.document, c.document_hash) for c in chosen]


# --- the done-when figures, through the command ------------------------------------------------


@pytest.mark.django_db
def test_core_set_on_a4_is_20_pages_of_3_by_3_with_marks(
    core_catalog: None, tmp_path: Path
) -> None:
    output = tmp_path / "core.pdf"
    out = io.StringIO()
    call_command(
        "print_proxies", "--sets", "munchkin-core", "--paper", "a4", "--output", str(output),
        stdout=out,
    )  # fmt: skip
    assert "21 pages" in out.getvalue() and "11 Door faces pages" in out.getvalue()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["core.pdf"]  # no .partial left
    cards = proxy_cards_from_catalog(set_codes=["munchkin-core"])
    grid = layout(ProxyOptions())
    assert (grid.columns, grid.rows) == (3, 3)
    with pdfplumber.open(output) as pdf:
        assert len(pdf.pages) == 21  # the instruction page, then 20 pages of faces
        assert INSTRUCTION_TEXT in (pdf.pages[0].extract_text() or "")
        assert not pdf.pages[0].images
        counts = [len(page.images) for page in pdf.pages[1:]]
        # 95 Door copies: 10 full pages and 5; 73 Treasure copies: 8 full pages and 1.
        assert counts == [9] * 10 + [5] + [9] * 8 + [1]
        for page in pdf.pages:
            assert (round(page.width, 2), round(page.height, 2)) == (595.28, 841.89)
        for page in pdf.pages[1:]:
            for (left, top, width, height), (x, y) in zip(
                image_boxes(page), grid.cells, strict=False
            ):
                assert close(width, 63) and close(height, 88)
                assert close(left, x) and close(top, y)
            # 4 cut lines each way (shared by neighbours), a tick at each end, black + white.
            assert len(page.lines) == (4 + 4) * 2 * 2
        # Deck by deck: the first Door card's face opens page 2, the first Treasure's page 13,
        # and the JPEG is the cached face itself (embedded without re-encoding).
        plan = [p for p in plan_pages(cards, ProxyOptions()) if p.kind == "faces"]
        assert [p.deck for p in plan] == ["door"] * 11 + ["treasure"] * 9
        first_door, first_treasure = plan[0].cards[0], plan[11].cards[0]
        assert pdf.pages[1].images[0]["stream"].get_rawdata() == face_jpeg(first_door)
        assert pdf.pages[12].images[0]["stream"].get_rawdata() == face_jpeg(first_treasure)
        # Copies: each card's face appears exactly its copies times in the whole document.
        seen = Counter(image_digest(im) for page in pdf.pages for im in page.images)
    expected: Counter[str] = Counter()
    for card in cards:
        expected[hashlib.sha256(face_jpeg(card)).hexdigest()] += card.copies
    assert seen == expected
    assert sum(seen.values()) == 168


# --- page sizes and true-size cards ------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ({"paper": "a4"}, (595.28, 841.89)),
        ({"paper": "letter"}, (612.0, 792.0)),
        ({"paper": "a3", "orientation": "landscape"}, (1190.55, 841.89)),
        ({"paper": "custom", "paper_size": (150, 200)}, (425.2, 566.93)),
        (
            {"paper": "custom", "paper_size": (150, 200), "orientation": "landscape"},
            (566.93, 425.2),
        ),
    ],
)
def test_page_size_in_points(
    core_cards: list[ProxyCard], options: dict[str, Any], points: tuple[float, float]
) -> None:
    content = export(few(core_cards, "door", 2), instructions=True, **options)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            assert abs(page.width - points[0]) < 0.01 and abs(page.height - points[1]) < 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "munchkin"])
def test_three_by_three_on_a4_and_letter(paper: str, card: str) -> None:
    grid = layout(ProxyOptions(paper=paper, card_size=CARD_SIZES[card]))
    assert (grid.columns, grid.rows, len(grid.cells)) == (3, 3, 9)


@pytest.mark.parametrize(
    ("card_size", "bleed", "gutter"),
    [((63, 88), 0.0, 0.0), ((63.5, 88.9), 1.5, 0.0), ((57, 89), 3.0, 2.0), ((70, 120), 0.5, 4.0)],
)
def test_every_card_is_true_size(
    core_cards: list[ProxyCard], card_size: tuple[float, float], bleed: float, gutter: float
) -> None:
    options = ProxyOptions(card_size=card_size, bleed=bleed, gutter=gutter, instructions=False)
    grid = layout(options)
    cards = few(core_cards, "door", grid.per_page + 2)  # a full page and a short one
    content = export(cards, card_size=card_size, bleed=bleed, gutter=gutter, instructions=False)
    width, height = card_size
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        assert [len(p.images) for p in pdf.pages] == [grid.per_page, 2]
        for page in pdf.pages:
            boxes = image_boxes(page)
            for (left, top, w, h), (x, y) in zip(boxes, grid.cells, strict=False):
                # The image covers the card plus its bleed; the cut rectangle is the card.
                assert close(w, width + 2 * bleed) and close(h, height + 2 * bleed)
                assert close(left + bleed, x) and close(top + bleed, y)
                assert left >= options.margin - TOLERANCE_MM
                assert left + w <= grid.page_size[0] - options.margin + TOLERANCE_MM
            # Neighbours are a gutter apart, bleed to bleed: nothing overlaps.
            for (l1, _, w1, _), (l2, _, _, _) in itertools.pairwise(boxes):
                if l2 > l1:
                    assert close(l2 - (l1 + w1), gutter)


def test_bleed_extends_the_border_colour(core_cards: list[ProxyCard]) -> None:
    card = few(core_cards, "door", 1)[0]
    plain = Image.open(io.BytesIO(face_jpeg(card))).convert("RGB")
    bled = Image.open(io.BytesIO(face_jpeg(card, bleed=(35, 35)))).convert("RGB")
    assert bled.size == (plain.width + 70, plain.height + 70)
    # The bleed repeats the face's edge: the outer band is the colour just inside it.
    for x, y in ((0, 500), (10, 900), (bled.width - 1, 300), (400, 0), (400, bled.height - 1)):
        inside = (min(max(x, 35), bled.width - 36), min(max(y, 35), bled.height - 36))
        outer, inner = bled.getpixel((x, y)), bled.getpixel(inside)
        assert isinstance(outer, tuple) and isinstance(inner, tuple)
        assert max(abs(a - b) for a, b in zip(outer, inner, strict=True)) < 12


# --- cut marks -------------------------------------------------------------------------------


def cut_lines(options: ProxyOptions) -> tuple[list[float], list[float]]:
    grid = layout(options)
    width, height = options.card_size
    xs = sorted({round(v, 3) for x, _ in grid.cells for v in (x, x + width)})
    ys = sorted({round(v, 3) for _, y in grid.cells for v in (y, y + height)})
    return xs, ys


@pytest.mark.parametrize(("bleed", "gutter"), [(0.0, 0.0), (2.0, 3.0)])
def test_margin_marks_line_up_with_every_cut(
    core_cards: list[ProxyCard], bleed: float, gutter: float
) -> None:
    options = ProxyOptions(bleed=bleed, gutter=gutter, instructions=False)
    xs, ys = cut_lines(options)
    columns = layout(options).columns
    assert len(xs) == (columns + 1 if not bleed and not gutter else 2 * columns)
    content = export(few(core_cards, "door", 9), bleed=bleed, gutter=gutter, instructions=False)
    grid = layout(options)
    block_top = min(y for _, y in grid.cells) - bleed
    block_left = min(x for x, _ in grid.cells) - bleed
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        lines = pdf.pages[0].lines
    vertical = [ln for ln in lines if close(ln["x0"], ln["x1"], 0.01)]
    horizontal = [ln for ln in lines if close(ln["top"], ln["bottom"], 0.01)]
    assert len(vertical) + len(horizontal) == len(lines)
    assert {colour(ln) for ln in lines} == {"black", "white"}
    for x in xs:
        at = [ln for ln in vertical if close(mm(ln["x0"]), x)]
        # A tick above and below the block, each drawn black then white.
        assert len(at) == 4, x
        assert sorted(colour(ln) for ln in at) == ["black", "black", "white", "white"]
        assert any(mm(ln["bottom"]) < block_top for ln in at)
    for y in ys:
        at = [ln for ln in horizontal if close(mm(ln["top"]), y)]
        assert len(at) == 4, y
        assert any(mm(ln["x1"]) < block_left for ln in at)
    # Ticks stay in the margins: none crosses a card.
    for ln in vertical:
        assert mm(ln["bottom"]) <= block_top + 0.01 or mm(ln["top"]) >= 297 - block_top - 0.01


def test_full_lines_and_no_marks(core_cards: list[ProxyCard]) -> None:
    cards = few(core_cards, "door", 4)
    options = ProxyOptions(cut_marks="lines", gutter=2, instructions=False)
    xs, ys = cut_lines(options)
    with pdfplumber.open(
        io.BytesIO(export(cards, cut_marks="lines", gutter=2, instructions=False))
    ) as pdf:
        lines = pdf.pages[0].lines
    for x in xs:
        at = [ln for ln in lines if close(mm(ln["x0"]), x) and close(mm(ln["x1"]), x)]
        assert len(at) == 2 and all(close(mm(ln["bottom"] - ln["top"]), 297) for ln in at)
    for y in ys:
        at = [ln for ln in lines if close(mm(ln["top"]), y) and close(mm(ln["bottom"]), y)]
        assert len(at) == 2 and all(close(mm(ln["x1"] - ln["x0"]), 210) for ln in at)
    with pdfplumber.open(io.BytesIO(export(cards, cut_marks="none", instructions=False))) as pdf:
        assert not pdf.pages[0].lines and not pdf.pages[0].curves


# --- backs -----------------------------------------------------------------------------------


def page_kinds(cards: list[ProxyCard], **options: Any) -> list[str]:
    return [p.kind for p in plan_pages(cards, ProxyOptions(**options))]


@pytest.mark.parametrize(
    ("backs", "orientation", "mirrored"),
    [
        ("duplex-long", "portrait", "x"),
        ("duplex-short", "portrait", "y"),
        ("duplex-long", "landscape", "y"),
        ("duplex-short", "landscape", "x"),
    ],
)
def test_duplex_backs_are_mirrored_for_the_flip(
    core_cards: list[ProxyCard], backs: str, orientation: str, mirrored: str
) -> None:
    offset = (1.5, -0.75)
    cards = few(core_cards, "door", 4) + few(core_cards, "treasure", 2)
    options = ProxyOptions(
        backs=backs, orientation=orientation, back_offset=offset, instructions=False
    )
    content = export(
        cards, backs=backs, orientation=orientation, back_offset=offset, instructions=False
    )
    grid = layout(options)
    page_w, page_h = grid.page_size
    card_w, card_h = options.card_size
    assert page_kinds(cards, backs=backs, instructions=False) == ["faces", "backs"] * 2
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        assert len(pdf.pages) == 4
        for face_page, back_page in ((pdf.pages[0], pdf.pages[1]), (pdf.pages[2], pdf.pages[3])):
            faces, backs_ = image_boxes(face_page), image_boxes(back_page)
            assert len(faces) == len(backs_)  # a back behind every face, no more
            assert not back_page.lines  # no marks on the backs
            for (fx, fy, fw, fh), (bx, by, bw, bh) in zip(faces, backs_, strict=True):
                assert close(bw, fw) and close(bh, fh)
                if mirrored == "x":  # the column order reversed
                    assert close(bx, page_w - fx - card_w + offset[0])
                    assert close(by, fy + offset[1])
                else:  # the row order reversed
                    assert close(bx, fx + offset[0])
                    assert close(by, page_h - fy - card_h + offset[1])
        door_back = {image_digest(im) for im in pdf.pages[1].images}
        treasure_back = {image_digest(im) for im in pdf.pages[3].images}
    assert len(door_back) == 1 and len(treasure_back) == 1 and door_back != treasure_back


def test_back_pages_follow_each_face_page(core_cards: list[ProxyCard]) -> None:
    no_deck = ProxyCard("test-set", "Role", None, 1, {}, "0" * 64)
    cards = few(core_cards, "door", 11) + few(core_cards, "treasure", 3) + [no_deck]
    kinds = page_kinds(cards, backs="pages")
    # Faces stay on the front of each sheet: the instruction page and a no-deck face page are
    # followed by a blank page.
    assert kinds == [
        "instructions", "blank", "faces", "backs", "faces", "backs", "faces", "backs",
        "faces", "blank",
    ]  # fmt: skip
    plan = plan_pages(cards, ProxyOptions(backs="pages"))
    for face, back in itertools.pairwise(plan):
        if face.kind == "faces" and back.kind == "backs":
            assert back.cards == face.cards
    # "pages" is laid out for a long-edge flip, and takes no duplex offset.
    options = ProxyOptions(backs="pages", back_offset=(2, 2))
    long = ProxyOptions(backs="duplex-long")
    assert back_cells(options) == back_cells(long)
    assert back_cells(ProxyOptions(backs="duplex-long", back_offset=(2, 2))) != back_cells(long)


def test_backs_pages_in_the_pdf(core_cards: list[ProxyCard]) -> None:
    cards = few(core_cards, "door", 10) + few(core_cards, "treasure", 4)
    content = export(cards, backs="pages", instructions=False)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        counts = [len(p.images) for p in pdf.pages]
    assert counts == [9, 9, 1, 1, 4, 4]


def test_alignment_pair_reads_the_offset(core_cards: list[ProxyCard]) -> None:
    offset = (1.0, 2.0)
    cards = few(core_cards, "door", 1)
    content = export(cards, backs="duplex-long", back_offset=offset, alignment_page=True)
    kinds = page_kinds(cards, backs="duplex-long", alignment_page=True)
    assert kinds == ["instructions", "blank", "alignment-front", "alignment-back", "faces", "backs"]
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        front, back = pdf.pages[2], pdf.pages[3]
        assert "FRONT" in (front.extract_text() or "") and "BACK" in (back.extract_text() or "")
        # The centre crosshair (20 mm) on the front; the 12 mm scale on the back, centred on
        # its mirrored position plus the offset.
        crosses = [
            ((ln["x0"] + ln["x1"]) / 2, ln["top"])
            for ln in front.lines
            if close(mm(ln["x1"] - ln["x0"]), 20) and close(ln["top"], ln["bottom"], 0.01)
        ]
        scales = [
            (mm((ln["x0"] + ln["x1"]) / 2), mm(ln["top"]))
            for ln in back.lines
            if close(mm(ln["x1"] - ln["x0"]), 12) and close(ln["top"], ln["bottom"], 0.01)
        ]
    assert len(crosses) == 5 and len(scales) == 5
    expected = sorted((210 - mm(x) + offset[0], mm(y) + offset[1]) for x, y in crosses)
    for (ex, ey), (sx, sy) in zip(expected, sorted(scales), strict=True):
        assert close(ex, sx) and close(ey, sy)


# --- copies and the choice of cards ----------------------------------------------------------


@pytest.mark.django_db
def test_hand_picked_cards_count_each_mention(core_catalog: None, tmp_path: Path) -> None:
    cards = proxy_cards_from_catalog(names=["bigfoot", "Bigfoot", "Amazon@munchkin-core"])
    assert [(c.name, c.copies) for c in cards] == [("Amazon", 1), ("Bigfoot", 2)]
    content = export(cards, instructions=False)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        seen = Counter(image_digest(im) for im in pdf.pages[0].images)
    assert sorted(seen.values()) == [1, 2]
    assert seen[hashlib.sha256(face_jpeg(cards[1])).hexdigest()] == 2


@pytest.mark.django_db
def test_query_selects_cards(core_catalog: None) -> None:
    cards = proxy_cards_from_catalog(query="t:monster lvl>=16")
    assert cards and all(c.deck == "door" for c in cards)
    assert "Bullrog" in {c.name for c in cards}


def test_pack_deck_lists_give_the_copies(tmp_path: Path) -> None:
    from validator.engine import build_pack, load_pack, pack_json

    ogre = parse_card(monster_document("Pack Ogre"))
    troll = parse_card(monster_document("Pack Troll"))
    data = build_pack(
        name="Tiny",
        sets=[({"code": "tiny", "name": "Tiny"}, [ogre, troll])],
        decks={"door": [("tiny", "Pack Ogre", 3), ("tiny", "Pack Troll", 1)]},
    )
    path = tmp_path / "tiny.pack.json"
    path.write_bytes(pack_json(data))
    cards = proxy_cards_from_pack(load_pack(path))
    assert [(c.name, c.copies, c.deck) for c in cards] == [
        ("Pack Ogre", 3, "door"),
        ("Pack Troll", 1, "door"),
    ]
    output = tmp_path / "tiny.pdf"
    call_command(
        "print_proxies", "--pack", str(path), "--output", str(output), stdout=io.StringIO()
    )
    with pdfplumber.open(output) as pdf:
        assert [len(p.images) for p in pdf.pages] == [0, 4]


# --- bad input: a clear message, no file -----------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--cards", "Bigfut"], "unknown card 'Bigfut'; did you mean 'Bigfoot'?"),
        (["--sets", "munchkin-cor"], "unknown set 'munchkin-cor'; did you mean 'munchkin-core'?"),
        (["--sets", "munchkin-core", "--card-size", "250x300"], "does not fit on A4 portrait"),
        (["--sets", "munchkin-core", "--bleed", "3.5"], "bleed 3.5 mm is out of range"),
        (["--query", "lvl>=99"], "no cards to print"),
        (["--query", "colour:red"], "is not understood"),
        (["--sets", "munchkin-core", "--card-size", "big"], "card size 'big' is not a size"),
        (["--sets", "munchkin-core", "--gutter", "-1"], "gutter -1 mm: it cannot be negative"),
        (["--sets", "munchkin-core", "--alignment-page"], "ask for backs"),
    ],
)
def test_bad_input_writes_nothing(
    core_catalog: None, tmp_path: Path, arguments: list[str], message: str
) -> None:
    output = tmp_path / "out.pdf"
    with pytest.raises(CommandError) as error:
        call_command("print_proxies", *arguments, "--output", str(output), stdout=io.StringIO())
    assert "no PDF written" in str(error.value)
    assert message in str(error.value)
    assert list(tmp_path.iterdir()) == []


def test_options_refused_with_reasons() -> None:
    with pytest.raises(ProxyError, match=r"unknown paper 'a5'"):
        ProxyOptions(paper="a5").check()
    with pytest.raises(ProxyError, match=r"does not fit on Letter portrait .* 80 mm margins"):
        ProxyOptions(paper="letter", card_size=(63, 88), bleed=3, margin=80).check()
    with pytest.raises(ProxyError, match=r"unknown backs 'duplex'; did you mean"):
        ProxyOptions(backs="duplex").check()
    with pytest.raises(ProxyError, match=r"unknown cut marks 'line'; did you mean 'lines'"):
        ProxyOptions(cut_marks="line").check()
    with pytest.raises(ProxyError, match=r"custom paper needs its size"):
        ProxyOptions(paper="custom").check()
    with pytest.raises(ProxyError, match=r"no cards to print"):
        exporter_get("proxies").render(cards=[], options=ProxyOptions())
    ProxyOptions(bleed=3).check()  # the limits themselves are fine
    ProxyOptions(bleed=0, gutter=0, margin=0).check()


def test_parse_size() -> None:
    assert parse_size("63x88", what="card size") == (63, 88)
    assert parse_size("63.5x88.9", what="card size") == (63.5, 88.9)
    assert parse_size(" 210 x 297 mm", what="paper size") == (210, 297)
    for bad in ("63", "63x", "x88", "63x88x2", "-63x88", "0x88", "sixty x 88"):
        with pytest.raises(ProxyError, match=r"size"):
            parse_size(bad, what="card size")


# --- pixels: a stored reference, and the preview --------------------------------------------


def reference_page(cards: list[ProxyCard] | None = None) -> Image.Image:
    _, _, content = exporter_get("proxies").render(
        cards=cards or reference_cards(), options=REFERENCE_OPTIONS
    )
    return rasterise(content, 0, REFERENCE_DPI)


# At most this many pixels astray either way (0.01% of the page): room for a rasteriser's
# rounding, none for a changed number (a Level 4 drawn as 5 puts ~40 astray).
ASTRAY_AT_MOST = 20


def assert_matches_reference(page: Image.Image, reference: Image.Image) -> None:
    # The page's size at REFERENCE_DPI, by arithmetic from its millimetres (pdfium rounds up).
    width_mm, height_mm = 140, 100  # custom 100 x 140 mm, landscape
    expected = (
        math.ceil(width_mm / 25.4 * REFERENCE_DPI),
        math.ceil(height_mm / 25.4 * REFERENCE_DPI),
    )
    assert page.size == reference.size == expected
    assert max(mean_difference(page, reference)) < 2.0
    astray = (pixels_astray(page, reference), pixels_astray(reference, page))
    assert max(astray) <= ASTRAY_AT_MOST, astray


def test_page_matches_the_stored_reference() -> None:
    reference = Image.open(REFERENCE_PAGE).convert("RGB")
    assert_matches_reference(reference_page(), reference)


def test_the_reference_comparison_sees_a_wrong_number() -> None:
    # The same page with the Ogre at Level 5 instead of 4 must not pass as the reference.
    reference = Image.open(REFERENCE_PAGE).convert("RGB")
    ogre = parse_card(monster_document("Reference Ogre", level=5))
    page = reference_page([proxy(ogre, "test-set", 1), reference_cards()[1]])
    with pytest.raises(AssertionError):
        assert_matches_reference(page, reference)


def test_preview_matches_the_pdf(core_cards: list[ProxyCard]) -> None:
    cards = few(core_cards, "door", 12)
    options = ProxyOptions(bleed=1.0, gutter=2.0)  # the instruction page comes first
    content, pages = build_pdf(cards, options)
    assert [p.kind for p in pages] == ["instructions", "faces", "faces"]
    png = render_preview(cards=cards, options=options, dpi=60)
    preview = Image.open(io.BytesIO(png)).convert("RGB")
    assert preview.size == (round(210 / 25.4 * 60), round(297 / 25.4 * 60))

    def pdf_page(index: int) -> Image.Image:
        # The PDF rasterised at 60 DPI as the preview is drawn: at 4x, then reduced by area
        # (pdfium's own downscaling of the faces is sharper, which is not what is compared).
        page = rasterise(content, index, 240)
        assert (
            abs(page.width / 4 - preview.width) <= 1 and abs(page.height / 4 - preview.height) <= 1
        )
        return page.resize(preview.size, Image.Resampling.BOX)

    assert max(mean_difference(preview, pdf_page(1))) < 3.5
    # The comparison can tell pages apart: the second sheet is far from the preview.
    assert max(mean_difference(preview, pdf_page(2))) > 10


# --- the face cache ----------------------------------------------------------------------------


def test_second_export_renders_no_face(
    core_cards: list[ProxyCard], settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CACHES = {
        **settings.CACHES,
        "faces": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "faces"),
        },
    }
    calls: list[str] = []
    real = proxies.render_face

    def counting(card: CardBase, set_code: str, **options: Any) -> Any:
        calls.append(card.name)
        return real(card, set_code, **options)

    monkeypatch.setattr(proxies, "render_face", counting)
    cards = few(core_cards, "door", 5) + few(core_cards, "treasure", 3)
    progress: list[tuple[int, int]] = []
    _, _, first = exporter_get("proxies").render(
        cards=cards, options=ProxyOptions(), progress=lambda d, t: progress.append((d, t))
    )
    assert sorted(calls) == sorted(c.name for c in cards)
    assert progress[0] == (0, 8) and progress[-1] == (8, 8)
    calls.clear()
    progress.clear()
    _, _, second = exporter_get("proxies").render(
        cards=cards, options=ProxyOptions(), progress=lambda d, t: progress.append((d, t))
    )
    assert calls == []
    assert progress == [(8, 8)]
    assert second == first  # deterministic: the same cards and options, the same bytes


# --- ink-saving faces ---------------------------------------------------------------------------


def dark_share(jpeg: bytes) -> float:
    """The share of a face's pixels that are ink (luminance under 200)."""
    with Image.open(io.BytesIO(jpeg)) as decoded:
        grey = decoded.convert("L")
    return sum(grey.histogram()[:200]) / (grey.width * grey.height)


def test_ink_saving_faces_are_printed_when_asked(core_cards: list[ProxyCard]) -> None:
    cards = few(core_cards, "door", 2)
    plain, saving = face_jpeg(cards[0]), face_jpeg(cards[0], ink_saving=True)
    assert plain != saving and dark_share(saving) < 0.5 * dark_share(plain)
    content = export(cards, ink_saving=True, instructions=False)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        embedded = [im["stream"].get_rawdata() for im in pdf.pages[0].images]
    assert embedded == [face_jpeg(card, ink_saving=True) for card in cards]


@pytest.mark.django_db
def test_print_proxies_takes_ink_saving(core_catalog: None, tmp_path: Path) -> None:
    output = tmp_path / "ink.pdf"
    call_command(
        "print_proxies",
        *("--cards", "Net Troll", "--ink-saving", "--no-instructions", "--output", str(output)),
        stdout=io.StringIO(),
    )
    (troll,) = proxy_cards_from_catalog(names=["Net Troll"])
    with pdfplumber.open(output) as pdf:
        assert pdf.pages[0].images[0]["stream"].get_rawdata() == face_jpeg(troll, ink_saving=True)


@pytest.mark.django_db
def test_the_api_and_the_form_take_ink_saving(core_catalog: None) -> None:
    (troll,) = proxy_cards_from_catalog(names=["Net Troll"])
    for flag, expected in ((True, face_jpeg(troll, ink_saving=True)), (False, face_jpeg(troll))):
        response = APIClient().post(
            "/api/proxies/",
            {"cards": ["Net Troll"], "ink_saving": flag, "instructions": False},
            format="json",
        )
        assert response.status_code == 200
        with pdfplumber.open(io.BytesIO(response.content)) as pdf:
            assert pdf.pages[0].images[0]["stream"].get_rawdata() == expected
