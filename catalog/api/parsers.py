"""The API's one JSON parser: the engine's bounded reader in front of every request body.

DRF's own parser hands the body to `json.loads`, which recurses once per bracket: ten thousand
`[` answer a server error. This parser measures the depth first (one pass, no recursion) and
refuses, with the limit named, what nests too deep, holds a number too long, or is too large.
"""

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from validator.engine import CardDocumentError, ReadLimits, read_json


class BoundedJSONParser(BaseParser):
    media_type = "application/json"

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limits = ReadLimits(max_bytes=settings.API_MAX_BODY_BYTES)
        # One byte more than the limit is enough to know the body is over it.
        raw = stream.read(limits.max_bytes + 1)
        if len(raw) > limits.max_bytes:
            raise ParseError(f"the body is larger than {limits.max_bytes:,} bytes")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"the body is not {encoding} text") from exc
        try:
            return read_json(text, "body", limits)
        except CardDocumentError as exc:
            error = exc.errors[0]
            where = f" (line {error.line})" if error.line else ""
            raise ParseError(f"{error.message}{where}") from exc
