"""What the table page says besides the moves: the status line players read, the fight as a
summary (strengths, who fights and helps, who is ahead), a request for help and a window to
play into a fight as this seat sees them, and the log with its turns and card names linked.

Pure functions of a seat's view of the table (play.selectors.game_state) and of the names
and addresses the page already knows; each tolerates a key the state does not carry yet.
"""

from __future__ import annotations

import re
from datetime import datetime
from math import ceil
from typing import Any

from django.utils import timezone

from play.moves_display import my_choice, plural


def _names(state: dict[str, Any]) -> list[str]:
    return [str(p["name"]) for p in state.get("players") or []]


def _name(names: list[str], index: object) -> str:
    if isinstance(index, int) and 0 <= index < len(names):
        return names[index]
    return ""


def and_list(words: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def monster_names(state: dict[str, Any]) -> str:
    combat = state.get("combat") or {}
    return and_list([str(m["card"]["name"]) for m in combat.get("monsters") or []])


def fight_summary(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The fight at a glance: who fights (and helps), against what, both strengths and who
    is ahead as it stands; None outside a fight."""
    combat = state.get("combat")
    if not isinstance(combat, dict):
        return None
    names = _names(state)
    fighter = _name(names, combat.get("fighter"))
    helper = _name(names, combat.get("helper"))
    side = int(combat.get("side_strength") or 0)
    monsters = int(combat.get("monster_strength") or 0)
    if side > monsters:
        verdict = f"{fighter} is ahead by {side - monsters:,}"
    elif side < monsters:
        verdict = f"The monsters are ahead by {monsters - side:,}"
    else:
        verdict = "Tied: a tie goes to the monsters unless a card says otherwise"
    you = {combat.get("fighter"): "you fight", combat.get("helper"): "you help"}.get(seat, "")
    return {
        "fighter": fighter,
        "helper": helper,
        "side_names": and_list([n for n in (fighter, helper) if n]),
        "side": side,
        "monsters": monsters,
        "monster_names": monster_names(state),
        "ahead": "side" if side > monsters else "monsters",
        "verdict": verdict,
        "you": you,
    }


def help_request(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """A request for help waiting for an answer, as this seat reads it: who asks whom,
    against which monsters, for how many Treasures, and (to the one asked) the fight's
    strengths with and without them."""
    asked = state.get("asked")
    if not isinstance(asked, dict):
        return None
    names = _names(state)
    combat = state.get("combat") or {}
    by = asked.get("by", combat.get("fighter"))
    treasures = asked.get("treasures")
    with_you = asked.get("with_you")
    against = asked.get("monsters", combat.get("monster_strength"))
    return {
        "mine": asked.get("seat") == seat,
        "asker": _name(names, by) or "The fighter",
        "asked": _name(names, asked.get("seat")),
        "monster_names": monster_names(state),
        "treasures": plural(treasures, "Treasure") if isinstance(treasures, int) else "",
        "with_you": with_you if isinstance(with_you, int) else None,
        "without": asked.get("without_you", combat.get("side_strength")),
        "against": against if isinstance(against, int) else None,
    }


def help_offer(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """An offer of help waiting for the fighter's answer, as this seat reads it: who offers,
    for how many Treasures, and the fight's strengths with the helper and without."""
    offered = state.get("offered")
    combat = state.get("combat") or {}
    if not isinstance(offered, dict):
        return None
    names = _names(state)
    treasures = offered.get("treasures")
    return {
        "mine": combat.get("fighter") == seat,
        "helper": _name(names, offered.get("seat")) or "A player",
        "fighter": _name(names, combat.get("fighter")) or "the fighter",
        "treasures": plural(treasures, "Treasure") if isinstance(treasures, int) else "",
        "with_helper": offered.get("with_helper"),
        "without": offered.get("without_helper"),
        "against": offered.get("monsters"),
    }


def fight_window(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """A pause before a fight is resolved, when seats may play into it or pass."""
    window = state.get("window")
    if not isinstance(window, dict):
        return None
    names = _names(state)
    seats = [s for s in window.get("seats") or [] if isinstance(s, int)]
    return {
        "mine": seat in seats,
        "fighter": _name(names, window.get("fighter")) or "The fighter",
        "waiting": and_list([_name(names, s) for s in seats]),
        "seconds_left": seconds_left(state.get("answer_by")),
    }


def seconds_left(answer_by: object, now: datetime | None = None) -> int | None:
    """Whole seconds until the window's time to answer runs out (0 once it has), by the
    server's clock; None without a timer."""
    if not isinstance(answer_by, str):
        return None
    deadline = datetime.fromisoformat(answer_by)
    return max(0, ceil((deadline - (now or timezone.now())).total_seconds()))


def status_line(state: dict[str, Any], seat: int, *, can_move: bool, log_full: bool) -> str:
    """One sentence players read: whose move it is, and what is going on."""
    names = _names(state)
    if state.get("over"):
        winners = [_name(names, i) for i in state.get("winners") or []]
        if winners:
            return f"The game is over: {and_list(winners)} won."
        return "The game is over without a winner."
    if log_full:
        return "No more moves: the log is full."
    combat = state.get("combat") or {}
    monsters = monster_names(state)
    fighter = _name(names, combat.get("fighter"))
    choice = my_choice(state, seat)
    asked = help_request(state, seat)
    window = fight_window(state, seat)
    if choice is not None:
        return f"Your move: {choice.get('text') or 'a question for you'}"
    if asked is not None and asked["mine"]:
        return f"Your move: {asked['asker']} asks you for help against {monsters}."
    if window is not None and window["mine"]:
        return f"Your move: {window['fighter']} is ready to fight: play a card or pass."
    if seat in (state.get("waiting_for") or []):
        if combat.get("fighter") == seat:
            return f"Your move: you are fighting {monsters}."
        if combat.get("helper") == seat:
            return f"Your move: you help {fighter} fight {monsters}."
        if combat:
            return f"Your move: {fighter} is fighting {monsters}."
        return f"Your move: turn {state.get('turn', 1)}, your turn."
    waiting = and_list([_name(names, i) for i in state.get("waiting_for") or []])
    text = f"Waiting for {waiting or 'the others'}"
    if combat:
        text += f": {fighter} is fighting {monsters}"
    return text + (". You may play a card meanwhile." if can_move else ".")


def _linker(names: list[str]) -> re.Pattern[str] | None:
    """A pattern finding any of the card names as whole words, the longest first."""
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def linked_parts(
    text: str, pattern: re.Pattern[str] | None, links: dict[str, str]
) -> list[tuple[str, str]]:
    """The text cut into (words, address) pieces: each card name with its page's address,
    the words between with none."""
    if pattern is None:
        return [(text, "")]
    parts: list[tuple[str, str]] = []
    at = 0
    for found in pattern.finditer(text):
        if found.start() > at:
            parts.append((text[at : found.start()], ""))
        parts.append((found.group(0), links[found.group(0)]))
        at = found.end()
    if at < len(text):
        parts.append((text[at:], ""))
    return parts


def log_entries(log: list[Any], links: dict[str, str]) -> list[dict[str, Any]]:
    """The log for the page, oldest first: each line's pieces (card names linked to their
    pages) and, where a new turn begins, the turn's number. `log`: the state's entries
    {"turn": N, "text": "..."}."""
    pattern = _linker(list(links))
    entries: list[dict[str, Any]] = []
    turn: object = None
    for line in log:
        new_turn = line["turn"] != turn
        turn = line["turn"]
        entries.append(
            {
                "turn": turn if new_turn else None,
                "parts": linked_parts(str(line["text"]), pattern, links),
            }
        )
    return entries
