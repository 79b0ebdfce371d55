"""The photo of a physical card a proposal may carry: checked and drawn again like card art
(catalog.images), so none of the original file's metadata (EXIF with its GPS position, XMP,
text chunks, ICC) is stored and no upload decodes more than the site's pixel limit."""

from __future__ import annotations

from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile

from catalog.images import PictureError, picture_redrawn


class PhotoError(Exception):
    """The upload is not a photo the site keeps; the message says why."""


def evidence_photo(upload: UploadedFile[bytes]) -> ContentFile[bytes]:
    """The upload as a clean JPEG (PNG when it has transparency) under a random name."""
    try:
        return picture_redrawn(upload, noun="a photo")
    except PictureError as exc:
        raise PhotoError(str(exc)) from exc
