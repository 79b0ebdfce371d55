"""Printable proxies: PDF sheets of card faces at true size, made to print right the first time.

What a sheet is
---------------
Every length is in millimetres, measured from the page's top-left corner (fpdf2 works in
``unit="mm"``). A card is placed at exactly ``card_size``: its face image (drawn by
``prints/faces.py`` at 300 DPI) is stretched to the card's *cut rectangle*, so the
cut line is the card's edge whatever the printer. With a bleed, the face is first extended
outward by the bleed (its outermost pixels repeated, so the border colour runs past the cut)
and the image covers the cut rectangle plus the bleed on every side: a cut a little off the
line still shows the border, never paper.

The grid (``layout``): as many columns and rows as fit inside the margins, each cell the
card plus its bleed on both sides, cells ``gutter`` apart; the whole block is centred on the
page, so the spare space is shared equally by opposite margins (and a back page, mirrored,
lands on the same block). Filled left to right, top to bottom. For the two card sizes below
that is 3 x 3 on A4 and Letter, portrait.

Card sizes. ``poker`` is the 63 x 88 mm of poker / TCG cards. ``munchkin`` is also 63 x 88 mm,
from the evidence at hand: the site's faces are drawn for exactly that size (744 x 1039 px at
300 DPI is 62.99 x 87.97 mm, so a face prints pixel for pixel at 300 DPI with no stretching),
and Munchkin's cards are sold and sleeved as "standard card game" size, the sleeves made for
63 x 88 mm cards. Cards quoted in inches (2.5 x 3.5 in, 63.5 x 88.9 mm) are one custom size
away: ``card_size=(63.5, 88.9)``, ``--card-size 63.5x88.9``.

Decks and pages. Door cards come first, then Treasure cards, then cards with no deck, each
group starting on a new page, so that every page of faces has one kind of back. Within a group
cards are in a stable order (set code, name) and each card repeats its copies in a row.

Cut marks, each drawn twice (a wide black stroke under a thin white one, so a mark shows on a
dark border and on white paper alike): ``margin`` draws short ticks in the margins around the
block, one in line with every cut line (a card's edges; with a bleed or a gutter, each card
has its own two lines per axis); ``lines`` draws full-page lines along every cut line, over
the faces (a guillotine guide); ``none`` draws nothing. Back pages carry no marks: cut from
the face side.

Backs (drawn by ``prints/faces.py``'s ``render_back``, the Door and Treasure backs of
the Tabletop Simulator export):

* ``none``: face pages only.
* ``pages``: after each page of faces, a page of backs laid out for a long-edge flip (the
  same geometry as ``duplex-long``, without the back offset). For printers with no duplex:
  print the odd pages, put the stack back in turned over on its long edge and print the even
  ones, or glue the two sheets back to back.
* ``duplex-long`` / ``duplex-short``: the same pairs, for a printer's two-sided printing with
  a flip on the long or the short edge. Turning a sheet over about an edge mirrors it across
  that edge's direction: on a portrait page the long edge is vertical, so a long-edge flip
  mirrors left-right (the back page's column order reversed) and a short-edge flip
  top-bottom (row order reversed); on a landscape page it is the other way round. The backs
  are then moved by ``back_offset`` (x right, y down, mm): printers rarely put the two sides
  exactly in register, and the alignment page measures by how much.

So that faces always print on the front of a sheet, whenever there are backs every face page
is an odd page: a blank page follows the instruction page, and a face page of cards with no
deck is followed by a blank page (they have no back).

Optional pages, in this order before the cards: the instruction page (``instructions``, on by
default: "Print at 100% / Actual size", a 50 mm ruler across and one down to check the
scale, and the settings); the alignment pair (``alignment_page``, with backs only): a front
with five crosshairs and a back with a millimetre scale at each crosshair's mirrored
position, so the reading where a front cross shows through (hold the sheet against a window,
or pierce the cross with a pin) is the offset to add to ``back_offset``.

Faces are rendered once per card document (and set code, which the face prints, and bleed),
converted to JPEG and kept in the ``faces`` cache (``FACE_CACHE_DIR``), so a second export
renders nothing. fpdf2 embeds a JPEG as it is (no re-encoding) and each distinct image once,
however many copies use it.
"""

from __future__ import annotations

import gc
import io
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, Final

from django.conf import settings
from django.core.cache import caches
from django.core.files.storage import default_storage
from fpdf import FPDF
from PIL import Image, ImageDraw

from catalog.exports import register
from prints.faces import DPI, RENDERER_VERSION, face_version, render_back
from prints.faces import HEIGHT as FACE_HEIGHT
from prints.faces import WIDTH as FACE_WIDTH

# Read through this module's name, so a test can count the faces drawn.
from prints.faces import render_face as render_face
from prints.sheets import (
    INSTRUCTION_TEXT,
    JPEG_QUALITY,
    MARK_BLACK_WIDTH,
    MARK_WHITE_WIDTH,
    MM_PER_INCH,
    PDF_DATE,
    RULER_LENGTH,
    PageSpec,
    Point,
    ProxyCard,
    ProxyError,
    ProxyOptions,
    back_cells,
    cut_mark_segments,
    layout,
    mirror_point,
    mm_text,
    plan_pages,
    size_text,
)
from validator.engine import PackDocument, dump_card, parse_card
from validator.engine import document_hash as hash_document


def proxy_cards_from_pack(pack: PackDocument) -> list[ProxyCard]:
    """A pack's cards to print: every entry of its Door and Treasure deck lists with the
    list's copies, then its cards of no deck (as many as their document says). Cards with a
    deck that the pack left out of its lists are left out here too."""
    by_key = {(s.code, card.name): card for s in pack.sets for card in s.cards}
    cards: list[ProxyCard] = []
    for deck in ("door", "treasure"):
        for entry in getattr(pack.decks, deck):
            card = by_key[(entry.set, entry.name)]
            document = dump_card(card)
            cards.append(
                ProxyCard(
                    entry.set, card.name, deck, entry.copies, document, hash_document(document)
                )
            )
    for pack_set in pack.sets:
        for card in pack_set.cards:
            if card.deck is None:
                document = dump_card(card)
                cards.append(
                    ProxyCard(
                        pack_set.code,
                        card.name,
                        None,
                        card.copies or 1,
                        document,
                        hash_document(document),
                    )
                )
    if not cards:
        raise ProxyError(f"no cards to print: the pack {pack.name!r} has no deck lists")
    return cards


# --- faces ----------------------------------------------------------------------------------


def _faces_cache() -> Any:
    return caches["faces"]


def _bleed_pixels(options: ProxyOptions) -> tuple[int, int]:
    """The bleed in face pixels, along x and y: the face is stretched to the card, so its
    pixels per millimetre are the face's width (height) over the card's."""
    if not options.bleed:
        return 0, 0
    card_w, card_h = options.card_size
    return (
        max(1, round(options.bleed * FACE_WIDTH / card_w)),
        max(1, round(options.bleed * FACE_HEIGHT / card_h)),
    )


def _face_key(card: ProxyCard, bleed: tuple[int, int], ink_saving: bool = False) -> str:
    # The face prints the set code, so the same document in two sets is two faces; a new
    # upload of art gets a new file name, so the name stands for the picture.
    return (
        f"proxy-face:{card.document_hash}:{card.set_code}:r{face_version()}:"
        f"q{JPEG_QUALITY}:b{bleed[0]}x{bleed[1]}:ink{int(ink_saving)}:art{card.art}"
    )


def _extend(image: Image.Image, bleed: tuple[int, int]) -> Image.Image:
    """The image with `bleed` pixels added on each side, each the nearest edge pixel repeated
    (so the face's border colour runs on past the cut line)."""
    bx, by = bleed
    if not bx and not by:
        return image
    width, height = image.size
    out = Image.new(image.mode, (width + 2 * bx, height + 2 * by))
    out.paste(image, (bx, by))
    if bx:
        out.paste(image.crop((0, 0, 1, height)).resize((bx, height)), (0, by))
        out.paste(image.crop((width - 1, 0, width, height)).resize((bx, height)), (bx + width, by))
    if by:
        full = width + 2 * bx
        out.paste(out.crop((0, by, full, by + 1)).resize((full, by)), (0, 0))
        out.paste(
            out.crop((0, by + height - 1, full, by + height)).resize((full, by)), (0, by + height)
        )
    return out


def _jpeg(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True, dpi=(DPI, DPI))
    return buffer.getvalue()


def _art_bytes(name: str) -> bytes | None:
    """The uploaded art's file, or None when there is none or it has gone from the storage
    (the face then shows its ornament rather than failing the sheet)."""
    if not name:
        return None
    try:
        with default_storage.open(name, "rb") as file:
            data: bytes = file.read()
    except OSError:
        return None
    return data


def _render_jpeg(card: ProxyCard, bleed: tuple[int, int], ink_saving: bool) -> bytes:
    face = render_face(
        parse_card(card.document), card.set_code, art=_art_bytes(card.art), ink_saving=ink_saving
    )
    with Image.open(io.BytesIO(face.png)) as decoded:
        image = decoded.convert("RGB")
    return _jpeg(_extend(image, bleed))


def face_jpeg(
    card: ProxyCard, *, bleed: tuple[int, int] = (0, 0), ink_saving: bool = False
) -> bytes:
    """The card's 300-DPI face as JPEG (extended by `bleed` pixels on each side), from the
    ``faces`` cache, rendered and stored there when missing. Keyed by document hash, set code,
    renderer version, JPEG quality, bleed, the ink-saving choice and the art's file."""
    store = _faces_cache()
    key = _face_key(card, bleed, ink_saving)
    data = store.get(key)
    if not isinstance(data, bytes):
        data = _render_jpeg(card, bleed, ink_saving)
        store.set(key, data, timeout=None)
    return data


@cache
def _back_jpeg(deck: str, bleed: tuple[int, int]) -> bytes:

    return _jpeg(_extend(render_back("door" if deck == "door" else "treasure"), bleed))


def _workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def _prepare_faces(
    cards: Sequence[ProxyCard],
    bleed: tuple[int, int],
    progress: Callable[[int, int], None] | None,
    ink_saving: bool = False,
) -> None:
    """Render every face missing from the cache (in threads: Pillow's drawing and encoding
    release the GIL), reporting progress(done, total) over the distinct cards."""
    store = _faces_cache()
    total = len(cards)
    missing = [card for card in cards if not store.has_key(_face_key(card, bleed, ink_saving))]
    done = total - len(missing)
    if progress:
        progress(done, total)
    if not missing:
        return

    def work(card: ProxyCard) -> None:
        face_jpeg(card, bleed=bleed, ink_saving=ink_saving)

    with ThreadPoolExecutor(max_workers=_workers()) as pool:
        for _ in pool.map(work, missing):
            done += 1
            if progress:
                progress(done, total)


class _Pdf:
    """The fpdf2 document, with the drawing helpers of the sheet's pages."""

    def __init__(self, options: ProxyOptions, page_size: tuple[float, float]) -> None:
        self.options = options
        self.size = page_size
        pdf: FPDF = FPDF(orientation="P", unit="mm", format=page_size)
        pdf.set_auto_page_break(False)
        pdf.set_margins(0, 0, 0)
        pdf.set_creation_date(PDF_DATE)
        pdf.set_title("Munchkin proxy sheets")
        pdf.set_creator(f"cardsite print_proxies (card renderer {RENDERER_VERSION})")
        pdf.set_subject(
            f"{size_text(options.card_size)} cards on {options.paper_label} paper, "
            f"bleed {mm_text(options.bleed)} mm, backs {options.backs}"
        )
        self.pdf = pdf

    def new_page(self) -> None:
        self.pdf.add_page()

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.2) -> None:
        self.pdf.set_draw_color(0, 0, 0)
        self.pdf.set_line_width(width)
        self.pdf.line(x1, y1, x2, y2)

    def mark(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A cut mark: black under white, visible on any colour."""
        pdf = self.pdf
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(MARK_BLACK_WIDTH)
        pdf.line(x1, y1, x2, y2)
        pdf.set_draw_color(255, 255, 255)
        pdf.set_line_width(MARK_WHITE_WIDTH)
        pdf.line(x1, y1, x2, y2)

    def text(self, x: float, y: float, text: str, size: float = 10, style: str = "") -> None:
        self.pdf.set_font("helvetica", style, size)
        self.pdf.set_text_color(0, 0, 0)
        self.pdf.text(x, y, text)

    def centred(self, y: float, text: str, size: float = 10, style: str = "") -> None:
        self.pdf.set_font("helvetica", style, size)
        width = self.pdf.get_string_width(text)
        self.text((self.size[0] - width) / 2, y, text, size, style)

    def output(self) -> bytearray:
        """The PDF, after which the document is dropped (its images with it)."""
        buffer = self.pdf.output()
        del self.pdf
        return buffer


def _ruler(doc: _Pdf, x: float, y: float, *, vertical: bool) -> None:
    """A 50 mm ruler from (x, y): a tick every millimetre, longer every 5 and 10, numbered
    every 10."""

    def at(along: float, across: float) -> tuple[float, float]:
        return (x + across, y + along) if vertical else (x + along, y - across)

    doc.line(*at(0, 0), *at(RULER_LENGTH, 0), width=0.2)
    for mm in range(int(RULER_LENGTH) + 1):
        length = 5.0 if mm % 10 == 0 else 3.5 if mm % 5 == 0 else 2.0
        doc.line(*at(mm, 0), *at(mm, length), width=0.12)
        if mm % 10 == 0:
            label = str(mm)
            if vertical:
                doc.text(x + 6, y + mm + 1.2, label, 7)
            else:
                doc.pdf.set_font("helvetica", "", 7)
                half = doc.pdf.get_string_width(label) / 2
                doc.text(x + mm - half, y - 6.5, label, 7)


def _instruction_page(doc: _Pdf, cards: Sequence[ProxyCard], pages: list[PageSpec]) -> None:
    options = doc.options
    width, _ = doc.size
    left = 20.0
    doc.centred(30, "Munchkin proxy sheets", 20, "B")
    doc.centred(44, INSTRUCTION_TEXT, 12, "B")
    doc.centred(
        51, "(in the print dialog: Scale 100%, Actual size; never Fit or Shrink to page)", 9
    )
    top = 75.0
    doc.text(left, top - 12, "Check the scale: each ruler must measure exactly 50 mm.", 10)
    _ruler(doc, left, top, vertical=False)
    doc.text(left + RULER_LENGTH + 4, top - 1, "50 mm", 9, "B")
    _ruler(doc, width - left - 12, top - 8, vertical=True)
    doc.text(width - left - 20, top + RULER_LENGTH - 3, "50 mm", 9, "B")
    faces = sum(1 for p in pages if p.kind == "faces")
    copies = sum(card.copies for card in cards)
    grid = layout(options)
    lines = [
        f"{copies} cards ({len(cards)} different) on {faces} pages of faces, "
        f"{grid.columns} x {grid.rows} per page.",
        f"Paper: {options.paper_label}, {size_text(doc.size)}. "
        f"Cards: {size_text(options.card_size)}, bleed {mm_text(options.bleed)} mm.",
        "Door cards come first, then Treasure cards; each page holds one deck.",
    ]
    backs = {
        "none": "No backs: print one-sided.",
        "pages": "Backs: each page of faces is followed by its backs, laid out for a flip on "
        "the long edge (print one-sided and glue, or turn the stack over on its long edge "
        "to print the even pages).",
        "duplex-long": "Backs: print two-sided, flip on the LONG edge.",
        "duplex-short": "Backs: print two-sided, flip on the SHORT edge.",
    }[options.backs]
    lines.append(backs)
    if options.backs.startswith("duplex"):
        dx, dy = options.back_offset
        lines.append(f"Back offset: {mm_text(dx)} mm right, {mm_text(dy)} mm down.")
    if options.alignment_page:
        lines.append(
            "Pages after this one: an alignment test. Print it two-sided first: where each "
            "front cross shows on the back's scales is the offset to add to --back-offset."
        )
    if options.cut_marks != "none":
        lines.append("Cut along the marks: black and white lines, in line with each card edge.")
    doc.pdf.set_font("helvetica", "", 10)
    doc.pdf.set_xy(left, top + RULER_LENGTH + 12)
    doc.pdf.multi_cell(width - 2 * left, 5.5, "\n".join(lines))


ALIGNMENT_SCALE: Final = 6  # mm each side of a crosshair's mirrored position


def _alignment_points(size: tuple[float, float]) -> list[Point]:
    """The centre and one point towards each corner, placed without symmetry so that a back
    mirrored the wrong way cannot look right."""
    width, height = size
    return [
        (width / 2, height / 2),
        (0.25 * width, 0.2 * height),
        (0.75 * width, 0.25 * height),
        (0.25 * width, 0.7 * height),
        (0.75 * width, 0.8 * height),
    ]


def _alignment_front(doc: _Pdf) -> None:
    doc.centred(14, "Alignment test: FRONT", 14, "B")
    doc.centred(20, "Print this page and the next two-sided, with your card settings.", 9)
    for index, (x, y) in enumerate(_alignment_points(doc.size)):
        doc.line(x - 10, y, x + 10, y, width=0.15)
        doc.line(x, y - 10, x, y + 10, width=0.15)
        doc.pdf.set_line_width(0.15)
        doc.pdf.circle(x, y, 2, style="D")
        doc.text(x + 2.5, y - 2.5, "ABCDE"[index], 8, "B")


def _alignment_back(doc: _Pdf) -> None:
    options = doc.options
    doc.centred(14, "Alignment test: BACK", 14, "B")
    doc.centred(
        20,
        "Hold the sheet to a light (or pierce each front cross with a pin): the scale values "
        "at the cross",
        8,
    )
    doc.centred(
        24,
        "are the millimetres to ADD to --back-offset X,Y (x: right +, y: down +).",
        8,
    )
    if options.backs.startswith("duplex"):
        dx, dy = options.back_offset
        doc.centred(28, f"Printed with back offset {mm_text(dx)},{mm_text(dy)} mm.", 8)
    for index, (x, y) in enumerate(_alignment_points(doc.size)):
        mx, my = mirror_point(options, doc.size, x, y)
        doc.line(mx - ALIGNMENT_SCALE, my, mx + ALIGNMENT_SCALE, my, width=0.12)
        doc.line(mx, my - ALIGNMENT_SCALE, mx, my + ALIGNMENT_SCALE, width=0.12)
        for mm in range(-ALIGNMENT_SCALE, ALIGNMENT_SCALE + 1):
            tick = 1.6 if mm % 5 == 0 else 0.9
            doc.line(mx + mm, my - tick, mx + mm, my + tick, width=0.08)
            doc.line(mx - tick, my + mm, mx + tick, my + mm, width=0.08)
            if mm and mm % 5 == 0:  # numbered at +-5: x below the scale, y to its right
                doc.text(mx + mm - 1.0, my + 3.8, f"{mm:+d}", 5)
                doc.text(mx + 2.2, my + mm + 0.7, f"{mm:+d}", 5)
        doc.text(mx - 5.0, my - 2.5, "ABCDE"[index], 7, "B")


def _placed(
    doc: _Pdf, jpeg: bytes, x: float, y: float, card_size: tuple[float, float], bleed: float
) -> None:
    width, height = card_size
    doc.pdf.image(
        io.BytesIO(jpeg), x=x - bleed, y=y - bleed, w=width + 2 * bleed, h=height + 2 * bleed
    )


def build_pdf(
    cards: Sequence[ProxyCard],
    options: ProxyOptions,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[bytes, list[PageSpec]]:
    """The PDF, and its pages' plan."""
    pages = plan_pages(cards, options)
    grid = layout(options)
    backs = back_cells(options, grid)
    bleed_px = _bleed_pixels(options)
    distinct = list({(c.set_code, c.document_hash): c for c in cards}.values())
    _prepare_faces(distinct, bleed_px, progress, options.ink_saving)
    doc = _Pdf(options, grid.page_size)
    ticks = list(cut_mark_segments(options, grid))
    current: tuple[tuple[str, str], bytes] | None = None
    for page in pages:
        doc.new_page()
        if page.kind == "instructions":
            _instruction_page(doc, cards, pages)
        elif page.kind == "alignment-front":
            _alignment_front(doc)
        elif page.kind == "alignment-back":
            _alignment_back(doc)
        elif page.kind == "faces":
            for card, (x, y) in zip(page.cards, grid.cells, strict=False):
                key = (card.set_code, card.document_hash)
                if current is None or current[0] != key:
                    # Copies sit side by side: only the face at hand is held in memory.
                    current = (key, face_jpeg(card, bleed=bleed_px, ink_saving=options.ink_saving))
                _placed(doc, current[1], x, y, options.card_size, options.bleed)
            for tick in ticks:
                doc.mark(*tick)
        elif page.kind == "backs":
            back = _back_jpeg(page.deck or "", bleed_px)
            for _, (x, y) in zip(page.cards, backs, strict=False):
                _placed(doc, back, x, y, options.card_size, options.bleed)
    # The images are released before the buffer is copied into bytes: the peak holds two of
    # the three (images, buffer, bytes), not all three.
    buffer = doc.output()
    del doc
    gc.collect()  # an FPDF is a web of cycles: collect it (and its images) now
    content = bytes(buffer)
    del buffer
    return content, pages


@register
class ProxySheetExporter:
    """Printable proxy sheets at true size, with marks, bleed and backs."""

    identifier = "proxies"
    label = "Printable proxy sheets (PDF)"
    content_type = "application/pdf"

    def render(
        self,
        *,
        cards: list[ProxyCard],
        options: ProxyOptions,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[str, str, bytes]:
        content, _ = build_pdf(cards, options, progress)
        return "proxies.pdf", self.content_type, content


# --- the preview ----------------------------------------------------------------------------

SUPERSAMPLE: Final = 4
# The preview's bounds, whatever the paper and the card size: its longest side in pixels (the
# resolution drops below the asked DPI to keep to it), and the pixels of the canvas it is
# drawn on before the reduction (the supersampling drops from 4x towards 1x to keep to it).
# With PROXY_PREVIEW_MAX_CARDS faces at most, one preview stays a fraction of a second of CPU
# and a few tens of MB.
PREVIEW_MAX_SIDE: Final = 1000
PREVIEW_MAX_CANVAS: Final = 8_000_000
PLACEHOLDER_FILL: Final = (238, 234, 226)
PLACEHOLDER_LINE: Final = (150, 142, 130)


def _preview_face(
    card: ProxyCard, size: tuple[int, int], bleed: tuple[int, int], ink_saving: bool = False
) -> Image.Image:
    """The card's face at `size` (its cut rectangle in preview pixels), extended by `bleed`
    pixels each side. Read from the 300-DPI face without bleed (one cached face per card
    whatever the bleed), decoded at a reduced scale by the JPEG decoder itself."""
    with Image.open(io.BytesIO(face_jpeg(card, ink_saving=ink_saving))) as decoded:
        decoded.draft("RGB", size)
        face = decoded.convert("RGB").resize(size, Image.Resampling.LANCZOS)
    return _extend(face, bleed)


def preview_size(page: tuple[float, float], dpi: int) -> tuple[tuple[int, int], int]:
    """(width, height) of the preview in pixels, and its supersampling factor, within
    PREVIEW_MAX_SIDE and PREVIEW_MAX_CANVAS."""
    page_w, page_h = page
    scale = min(dpi / MM_PER_INCH, PREVIEW_MAX_SIDE / max(page_w, page_h))
    out = (max(1, round(page_w * scale)), max(1, round(page_h * scale)))
    factor = SUPERSAMPLE
    while factor > 1 and out[0] * out[1] * factor * factor > PREVIEW_MAX_CANVAS:
        factor -= 1
    return out, factor


def render_preview(
    *,
    cards: list[ProxyCard],
    options: ProxyOptions,
    dpi: int = 60,
    max_faces: int | None = None,
) -> bytes:
    """A PNG of the first page of faces (what follows the optional instruction page), drawn
    with Pillow from the same ``layout()`` and marks as the PDF. Drawn at up to four times the
    resolution and reduced, so thin marks blend as a PDF viewer's anti-aliasing does.

    Bounded whatever it is asked: at most PREVIEW_MAX_SIDE pixels a side, and the first
    ``max_faces`` cards of the page (PROXY_PREVIEW_MAX_CARDS by default) drawn with their
    faces, the others as plain outlines of the same size."""
    if not 10 <= dpi <= 300:
        raise ProxyError(f"preview resolution {dpi} DPI: from 10 to 300")
    if max_faces is None:
        max_faces = settings.PROXY_PREVIEW_MAX_CARDS
    first = next(page for page in plan_pages(cards, options) if page.kind == "faces")
    grid = layout(options)
    page_w, page_h = grid.page_size
    out_size, factor = preview_size(grid.page_size, dpi)
    big = (out_size[0] * factor, out_size[1] * factor)
    sx, sy = big[0] / page_w, big[1] / page_h  # pixels per mm
    image = Image.new("RGB", big, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    card_w, card_h = options.card_size
    bleed = options.bleed
    bleed_px = (round(bleed * sx), round(bleed * sy)) if bleed else (0, 0)
    faces: dict[tuple[str, str], Image.Image] = {}
    for index, (card, (x, y)) in enumerate(zip(first.cards, grid.cells, strict=False)):
        left, top = round(x * sx), round(y * sy)
        size = (max(1, round((x + card_w) * sx) - left), max(1, round((y + card_h) * sy) - top))
        if index >= max_faces:
            draw.rectangle(
                (left, top, left + size[0] - 1, top + size[1] - 1),
                fill=PLACEHOLDER_FILL,
                outline=PLACEHOLDER_LINE,
                width=max(1, factor),
            )
            continue
        key = (card.set_code, card.document_hash)
        face = faces.get(key)
        if face is None or face.size != (size[0] + 2 * bleed_px[0], size[1] + 2 * bleed_px[1]):
            face = faces[key] = _preview_face(card, size, bleed_px, options.ink_saving)
        image.paste(face, (left - bleed_px[0], top - bleed_px[1]))
    for x1, y1, x2, y2 in cut_mark_segments(options, grid):
        for colour, width in (((0, 0, 0), MARK_BLACK_WIDTH), ((255, 255, 255), MARK_WHITE_WIDTH)):
            half_x, half_y = width / 2 * sx, width / 2 * sy
            if x1 == x2:  # vertical
                box_f = (x1 * sx - half_x, y1 * sy, x2 * sx + half_x, y2 * sy)
            else:
                box_f = (x1 * sx, y1 * sy - half_y, x2 * sx, y2 * sy + half_y)
            x0, y0 = round(box_f[0]), round(box_f[1])
            # At least a pixel each way, however coarse the canvas of a large page.
            x1, y1 = max(x0, round(box_f[2]) - 1), max(y0, round(box_f[3]) - 1)
            draw.rectangle((x0, y0, x1, y1), fill=colour)
    preview = image.resize(out_size, Image.Resampling.BOX) if factor > 1 else image
    del image, draw, faces
    buffer = io.BytesIO()
    preview.save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()
