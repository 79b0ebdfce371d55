"""The geometry of a proxy sheet: paper, card size, bleed, gutters, the grid, the pages.

Pure layout, in millimetres from the page's top-left corner; prints/proxies.py draws it (the
PDF and its preview) and explains the choices.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal

from validator.engine import nearest_word

PAPERS: Final[dict[str, tuple[float, float]]] = {
    "a4": (210, 297),
    "letter": (215.9, 279.4),
    "a3": (297, 420),
}  # mm, portrait
CARD_SIZES: Final[dict[str, tuple[float, float]]] = {"poker": (63, 88), "munchkin": (63, 88)}
ORIENTATIONS: Final = ("portrait", "landscape")
CUT_MARKS: Final = ("margin", "lines", "none")
BACKS: Final = ("none", "pages", "duplex-long", "duplex-short")
DECK_ORDER: Final[dict[str | None, int]] = {"door": 0, "treasure": 1, None: 2}
MAX_BLEED: Final = 3.0
MAX_BACK_OFFSET: Final = 20.0
MIN_SIDE, MAX_SIDE = 10.0, 1500.0  # mm: the smallest card, the largest paper

MM_PER_INCH: Final = 25.4
JPEG_QUALITY: Final = 90
# A mark's two strokes (mm): the black one under, the white one over it.
MARK_BLACK_WIDTH: Final = 0.35
MARK_WHITE_WIDTH: Final = 0.12
TICK_LENGTH: Final = 5.0  # mm, a margin tick
TICK_GAP: Final = 1.0  # mm between the block's outer edge (bleed included) and a tick
RULER_LENGTH: Final = 50.0
# The creation date written in every PDF: the same cards and options give the same bytes.
PDF_DATE: Final = datetime(2000, 1, 1, tzinfo=UTC)
INSTRUCTION_TEXT: Final = "Print at 100% / Actual size; do not scale or fit to page"

Point = tuple[float, float]


class ProxyError(ValueError):
    """A proxy sheet that cannot be made as asked; the message says what to change."""


_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*[xX\u00d7*]\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:mm)?\s*$")


def parse_size(text: str, *, what: str) -> tuple[float, float]:
    """A "WxH" size in millimetres: "63x88", "63.5x88.9", "210 x 297" (an "mm" may follow)."""
    match = _SIZE.match(text or "")
    if not match:
        raise ProxyError(
            f"{what} {text!r} is not a size: write width x height in millimetres, e.g. 63x88"
        )
    width, height = float(match.group(1)), float(match.group(2))
    if width <= 0 or height <= 0:
        raise ProxyError(f"{what} {text!r}: both sides must be more than 0 mm")
    return width, height


def mm_text(value: float) -> str:
    return f"{value:g}"


def size_text(size: tuple[float, float]) -> str:
    return f"{mm_text(size[0])} x {mm_text(size[1])} mm"


@dataclass(frozen=True)
class ProxyOptions:
    """How to lay out the sheets (every length in millimetres)."""

    paper: str = "a4"
    paper_size: tuple[float, float] | None = None  # custom paper (paper="custom"), portrait
    orientation: str = "portrait"
    card_size: tuple[float, float] = CARD_SIZES["munchkin"]
    bleed: float = 0.0
    gutter: float = 0.0
    margin: float = 5.0
    cut_marks: str = "margin"  # margin | lines | none
    backs: str = "none"  # none | pages | duplex-long | duplex-short
    back_offset: tuple[float, float] = (0.0, 0.0)
    instructions: bool = True  # the first page: print at 100% + 50 mm rulers
    alignment_page: bool = False
    ink_saving: bool = False  # faces with a thin frame and no filled bands or badges

    @property
    def paper_label(self) -> str:
        name = "custom" if self.paper == "custom" else self.paper.upper()
        if self.paper == "letter":
            name = "Letter"
        return f"{name} {self.orientation}"

    def page_size(self) -> tuple[float, float]:
        """(width, height) of the page in mm, turned for the orientation."""
        if self.paper == "custom":
            if self.paper_size is None:
                raise ProxyError("a custom paper needs its size, e.g. --paper-size 200x280")
            width, height = self.paper_size
        elif self.paper in PAPERS:
            width, height = PAPERS[self.paper]
        else:
            hint = nearest_word(self.paper, [*PAPERS, "custom"])
            raise ProxyError(
                f"unknown paper {self.paper!r}"
                + (f"; did you mean {hint!r}?" if hint else "")
                + f" (choose from {', '.join([*PAPERS, 'custom'])})"
            )
        short, long = sorted((width, height))
        return (long, short) if self.orientation == "landscape" else (short, long)

    def check(self) -> None:
        """Refuse every option that cannot make a sheet, with what to change."""
        for name, word, allowed in (
            ("orientation", self.orientation, ORIENTATIONS),
            ("cut marks", self.cut_marks, CUT_MARKS),
            ("backs", self.backs, BACKS),
        ):
            if word not in allowed:
                hint = nearest_word(word, allowed)
                raise ProxyError(
                    f"unknown {name} {word!r}"
                    + (f"; did you mean {hint!r}?" if hint else "")
                    + f" (choose from {', '.join(allowed)})"
                )
        if self.paper != "custom" and self.paper_size is not None:
            raise ProxyError("a paper size is given only with paper 'custom'")
        if self.paper == "custom" and self.paper_size is not None:
            for side in self.paper_size:
                if not (MIN_SIDE <= side <= MAX_SIDE):
                    raise ProxyError(
                        f"paper size {size_text(self.paper_size)}: each side must be "
                        f"{mm_text(MIN_SIDE)} to {mm_text(MAX_SIDE)} mm"
                    )
        page = self.page_size()
        for side in self.card_size:
            if not (math.isfinite(side) and side >= MIN_SIDE):
                raise ProxyError(
                    f"card size {size_text(self.card_size)}: each side must be at least "
                    f"{mm_text(MIN_SIDE)} mm"
                )
        if not (math.isfinite(self.bleed) and 0 <= self.bleed <= MAX_BLEED):
            raise ProxyError(
                f"bleed {mm_text(self.bleed)} mm is out of range: from 0 to {mm_text(MAX_BLEED)} mm"
            )
        for name, value in (("gutter", self.gutter), ("margin", self.margin)):
            if not (math.isfinite(value) and value >= 0):
                raise ProxyError(f"{name} {mm_text(value)} mm: it cannot be negative")
        for shift in self.back_offset:
            if not (math.isfinite(shift) and abs(shift) <= MAX_BACK_OFFSET):
                x_text, y_text = (mm_text(value) for value in self.back_offset)
                limit = mm_text(MAX_BACK_OFFSET)
                raise ProxyError(
                    f"back offset {x_text},{y_text} mm: "
                    f"each must be between -{limit} and {limit} mm"
                )
        if self.alignment_page and self.backs == "none":
            raise ProxyError(
                "the alignment page measures the backs' offset: ask for backs "
                "(pages, duplex-long or duplex-short) with it"
            )
        width, height = self.card_size
        room = (page[0] - 2 * self.margin, page[1] - 2 * self.margin)
        need = (width + 2 * self.bleed, height + 2 * self.bleed)
        if need[0] > room[0] + 1e-9 or need[1] > room[1] + 1e-9:
            with_bleed = f" with {mm_text(self.bleed)} mm bleed" if self.bleed else ""
            raise ProxyError(
                f"a {size_text(self.card_size)} card{with_bleed} "
                f"({size_text(need)}) does not fit on {self.paper_label} paper "
                f"({size_text(page)}) inside {mm_text(self.margin)} mm margins "
                f"(room for {size_text((max(room[0], 0), max(room[1], 0)))})"
            )


@dataclass(frozen=True)
class ProxyCard:
    """One distinct card to print, with how many copies."""

    set_code: str
    name: str
    deck: str | None
    copies: int
    document: dict[str, Any]
    document_hash: str
    art: str = ""  # the uploaded art's file name on the media storage, "" for none


@dataclass(frozen=True)
class Layout:
    """The grid of one page. ``cells``: the top-left corner of each card's cut rectangle, in mm
    from the page's top-left corner, in fill order (left to right, then top to bottom)."""

    page_size: tuple[float, float]
    columns: int
    rows: int
    cells: list[tuple[float, float]]

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def _fit(room: float, cell: float, gutter: float) -> int:
    # n cells and n - 1 gutters fit when n * cell + (n - 1) * gutter <= room.
    return max(0, math.floor((room + gutter) / (cell + gutter) + 1e-9))


def layout(options: ProxyOptions) -> Layout:
    """The grid of cards on a page of faces: see the module's docstring."""
    options.check()
    page_w, page_h = options.page_size()
    card_w, card_h = options.card_size
    bleed, gutter = options.bleed, options.gutter
    cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
    columns = _fit(page_w - 2 * options.margin, cell_w, gutter)
    rows = _fit(page_h - 2 * options.margin, cell_h, gutter)
    block_w = columns * cell_w + (columns - 1) * gutter
    block_h = rows * cell_h + (rows - 1) * gutter
    left, top = (page_w - block_w) / 2, (page_h - block_h) / 2
    cells = [
        (left + bleed + column * (cell_w + gutter), top + bleed + row * (cell_h + gutter))
        for row in range(rows)
        for column in range(columns)
    ]
    return Layout((page_w, page_h), columns, rows, cells)


def _mirrors_x(options: ProxyOptions, page_size: tuple[float, float]) -> bool:
    """Whether the back of a sheet is the front mirrored left-right (True) or top-bottom."""
    portrait = page_size[0] <= page_size[1]
    long_edge = options.backs in ("pages", "duplex-long")
    # A portrait page's long edge is vertical: turning the sheet over it mirrors x.
    return portrait == long_edge


def back_cells(options: ProxyOptions, grid: Layout | None = None) -> list[tuple[float, float]]:
    """The top-left of each card's cut rectangle on a back page, in the faces' fill order: cell
    i of the back is behind cell i of the front once the sheet is turned over (mirrored
    across the flip's axis), moved by ``back_offset`` for duplex printing."""
    grid = grid or layout(options)
    page_w, page_h = grid.page_size
    card_w, card_h = options.card_size
    dx, dy = options.back_offset if options.backs.startswith("duplex") else (0.0, 0.0)
    if _mirrors_x(options, grid.page_size):
        return [(page_w - x - card_w + dx, y + dy) for x, y in grid.cells]
    return [(x + dx, page_h - y - card_h + dy) for x, y in grid.cells]


def mirror_point(options: ProxyOptions, page: tuple[float, float], x: float, y: float) -> Point:
    dx, dy = options.back_offset if options.backs.startswith("duplex") else (0.0, 0.0)
    if _mirrors_x(options, page):
        return page[0] - x + dx, y + dy
    return x + dx, page[1] - y + dy


# --- pages ----------------------------------------------------------------------------------

PageKind = Literal["instructions", "blank", "alignment-front", "alignment-back", "faces", "backs"]


@dataclass(frozen=True)
class PageSpec:
    """One page of the PDF: what it is, its deck (face and back pages) and its cards in fill
    order (one entry per copy)."""

    kind: PageKind
    deck: str | None = None
    cards: tuple[ProxyCard, ...] = field(default=())


def _ordered(cards: Sequence[ProxyCard]) -> list[ProxyCard]:
    return sorted(cards, key=lambda c: (DECK_ORDER.get(c.deck, 2), c.set_code, c.name))


def plan_pages(cards: Sequence[ProxyCard], options: ProxyOptions) -> list[PageSpec]:
    """Every page of the PDF, in order (see the module's docstring)."""
    options.check()
    if not cards:
        raise ProxyError("no cards to print: the selection is empty")
    for card in cards:
        if card.copies < 1:
            raise ProxyError(f"{card.name} ({card.set_code}): copies must be at least 1")
    per_page = layout(options).per_page
    with_backs = options.backs != "none"
    pages: list[PageSpec] = []
    if options.instructions:
        pages.append(PageSpec("instructions"))
        if with_backs:
            pages.append(PageSpec("blank"))
    if options.alignment_page:
        pages += [PageSpec("alignment-front"), PageSpec("alignment-back")]
    for deck in ("door", "treasure", None):
        copies = [c for c in _ordered(cards) if c.deck == deck for _ in range(c.copies)]
        for start in range(0, len(copies), per_page):
            chunk = tuple(copies[start : start + per_page])
            pages.append(PageSpec("faces", deck, chunk))
            if with_backs:
                pages.append(PageSpec("backs", deck, chunk) if deck else PageSpec("blank"))
    return pages


def cut_mark_segments(
    options: ProxyOptions, grid: Layout
) -> Iterator[tuple[float, float, float, float]]:
    """The cut marks of a face page, as line segments (x1, y1, x2, y2) in mm."""
    if options.cut_marks == "none" or not grid.cells:
        return
    page_w, page_h = grid.page_size
    card_w, card_h = options.card_size
    xs = sorted({round(v, 6) for x, _ in grid.cells for v in (x, x + card_w)})
    ys = sorted({round(v, 6) for _, y in grid.cells for v in (y, y + card_h)})
    if options.cut_marks == "lines":
        for x in xs:
            yield x, 0.0, x, page_h
        for y in ys:
            yield 0.0, y, page_w, y
        return
    bleed = options.bleed
    left, right = xs[0] - bleed, xs[-1] + bleed
    top, bottom = ys[0] - bleed, ys[-1] + bleed
    for x in xs:
        if top - TICK_GAP > 0.5:
            yield x, max(0.0, top - TICK_GAP - TICK_LENGTH), x, top - TICK_GAP
        if page_h - bottom - TICK_GAP > 0.5:
            yield x, bottom + TICK_GAP, x, min(page_h, bottom + TICK_GAP + TICK_LENGTH)
    for y in ys:
        if left - TICK_GAP > 0.5:
            yield max(0.0, left - TICK_GAP - TICK_LENGTH), y, left - TICK_GAP, y
        if page_w - right - TICK_GAP > 0.5:
            yield right + TICK_GAP, y, min(page_w, right + TICK_GAP + TICK_LENGTH), y
