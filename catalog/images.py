"""Pictures people upload (card art, the photo a proposal may carry): checked, then drawn again.

Checked before any pixel is decoded: bytes (`ART_MAX_BYTES`), format (`ART_FORMATS`) and
pixels (`ART_MAX_PIXELS`), the size read from the file's header. Then decoded once, shrunk to
at most `STORED_SIDE` pixels a side (a JPEG is decoded at a half, a quarter or an eighth of its
size when that is still large enough), turned the way the camera was held, and drawn into a
new image: none of the file's metadata (EXIF with its GPS position and camera, XMP, PNG text
chunks, ICC profiles, comments) is kept. A request that uploads a picture costs at most the
decoded picture (4 bytes a pixel) and a shrunk copy.
"""

from __future__ import annotations

import io
import math
import uuid

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from PIL import Image

# The longest side a stored picture keeps: a card face is 744 x 1039 pixels at 300 DPI, its
# art box smaller still, so nothing drawn from the picture loses detail.
STORED_SIDE = 2048
# Pillow's decompression-bomb guard (it refuses twice this many pixels before decoding): the
# largest image the site decodes of its own, a Tabletop Simulator sheet of 16 million pixels.
# Uploads are held to the lower ART_MAX_PIXELS by `picture_checked` before anything decodes.
DECODE_GUARD_PIXELS = 16_000_000

# Pixels of the decoded picture converted and shrunk at a time.
_STRIP_PIXELS = 1_000_000
_ORIENTATION = 0x0112  # the EXIF tag: how the camera was held
_TURNS = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


class PictureError(Exception):
    """The upload is not a picture the site keeps; the message says why, in players' words,
    starting with what was uploaded ("art", "a photo")."""


def _amount(pixels: int) -> str:
    if pixels >= 100_000:
        return f"{pixels / 1_000_000:.1f} megapixels"
    return f"{pixels:,} pixels"


def _too_many_pixels(noun: str, size: tuple[int, int] | None) -> PictureError:
    limit = settings.ART_MAX_PIXELS
    if size is None:
        given = "this one has far more"
    else:
        width, height = size
        given = f"this one is {width}x{height} ({_amount(width * height)})"
    return PictureError(
        f"{noun} is limited to {_amount(limit)}; {given}: make it smaller and upload it again"
    )


def _read(upload: UploadedFile[bytes], noun: str) -> bytes:
    limit = settings.ART_MAX_BYTES
    refusal = PictureError(f"{noun} is limited to {limit // 1024} KB")
    if upload.size is not None and upload.size > limit:
        raise refusal
    upload.seek(0)
    data: bytes = upload.read(limit + 1)
    upload.seek(0)
    if len(data) > limit:
        raise refusal
    return data


def _opened(data: bytes, noun: str) -> Image.Image:
    """The picture with only its header read, its format and pixel count checked."""
    try:
        image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise _too_many_pixels(noun, None) from exc
    except Exception as exc:  # Pillow raises many kinds for a broken or unknown file
        raise PictureError(f"{noun} could not be read as an image") from exc
    if image.format not in settings.ART_FORMATS:
        image.close()
        raise PictureError(f"{noun} must be {', '.join(settings.ART_FORMATS)}, not {image.format}")
    width, height = image.size
    if width * height > settings.ART_MAX_PIXELS:
        image.close()
        raise _too_many_pixels(noun, image.size)
    return image


def picture_checked(upload: UploadedFile[bytes], *, noun: str) -> None:
    """Refuse (PictureError) an upload over the limits or that is not a whole picture, without
    decoding its pixels: what a form checks before anything is saved."""
    with _opened(_read(upload, noun), noun) as image:
        try:
            image.verify()
        except Exception as exc:
            raise PictureError(f"{noun} could not be read as an image") from exc


def _factor(size: tuple[int, int]) -> int:
    """The whole factor that brings the longest side to at most STORED_SIDE."""
    return max(1, math.ceil(max(size) / STORED_SIDE))


def _redrawn(image: Image.Image) -> tuple[Image.Image, bool]:
    """The picture's pixels alone, shrunk and turned upright, and whether it has alpha.

    Drawn into a new image a strip of rows at a time, each strip converted and shrunk by a
    box average on its own: besides the decoded picture, only the result and one strip are
    ever held (a whole-picture convert or resize would hold a second full-size copy)."""
    turn = _TURNS.get(image.getexif().get(_ORIENTATION, 1))
    has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    mode = "RGBA" if has_alpha else "RGB"
    if image.format == "JPEG":
        # Decoded straight at a half, a quarter or an eighth of its size, as far as it shrinks.
        width, height = image.size
        factor = _factor(image.size)
        image.draft(None, (math.ceil(width / factor), math.ceil(height / factor)))
    image.load()
    width, height = image.size
    factor = _factor(image.size)
    clean = Image.new(mode, (math.ceil(width / factor), math.ceil(height / factor)))
    rows = factor * max(1, _STRIP_PIXELS // (width * factor))
    for top in range(0, height, rows):
        strip = image.crop((0, top, width, min(top + rows, height)))
        if strip.mode != mode:
            strip = strip.convert(mode)
        if factor > 1:
            strip = strip.reduce(factor)
        clean.paste(strip, (0, top // factor))
    if turn is not None:
        clean = clean.transpose(turn)
    return clean, has_alpha


def picture_redrawn(
    upload: UploadedFile[bytes], *, noun: str, keep_png: bool = False
) -> ContentFile[bytes]:
    """The upload drawn again without its metadata, under a random name: PNG when it has
    transparency (or was a PNG and `keep_png`: art drawn by hand stays lossless), else JPEG.
    PictureError when it is over the limits or broken."""
    data = _read(upload, noun)
    with _opened(data, noun) as image:
        lossless = keep_png and image.format == "PNG"
        try:
            clean, has_alpha = _redrawn(image)
        except Exception as exc:
            raise PictureError(f"{noun} could not be read as an image") from exc
    out = io.BytesIO()
    if has_alpha or lossless:
        clean.save(out, format="PNG", optimize=True)
        suffix = ".png"
    else:
        clean.save(out, format="JPEG", quality=90)
        suffix = ".jpg"
    return ContentFile(out.getvalue(), name=f"{uuid.uuid4().hex}{suffix}")
