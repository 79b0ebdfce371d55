"""A table's game written out as a scenario document (shared/design/scenario-format.md), so
that the scenario runner plays the same game again and checks how it ended."""

from __future__ import annotations

from typing import Any

from validator.engine.state import CardInstance
from validator.engine.table import Table, new_table
from validator.engine.table_moves import Move, MoveError


def table_scenario(table: Table, *, name: str) -> dict[str, Any]:
    """The game as a scenario document (shared/design/scenario-format.md): the deal (each
    player's hand, each deck in order from the top), the moves since as steps, and what holds
    at the end as expectations, so that the runner plays the same game and checks it.

    The runner's table matches the deal when its sets hold exactly the table's cards: its
    seeded random generator then shuffles decks of the same sizes, so every die roll and
    random pick after the deal comes out the same (no `dice:` are given, which would take
    the rolls away from the generator). A request for help and its refusal are no steps of
    the format: an accepted request is the `help` step with the Treasures offered."""
    first = new_table(table.cards, seats=table.seats, seed=table.seed)
    game = first.game
    sets_of: dict[str, set[str]] = {}
    for code, definition in table.cards:
        sets_of.setdefault(definition.name.casefold(), set()).add(code)
    instances: dict[int, CardInstance] = {}
    for pile in (game.door_deck, game.treasure_deck):
        instances.update((c.uid, c) for c in pile)
    for p in game.players:
        instances.update((c.uid, c) for c in [*p.hand, *p.in_play()])

    def ref(uid: int) -> str:
        card = instances[uid]
        ambiguous = len(sets_of.get(card.name.casefold(), ())) > 1
        return f"{card.name}@{card.set_code}" if ambiguous else card.name

    players = []
    for p in game.players:
        setup: dict[str, Any] = {"name": p.name, "sex": p.sex}
        if p.character:
            setup["in_play"] = [ref(c.uid) for c in p.character]
        setup["hand"] = [ref(c.uid) for c in p.hand]
        players.append(setup)
    steps: list[dict[str, Any]] = []
    names = [p.name for p in game.players]
    offered = 0
    offer: tuple[str, int] | None = None  # a rival's offer of help, waiting for the answer
    for index, (seat, move) in enumerate(table.log):
        by = names[seat]
        if "offer_help" in move:
            offer = (by, int(move["offer_help"]))
        if "accept_help" in move and offer is not None:
            steps.append({"help": offer[0], "treasures": offer[1]})
            continue
        if index in table.resolved_at:
            # The fight resolved here: the fighter's `resolve`, or the last `pass` of the
            # others' chance to answer, or the answer to a question it asked.
            steps.append({"resolve": True})
            continue
        if set(move) & _NO_STEP:
            continue
        step = _scenario_step(move, by, ref, offered)
        if "ask_for_help" in move:
            offered = int(move.get("treasures", 0))
        if step is not None:
            steps.append(step)
    end = table.game
    expect: dict[str, Any] = {
        "levels": {p.name: p.level for p in end.players},
        "hand_sizes": {p.name: len(p.hand) for p in end.players},
        "dead": [p.name for p in end.players if p.dead],
    }
    in_play = {p.name: sorted(ref(c.uid) for c in p.in_play()) for p in end.players}
    in_play = {player: cards for player, cards in in_play.items() if cards}
    if in_play:
        expect["in_play"] = in_play
    if end.winner is not None:
        expect["winner"] = end.winner.name
    return {
        "name": name,
        "sets": sorted({code for code, _ in table.cards}),
        "seed": table.seed,
        "players": players,
        "deck": {
            "door": [ref(c.uid) for c in game.door_deck],
            "treasure": [ref(c.uid) for c in game.treasure_deck],
        },
        "steps": steps,
        "expect": expect,
    }


# Moves that change nothing a scenario step reads: a `resolve` that opened the others' chance
# to answer (the fight resolves later, at a position in `Table.resolved_at`), a pass, and the
# answers to questions, which the runner's default chooser answers in its own way.
_NO_STEP = frozenset(
    {"resolve", "pass", "choose", "choose_option", "offer_help", "accept_help", "decline_help"}
)


def _scenario_step(move: Move, by: str, ref: Any, offered: int) -> dict[str, Any] | None:
    """One move as a scenario step (None: a move the format has no step for, which changes
    nothing a later step reads: a question for help, its refusal)."""
    if "play" in move:
        step: dict[str, Any] = {"play": ref(move["play"]), "by": by}
        if "on" in move:
            step["on"] = move["on"]
        if "with" in move:
            step["with"] = ref(move["with"])
        return step
    if "use" in move:
        step = {"use": ref(move["use"]), "by": by}
        if move.get("ability"):
            step["ability"] = move["ability"]
        if move.get("discard"):
            step["discard"] = [ref(uid) for uid in move["discard"]]
        if "on" in move:
            step["on"] = move["on"]
        return step
    if "help" in move:
        return {"help": by, "treasures": offered}
    if "ask_for_help" in move or "refuse_help" in move:
        return None
    if "sell" in move:
        return {"sell": [ref(uid) for uid in move["sell"]], "by": by}
    for verb in (
        "look_for_trouble",
        "equip",
        "sacrifice",
        "charity",
        "unequip",
        "discard_card",
        "join",
    ):
        if verb in move:
            return {verb: ref(move[verb]), "by": by}
    if "give" in move:
        return {"give": [ref(uid) for uid in move["give"]], "by": by, "to": move["to"]}
    if "bribe" in move:
        step = {"bribe": ref(move["bribe"]), "by": by}
        if move.get("on"):
            step["on"] = move["on"]
        return step
    if "decline" in move or "chase" in move:
        verb = "decline" if "decline" in move else "chase"
        return {verb: move[verb], "by": by}
    if "kick_door" in move or "loot_room" in move:
        return {next(iter(move)): by}
    if "end_turn" in move:
        return {next(iter(move)): True}
    raise MoveError(f"no scenario step for the move {move!r}")
