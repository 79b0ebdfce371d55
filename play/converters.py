"""The game id in the play pages' and the API's paths: a whole number a game's row can have.

`<int:...>` takes any number of digits, and a number past the BigAutoField's range (2^63 - 1)
is not a row: looked up with a seat token, it overflowed the database's integer and answered
500. This converter matches only the ids a row can have, so a larger one is the 404 of a path
that names nothing (the site's page, or under /api/ the API's error object)."""

from __future__ import annotations

from django.urls import register_converter

from catalog.models import MAX_ROW_ID


class GameIdConverter:
    """1 to MAX_ROW_ID, in at most 19 digits (2^63 - 1 has 19)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= MAX_ROW_ID:
            raise ValueError(f"{value} is no game's id")  # the resolver's "no match"
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(GameIdConverter, "game_id")

# A game's id in a path: `f"play/{GAME_ID}/"`.
GAME_ID = "<game_id:game_id>"
