"""Card faces drawn with Pillow: one PNG per card document, at true size and 300 DPI.

The face is a function of the card document, the art it is given, the ink-saving choice and
`face_version()` only (Pillow's bundled font, fixed sizes, no clock), so the same card always
gives the same bytes and a face can be cached by the document hash. `face_version()` is the
layout's RENDERER_VERSION, raised by hand when this module draws differently, and the digest of
the effect language's source (validator.engine.language_source_hash), where the rules text
printed on the face comes from: a change to how an effect is worded draws every face again,
with nothing to raise. (A change elsewhere in the engine, a bot's play or a rule of combat,
leaves the faces as they are.)

The layout follows the game's cards: a title band in the deck's colour, a big badge for a
monster's Level or an item's bonus, the kind and tags, an art box (the card's art, or an
ornament drawn for its kind), the rules text, a headed Bad Stuff panel and a footer with the
Treasures or the Gold. Rules text is fitted to its box: it shrinks down to a minimum size, then
is cut with a visible mark and a warning. Nothing but the frame and the background is drawn
within SAFE_MARGIN of the cut edge.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageDraw, ImageFont, ImageOps, UnidentifiedImageError

from catalog.exports import register
from validator.engine import (
    CardBase,
    CharacterCard,
    CurseCard,
    FollowerCard,
    ItemCard,
    LevelCard,
    MonsterCard,
    MonsterEnhancerCard,
    OneShotCard,
    gold_label,
    language_source_hash,
    rules_sentences,
    slot_label,
)

RENDERER_VERSION = "4"
DPI = 300
WIDTH, HEIGHT = 744, 1039  # 63 x 88 mm at 300 DPI
SAFE_MARGIN = 36  # 3 mm: what a cutter may shave off; only frame and background go there
MARGIN = SAFE_MARGIN  # the name older callers use
STYLES = {
    "door": {"frame": (122, 46, 18), "band": (246, 227, 211)},
    "treasure": {"frame": (122, 90, 0), "band": (251, 239, 196)},
    "": {"frame": (90, 86, 80), "band": (236, 232, 224)},
}
PAPER = (250, 243, 228)  # the face's body, like the game's parchment
WHITE = (255, 255, 255)
INK = (31, 26, 20)
MUTED = (95, 86, 74)
CREAM = (255, 248, 232)
LEVEL_RED = (150, 28, 24)
BONUS_GOLD = (176, 122, 8)
BAD_RED = (128, 24, 20)
BAD_TINT = (248, 226, 218)
TEXT_SIZES = (34, 32, 30, 28, 26, 24, 22)  # shrink down to the last one, then cut
MAX_ART_PIXELS = 16_000_000  # art is checked at upload; this only keeps a bad file harmless

# Layout (pixels on the 744 x 1039 face).
INNER = SAFE_MARGIN + 6  # where panels start
BAND_TOP, BAND_BOTTOM = INNER, INNER + 112
BADGE_RADIUS = 74
BADGE_CENTRE = (WIDTH - INNER - BADGE_RADIUS, BAND_TOP + BADGE_RADIUS + 2)
KIND_Y = BAND_BOTTOM + 12
ART_TOP, ART_BOTTOM = BAND_BOTTOM + 100, BAND_BOTTOM + 380
ART_GROWTH = 220  # the art box's most extra height, taken from text it does not need
FOOTER_TOP = HEIGHT - INNER - 50
TEXT_BOTTOM = FOOTER_TOP - 12


@dataclass
class Face:
    png: bytes
    warnings: list[str] = field(default_factory=list)
    # Every string drawn on the face, in drawing order: what a reader of the face sees (for
    # alt text, and for checking that no placeholder reaches a face).
    texts: list[str] = field(default_factory=list)
    # The drawn picture itself (RGB, true size), for exporters that lay faces out on sheets:
    # decoding `png` again would cost them a tenth of the drawing.
    image: Image.Image | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class _Palette:
    frame: tuple[int, int, int]
    band: tuple[int, int, int]
    paper: tuple[int, int, int]
    tint: tuple[int, int, int]
    ink_saving: bool

    def fill(self, colour: tuple[int, int, int]) -> tuple[int, int, int]:
        """A filled area's colour: white when saving ink (the outline still draws it)."""
        return WHITE if self.ink_saving else colour

    def on(self, colour: tuple[int, int, int]) -> tuple[int, int, int]:
        """Text over a filled area of ``colour``: cream on the colour, dark ink on white."""
        return INK if self.ink_saving else CREAM

    @property
    def line(self) -> int:
        return 3 if self.ink_saving else 6


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _palette(deck: str | None, ink_saving: bool) -> _Palette:
    style = STYLES[deck or ""]
    frame, band = style["frame"], style["band"]
    paper = WHITE if ink_saving else PAPER
    return _Palette(frame, band, paper, _mix(frame, paper, 0.72), ink_saving)


@cache
def face_version() -> str:
    """What every face is drawn by, beside its card: the layout (RENDERER_VERSION) and the
    rules text's code (the first 10 hex digits of the effect language's digest)."""
    return f"{RENDERER_VERSION}-{language_source_hash()[:10]}"


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont)
    return font


def _wrap(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int
) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        line = ""
        for word in words:
            candidate = f"{line} {word}".strip()
            if draw.textlength(candidate, font=font) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def _fit_line(draw: ImageDraw.ImageDraw, text: str, width: int, start: int, least: int) -> int:
    size = start
    while size > least and draw.textlength(text, font=_font(size)) > width:
        size -= 2
    return size


def _bold(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    # Pillow bundles one weight: a thin stroke of the same colour makes it read as bold.
    stroke = max(1, size // 28)
    draw.text(
        xy, text, font=_font(size), fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill
    )


@cache
def card_background(deck: str | None, ink_saving: bool = False) -> Image.Image:
    """The face before anything is drawn on it: the rounded card, its frame in the deck's
    colour (a thin line when saving ink) and the paper. Everything else stays inside
    SAFE_MARGIN. Cached: callers copy it."""
    palette = _palette(deck, ink_saving)
    image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
    draw = ImageDraw.Draw(image)
    if ink_saving:
        draw.rounded_rectangle(
            (6, 6, WIDTH - 7, HEIGHT - 7), radius=36, outline=palette.frame, width=3
        )
    else:
        draw.rounded_rectangle((6, 6, WIDTH - 7, HEIGHT - 7), radius=36, fill=palette.frame)
        draw.rounded_rectangle((24, 24, WIDTH - 25, HEIGHT - 25), radius=22, fill=palette.paper)
    return image


def _kind_label(card: CardBase) -> str:
    words = {
        "one_shot": "One-Shot",
        "go_up_a_level": "Go Up a Level",
        "monster_enhancer": "Monster Enhancer",
        "other_door": "Door",
        "other_treasure": "Treasure",
        "unknown": "Card",
    }
    return words.get(card.kind_name, card.kind_name.replace("_", " ").title())


def _badge(card: CardBase) -> tuple[str, int | None] | None:
    """(label, value) of the card's big badge, None for a card without one."""
    if isinstance(card, MonsterCard):
        return "LEVEL", card.level
    if isinstance(card, ItemCard):
        return ("BONUS", card.bonus) if card.bonus != 0 else None
    if isinstance(card, OneShotCard | FollowerCard):
        return ("BONUS", card.bonus) if card.bonus else None
    return None


def _gold_text(card: CardBase) -> str | None:
    if not isinstance(card, ItemCard | OneShotCard | FollowerCard):
        return None
    if card.gold is None:
        return None if isinstance(card, FollowerCard) else "? Gold"
    return gold_label(card.gold, short=True)


def _count(value: int | None, one: str, many: str) -> str:
    if value is None:
        return f"? {many}"
    return f"{value} {one if value == 1 else many}"


def _draw_title(draw: ImageDraw.ImageDraw, card: CardBase, palette: _Palette, right: int) -> None:
    left = INNER + 20
    width = right - left
    centre_y = (BAND_TOP + BAND_BOTTOM) // 2
    colour = palette.on(palette.frame)
    for size in (54, 50, 46, 42):
        if draw.textlength(card.name, font=_font(size)) <= width:
            _bold(draw, (left, centre_y), card.name, size, colour, anchor="lm")
            return
    for size in (40, 37, 34, 31, 28):
        lines = _wrap(draw, card.name, _font(size), width)
        if len(lines) <= 2 or size == 28:
            break
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
        while draw.textlength(lines[1] + "…", font=_font(size)) > width and " " in lines[1]:
            lines[1] = lines[1].rsplit(" ", 1)[0]
        lines[1] += "…"
    step = int(size * 1.12)
    top = centre_y - step * len(lines) // 2 + step // 2
    for index, line in enumerate(lines):
        _bold(draw, (left, top + index * step), line, size, colour, anchor="lm")


def _draw_badge(
    draw: ImageDraw.ImageDraw,
    label: str,
    value: int | None,
    palette: _Palette,
    colour: tuple[int, int, int],
) -> None:
    cx, cy = BADGE_CENTRE
    r = BADGE_RADIUS
    if palette.ink_saving:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=colour, width=4)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=palette.frame)
        draw.ellipse((cx - r + 6, cy - r + 6, cx + r - 6, cy + r - 6), fill=CREAM)
        draw.ellipse((cx - r + 12, cy - r + 12, cx + r - 12, cy + r - 12), fill=colour)
    text_colour = colour if palette.ink_saving else CREAM
    draw.text((cx, cy - 34), label, font=_font(20), fill=text_colour, anchor="mm")
    number = _badge_number(label, value)
    size = _fit_line(draw, number, 2 * r - 40, 70, 34)
    _bold(draw, (cx, cy + 12), number, size, text_colour, anchor="mm")


def _badge_number(label: str, value: int | None) -> str:
    return "?" if value is None else (f"{value:+d}" if label == "BONUS" else str(value))


def _pill(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    text: str,
    palette: _Palette,
    size: int = 21,
    colour: tuple[int, int, int] | None = None,
) -> int:
    """Draw a small labelled mark at (x, y), its top-left corner; return its width."""
    edge = colour or palette.frame
    width = int(draw.textlength(text, font=_font(size))) + 24
    height = size + 12
    draw.rounded_rectangle(
        (x, y, x + width, y + height),
        radius=height // 2,
        fill=palette.fill(palette.tint if colour is None else WHITE),
        outline=edge,
        width=2,
    )
    draw.text(
        (x + width // 2, y + height // 2),
        text,
        font=_font(size),
        fill=INK if colour is None else edge,
        anchor="mm",
    )
    return width


def _ornament(
    draw: ImageDraw.ImageDraw, card: CardBase, box: tuple[int, int, int, int], palette: _Palette
) -> None:
    """A plain emblem for the card's kind, drawn from shapes (no artwork is copied)."""
    left, top, right, bottom = box
    cx, cy = (left + right) // 2, (top + bottom) // 2
    ink = palette.frame
    soft = palette.tint if not palette.ink_saving else WHITE
    w = 4 if palette.ink_saving else 8

    def shape(points: list[tuple[float, float]]) -> None:
        draw.polygon(points, fill=soft, outline=ink, width=w)

    def shield(half: int, top: int, shoulder: int, tip: int) -> None:
        # A heater shield: flat top, straight sides down to the shoulder, a point below.
        shape(
            [
                (cx - half, cy + top),
                (cx + half, cy + top),
                (cx + half, cy + shoulder),
                (cx, cy + tip),
                (cx - half, cy + shoulder),
            ]
        )

    def star(spikes: int, outer: int, inner: int, centre_y: int) -> list[tuple[float, float]]:
        # The corners of a star with `spikes` points, the first pointing up.
        return [
            (
                cx + (outer if index % 2 == 0 else inner) * math.cos(angle),
                centre_y + (outer if index % 2 == 0 else inner) * math.sin(angle),
            )
            for index in range(2 * spikes)
            for angle in (index * math.pi / spikes - math.pi / 2,)
        ]

    # A ring of small diamonds frames every emblem, like a card's tooling.
    for index in range(12):
        angle = index * math.pi / 6
        px, py = cx + 118 * math.cos(angle) * 1.9, cy + 118 * math.sin(angle) * 0.95
        draw.polygon([(px, py - 9), (px + 9, py), (px, py + 9), (px - 9, py)], fill=ink)
    if isinstance(card, MonsterCard):
        shape([(cx - 70, cy - 30), (cx - 130, cy - 110), (cx - 40, cy - 60)])
        shape([(cx + 70, cy - 30), (cx + 130, cy - 110), (cx + 40, cy - 60)])
        draw.ellipse((cx - 85, cy - 80, cx + 85, cy + 90), fill=soft, outline=ink, width=w)
        shape([(cx - 55, cy - 20), (cx - 12, cy), (cx - 50, cy + 8)])
        shape([(cx + 55, cy - 20), (cx + 12, cy), (cx + 50, cy + 8)])
        for dx in (-36, -12, 12, 36):
            shape([(cx + dx - 10, cy + 40), (cx + dx + 10, cy + 40), (cx + dx, cy + 66)])
    elif isinstance(card, ItemCard):
        # A shield with a sword laid across it, point down to the right.
        shield(80, -90, 5, 95)
        draw.line((cx, cy - 70, cx, cy + 66), fill=ink, width=w)
        draw.line((cx - 62, cy - 22, cx + 62, cy - 22), fill=ink, width=w)

        def turned(x: float, y: float) -> tuple[float, float]:
            angle = -math.pi / 4
            return (
                cx + x * math.cos(angle) - y * math.sin(angle),
                cy + x * math.sin(angle) + y * math.cos(angle),
            )

        shape([turned(*p) for p in ((-12, -96), (12, -96), (12, 100), (0, 128), (-12, 100))])
        shape([turned(*p) for p in ((-52, -108), (52, -108), (52, -94), (-52, -94))])
        shape([turned(*p) for p in ((-8, -146), (8, -146), (8, -108), (-8, -108))])
        px, py = turned(0, -156)
        draw.ellipse((px - 14, py - 14, px + 14, py + 14), fill=soft, outline=ink, width=w)
    elif isinstance(card, CurseCard):
        # A swirl: an Archimedean spiral of three turns.
        points = []
        for step in range(0, 3 * 72 + 1):
            angle = step * math.pi / 36
            radius = 6 + 18 * angle / math.pi
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        draw.line(points, fill=ink, width=w, joint="curve")
    elif isinstance(card, OneShotCard):
        draw.ellipse((cx - 80, cy - 40, cx + 80, cy + 120), fill=soft, outline=ink, width=w)
        draw.rectangle((cx - 24, cy - 110, cx + 24, cy - 30), fill=soft, outline=ink, width=w)
        draw.rectangle((cx - 34, cy - 130, cx + 34, cy - 106), fill=ink)
        draw.line((cx - 60, cy + 40, cx + 60, cy + 40), fill=ink, width=w)
    elif isinstance(card, LevelCard):
        shape(
            [
                (cx, cy - 120),
                (cx + 100, cy),
                (cx + 40, cy),
                (cx + 40, cy + 110),
                (cx - 40, cy + 110),
                (cx - 40, cy),
                (cx - 100, cy),
            ]
        )
    elif isinstance(card, MonsterEnhancerCard):
        shape(star(8, 120, 70, cy))
        draw.rectangle((cx - 8, cy - 40, cx + 8, cy + 40), fill=ink)
        draw.rectangle((cx - 40, cy - 8, cx + 40, cy + 8), fill=ink)
    elif isinstance(card, CharacterCard) and card.kind_name == "race":
        # A bust: a head over shoulders, for the peoples a character may belong to.
        draw.ellipse((cx - 50, cy - 110, cx + 50, cy - 10), fill=soft, outline=ink, width=w)
        draw.chord((cx - 110, cy, cx + 110, cy + 200), 180, 360, fill=soft, outline=ink, width=w)
    elif isinstance(card, FollowerCard):
        # A helmet, for a hireling or an ally who fights beside you.
        draw.chord((cx - 90, cy - 100, cx + 90, cy + 80), 180, 360, fill=soft, outline=ink, width=w)
        draw.rectangle((cx - 90, cy - 10, cx + 90, cy + 20), fill=soft, outline=ink, width=w)
        draw.rectangle((cx - 12, cy - 10, cx + 12, cy + 90), fill=ink)
        draw.line((cx, cy - 100, cx, cy - 140), fill=ink, width=w)
    elif isinstance(card, CharacterCard):
        shield(90, -100, 10, 115)
        draw.polygon(star(5, 56, 24, cy - 5), fill=ink)
    else:
        shape([(cx, cy - 110), (cx + 90, cy), (cx, cy + 110), (cx - 90, cy)])
        draw.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=ink)


def _draw_art(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    card: CardBase,
    art: bytes | None,
    palette: _Palette,
    bottom: int,
) -> str | None:
    """Fill the art box with the art (cropped to fill it) or the kind's ornament; a warning
    when art was given but could not be read."""
    box = (INNER + 10, ART_TOP, WIDTH - INNER - 10, bottom)
    draw.rounded_rectangle(
        box,
        radius=14,
        fill=palette.fill(_mix(palette.band, palette.paper, 0.4)),
        outline=palette.frame,
        width=palette.line // 2 + 1,
    )
    warning = None
    if art is not None:
        try:
            with Image.open(io.BytesIO(art)) as source:
                if source.width * source.height > MAX_ART_PIXELS:
                    raise ValueError("too large")
                picture = ImageOps.fit(
                    source.convert("RGB"),
                    (box[2] - box[0] - 8, box[3] - box[1] - 8),
                    Image.Resampling.LANCZOS,
                )
            image.paste(picture, (box[0] + 4, box[1] + 4))
            return None
        except (OSError, ValueError, UnidentifiedImageError, Image.DecompressionBombError):
            warning = f"{card.name}: its art could not be read; an ornament is drawn instead"
    _ornament(draw, card, box, palette)
    return warning


def _stat_line(card: CardBase, restrictions: list[str]) -> str:
    parts: list[str] = []
    if isinstance(card, ItemCard):
        if card.slot and card.slot != "other":
            parts.append(slot_label(card.slot))
        if card.big:
            parts.append("Big")
    parts += [text.rstrip(".") for text in restrictions]
    return " · ".join(parts)


def _layout_text(
    draw: ImageDraw.ImageDraw, lines: list[str], bad_stuff: list[str], width: int, room: int
) -> tuple[int, list[str], list[str], bool]:
    """(font size, rules lines, Bad Stuff lines, cut) fitting ``room`` pixels of height."""
    for size in TEXT_SIZES:
        font = _font(size)
        rules = _wrap(draw, "\n".join(lines), font, width) if lines else []
        bad = _wrap(draw, " ".join(bad_stuff), font, width - 24) if bad_stuff else []
        if _text_height(size, rules, bad) <= room:
            return size, rules, bad, False
    # The smallest size and still too long: cut the rules, then the Bad Stuff, with a mark.
    mark = "[… text cut: see the card page]"
    while rules and _text_height(size, [*rules, mark], bad) > room:
        rules.pop()
    if _text_height(size, [*rules, mark], bad) > room:
        rules = []
        while bad and _text_height(size, [mark], bad) > room:
            bad.pop()
    return size, [*rules, mark], bad, True


def _line_height(size: int) -> int:
    return int(size * 1.25)


def _text_height(size: int, rules: list[str], bad: list[str]) -> int:
    height = len(rules) * _line_height(size)
    if bad:
        height += (16 if rules else 0) + 44 + len(bad) * _line_height(size) + 14
    return height


def render_face(
    card: CardBase, set_code: str, *, art: bytes | None = None, ink_saving: bool = False
) -> Face:
    """Draw a card's face: true size (63 x 88 mm at 300 DPI), the same bytes for the same
    card, set code, art and ``ink_saving``.

    ``art``: the card's own picture as the bytes of an image file (the caller reads it; the
    renderer never looks anything up), drawn in the art box; without it, an ornament drawn
    for the card's kind. ``ink_saving``: a thin frame, no filled bands or badges (outlines on
    white), for proxies printed at home."""
    palette = _palette(card.deck, ink_saving)
    image = card_background(card.deck, ink_saving).copy()
    draw = ImageDraw.Draw(image)
    warnings: list[str] = []
    text = rules_sentences(card)
    badge = _badge(card)
    texts = [card.name]

    # Title band, with the badge overlapping its right end.
    band = (INNER, BAND_TOP, WIDTH - INNER, BAND_BOTTOM)
    draw.rounded_rectangle(
        band,
        radius=18,
        fill=palette.fill(palette.frame),
        outline=palette.frame,
        width=palette.line // 2 + 1,
    )
    title_right = BADGE_CENTRE[0] - BADGE_RADIUS - 14 if badge else WIDTH - INNER - 20
    _draw_title(draw, card, palette, title_right)
    if badge:
        badge_colour = LEVEL_RED if badge[0] == "LEVEL" else BONUS_GOLD
        _draw_badge(draw, badge[0], badge[1], palette, badge_colour)
        texts.append(f"{badge[0].title()} {_badge_number(*badge)}")

    # Kind line and tags.
    kind_right = (BADGE_CENTRE[0] - BADGE_RADIUS - 10) if badge else WIDTH - INNER - 10
    kind = _kind_label(card)
    size = _fit_line(draw, kind, kind_right - INNER - 14, 34, 24)
    _bold(draw, (INNER + 14, KIND_Y), kind, size, palette.frame)
    texts.append(kind)
    x, y = INNER + 14, KIND_Y + 46
    # The provisional mark first, so that a long row of tags never pushes it off.
    marks: list[tuple[str, tuple[int, int, int] | None]] = []
    if text.provisional:
        marks.append(("provisional", MUTED))
    marks += [(tag.replace("_", " ").replace("-", " ").title(), None) for tag in card.tags]
    for label, colour in marks:
        needed = int(draw.textlength(label, font=_font(21))) + 24
        limit = kind_right if y < BADGE_CENTRE[1] + BADGE_RADIUS else WIDTH - INNER - 10
        if x + needed > limit:
            break
        x += _pill(draw, x, y, label, palette, colour=colour) + 8
        texts.append(label)

    # Slot, Big and who may use it, on one line under the art; the art box grows into the
    # room the text leaves, up to ART_GROWTH.
    stats = _stat_line(card, text.restrictions)
    stats_height = 44 if stats else 0
    text_left, text_width = INNER + 16, TEXT_WIDTH
    room = _text_room(stats)
    size, rules, bad, cut = _layout_text(draw, text.lines, text.bad_stuff, text_width, room)
    spare = room - _text_height(size, rules, bad)
    art_bottom = ART_BOTTOM + max(0, min(ART_GROWTH, spare - 24))
    warning = _draw_art(image, draw, card, art, palette, art_bottom)
    if warning:
        warnings.append(warning)
    top = art_bottom + 12
    if stats:
        size_stats = _fit_line(draw, stats, WIDTH - 2 * INNER - 28, 30, 20)
        _bold(draw, (WIDTH // 2, top + 18), stats, size_stats, palette.frame, anchor="mm")
        texts.append(stats)
        top += stats_height

    if cut:
        warnings.append(_cut_warning(card))
    font, step = _font(size), _line_height(size)
    y = top + 4
    fill = MUTED if text.from_notes else INK
    texts += rules + (["Bad Stuff", *bad] if bad else [])
    for line in rules:
        draw.text((text_left, y), line, font=font, fill=fill)
        y += step
    if bad:
        panel_top = y + (16 if rules else 0)
        panel_bottom = panel_top + 44 + len(bad) * step + 14
        draw.rounded_rectangle(
            (INNER + 6, panel_top, WIDTH - INNER - 6, panel_bottom),
            radius=12,
            fill=palette.fill(BAD_TINT),
            outline=BAD_RED,
            width=palette.line // 2,
        )
        draw.rounded_rectangle(
            (INNER + 6, panel_top, WIDTH - INNER - 6, panel_top + 40),
            radius=12,
            fill=palette.fill(BAD_RED),
            outline=BAD_RED,
            width=palette.line // 2,
            corners=(True, True, False, False),
        )
        _bold(
            draw,
            (text_left + 4, panel_top + 20),
            "Bad Stuff",
            26,
            BAD_RED if ink_saving else CREAM,
            anchor="lm",
        )
        y = panel_top + 50
        for line in bad:
            draw.text((text_left + 12, y), line, font=font, fill=INK)
            y += step

    # Footer: what a monster is worth, or an item's Gold; the set code small.
    draw.line((INNER + 10, FOOTER_TOP, WIDTH - INNER - 10, FOOTER_TOP), fill=palette.frame, width=2)
    middle = FOOTER_TOP + 26
    left_text, right_text = "", _gold_text(card) or ""
    if isinstance(card, MonsterCard):
        left_text = _count(card.treasures, "Treasure", "Treasures")
        gained = card.levels_gained
        right_text = (
            "+? levels" if gained is None else f"+{gained} level{'s' if gained != 1 else ''}"
        )
    if left_text:
        _bold(draw, (INNER + 14, middle), left_text, 30, palette.frame, anchor="lm")
    if right_text:
        _bold(draw, (WIDTH - INNER - 14, middle), right_text, 30, palette.frame, anchor="rm")
    code_x, code_anchor = (WIDTH // 2, "mm") if left_text else (INNER + 14, "lm")
    draw.text((code_x, middle), set_code, font=_font(20), fill=MUTED, anchor=code_anchor)
    texts += [t for t in (left_text, right_text) if t] + [set_code]

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(DPI, DPI), optimize=False)
    return Face(buffer.getvalue(), warnings, texts, image)


TEXT_WIDTH = WIDTH - 2 * INNER - 32


def _text_room(stats: str) -> int:
    """The height the rules text and Bad Stuff may fill under the art box and stat line."""
    return TEXT_BOTTOM - (ART_BOTTOM + 12 + (44 if stats else 0)) - 8


def _cut_warning(card: CardBase) -> str:
    return f"{card.name}: rules text cut to fit the face"


def face_warnings(card: CardBase) -> list[str]:
    """The warnings `render_face` gives for a card drawn without art, found by laying out
    its text only (a millisecond or two instead of a face): for a face drawn earlier and kept
    as a PNG, which no longer carries them."""
    text = rules_sentences(card)
    room = _text_room(_stat_line(card, text.restrictions))
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # only measures text
    cut = _layout_text(draw, text.lines, text.bad_stuff, TEXT_WIDTH, room)[3]
    return [_cut_warning(card)] if cut else []


@register
class CardFaceExporter:
    """One card's face as a PNG at true size."""

    identifier = "card-face"
    label = "Card face (PNG, 300 DPI)"
    content_type = "image/png"

    def render(
        self, *, card: CardBase, set_code: str, slug: str, art: bytes | None = None
    ) -> tuple[str, str, bytes]:
        """`art`: the card's own picture, read by the caller (see `render_face`)."""
        return f"{slug}.png", self.content_type, render_face(card, set_code, art=art).png


def _font_size_for(draw: ImageDraw.ImageDraw, text: str, width: int, start: int) -> int:
    size = start
    while size > 20 and draw.textlength(text, font=_font(size)) > width:
        size -= 4
    return size


@cache
def render_back(deck: str) -> Image.Image:
    """The back of a Door or Treasure card, at the faces' size and in their deck's colours: a
    frame in the deck's colour around a panel in its band colour, an emblem (a door, a pile of
    coins) and the deck's name. Cached: callers must not change the image."""
    style = STYLES[deck]
    frame, band = style["frame"], style["band"]
    # The faces' outline: white corners around a rounded card, here filled with the frame colour.
    image = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, WIDTH - 7, HEIGHT - 7), radius=36, fill=frame)
    inset = 40
    draw.rounded_rectangle(
        (inset, inset, WIDTH - 1 - inset, HEIGHT - 1 - inset), radius=32, fill=band
    )
    draw.rounded_rectangle(
        (inset + 18, inset + 18, WIDTH - 1 - inset - 18, HEIGHT - 1 - inset - 18),
        radius=24,
        outline=frame,
        width=6,
    )
    centre_x, emblem_top = WIDTH // 2, 250
    if deck == "door":
        left, right, bottom, line = centre_x - 110, centre_x + 110, emblem_top + 360, 14
        arch_bottom = emblem_top + 110
        draw.arc((left, emblem_top, right, emblem_top + 220), 180, 360, fill=frame, width=line)
        draw.rectangle((left, arch_bottom, left + line - 1, bottom), fill=frame)
        draw.rectangle((right - line + 1, arch_bottom, right, bottom), fill=frame)
        draw.rectangle((left, bottom - line + 1, right, bottom), fill=frame)
        draw.ellipse((right - 60, bottom - 200, right - 34, bottom - 174), fill=frame)
    else:
        for index, (dx, dy) in enumerate(((-95, 250), (95, 250), (0, 175), (0, 40))):
            cx, cy = centre_x + dx, emblem_top + dy
            radius = 95 if index < 3 else 80
            draw.ellipse(
                (cx - radius, cy - radius, cx + radius, cy + radius),
                fill=band,
                outline=frame,
                width=12,
            )
            inner = radius - 28
            draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), outline=frame, width=5)
    word = deck.upper()
    size = _font_size_for(draw, word, WIDTH - 2 * inset - 120, 150)
    draw.text(
        (centre_x, HEIGHT - 250),
        word,
        font=_font(size),
        fill=frame,
        anchor="mm",
        stroke_width=3,
        stroke_fill=frame,
    )
    return image
