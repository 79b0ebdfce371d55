"""Choices the rules leave to a person at a table, asked of that person.

The engine asks its chooser and never waits (validator/engine/choices.py). At a table, a
person's choice is theirs: `TableChooser` answers a person's question from the answers the
table already holds, and when it holds none, raises `ChoiceNeeded` with the question. The table
(validator/engine/table.py) made the move on a copy, so nothing has changed; it logs the move,
waits for the person's answer (`{"choose": [ids]}` or `{"choose_option": N}`), and then makes
the move again from the start with the answers known. A move is a function of the state, the
random generator's state and the answers, so the second run rolls the same dice and asks the
same questions in the same order: a replay of the log rebuilds the same game.

Bots and questions with nothing to choose (as many candidates as cards to pick) keep the
default chooser's answer, which the page also offers as the suggested one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from validator.engine.cards import EffectBase, TextContext
from validator.engine.choices import DefaultChooser
from validator.engine.state import CardInstance, Game, Player, RuleViolation

# The verbs of an answer: the cards picked, or the number of the option taken (from 0).
ANSWER_VERBS = ("choose", "choose_option")


@dataclass(frozen=True)
class Question:
    """What a person is asked: pick `count` of the `candidates` (card numbers), or one of the
    `options` (words). `suggested` is the default chooser's answer."""

    seat: int
    kind: str
    text: str
    candidates: tuple[int, ...] = ()
    count: int = 0
    options: tuple[str, ...] = ()
    suggested: tuple[int, ...] = ()
    # The candidates' names, in the same order (a card may be somewhere no view lists).
    names: tuple[str, ...] = ()

    def as_json(self, names: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """The question as the table's view shows it (`names`: card number -> card object)."""
        return {
            "seat": self.seat,
            "question": self.kind,
            "text": self.text,
            "count": self.count,
            "candidates": [
                names.get(uid, {"id": uid, "name": name})
                for uid, name in zip(self.candidates, self.names, strict=True)
            ],
            "options": list(self.options),
            "suggested": list(self.suggested),
        }


class ChoiceNeeded(Exception):
    """A person must answer `question` before the move can be made."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.text)
        self.question = question
        # The move waiting for the answer, set by the table that made it.
        self.pending: Any = None


Answer = tuple[int, ...]


def checked_answer(question: Question, move: dict[str, Any]) -> Answer:
    """The answer a move gives to the question, or RuleViolation saying what is wrong."""
    if question.options:
        if "choose_option" not in move:
            raise RuleViolation(f"{question.text}: answer with one of the options")
        index = move["choose_option"]
        if not isinstance(index, int) or isinstance(index, bool):
            raise RuleViolation("choose_option: the number of an option, from 0")
        if not 0 <= index < len(question.options):
            raise RuleViolation(
                f"choose_option: {index} is not an option; there are {len(question.options)}"
            )
        return (index,)
    if "choose" not in move:
        raise RuleViolation(f"{question.text}: answer with the cards chosen")
    picked = move["choose"]
    if not isinstance(picked, list) or not all(
        isinstance(uid, int) and not isinstance(uid, bool) for uid in picked
    ):
        raise RuleViolation("choose: a list of card numbers")
    if len(set(picked)) != len(picked):
        raise RuleViolation("choose: each card once")
    strangers = [uid for uid in picked if uid not in question.candidates]
    if strangers:
        raise RuleViolation(f"choose: card #{strangers[0]} is not one of the cards to choose from")
    if len(picked) != question.count:
        noun = "card" if question.count == 1 else "cards"
        raise RuleViolation(f"choose exactly {question.count} {noun}, not {len(picked)}")
    return tuple(picked)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def option_text(option: Sequence[EffectBase]) -> str:
    """One Bad Stuff option in words, as the card's text says it."""
    context = TextContext()
    words = "; ".join(effect.describe(context) for effect in option)
    return words[:1].upper() + words[1:] if words else "Nothing"


class TableChooser(DefaultChooser):
    """The default chooser for bots; for a person, the answers given so far in order, then
    `ChoiceNeeded` with the next question."""

    def __init__(self, game: Game, people: frozenset[int], answers: Sequence[Answer]) -> None:
        self.game = game
        self.people = people
        self.answers = list(answers)
        self.asked = 0

    def _seat(self, player: Player) -> int | None:
        seat = self.game.players.index(player)
        return seat if seat in self.people else None

    def _answer(self, question: Question) -> Answer:
        if self.asked < len(self.answers):
            answer = self.answers[self.asked]
            self.asked += 1
            return answer
        raise ChoiceNeeded(question)

    def _cards(
        self,
        player: Player,
        kind: str,
        text: str,
        candidates: Sequence[CardInstance],
        suggested: Sequence[CardInstance],
    ) -> list[CardInstance] | None:
        """The person's pick of `len(suggested)` candidates (None: the default's, a bot's or
        no real choice)."""
        seat = self._seat(player)
        count = len(suggested)
        if seat is None or len({c.uid for c in candidates}) <= count:
            return None
        question = Question(
            seat,
            kind,
            text,
            candidates=tuple(c.uid for c in candidates),
            names=tuple(c.name for c in candidates),
            count=count,
            suggested=tuple(c.uid for c in suggested),
        )
        picked = self._answer(question)
        by_uid = {c.uid: c for c in candidates}
        return [by_uid[uid] for uid in picked]

    def items_to_lose(
        self, game: Game, player: Player, candidates: Sequence[CardInstance], count: int
    ) -> list[CardInstance]:
        suggested = super().items_to_lose(game, player, candidates, count)
        text = f"{player.name}: choose {_plural(len(suggested), 'item')} to lose"
        chosen = self._cards(player, "items_to_lose", text, candidates, suggested)
        return suggested if chosen is None else chosen

    def cards_to_lose(
        self, game: Game, player: Player, candidates: Sequence[CardInstance], count: int
    ) -> list[CardInstance]:
        suggested = super().cards_to_lose(game, player, candidates, count)
        text = f"{player.name}: choose {_plural(len(suggested), 'card')} to lose"
        chosen = self._cards(player, "cards_to_lose", text, candidates, suggested)
        return suggested if chosen is None else chosen

    def card_to_take(
        self, game: Game, taker: Player, candidates: Sequence[CardInstance]
    ) -> CardInstance:
        suggested = super().card_to_take(game, taker, candidates)
        text = f"{taker.name}: choose a card to take"
        chosen = self._cards(taker, "card_to_take", text, candidates, [suggested])
        return suggested if chosen is None else chosen[0]

    def item_to_discard_for(
        self, game: Game, chooser: Player, victim: Player, candidates: Sequence[CardInstance]
    ) -> CardInstance:
        suggested = super().item_to_discard_for(game, chooser, victim, candidates)
        text = f"{chooser.name}: choose which of {victim.name}'s items is discarded"
        chosen = self._cards(chooser, "item_to_discard", text, candidates, [suggested])
        return suggested if chosen is None else chosen[0]

    def discard_for_escape(
        self, game: Game, player: Player, candidates: Sequence[CardInstance]
    ) -> CardInstance | None:
        suggested = super().discard_for_escape(game, player, candidates)
        if suggested is None:
            return None
        text = f"{player.name}: choose a card to discard to get away"
        chosen = self._cards(player, "discard_for_escape", text, candidates, [suggested])
        return suggested if chosen is None else chosen[0]

    def option(self, game: Game, player: Player, options: Sequence[Sequence[EffectBase]]) -> int:
        suggested = super().option(game, player, options)
        seat = self._seat(player)
        if seat is None or len(options) < 2:
            return suggested
        question = Question(
            seat,
            "option",
            f"{player.name}: choose what happens",
            options=tuple(option_text(option) for option in options),
            suggested=(suggested,),
        )
        return self._answer(question)[0]

    def _yes_no(self, player: Player, kind: str, text: str, default: bool) -> bool:
        seat = self._seat(player)
        if seat is None:
            return default
        question = Question(
            seat, kind, text, options=("Yes", "No"), suggested=(0 if default else 1,)
        )
        return self._answer(question)[0] == 0

    def abandon_ship(self, game: Game, player: Player, ship: CardInstance) -> bool:
        default = super().abandon_ship(game, player, ship)
        text = f"{player.name}: discard {ship.name} before running away?"
        return self._yes_no(player, "abandon_ship", text, default)

    def discard_to_escape(self, game: Game, player: Player, item: CardInstance) -> bool:
        default = super().discard_to_escape(game, player, item)
        text = f"{player.name}: throw away {item.name} to get away without rolling?"
        return self._yes_no(player, "discard_to_escape", text, default)
