"""What a browser's session remembers of the table, for "Your games" and the dealt page: the
games it dealt and the seats it opened with a link (by game and seat index: never a token, since
sessions are stored in the database; the links are derived again, play/tokens.py). A logged-in
user's games are also found by `Game.created_by` and `OpenedSeat`, on any device."""

from __future__ import annotations

from django.contrib.sessions.backends.base import SessionBase

DEALT_KEY = "play_dealt"  # [game id, ...], oldest first
SEATS_KEY = "play_seats"  # [[game id, seat index], ...], oldest first
KEEP = 50  # of each, the newest; older ones fall off (and a logged-in user's stay durable)


def dealt_ids(session: SessionBase) -> list[int]:
    """The games this browser dealt, newest first."""
    stored = session.get(DEALT_KEY)
    if not isinstance(stored, list):
        return []
    return [int(g) for g in reversed(stored) if isinstance(g, int)]


def opened_seats(session: SessionBase) -> list[tuple[int, int]]:
    """The (game id, seat index) this browser opened with a link, newest first."""
    stored = session.get(SEATS_KEY)
    if not isinstance(stored, list):
        return []
    return [
        (int(pair[0]), int(pair[1]))
        for pair in reversed(stored)
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, int) for n in pair)
    ]


def remember_dealt(session: SessionBase, *, game_id: int) -> None:
    """Note that this browser dealt `game_id` (its links are then shown to it again)."""
    kept = [g for g in reversed(dealt_ids(session)) if g != game_id] + [game_id]
    session[DEALT_KEY] = kept[-KEEP:]


def remember_seat(session: SessionBase, *, game_id: int, index: int) -> bool:
    """Note that this browser opened seat `index` of `game_id`; returns whether it was new
    (the session is written only then)."""
    pairs = list(reversed(opened_seats(session)))
    if (game_id, index) in pairs:
        return False
    pairs.append((game_id, index))
    session[SEATS_KEY] = [[g, i] for g, i in pairs[-KEEP:]]
    return True
