"""The photo of a physical card a proposal may carry: checked like card art (bytes, pixels,
format, Pillow's decompression guard), then drawn again into a new image, so none of the
original file's metadata (EXIF with its GPS position, XMP, text chunks, ICC) is stored."""

from __future__ import annotations

import io
import uuid

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from PIL import Image, ImageOps


class PhotoError(Exception):
    """The upload is not a photo the site keeps; the message says why."""


def evidence_photo(upload: UploadedFile[bytes]) -> ContentFile[bytes]:
    """The upload as a clean JPEG (PNG when it has transparency) under a random name."""
    limit = settings.ART_MAX_BYTES
    if upload.size is not None and upload.size > limit:
        raise PhotoError(f"a photo is limited to {limit // 1024} KB")
    upload.seek(0)
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise PhotoError(f"a photo is limited to {limit // 1024} KB")
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in settings.ART_FORMATS:
                raise PhotoError(
                    f"a photo must be {', '.join(settings.ART_FORMATS)}, not {image.format}"
                )
            width, height = image.size
            if width * height > settings.ART_MAX_PIXELS:
                raise PhotoError(
                    f"a photo is limited to {settings.ART_MAX_PIXELS:,} pixels "
                    f"({width}x{height} given)"
                )
            # Turned the way the camera was held; the orientation tag goes with the rest.
            upright = ImageOps.exif_transpose(image)
            has_alpha = upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info
            mode = "RGBA" if has_alpha else "RGB"
            pixels = upright.convert(mode)
            clean = Image.frombytes(mode, pixels.size, pixels.tobytes())
    except PhotoError:
        raise
    except Image.DecompressionBombError as exc:
        raise PhotoError("photo refused: too many pixels to open safely") from exc
    except Exception as exc:  # Pillow raises many kinds for a broken or unknown file
        raise PhotoError("the photo could not be read as an image") from exc
    out = io.BytesIO()
    if has_alpha:
        clean.save(out, format="PNG", optimize=True)
        suffix = ".png"
    else:
        clean.save(out, format="JPEG", quality=88)
        suffix = ".jpg"
    return ContentFile(out.getvalue(), name=f"{uuid.uuid4().hex}{suffix}")
