"""The table page's moves in players' words, grouped by what they do.

The engine lists every move a seat may make now (`legal_moves`); this module turns that list
and the seat's view of the table into what the page shows: groups under headings ("Answer",
"Fight", "Play on this fight", "Your turn", "Cards", and the dangerous ones apart under
"Careful"), each holding buttons (one move each) and small forms where one move is chosen
among many (ask for help: the player and the Treasures; sell: the items; an ability's
discards; charity; gifts; a question the rules leave to the player). A form's fields are
composed into one move by the page's view (`play.views.compose_move`).

Labels are built here from the move and the table, never from the engine's log wording, so
two moves never read alike: "Play Magic Missile (on the fight)" beside "Play Magic Missile on
Bathtub Duckie", "Curse yourself with Change Sex" set apart from "Curse P2 with Change Sex".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

GROUPS = (
    ("answer", "Answer"),
    ("fight", "Fight"),
    ("play_fight", "Play on this fight"),
    ("turn", "Your turn"),
    ("cards", "Cards"),
    ("careful", "Careful"),
)
GROUP_HINTS = {
    "careful": "These cost you: a curse on yourself, a card gone from play, items given away.",
}
CURSE_KINDS = ("curse", "trap")
# The fields a form may fill with the cards it picks (play.views.compose_move).
PICK_KEYS = ("sell", "discard", "give", "choose")
# The order of a group's items: the step that moves the game on first.
ORDER = {
    "pass": 0,
    "help": 0,
    "refuse_help": 1,
    "choose": 0,
    "choose_option": 0,
    "resolve": 0,
    "ask_for_help": 1,
    "accept_help": 0,
    "decline_help": 1,
    "offer_help": 8,
    "kick_door": 0,
    "look_for_trouble": 1,
    "loot_room": 2,
    "equip": 3,
    "unequip": 4,
    "sell": 5,
    "charity": 6,
    "end_turn": 9,
}


def plural(count: int, word: str) -> str:
    """'1 Treasure', '2 Treasures', '0 Treasures': a player's words, never 'Treasure(s)'."""
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def move_json(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


@dataclass
class MoveButton:
    """One move, one button."""

    move: str
    label: str
    primary: bool = False
    order: int = 5
    kind: str = "button"


@dataclass
class Option:
    """A checkbox, a radio button or a menu entry of a form: its value and its words (and
    the card it stands for, whose face the form shows)."""

    value: str
    label: str
    card: dict[str, Any] | None = None
    checked: bool = False


@dataclass
class MoveForm:
    """Several moves as one form. `kind`: "pick" (checkboxes of cards filling the list
    `pick_into` of the move `template`, or of the move chosen in `players`), "radio" (one
    move among `options`, each option's value a move), or "help" (the player asked, chosen
    in `players`, and a number of Treasures from 0 to `most`)."""

    kind: str
    name: str
    legend: str
    submit: str
    template: str = ""
    pick_into: str = ""
    options: list[Option] = field(default_factory=list)
    players: list[Option] = field(default_factory=list)
    least: int = 0
    most: int = 0
    value: int = 0
    hint: str = ""
    primary: bool = False
    order: int = 5


@dataclass
class MoveGroup:
    key: str
    title: str
    items: list[MoveButton | MoveForm]
    hint: str = ""


class TableWords:
    """What a seat's view says about the cards and people that moves name."""

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        self.state = state
        self.seat = seat
        players = state.get("players") or []
        self.names = [p["name"] for p in players]
        self.me = self.names[seat] if 0 <= seat < len(self.names) else ""
        self.cards: dict[int, dict[str, Any]] = {}
        for card in state.get("hand") or []:
            self.cards[card["id"]] = card
        for player in players:
            for pile in ("character", "equipped", "carried", "followers", "curses"):
                for card in player.get(pile) or []:
                    self.cards.setdefault(card["id"], card)
        combat = state.get("combat")
        self.combat: dict[str, Any] | None = combat if isinstance(combat, dict) else None
        self.monsters: list[str] = []
        if self.combat is not None:
            for monster in self.combat.get("monsters") or []:
                self.monsters.append(monster["card"]["name"])
                self.cards.setdefault(monster["card"]["id"], monster["card"])
        fighter = self.combat.get("fighter") if self.combat else None
        self.fighter = self.names[fighter] if isinstance(fighter, int) else ""

    def name(self, uid: object) -> str:
        card = self.cards.get(uid) if isinstance(uid, int) else None
        return str(card["name"]) if card else f"card #{uid}"

    def kind(self, uid: object) -> str:
        card = self.cards.get(uid) if isinstance(uid, int) else None
        return str(card.get("kind", "")) if card else ""

    def card(self, uid: object) -> dict[str, Any] | None:
        return self.cards.get(uid) if isinstance(uid, int) else None

    def names_list(self, uids: object) -> str:
        if not isinstance(uids, list):
            return ""
        return ", ".join(self.name(uid) for uid in uids)


def _play(move: dict[str, Any], words: TableWords) -> tuple[str, str]:
    """A card played from the hand: its group and its words."""
    card = words.name(move["play"])
    target = move.get("on")
    if "with" in move:
        return "play_fight", f"Play {card}, bringing {words.name(move['with'])} into the fight"
    if isinstance(target, str) and target in words.monsters:
        return "play_fight", f"Play {card} on {target}"
    cursing = words.kind(move["play"]) in CURSE_KINDS
    if target == words.me:
        if cursing:
            return "careful", f"Curse yourself with {card}"
        return "cards", f"Play {card} on yourself"
    if isinstance(target, str):
        return "cards", (f"Curse {target} with {card}" if cursing else f"Play {card} on {target}")
    if words.combat is not None and words.kind(move["play"]) == "one_shot":
        side = "" if words.fighter in ("", words.me) else f", for {words.fighter}"
        return "play_fight", f"Play {card} (on the fight{side})"
    return "cards", f"Play {card}"


def ability_name(slug: object) -> str:
    return str(slug or "ability").replace("_", " ").replace("-", " ").capitalize()


def describe(move: dict[str, Any], text: str, words: TableWords) -> tuple[str, str]:
    """A move's group and its words on a button (`text`: the engine's, for a verb this page
    does not know)."""
    if "play" in move:
        return _play(move, words)
    in_fight = words.combat is not None
    name = words.name
    for verb, group, label in (
        ("kick_door", "turn", "Kick open the door"),
        ("loot_room", "turn", "Loot the room"),
        ("end_turn", "turn", "End the turn"),
        ("pass", "answer", "Pass: let the fight go on"),
        ("refuse_help", "answer", "Refuse to help"),
    ):
        if verb in move:
            return group, label
    if "help" in move:
        return "answer", f"Help {words.fighter}" if words.fighter else "Help"
    if "resolve" in move:
        return "fight", text  # the engine knows whether the side wins: "Fight" or "Run away"
    if "look_for_trouble" in move:
        return "turn", f"Look for trouble: fight {name(move['look_for_trouble'])}"
    if "equip" in move:
        return "turn", f"Equip {name(move['equip'])}"
    if "unequip" in move:
        return "turn", f"Unequip {name(move['unequip'])}"
    if "charity" in move:
        return "turn", f"Give {name(move['charity'])} away as charity"
    if "sell" in move:
        return "turn", f"Sell {words.names_list(move['sell'])}"
    if "use" in move:
        label = f"Use {ability_name(move.get('ability'))} ({name(move['use'])})"
        if move.get("discard"):
            label += f", discarding {words.names_list(move['discard'])}"
        return ("play_fight" if in_fight else "cards"), label
    if "sacrifice" in move:
        return "fight", f"Sacrifice {name(move['sacrifice'])} to escape"
    if "decline" in move:
        return "fight", f"Walk past {move['decline']} (no reward)"
    if "bribe" in move:
        return "fight", f"Bribe {move.get('on') or 'the monster'} with {name(move['bribe'])}"
    if "chase" in move:
        return "fight", f"Chase {move['chase']} away"
    if "join" in move:
        return "play_fight", f"Send {name(move['join'])} into the fight to join one of its kind"
    if "give" in move:
        return "careful", f"Give {words.names_list(move['give'])} to {move.get('to')}"
    if "discard_card" in move:
        return "careful", f"Discard {name(move['discard_card'])} from play"
    if "ask_for_help" in move:
        treasures = plural(int(move.get("treasures", 0)), "Treasure")
        return "fight", f"Ask {move['ask_for_help']} for help, offering {treasures}"
    if "offer_help" in move:
        treasures = plural(int(move["offer_help"]), "Treasure")
        fighter = f" {words.fighter}" if words.fighter else ""
        return "answer", f"Offer to help{fighter} for {treasures}"
    if "choose" in move or "choose_option" in move or "accept_help" in move:
        return "answer", text
    if "decline_help" in move:
        return "answer", text
    return "cards", text


def _verb(move: dict[str, Any]) -> str:
    return next(iter(move), "")


def offer_form(moves: list[dict[str, Any]], words: TableWords) -> MoveForm:
    """A rival's offer to help the fighter, for a number of the monsters' Treasures."""
    offers = sorted({int(move["offer_help"]) for move in moves})
    most = offers[-1]
    fighter = words.fighter or "the fighter"
    return MoveForm(
        kind="offer",
        name="offer",
        legend=f"Offer to help {fighter}",
        submit="Offer to help",
        template=move_json({"offer_help": 0}),
        most=most,
        value=0,
        hint=f"Ask for 0 to {plural(most, 'Treasure')} of the monsters' for your help; "
        f"{fighter} accepts or turns it down.",
        order=ORDER["offer_help"],
    )


def help_form(moves: list[dict[str, Any]], words: TableWords) -> MoveForm:
    """The fighter's request for help: whom to ask (those not asked yet) and how many of the
    monsters' Treasures to offer."""
    asked: list[str] = []
    for move in moves:
        if move["ask_for_help"] not in asked:
            asked.append(move["ask_for_help"])
    offers = sorted({int(move.get("treasures", 0)) for move in moves})
    most = offers[-1]
    return MoveForm(
        kind="help",
        name="ask",
        legend="Ask for help",
        submit="Ask for help",
        players=[Option(move_json({"ask_for_help": name}), name) for name in asked],
        most=most,
        value=offers[len(offers) // 2],
        hint=f"The monsters carry {plural(most, 'Treasure')}: offer 0 to {most:,}.",
        order=ORDER["ask_for_help"],
    )


def _hand_and_items(words: TableWords) -> list[dict[str, Any]]:
    state = words.state
    players = state.get("players") or []
    mine = players[words.seat] if 0 <= words.seat < len(players) else {}
    return [
        *(state.get("hand") or []),
        *(mine.get("equipped") or []),
        *(mine.get("carried") or []),
    ]


def sell_form(moves: list[dict[str, Any]], words: TableWords) -> MoveForm:
    """Selling: a checkbox per card with a Gold value (in hand or in play), and the cards
    the engine's own suggestion names."""
    suggested = {uid for move in moves for uid in move["sell"]}
    options: list[Option] = []
    for card in _hand_and_items(words):
        gold = int(card.get("gold") or 0)
        if (gold > 0 or card["id"] in suggested) and all(
            o.value != str(card["id"]) for o in options
        ):
            label = f"{card['name']} ({gold:,} Gold)" if gold else card["name"]
            options.append(Option(str(card["id"]), label, card))
    return MoveForm(
        kind="pick",
        name="sell",
        legend="Sell items for Levels",
        submit="Sell the items ticked",
        template=move_json({"sell": []}),
        pick_into="sell",
        options=options,
        least=1,
        hint="1,000 Gold buys 1 Level (never the winning one); the change is lost.",
        order=ORDER["sell"],
    )


def ability_form(moves: list[dict[str, Any]], words: TableWords) -> MoveForm | MoveButton:
    """An ability that discards: checkboxes of the hand's cards, up to the most the engine
    lists (none is also a use when the engine lists it); one without discards is a button."""
    first = moves[0]
    source = words.name(first["use"])
    ability = ability_name(first.get("ability"))
    most = max(len(move.get("discard") or []) for move in moves)
    _, label = describe({**first, "discard": []}, "", words)
    if most == 0:
        return MoveButton(move_json(first), label)
    template = {key: value for key, value in first.items() if key != "discard"}
    least = min(len(move.get("discard") or []) for move in moves)
    return MoveForm(
        kind="pick",
        name="ability",
        legend=f"{ability} ({source}): discard up to {plural(most, 'card')}",
        submit=label,
        template=move_json({**template, "discard": []}),
        pick_into="discard",
        options=[
            Option(str(card["id"]), card["name"], card) for card in words.state.get("hand") or []
        ],
        least=min(least, 1) if least else 0,
        most=most,
    )


def radio_form(moves: list[dict[str, Any]], words: TableWords, verb: str) -> MoveForm:
    """One card among several, each its own move (charity)."""
    return MoveForm(
        kind="radio",
        name=verb,
        legend="Charity: give a card away (too many in your hand)",
        submit="Give it away",
        options=[
            Option(
                move_json(m),
                words.name(m[verb]) + (f" to {m['to']}" if "to" in m else ""),
                words.card(m[verb]),
            )
            for m in moves
        ],
        order=ORDER.get(verb, 5),
    )


def give_form(moves: list[dict[str, Any]], words: TableWords) -> MoveForm:
    """Gifts: the items to give (checkboxes) and the player who receives them."""
    uids: list[int] = []
    receivers: list[str] = []
    for move in moves:
        for uid in move["give"]:
            if uid not in uids:
                uids.append(uid)
        if move["to"] not in receivers:
            receivers.append(move["to"])
    return MoveForm(
        kind="pick",
        name="give",
        legend="Give items away",
        submit="Give the items ticked",
        pick_into="give",
        options=[Option(str(uid), words.name(uid), words.card(uid)) for uid in uids],
        players=[Option(move_json({"give": [], "to": name}), name) for name in receivers],
        least=1,
        hint="A gift: nothing comes back.",
    )


def choice_forms(choice: dict[str, Any], words: TableWords) -> list[MoveForm]:
    """A question the rules leave to this seat: the cards to pick (exactly `count`), or one
    of the options."""
    text = str(choice.get("text") or "Choose")
    suggested = list(choice.get("suggested") or [])  # the rules' default answer, ticked
    forms: list[MoveForm] = []
    candidates = [c for c in choice.get("candidates") or [] if isinstance(c, dict)]
    if candidates:
        count = int(choice.get("count") or 0)
        forms.append(
            MoveForm(
                kind="pick",
                name="choose",
                legend=text,
                submit="Answer",
                template=move_json({"choose": []}),
                pick_into="choose",
                options=[
                    Option(str(c["id"]), c["name"], c, c.get("id") in suggested) for c in candidates
                ],
                least=count,
                most=count,
                hint=f"Pick exactly {plural(count, 'card')}." if count else "",
                primary=True,
            )
        )
    options = [str(o) for o in choice.get("options") or []]
    if options:
        forms.append(
            MoveForm(
                kind="radio",
                name="choose_option",
                legend=text,
                submit="Answer",
                options=[
                    Option(move_json({"choose_option": i}), option, None, i in suggested)
                    for i, option in enumerate(options)
                ],
                primary=True,
            )
        )
    return forms


def my_choice(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The question the rules ask this seat now, if any."""
    choice = state.get("choice")
    if isinstance(choice, dict) and choice.get("seat") == seat:
        return choice
    return None


def group_moves(moves: list[dict[str, Any]], state: dict[str, Any], seat: int) -> list[MoveGroup]:
    """The seat's moves (each {"move": {...}, "text": "..."}) as the page's groups, in the
    page's order, empty groups left out."""
    words = TableWords(state, seat)
    items: dict[str, list[MoveButton | MoveForm]] = {key: [] for key, _ in GROUPS}
    together: dict[str, list[dict[str, Any]]] = {}
    choice = my_choice(state, seat)
    if choice is not None:
        items["answer"] += choice_forms(choice, words)
    for entry in moves:
        move = entry["move"]
        verb = _verb(move)
        if verb in ("ask_for_help", "sell", "charity", "give", "offer_help"):
            together.setdefault(verb, []).append(move)
            continue
        if verb == "use":
            together.setdefault(f"use:{move['use']}:{move.get('ability')}", []).append(move)
            continue
        if verb in ("choose", "choose_option") and choice is not None:
            continue  # the question's form answers it
        group, label = describe(move, str(entry.get("text", "")), words)
        primary = verb in ("kick_door", "resolve", "pass", "help")
        items[group].append(MoveButton(move_json(move), label, primary, ORDER.get(verb, 5)))
    for key, gathered in together.items():
        if key == "ask_for_help":
            items["fight"].append(help_form(gathered, words))
        elif key == "offer_help":
            items["answer"].append(offer_form(gathered, words))
        elif key == "sell":
            items["turn"].append(sell_form(gathered, words))
        elif key == "charity":
            items["turn"].append(radio_form(gathered, words, "charity"))
        elif key == "give":
            items["careful"].append(give_form(gathered, words))
        else:
            group = "play_fight" if words.combat is not None else "cards"
            items[group].append(ability_form(gathered, words))
    return [
        MoveGroup(
            key, title, sorted(items[key], key=lambda item: item.order), GROUP_HINTS.get(key, "")
        )
        for key, title in GROUPS
        if items[key]
    ]
