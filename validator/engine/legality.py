"""Whether the rules allow a move now, asked of the move itself: one source of truth.

Every move checks everything before it changes anything (a refused move leaves the game exactly
as it was). `refusal` runs a move as a trial: its checks run where the move makes them, and the
move stops at `checks_passed`, the point each move reaches once every check has passed and just
before its first change. The answer is the reason the move would be refused (its RuleViolation's
words), or None when the rules allow it; either way the game is left as it was, its die and
random generator untouched. The bots ask before each move they make (validator/engine/bots.py,
the table's bots), so they never need the rules written again on their side.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validator.engine.state import Game, RuleViolation


class MoveAllowed(Exception):
    """Raised at `checks_passed` during a trial: the move passed every check."""


class TrialChangedTheGame(RuntimeError):
    """A move asked about ran to its end: a path of it lacks `checks_passed` (an engine bug)."""


def checks_passed(game: Game) -> None:
    """Where a move has checked everything and is about to change the game: a trial of the
    move (`refusal`) stops here with its answer, yes."""
    if game.trying:
        raise MoveAllowed


def refusal(game: Game, move: Callable[..., Any], *args: Any, **kwargs: Any) -> str | None:
    """Why the rules would refuse `move(*args, **kwargs)` on `game` now, or None when they allow
    it. The move is run as a trial, up to its `checks_passed`; the game is left as it was."""
    outer = game.trying
    game.trying = True
    try:
        move(*args, **kwargs)
    except MoveAllowed:
        return None
    except RuleViolation as exc:
        return str(exc)
    finally:
        game.trying = outer
    name = getattr(move, "__qualname__", repr(move))
    raise TrialChangedTheGame(f"{name} was made when only asked about: it never said checks passed")


def allowed(game: Game, move: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """Whether the rules allow the move now (`refusal` is None)."""
    return refusal(game, move, *args, **kwargs) is None
