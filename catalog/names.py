"""The key a card's name is matched by when people type it: case, accents, punctuation and
spacing forgiven ("Kill-the hireling!" and "kill the Hireling" have one key). Stored beside
each card (`Card.name_key`, indexed) for name completion and the API's fuzzy lookup."""

import re
import unicodedata

# Names are at most 80 characters; a typed name or prefix longer than this is refused before
# any lookup (the API's 400), so no request compares or scans with a longer string.
MAX_TYPED_NAME = 200

_NOT_WORD = re.compile(r"[^0-9a-z]+")


def name_key(name: str) -> str:
    """Lower-case ASCII letters and digits, one space between words; accents are dropped
    (Émile -> emile), other characters separate words (so an apostrophe does too: "Ug's"
    -> "ug s", as typed "ugs" differs by one letter, which fuzzy matching forgives)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_WORD.sub(" ", plain).strip()
