"""Card faces drawn with Pillow: one PNG per card document, at true size and 300 DPI.

The face is a function of the card document and RENDERER_VERSION only (Pillow's bundled font,
fixed sizes, no clock), so the same card always gives the same bytes and a face can be cached
by the document hash. Rules text is fitted to its box: it shrinks down to a minimum size, then
is cut with a visible mark and a warning.
"""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from catalog.exports import register
from validator.engine import CardBase, render_lines, slot_label

RENDERER_VERSION = "1"
DPI = 300
WIDTH, HEIGHT = 744, 1039  # 63 x 88 mm at 300 DPI
MARGIN = 36
STYLES = {
    "door": {"frame": (122, 46, 18), "band": (246, 227, 211)},
    "treasure": {"frame": (122, 90, 0), "band": (251, 239, 196)},
    "": {"frame": (90, 86, 80), "band": (236, 232, 224)},
}
INK = (31, 26, 20)
MUTED = (95, 86, 74)
TEXT_SIZES = (34, 31, 28, 25, 22)  # shrink down to the last one, then cut


@dataclass
class Face:
    png: bytes
    warnings: list[str] = field(default_factory=list)


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


def _stats_line(card: CardBase) -> str:
    parts: list[str] = []
    for label, attr in (("Level", "level"), ("Treasures", "treasures"), ("Bonus", "bonus")):
        value = getattr(card, attr, None)
        if isinstance(value, int) and (attr != "bonus" or value):
            parts.append(f"{label} {value:+d}" if attr == "bonus" else f"{label} {value}")
    slot = getattr(card, "slot", None)
    if slot:
        parts.append(slot_label(slot))
    if getattr(card, "big", False):
        parts.append("Big")
    gold = getattr(card, "gold", None)
    if isinstance(gold, int):
        parts.append("No Value" if gold == 0 else f"{gold} Gold")
    return " · ".join(parts)


def render_face(card: CardBase, set_code: str) -> Face:
    """Draw a card's face."""
    style = STYLES[card.deck or ""]
    image = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (6, 6, WIDTH - 7, HEIGHT - 7), radius=36, outline=style["frame"], width=22
    )
    kind_line = f"{(card.deck or 'no deck').title()} · {card.kind_name.replace('_', ' ').title()}"
    draw.rectangle((MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + 48), fill=style["band"])
    draw.text(
        (WIDTH // 2, MARGIN + 24), kind_line, font=_font(26), fill=style["frame"], anchor="mm"
    )
    title_font = _font(46)
    title_lines = _wrap(draw, card.name, title_font, WIDTH - 2 * MARGIN - 20)[:2]
    y = MARGIN + 70
    for line in title_lines:
        draw.text((WIDTH // 2, y), line, font=title_font, fill=INK, anchor="ma")
        y += 54
    stats = _stats_line(card)
    if stats:
        draw.text((WIDTH // 2, y + 6), stats, font=_font(30), fill=MUTED, anchor="ma")
        y += 50
    draw.line((MARGIN + 20, y + 10, WIDTH - MARGIN - 20, y + 10), fill=style["frame"], width=3)
    top, bottom = y + 28, HEIGHT - MARGIN - 70
    warnings: list[str] = []
    text = "\n".join(render_lines(card)) or "(no rules text)"
    for size in TEXT_SIZES:
        font = _font(size)
        lines = _wrap(draw, text, font, WIDTH - 2 * MARGIN - 24)
        height = int(size * 1.25)
        if len(lines) * height <= bottom - top or size == TEXT_SIZES[-1]:
            break
    fits = (bottom - top) // height
    if len(lines) > fits:
        lines = [*lines[: max(0, fits - 1)], "[... text cut: see the card page]"]
        warnings.append(f"{card.name}: rules text cut to fit the face")
    for index, line in enumerate(lines):
        draw.text((MARGIN + 12, top + index * height), line, font=font, fill=INK)
    footer = " ".join(card.tags) if card.tags else ""
    draw.text(
        (MARGIN + 12, HEIGHT - MARGIN - 50),
        textwrap.shorten(footer, 44),
        font=_font(22),
        fill=MUTED,
    )
    draw.text(
        (WIDTH - MARGIN - 12, HEIGHT - MARGIN - 50),
        set_code,
        font=_font(22),
        fill=MUTED,
        anchor="ra",
    )
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(DPI, DPI), optimize=False)
    return Face(buffer.getvalue(), warnings)


@register
class CardFaceExporter:
    """One card's face as a PNG at true size."""

    identifier = "card-face"
    label = "Card face (PNG, 300 DPI)"
    content_type = "image/png"

    def render(self, card: CardBase, *, set_code: str, slug: str) -> tuple[str, str, bytes]:
        return f"{slug}.png", self.content_type, render_face(card, set_code).png


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
