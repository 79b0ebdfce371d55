"""A pack as a Tabletop Simulator saved object: face sheets, backs and the deck JSON, in a zip.

Tabletop Simulator (TTS) draws a custom deck from a *sheet*: one image holding a grid of card
faces, at most 10 columns by 7 rows. A saved object is a JSON file (the same shape as a save
game, its outer fields left empty) whose ``ObjectStates`` hold the objects to spawn; a custom
deck is a ``DeckCustom`` object whose ``CustomDeck`` maps a sheet number to the sheet's images
and grid, and whose ``ContainedObjects`` are its ``Card`` objects, each with a ``CardID`` of
sheet number * 100 + the card's slot on that sheet (counted from 0, left to right, top to
bottom). ``DeckIDs`` lists the same ids in deck order.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import textwrap
import zipfile
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, Literal, TypedDict

from django.utils.text import slugify
from PIL import Image

from catalog.exports import ImageHost, LinkedImage, Rendered, register
from prints.faces import (
    HEIGHT,
    RENDERER_VERSION,
    WIDTH,
    face_warnings,
    render_back,
    render_face,
)
from validator.engine import CardBase, PackDocument, parse_pack, render_text, unknown_stats

DeckName = Literal["door", "treasure"]
UrlMaker = Callable[[str], str]
# A face drawn earlier: (set code, card) -> the PNG `render_face` gives for that card drawn
# without art, or None when there is none (the exporter then draws it).
FaceSource = Callable[[str, CardBase], bytes | None]
# Called after each face is laid out: (faces done, faces in all).
Progress = Callable[[int, int], None]
DECKS: Final[tuple[DeckName, ...]] = ("door", "treasure")

MAX_COLUMNS, MAX_ROWS = 10, 7  # the largest grid TTS reads from one sheet
MAX_SIDE = 4096  # pixels: the largest sheet side TTS is sure to load on every graphics card
# And at most 16 million pixels, the site's own limit for decoding an image (ART_MAX_PIXELS's
# default), so that Pillow here opens a sheet without a decompression-bomb warning.
MAX_PIXELS = 16_000_000


def _cell_size() -> tuple[int, int]:
    """The largest cell, the face's aspect ratio kept, whose full 10 x 7 grid fits the limits."""
    width = MAX_SIDE // MAX_COLUMNS
    while True:
        height = round(width * HEIGHT / WIDTH)
        sheet_width, sheet_height = width * MAX_COLUMNS, height * MAX_ROWS
        if sheet_height <= MAX_SIDE and sheet_width * sheet_height <= MAX_PIXELS:
            return width, height
        width -= 1


# 404 x 564 px: a full sheet is 4040 x 3948 px (15.9 million pixels).
CELL_WIDTH, CELL_HEIGHT = _cell_size()
# The last slot of a sheet holds the image TTS shows for a card hidden in a hand.
CARDS_PER_SHEET: Final = MAX_COLUMNS * MAX_ROWS - 1
JPEG_QUALITY: Final = 90
CARD_SHAPE: Final = 0  # CustomDeck "Type": 0 is TTS's rounded rectangle, the playing-card shape
# Fixed zip timestamps (the earliest a zip can hold): the same pack gives the same bytes.
ZIP_DATE: Final = (1980, 1, 1, 0, 0, 0)
DECK_POSITIONS: Final[dict[DeckName, float]] = {"door": -2.0, "treasure": 2.0}


@dataclass(frozen=True)
class _Entry:
    """One distinct card of a deck, with the copies the pack plays."""

    set_code: str
    card: CardBase
    copies: int


@dataclass
class _Sheet:
    """One face sheet: its TTS deck number (the CustomDeck key), file and grid."""

    number: int
    filename: str
    entries: list[_Entry]
    columns: int
    rows: int

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1


@dataclass
class _Deck:
    name: DeckName
    entries: list[_Entry]
    sheets: list[_Sheet] = field(default_factory=list)

    @property
    def back_filename(self) -> str:
        return f"{self.name}-back.jpg"

    @property
    def copies(self) -> int:
        return sum(entry.copies for entry in self.entries)


class UnknownStats(TypedDict):
    """A card exported although some of its stats are not known yet
    (validator.engine.unknown_stats): its face shows "?" or "unknown" for each of `stats`
    (the card object's field names: ``level``, ``treasures``, ``bonus``, ``slot``, ``gold``,
    ``rank``)."""

    name: str
    set: str
    deck: str
    stats: list[str]


class LeftOut(TypedDict):
    """A card of the pack that the export does not hold, and why."""

    name: str
    set: str
    why: str


class TtsReport(TypedDict):
    """What an export holds that its user should know of (`export_report`): the cards
    exported with stats not known yet, in deck-list order (the Door deck's, then the
    Treasure deck's), and the cards of the pack left out, in the pack's set order."""

    unknown_stats: list[UnknownStats]
    left_out: list[LeftOut]


# A card whose deck is null by nature, dealt apart from both decks (SpongeBob's Role cards).
APART_KINDS: Final[frozenset[str]] = frozenset({"role"})


def left_out_why(card: CardBase) -> str:
    """Why the export leaves out a card of the pack that no deck list names."""
    if card.deck is None and card.kind_name in APART_KINDS:
        return (
            f"in neither deck: a {_title(card.kind_name)} card, dealt to a player apart from "
            "the Door and Treasure decks"
        )
    if card.deck is None:
        return "in neither deck: which deck it belongs to (Door or Treasure) is not known yet"
    return f"not in the pack's {card.deck.title()} deck list"


def report_of(pack: PackDocument, decks: list[_Deck]) -> TtsReport:
    """The report of an export of `pack` laid out as `decks` (the data the zip is made of)."""
    unknown: list[UnknownStats] = []
    for deck in decks:
        for entry in deck.entries:
            labels = unknown_stats(entry.card)
            if labels:
                unknown.append(
                    {
                        "name": entry.card.name,
                        "set": entry.set_code,
                        "deck": deck.name,
                        "stats": [label.lower() for label in labels],
                    }
                )
    left_out: list[LeftOut] = [
        {"name": card.name, "set": set_code, "why": left_out_why(card)}
        for set_code, card in pack.outside_decks()
    ]
    return {"unknown_stats": unknown, "left_out": left_out}


def export_report(document: Mapping[str, Any] | PackDocument) -> TtsReport:
    """The report of a Tabletop Simulator export of `document` (a pack document as stored, or
    already parsed): the same pure function of the pack the exporter writes into the zip's
    README, for the callers that show it (the export's page and API object, the command).
    Nothing is drawn or queried."""
    pack = _parsed(document)
    return report_of(pack, _decks(pack))


def _parsed(document: Mapping[str, Any] | PackDocument) -> PackDocument:
    return document if isinstance(document, PackDocument) else parse_pack(dict(document))


def sheet_grid(cards: int) -> tuple[int, int]:
    """(columns, rows) of a sheet holding `cards` faces plus the hidden slot: the full 10 x 7
    grid for a full sheet, otherwise a smaller, squarer one (at least 2 x 2) so that a short
    last sheet is not a mostly blank 4096-pixel image."""
    if not 1 <= cards <= CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {CARDS_PER_SHEET} cards, not {cards}")
    slots = cards + 1
    rows = max(2, math.ceil(slots / MAX_COLUMNS))
    columns = max(2, math.ceil(slots / rows))
    return columns, rows


def _jpeg(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return buffer.getvalue()


# How a face is scaled down to its cell (1.84 times smaller): an average over the area each
# cell pixel covers, sharp enough for the rules text at this size. It costs 5 ms a face where
# bicubic costs 12, and a face drawn ahead is only 10 ms more to decode: most of a warm
# export's time (measured on the core set's faces).
CELL_RESAMPLE: Final = Image.Resampling.BOX


def _scaled(image: Image.Image) -> Image.Image:
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    return rgb.resize((CELL_WIDTH, CELL_HEIGHT), CELL_RESAMPLE)


def _cell(entry: _Entry, faces: FaceSource | None) -> tuple[Image.Image, list[str]]:
    """A card's face scaled down to one sheet cell: the one `faces` has drawn already, else
    drawn now (once, whatever its copies). Either way the same pixels and warnings."""
    png = faces(entry.set_code, entry.card) if faces is not None else None
    if png is not None:
        with Image.open(io.BytesIO(png)) as decoded:
            return _scaled(decoded), face_warnings(entry.card)
    face = render_face(entry.card, entry.set_code)
    if face.image is None:  # pragma: no cover - render_face always hands its image over
        raise RuntimeError(f"the face of {entry.card.name} came without its image")
    return _scaled(face.image), face.warnings


def _workers() -> int:
    # Drawing a face is mostly PNG encoding and decoding, which Pillow does without the GIL.
    return max(1, min(4, os.cpu_count() or 1))


def _title(kind: str) -> str:
    return kind.replace("_", " ").title()


def card_description(set_code: str, card: CardBase) -> str:
    """A card's TTS description: where it comes from, its kind and its rules text (and its
    notes, which hold the text, when the card is not fully encoded)."""
    text = render_text(card) or "(no rules text)"
    description = f"{set_code} · {_title(card.kind_name)}\n{text}"
    if card.encoding.status != "full" and card.notes:
        description += f"\nCard text (not fully encoded): {card.notes}"
    return description


@register
class TabletopSimulatorExporter:
    """A pack as a Tabletop Simulator saved object, in a zip:

    * ``door-sheet-N.jpg`` / ``treasure-sheet-N.jpg``: the faces of each deck's distinct cards
      (each drawn once by ``render_face``, whatever its copies), in the pack's deck-list order,
      on sheets of at most 10 x 7 cells. Each face is scaled down to 404 x 564 px, its 744 x
      1039 aspect ratio kept, so that a full sheet (4040 x 3948 px) is at most 4096 px a side
      and under 16 million pixels (the site's limit for decoding an image). TTS shows the last
      cell of a sheet for a card hidden in someone's hand, so a sheet holds at most 69 faces and
      its last cell holds the back. A sheet with fewer faces gets a smaller grid (at least 2 x
      2, which every TTS version reads). RGB JPEG at quality 90: TTS loads JPEG faster than PNG,
      and a full sheet is about 2 MB instead of 10 MB or more.
    * ``door-back.jpg`` / ``treasure-back.jpg``: the backs, drawn at the faces' full size in
      the faces' Door and Treasure colours.
    * ``<pack-slug>.json``: the saved object, with one ``DeckCustom`` per back (the Door deck and
      the Treasure deck, face down side by side). Each holds every copy of its cards as a
      ``Card`` object: ``Nickname`` is the card's name, ``Description`` its set code, kind and
      rules text, ``CardID`` its sheet number * 100 + its cell (sheets are numbered from 1 across
      both decks, so ids never clash when decks are merged in TTS), and ``CustomDeck`` its sheet.
      ``BackIsHidden`` is true (others see the back of a card in your hand), ``UniqueBack``
      false (one back image per deck). A deck of a single card is written as a lone ``Card``
      (TTS has no one-card decks); a deck with no cards is left out.
    * ``README.txt``: how to load it into TTS (its first step says where the images are: at
      the host's addresses, to be uploaded at the base URL, or not uploaded at all), the sheets
      and their grids, and the export's report (`export_report`): the cards left out (those
      of the pack in no deck list, and why) and the cards exported with stats not known yet.

    ``FaceURL`` and ``BackURL`` are the image file names in the zip (``door-sheet-1.jpg``): TTS
    needs URLs, so the user uploads the images and replaces the names with their URLs (the
    README says how), or passes ``base_url`` (http or https, checked by the caller) to write
    ``base_url + file name`` instead, where the user will upload them (a ``/`` is added to a
    base that does not end with one). The site's exports pass a ``host`` instead, which
    stores each image and names it by its address on the site (packs/tts/hosting.py), and
    keeps the saved object with file names. The output is a function of the pack, the base
    URL (or the host's addresses) and RENDERER_VERSION only: no clock, fixed zip timestamps,
    object GUIDs counted from a hash of the pack's name, so the same pack gives the same
    bytes.
    """

    identifier = "pack-tts"
    label = "Tabletop Simulator (saved object and face sheets, zip)"
    content_type = "application/zip"

    def render(
        self,
        *,
        document: Mapping[str, Any] | PackDocument,
        base_url: str | None = None,
        faces: FaceSource | None = None,
        progress: Progress | None = None,
        host: ImageHost | None = None,
    ) -> Rendered:
        """`document`: a pack document as stored (checked here) or already parsed.
        `faces`: where faces drawn earlier come from (the site's faces cache, through the
        caller); every other face is drawn here. `progress`: told after each face. `host`:
        where the caller keeps the images (catalog.exports.ImageHost), instead of a
        `base_url`."""
        if base_url and host is not None:
            raise ValueError("a base URL or a host for the images, not both")
        built = _draw(document=document, faces=faces, progress=progress)
        if base_url:
            host = _BaseUrl(base_url)
        if host is None:
            return built.zip_name, self.content_type, built.zip(url=str)
        url = built.hosted(host)
        content = built.zip(url=url, hosted_step=host.note())
        host.keep_named(built.json_name, built.saved_object_bytes(url=str))
        return built.zip_name, self.content_type, content


def _draw(
    *,
    document: Mapping[str, Any] | PackDocument,
    faces: FaceSource | None,
    progress: Progress | None,
) -> TtsBuild:
    """Draw the sheets and backs of a pack (the slow part) and lay out its decks; the result
    writes the saved object and the zip for any way of naming the images."""
    pack = _parsed(document)
    decks = [deck for deck in _decks(pack) if deck.entries]
    files: dict[str, bytes] = {}
    warnings = _draw_images(decks, files, faces, progress)
    return TtsBuild(pack=pack, decks=decks, images=files, warnings=warnings)


class _BaseUrl:
    """The images' addresses as `base_url` + file name, where the user will upload them
    (an ImageHost that keeps nothing)."""

    def __init__(self, base_url: str) -> None:
        self.base = base_url if base_url.endswith("/") else base_url + "/"

    def address(self, image: LinkedImage) -> str:
        return self.base + image.filename

    def note(self) -> str:
        return (
            f"The JSON points each FaceURL and BackURL at {self.base}<file name>, where the "
            "images are to be: upload the JPEG files of this zip there under the same names "
            "(the export uploads nothing), where everyone joining your game can download them, "
            "before loading it."
        )

    def keep_named(self, filename: str, content: bytes) -> None:
        """Nothing to keep: the zip is the whole export."""


@dataclass
class TtsBuild:
    """A pack's drawn images and deck layout. `images` maps each zip file name
    (``door-sheet-1.jpg``, ``door-back.jpg``) to its JPEG bytes."""

    pack: PackDocument
    decks: list[_Deck]
    images: dict[str, bytes]
    warnings: list[str]

    @property
    def slug(self) -> str:
        return slugify(self.pack.name) or "pack"

    @property
    def report(self) -> TtsReport:
        return report_of(self.pack, self.decks)

    @property
    def zip_name(self) -> str:
        return f"{self.slug}-tts.zip"

    @property
    def json_name(self) -> str:
        return f"{self.slug}.json"

    def linked_images(self) -> list[LinkedImage]:
        """Every image with its grid, in the zip's order."""
        linked: list[LinkedImage] = []
        for deck in self.decks:
            linked.append(LinkedImage(deck.back_filename, self.images[deck.back_filename], 1, 1))
            linked += [
                LinkedImage(s.filename, self.images[s.filename], s.columns, s.rows)
                for s in deck.sheets
            ]
        return linked

    def hosted(self, host: ImageHost) -> UrlMaker:
        """Each image handed to `host`, in the zip's order: file name -> its address."""
        addresses = {image.filename: host.address(image) for image in self.linked_images()}
        return addresses.__getitem__

    def saved_object(self, *, url: UrlMaker) -> dict[str, Any]:
        """The saved object, each FaceURL and BackURL `url(file name)`."""
        return _saved_object(self.pack, self.decks, url)

    def saved_object_bytes(self, *, url: UrlMaker) -> bytes:
        saved = self.saved_object(url=url)
        return (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode()

    def zip(self, *, url: UrlMaker, hosted_step: str | None = None) -> bytes:
        """The zip: README, the saved object with `url`'s addresses, the images.
        `hosted_step`: the README's first loading step when the addresses are already URLs
        (None: the file names, and the README says how to upload them)."""
        readme = _readme(
            self.pack, self.slug, self.decks, self.warnings, self.report, hosted_step=hosted_step
        )
        ordered = {
            "README.txt": readme.encode("utf-8"),
            self.json_name: self.saved_object_bytes(url=url),
            **self.images,
        }
        return _zip(ordered)


def rewrite_urls(saved: Any, url: UrlMaker) -> Any:
    """A saved object (as JSON data) with every FaceURL and BackURL `u` replaced by `url(u)`:
    the saved object written with file names, pointed at wherever the images are."""
    if isinstance(saved, dict):
        return {
            key: url(value)
            if key in ("FaceURL", "BackURL") and isinstance(value, str)
            else rewrite_urls(value, url)
            for key, value in saved.items()
        }
    if isinstance(saved, list):
        return [rewrite_urls(item, url) for item in saved]
    return saved


def _draw_images(
    decks: list[_Deck],
    files: dict[str, bytes],
    faces: FaceSource | None,
    progress: Progress | None,
) -> list[str]:
    """Lay out each deck's sheets, draw them and its back into `files`; the face warnings.
    The pool's threads make the cells while this one pastes them and encodes the sheets."""
    total = sum(len(deck.entries) for deck in decks)
    done = 0
    warnings: list[str] = []
    with ThreadPoolExecutor(max_workers=_workers()) as pool:
        for deck in decks:
            back = render_back(deck.name)
            files[deck.back_filename] = _jpeg(back)
            hidden = back.resize((CELL_WIDTH, CELL_HEIGHT), Image.Resampling.BICUBIC)
            cells = pool.map(partial(_cell, faces=faces), deck.entries)
            for sheet in deck.sheets:
                canvas = Image.new(
                    "RGB", (sheet.columns * CELL_WIDTH, sheet.rows * CELL_HEIGHT), (255, 255, 255)
                )
                for slot, _entry in enumerate(sheet.entries):
                    cell, cell_warnings = next(cells)
                    canvas.paste(cell, _cell_origin(sheet, slot))
                    warnings.extend(cell_warnings)
                    done += 1
                    if progress is not None:
                        progress(done, total)
                canvas.paste(hidden, _cell_origin(sheet, sheet.hidden_slot))
                files[sheet.filename] = _jpeg(canvas)
    return warnings


def _cell_origin(sheet: _Sheet, slot: int) -> tuple[int, int]:
    return (slot % sheet.columns) * CELL_WIDTH, (slot // sheet.columns) * CELL_HEIGHT


def _decks(pack: PackDocument) -> list[_Deck]:
    """The Door and Treasure decks in deck-list order, split into sheets numbered from 1."""
    cards = {(s.code, card.name): card for s in pack.sets for card in s.cards}
    decks: list[_Deck] = []
    number = 1
    for name in DECKS:
        entries = [
            _Entry(entry.set, cards[(entry.set, entry.name)], entry.copies)
            for entry in getattr(pack.decks, name)
        ]
        deck = _Deck(name, entries)
        for index, start in enumerate(range(0, len(entries), CARDS_PER_SHEET), start=1):
            chunk = entries[start : start + CARDS_PER_SHEET]
            columns, rows = sheet_grid(len(chunk))
            deck.sheets.append(_Sheet(number, f"{name}-sheet-{index}.jpg", chunk, columns, rows))
            number += 1
        decks.append(deck)
    return decks


def _transform(deck: DeckName) -> dict[str, float]:
    # Face down (turned 180 degrees about Z), side by side on the table.
    return {
        "posX": DECK_POSITIONS[deck],
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def _guids(pack_name: str) -> Iterator[str]:
    """Six-hex-digit object GUIDs, unique in the file and the same for the same pack."""
    start = int(hashlib.sha256(pack_name.encode("utf-8")).hexdigest()[:6], 16)
    for offset in range(0x1000000):
        yield f"{(start + offset) % 0x1000000:06x}"
    raise RuntimeError("out of GUIDs")  # pragma: no cover - 16 million objects


def _custom_deck(sheet: _Sheet, deck: _Deck, url: UrlMaker) -> dict[str, Any]:
    return {
        "FaceURL": url(sheet.filename),
        "BackURL": url(deck.back_filename),
        "NumWidth": sheet.columns,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": False,
        "Type": CARD_SHAPE,
    }


def _object_base(
    name: str, guid: str, deck: DeckName, nickname: str, description: str
) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": _transform(deck),
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "SidewaysCard": False,
    }


def _saved_object(pack: PackDocument, decks: list[_Deck], url: UrlMaker) -> dict[str, Any]:
    guids = _guids(pack.name)
    states: list[dict[str, Any]] = []
    for deck in decks:
        custom = {str(sheet.number): _custom_deck(sheet, deck, url) for sheet in deck.sheets}
        cards: list[dict[str, Any]] = []
        for sheet in deck.sheets:
            for slot, entry in enumerate(sheet.entries):
                description = card_description(entry.set_code, entry.card)
                for _copy in range(entry.copies):
                    card = _object_base(
                        "Card", next(guids), deck.name, entry.card.name, description
                    )
                    card["Hands"] = True
                    card["CardID"] = sheet.number * 100 + slot
                    card["CustomDeck"] = {str(sheet.number): custom[str(sheet.number)]}
                    cards.append(card)
        if len(cards) == 1:
            states.append(cards[0])
            continue
        title = f"{deck.name.title()} deck"
        state = _object_base(
            "DeckCustom",
            next(guids),
            deck.name,
            f"{title} — {pack.name}",
            f"The {title} of {pack.name}: {len(cards)} cards.",
        )
        state["Hands"] = False
        state["DeckIDs"] = [card["CardID"] for card in cards]
        state["CustomDeck"] = custom
        state["ContainedObjects"] = cards
        states.append(state)
    # A saved object is a save game with its outer fields left empty.
    return {
        "SaveName": "",
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": states,
    }


def _faces(count: int) -> str:
    return f"{count} face" if count == 1 else f"{count} faces"


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, 92, initial_indent=indent, subsequent_indent=" " * len(indent))


def _readme(
    pack: PackDocument,
    slug: str,
    decks: list[_Deck],
    warnings: list[str],
    report: TtsReport,
    *,
    hosted_step: str | None,
) -> str:
    contents = " and ".join(
        f"the {d.name.title()} deck ({d.copies} card{'' if d.copies == 1 else 's'})" for d in decks
    )
    lines = [
        f"{pack.name}: Tabletop Simulator export",
        "",
        "Files:",
        *_wrap(f"{slug}.json: the saved object: {contents or 'empty (no deck lists)'}.", "  "),
    ]
    for deck in decks:
        lines.append(f"  {deck.back_filename}: the {deck.name.title()} back")
        lines += [
            f"  {sheet.filename}: {_faces(len(sheet.entries))} on a {sheet.columns} x "
            f"{sheet.rows} grid, the back in the last cell"
            for sheet in deck.sheets
        ]
    lines += [
        "",
        *_wrap(
            f"A card is {CELL_WIDTH} x {CELL_HEIGHT} px on its sheet (faces drawn by the site's "
            f"renderer, version {RENDERER_VERSION}). In Tabletop Simulator a card's name is its "
            "nickname, and its description gives its set, kind and rules text."
        ),
        "",
        "Loading it into Tabletop Simulator:",
        *_load_steps(slug, hosted_step),
        "",
        *_report_lines(pack, report),
    ]
    if warnings:
        lines += ["", "Faces to check (their rules text did not fit and was cut):"]
        lines += [f"  - {warning}" for warning in warnings]
    return "\n".join(lines) + "\n"


# The first loading step when the JSON names the images by file: nothing is uploaded yet.
UPLOAD_STEP: Final = (
    "Nothing is uploaded yet: in the JSON each FaceURL and BackURL is the name of a file of "
    "this zip (door-sheet-1.jpg...), and Tabletop Simulator loads images from URLs only. "
    "Upload the JPEG files where everyone joining your game can download them (in the game: "
    "Modding > Cloud Manager; or any public image host), then replace each file name in the "
    "JSON with its URL. For games on this computer only, the full path of the file as a file "
    "URL also works (file:///C:/Users/you/Downloads/{slug}/door-sheet-1.jpg)."
)


def _load_steps(slug: str, hosted_step: str | None) -> list[str]:
    """The README's steps to load the saved object: the first says where the images are."""
    return [
        *_wrap(hosted_step or UPLOAD_STEP.format(slug=slug), "1. "),
        *_wrap(
            f"Copy {slug}.json to Documents/My Games/Tabletop Simulator/Saves/Saved Objects/.",
            "2. ",
        ),
        *_wrap(f"In the game, open Objects > Saved Objects and click {slug}.", "3. "),
        "",
        *_wrap(
            "Without the JSON, a sheet can be imported by hand: Objects > Components > Custom > "
            "Deck, choose the sheet (a local file is offered for upload to the Steam Cloud) and "
            "the back, give the sheet's grid and number of faces (above) and tick Back is "
            "hidden. Cards made that way have no names or descriptions."
        ),
    ]


def _report_lines(pack: PackDocument, report: TtsReport) -> list[str]:
    """The README's report: the cards left out and why, the cards with stats not known."""
    kinds = {(s.code, card.name): _title(card.kind_name) for s in pack.sets for card in s.cards}
    lines = ["Left out:"]
    if report["left_out"]:
        lines += _wrap("These cards of the pack are not in the export:")
        for out in report["left_out"]:
            kind = kinds[(out["set"], out["name"])]
            lines += _wrap(f"{out['name']} ({out['set']}, {kind}): {out['why']}.", "  - ")
    else:
        lines.append("Nothing: every card of the pack is in the Door or the Treasure deck.")
    if report["unknown_stats"]:
        lines += [
            "",
            "Stats not known yet:",
            *_wrap(
                "These cards are exported, but some of their stats are not known yet: their "
                "faces show '?' or 'unknown' for them."
            ),
        ]
        lines += [
            f"  - {entry['name']} ({entry['set']}): {', '.join(entry['stats'])}"
            for entry in report["unknown_stats"]
        ]
    return lines


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            # JPEG does not deflate; text does.
            info.compress_type = (
                zipfile.ZIP_STORED if name.endswith(".jpg") else zipfile.ZIP_DEFLATED
            )
            info.create_system = 3  # Unix, whatever the host, for the same bytes everywhere
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
