"""The scenario runner (see shared/design/scenario-format.md).

A scenario sets a table, plays steps through the engine and checks expectations. It is callable
without Django: cards come from the scenario's inline `cards`, a pack file, set files on disk
(`fixtures/sets/` by default) or any `CardLibrary` the caller passes (the `scenario` management
command passes the catalog's).

Keys added beyond the format's: steps `unequip`, `decline`, `bribe`, `chase`, `discard_card`,
`loot_room`, `look_for_trouble`, `end_turn`, `give` (trade Items from the table: `give: [...]`,
`by`, `to`, optional `take: [...]` back); a `help` step's `treasures` (how many of the drawn
Treasures the helper gets), `picks_first` and `forced`; a `sacrifice` step's `helper_escapes`;
expectations `winner`, `sex`, `carried`, `equipped`, `treasures_face_up`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, ValidationError

from validator.engine.cards import (
    CardBase,
    CardDocumentError,
    DocumentError,
    ExtraCharacterCard,
    Model,
    errors_from_validation,
    format_path,
    line_for,
    load_set_file,
    nearest_word,
    parse_card,
    read_yaml,
)
from validator.engine.combat import (
    monsters_strength,
    offer_help,
    side_strength,
    start_combat,
)
from validator.engine.state import (
    CHARACTER_KINDS,
    CardInstance,
    Game,
    Options,
    Player,
    RuleViolation,
    ScriptedDie,
    SeededDie,
    effects_of,
    is_curse,
    is_follower,
    is_item,
    is_monster,
    is_one_shot,
)

DEFAULT_SET_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "sets"

# --------------------------------------------------------------------------------------------
# The document
# --------------------------------------------------------------------------------------------

Name = Annotated[str, Field(min_length=1, max_length=120)]


class PlayerSetup(Model):
    name: Name
    level: int = Field(default=1, ge=1, le=10)
    sex: Literal["male", "female"] = "male"
    in_play: list[Name] = Field(default_factory=list)
    carried: list[Name] = Field(default_factory=list)
    hand: list[Name] = Field(default_factory=list)


class CombatSetup(Model):
    fighter: Name
    monsters: list[Name] = Field(min_length=1)


class DeckSetup(Model):
    door: list[Name] = Field(default_factory=list)
    treasure: list[Name] = Field(default_factory=list)


class ScenarioOptions(Model):
    faster_play: bool = False
    shared_victory: bool = False


class PlayStep(Model):
    play: Name
    by: Name
    on: Name | None = None
    with_: Name | None = Field(default=None, alias="with")


class UseStep(Model):
    use: Name
    by: Name
    ability: Name | None = None
    discard: list[Name] = Field(default_factory=list)
    on: Name | None = None


class JoinStep(Model):
    join: Name
    by: Name


class HelpStep(Model):
    help: Name
    treasures: int = Field(default=0, ge=0)
    picks_first: bool = False
    # Compelled by the fighter's card (Kneepads of Allure): never in a fight for the win.
    forced: bool = False


class SacrificeStep(Model):
    sacrifice: Name
    by: Name
    # The fighter decides whether the helper escapes too (true) or must roll (false).
    helper_escapes: bool = True


class KickDoorStep(Model):
    kick_door: Name


class SellStep(Model):
    sell: list[Name] = Field(min_length=1)
    by: Name


class EquipStep(Model):
    equip: Name
    by: Name


class UnequipStep(Model):
    unequip: Name
    by: Name


class ResolveStep(Model):
    resolve: Literal[True]


class DeclineStep(Model):
    decline: Name
    by: Name


class BribeStep(Model):
    bribe: Name
    by: Name
    on: Name | None = None


class ChaseStep(Model):
    chase: Name
    by: Name


class DiscardCardStep(Model):
    discard_card: Name
    by: Name


class LootRoomStep(Model):
    loot_room: Name


class LookForTroubleStep(Model):
    look_for_trouble: Name
    by: Name


class EndTurnStep(Model):
    end_turn: Literal[True]


class GiveStep(Model):
    """Trade Items from the table: `give` goes to `to`; `take` (optional) comes back."""

    give: list[Name] = Field(min_length=1)
    by: Name
    to: Name
    take: list[Name] = Field(default_factory=list)


STEP_TYPES: dict[str, type[Model]] = {
    "play": PlayStep,
    "use": UseStep,
    "join": JoinStep,
    "help": HelpStep,
    "sacrifice": SacrificeStep,
    "kick_door": KickDoorStep,
    "sell": SellStep,
    "equip": EquipStep,
    "unequip": UnequipStep,
    "resolve": ResolveStep,
    "decline": DeclineStep,
    "bribe": BribeStep,
    "chase": ChaseStep,
    "discard_card": DiscardCardStep,
    "loot_room": LootRoomStep,
    "look_for_trouble": LookForTroubleStep,
    "end_turn": EndTurnStep,
    "give": GiveStep,
}


def _step_kind(value: Any) -> str | None:
    if isinstance(value, Model):
        return next(k for k, t in STEP_TYPES.items() if isinstance(value, t))
    if isinstance(value, dict):
        keys = [k for k in value if k in STEP_TYPES]
        if len(keys) == 1:
            return str(keys[0])
        if not keys and value:
            return str(next(iter(value)))
    return None


Step = Annotated[
    Annotated[PlayStep, Tag("play")]
    | Annotated[UseStep, Tag("use")]
    | Annotated[JoinStep, Tag("join")]
    | Annotated[HelpStep, Tag("help")]
    | Annotated[SacrificeStep, Tag("sacrifice")]
    | Annotated[KickDoorStep, Tag("kick_door")]
    | Annotated[SellStep, Tag("sell")]
    | Annotated[EquipStep, Tag("equip")]
    | Annotated[UnequipStep, Tag("unequip")]
    | Annotated[ResolveStep, Tag("resolve")]
    | Annotated[DeclineStep, Tag("decline")]
    | Annotated[BribeStep, Tag("bribe")]
    | Annotated[ChaseStep, Tag("chase")]
    | Annotated[DiscardCardStep, Tag("discard_card")]
    | Annotated[LootRoomStep, Tag("loot_room")]
    | Annotated[LookForTroubleStep, Tag("look_for_trouble")]
    | Annotated[EndTurnStep, Tag("end_turn")]
    | Annotated[GiveStep, Tag("give")],
    Discriminator(_step_kind),
]


class Expect(Model):
    fighter_strength: int | None = None
    monster_strength: int | None = None
    outcome: Literal["won", "escaped", "caught", "dead", "none"] | None = None
    levels: dict[Name, int] = Field(default_factory=dict)
    treasures_drawn: int | None = None
    hand_sizes: dict[Name, int] = Field(default_factory=dict)
    in_play: dict[Name, list[Name]] = Field(default_factory=dict)
    not_in_play: dict[Name, list[Name]] = Field(default_factory=dict)
    carried: dict[Name, list[Name]] = Field(default_factory=dict)
    equipped: dict[Name, list[Name]] = Field(default_factory=dict)
    dead: list[Name] | None = None
    error: bool | str | None = None
    winner: Name | None = None
    sex: dict[Name, Literal["male", "female"]] = Field(default_factory=dict)
    treasures_face_up: bool | None = None


class ScenarioDocument(Model):
    name: Name
    sets: list[Name] = Field(default_factory=list)
    pack: Name | None = None
    cards: list[dict[str, Any]] = Field(default_factory=list)
    seed: int | None = None
    dice: list[Annotated[int, Field(ge=1, le=6)]] = Field(default_factory=list)
    options: ScenarioOptions = Field(default_factory=ScenarioOptions)
    players: list[PlayerSetup] = Field(min_length=1)
    combat: CombatSetup | None = None
    steps: list[Step] = Field(default_factory=list)
    deck: DeckSetup = Field(default_factory=DeckSetup)
    expect: Expect = Field(default_factory=Expect)


# --------------------------------------------------------------------------------------------
# Cards by name
# --------------------------------------------------------------------------------------------


class CardLibrary:
    """Cards by name, across sets. Earlier sources win over later ones for the same name."""

    def __init__(self) -> None:
        self._by_name: dict[str, list[tuple[str, CardBase]]] = {}
        self.sets: list[str] = []

    def add(self, set_code: str, card: CardBase) -> None:
        entries = self._by_name.setdefault(card.name.casefold(), [])
        if all(code != set_code for code, _ in entries):
            entries.append((set_code, card))
        if set_code not in self.sets:
            self.sets.append(set_code)

    def cards(self) -> Iterable[tuple[str, CardBase]]:
        for entries in self._by_name.values():
            yield from entries

    def lookup(self, reference: str) -> tuple[str, CardBase]:
        name, _, set_code = reference.partition("@")
        entries = self._by_name.get(name.strip().casefold(), [])
        if set_code:
            entries = [e for e in entries if e[0] == set_code.strip()]
        if not entries:
            names = [card.name for _, card in self.cards()]
            hint = nearest_word(name.strip(), names)
            where = f" in {set_code}" if set_code else ""
            raise KeyError(
                f"unknown card {reference!r}{where}" + (f"; did you mean {hint!r}?" if hint else "")
            )
        inline = [e for e in entries if e[0] == ""]
        if inline:
            return inline[0]
        if len(entries) > 1:
            options = ", ".join(f"{name}@{code}" for code, _ in entries)
            raise KeyError(f"{name!r} is in several sets; write one of {options}")
        return entries[0]


_SET_FILE_CACHE: dict[Path, tuple[float, list[CardBase]]] = {}


def _set_file_cards(path: Path) -> list[CardBase]:
    """A set file's cards, parsed once per version of the file (scenarios share them)."""
    mtime = path.stat().st_mtime
    hit = _SET_FILE_CACHE.get(path)
    if hit is None or hit[0] != mtime:
        hit = (mtime, list(load_set_file(path).cards))
        _SET_FILE_CACHE[path] = hit
    return hit[1]


def library_from_set_files(codes: Sequence[str], directory: Path = DEFAULT_SET_DIR) -> CardLibrary:
    library = CardLibrary()
    for code in codes:
        path = directory / f"{code}.yaml"
        if not path.exists():
            raise KeyError(f"unknown set {code!r} (no {path})")
        for card in _set_file_cards(path):
            library.add(code, card)
    return library


def library_from_pack(path: Path) -> CardLibrary:
    """Every card of a pack file (docs/pack-format.md) under its set code.

    The pack is checked as `load_pack` checks it; a bad one raises `pack.PackError` (a
    CardDocumentError) naming the file, path and line."""
    from validator.engine.pack import load_pack  # pack.py imports this module

    return load_pack(path).library()


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


class ScenarioError(Exception):
    """A scenario that cannot run as written (unknown key, card, player or step)."""

    def __init__(self, errors: list[DocumentError], source: str | None = None) -> None:
        self.errors = errors
        self.source = source
        super().__init__(str(CardDocumentError(errors, source)))

    def lines(self) -> list[str]:
        return CardDocumentError(self.errors, self.source).lines()


@dataclass
class ScenarioResult:
    name: str
    source: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        status = "PASS" if self.passed else "FAIL"
        text = f"{status} {self.name}"
        if self.source:
            text += f" ({self.source})"
        if self.failures:
            text += ": " + "; ".join(self.failures)
        return text

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "passed": self.passed,
            "failures": self.failures,
            "values": self.values,
        }


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------


@dataclass
class _Context:
    document: ScenarioDocument
    lines: dict[tuple[str | int, ...], int]
    source: str
    library: CardLibrary
    game: Game
    next_uid: int = 100000

    def fail(self, path: Sequence[str | int], message: str) -> ScenarioError:
        return _error(path, message, self.lines, self.source)

    def player(self, name: str, path: Sequence[str | int]) -> Player:
        try:
            return self.game.player(name)
        except RuleViolation:
            names = [p.name for p in self.game.players]
            hint = nearest_word(name, names)
            raise self.fail(
                path,
                f"unknown player {name!r}"
                + (f"; did you mean {hint!r}?" if hint else f"; players: {', '.join(names)}"),
            ) from None

    def take(self, reference: str, path: Sequence[str | int]) -> CardInstance:
        """Take a copy of the named card out of the decks (or make one) for the table."""
        try:
            set_code, card = self.library.lookup(reference)
        except KeyError as exc:
            raise self.fail(path, str(exc.args[0])) from None
        for deck in (self.game.door_deck, self.game.treasure_deck):
            for instance in deck:
                if instance.card is card:
                    deck.remove(instance)
                    return instance
        self.next_uid += 1
        return CardInstance(self.next_uid, card, set_code)


def _error(
    path: Sequence[str | int],
    message: str,
    lines: dict[tuple[str | int, ...], int],
    source: str,
) -> ScenarioError:
    return ScenarioError([DocumentError(format_path(path), message, line_for(path, lines))], source)


def parse_scenario(
    data: Any, source: str = "", lines: dict[tuple[str | int, ...], int] | None = None
) -> ScenarioDocument:
    try:
        return ScenarioDocument.model_validate(data)
    except ValidationError as exc:
        errors = errors_from_validation(exc, ScenarioDocument, lines or {})
        raise ScenarioError(errors, source) from exc


def load_scenario_file(path: Path) -> tuple[ScenarioDocument, dict[tuple[str | int, ...], int]]:
    try:
        parsed = read_yaml(path.read_text(encoding="utf-8"), str(path))
    except CardDocumentError as exc:
        raise ScenarioError(exc.errors, str(path)) from exc
    return parse_scenario(parsed.data, str(path), parsed.lines), parsed.lines


def run_scenario_file(path: Path, library: CardLibrary | None = None) -> ScenarioResult:
    """Run one scenario file; a malformed scenario is a failed result naming file and line."""
    try:
        document, lines = load_scenario_file(path)
        return run_scenario(
            document, source=str(path), lines=lines, library=library, base_dir=path.parent
        )
    except ScenarioError as exc:
        return ScenarioResult(path.stem, str(path), False, exc.lines())


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
            files.extend(sorted(p for p in path.rglob("*.yml") if p.is_file()))
        else:
            files.append(path)
    return files


def build_library(
    document: ScenarioDocument,
    library: CardLibrary | None,
    base_dir: Path | None,
    fail: Any,
) -> CardLibrary:
    given_sets = set(document.sets)
    if (
        library is not None
        and not document.cards
        and not document.pack
        and given_sets
        and given_sets >= set(library.sets)
    ):
        return library  # nothing to add or filter out: share it as it is
    result = CardLibrary()
    for index, raw in enumerate(document.cards):
        try:
            result.add("", parse_card(raw))
        except CardDocumentError as exc:
            first = exc.errors[0]
            raise fail(["cards", index], f"{first.path}: {first.message}") from None
    if document.pack:
        pack_path = Path(document.pack)
        if not pack_path.is_absolute() and base_dir is not None:
            pack_path = base_dir / pack_path
        try:
            source = library_from_pack(pack_path)
        except (OSError, ValueError, CardDocumentError) as exc:
            raise fail(["pack"], f"cannot read pack {document.pack!r}: {exc}") from None
    elif library is not None:
        source = library
    else:
        try:
            source = library_from_set_files(document.sets)
        except KeyError as exc:
            raise fail(["sets"], str(exc.args[0])) from None
    # With no `sets`, only the inline cards (and a pack's) are known, whatever the library.
    for code, card in source.cards():
        if code in document.sets or document.pack:
            result.add(code, card)
    return result


def run_scenario(
    document: ScenarioDocument,
    *,
    source: str = "",
    lines: dict[tuple[str | int, ...], int] | None = None,
    library: CardLibrary | None = None,
    base_dir: Path | None = None,
) -> ScenarioResult:
    """Set the table, play the steps, check the expectations."""
    known_lines = lines or {}

    def fail(path: Sequence[str | int], message: str) -> ScenarioError:
        return _error(path, message, known_lines, source)

    cards = build_library(document, library, base_dir, fail)
    rng = random.Random(document.seed if document.seed is not None else 0)
    game = Game(
        players=[Player(p.name, level=p.level, sex=p.sex) for p in document.players],
        rng=rng,
        options=Options(document.options.faster_play, document.options.shared_victory),
    )
    game.die = ScriptedDie(document.dice, SeededDie(rng))
    context = _Context(document, known_lines, source, cards, game)
    _build_decks(context)
    _set_table(context)
    from validator.engine.game import check_invariants

    game.total_cards = sum(map(len, game.card_piles()))
    values: dict[str, Any] = {}
    refusal: str | None = None
    broken = check_invariants(game)
    if broken:
        return ScenarioResult(
            document.name,
            source,
            False,
            [f"invariant broken by the table: {'; '.join(broken)}"],
            values,
        )
    for index, step in enumerate(document.steps):
        path: list[str | int] = ["steps", index]
        before = fingerprint(game)
        try:
            if isinstance(step, ResolveStep) and game.combat is not None:
                values["fighter_strength"] = side_strength(game, game.combat)
                values["monster_strength"] = monsters_strength(game, game.combat)
            _apply_step(context, step, path)
        except RuleViolation as exc:
            after = fingerprint(game)
            if after != before:
                return ScenarioResult(
                    document.name,
                    source,
                    False,
                    [f"engine bug: the refused step {format_path(path)} changed the game state"],
                    values,
                )
            refusal = f"{format_path(path)}: {exc}"
            values["error"] = str(exc)
            break
        broken = check_invariants(game)
        if broken:
            return ScenarioResult(
                document.name,
                source,
                False,
                [f"invariant broken after {format_path(path)}: {'; '.join(broken)}"],
                values,
            )
    if game.combat is not None and "fighter_strength" not in values:
        values["fighter_strength"] = side_strength(game, game.combat)
        values["monster_strength"] = monsters_strength(game, game.combat)
    last = game.combat or game.last_combat
    values["outcome"] = last.outcome if last is not None and last.resolved else "none"
    if (
        last is not None
        and last.last_side_strength is not None
        and "fighter_strength" not in values
    ):
        values["fighter_strength"] = last.last_side_strength
        values["monster_strength"] = last.last_monster_strength
    values["treasures_drawn"] = last.treasures_drawn if last is not None else 0
    values["treasures_face_up"] = last.treasures_face_up if last is not None else False
    values["levels"] = {p.name: p.level for p in game.players}
    values["hand_sizes"] = {p.name: len(p.hand) for p in game.players}
    values["in_play"] = {p.name: sorted(c.name for c in p.in_play()) for p in game.players}
    values["carried"] = {p.name: sorted(c.name for c in p.carried) for p in game.players}
    values["equipped"] = {p.name: sorted(c.name for c in p.equipped) for p in game.players}
    values["dead"] = [p.name for p in game.players if p.dead]
    values["winner"] = game.winner.name if game.winner is not None else None
    values["sex"] = {p.name: p.sex for p in game.players}
    values["log"] = list(game.log)
    failures = _check(context, document.expect, values, refusal)
    return ScenarioResult(document.name, source, not failures, failures, values)


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Everything a move could change, to prove that a refused move changed nothing."""
    players = tuple(
        (
            p.name,
            p.level,
            p.sex,
            p.dead,
            tuple(c.uid for c in p.hand),
            tuple(c.uid for c in p.equipped),
            tuple(c.uid for c in p.carried),
            tuple(c.uid for c in p.character),
            tuple(c.uid for c in p.attachments),
            tuple(c.uid for c in p.followers),
            tuple(c.uid for c in p.curses),
            tuple(sorted(p.cheats)),
            tuple(c.uid for c in p.next_combat),
            tuple(sorted((k, tuple(c.uid for c in v)) for k, v in p.ship_enhancers.items())),
        )
        for p in game.players
    )
    combat = game.combat
    combat_state: tuple[Any, ...] = ()
    if combat is not None:
        combat_state = (
            combat.fighter.name,
            combat.helper.name if combat.helper else None,
            tuple((m.card.uid, tuple(e.uid for e in m.enhancers)) for m in combat.monsters),
            tuple(p.card.uid for p in combat.one_shots),
            tuple(sorted(combat.ability_bonus.items())),
            tuple(sorted(combat.runaway_bonus.items())),
            combat.resolved,
        )
    piles = tuple(
        tuple(c.uid for c in pile)
        for pile in (game.door_deck, game.treasure_deck, game.door_discard, game.treasure_discard)
    )
    return players, combat_state, piles, game.phase, game.winner is not None


# Card instances are immutable, so scenarios run on the same library share them: each game gets
# its own lists, shuffled by its own seed. Keyed by id(); each entry keeps its library alive.
_DECK_CACHE: dict[tuple[int, bool], tuple[CardLibrary, list[CardInstance], list[CardInstance]]] = {}


def _build_decks(context: _Context) -> None:
    game = context.game
    skip_inline = bool(context.document.sets)
    key = (id(context.library), skip_inline)
    hit = _DECK_CACHE.get(key)
    if hit is None or hit[0] is not context.library:
        doors: list[CardInstance] = []
        treasures: list[CardInstance] = []
        uid = 0
        for code, card in context.library.cards():
            if code == "" and skip_inline:
                continue  # inline test cards are not shuffled into the decks
            if card.deck is None:
                continue  # outside both decks
            for _ in range(card.copies or 1):
                uid += 1
                (doors if card.deck == "door" else treasures).append(CardInstance(uid, card, code))
        hit = (context.library, doors, treasures)
        if len(_DECK_CACHE) >= 32:  # a server builds libraries per request: keep few alive
            _DECK_CACHE.clear()
        _DECK_CACHE[key] = hit
    game.door_deck = list(hit[1])
    game.treasure_deck = list(hit[2])
    game.rng.shuffle(game.door_deck)
    game.rng.shuffle(game.treasure_deck)


def _set_table(context: _Context) -> None:
    from validator.engine.turn import _add_monster, check_can_hold

    document, game = context.document, context.game
    for p_index, setup in enumerate(document.players):
        player = game.players[p_index]
        base: list[str | int] = ["players", p_index]
        for i, name in enumerate(setup.in_play):
            card = context.take(name, [*base, "in_play", i])
            try:
                _put_in_play(game, player, card)
            except RuleViolation as exc:
                raise context.fail([*base, "in_play", i], str(exc)) from None
        for i, name in enumerate(setup.carried):
            card = context.take(name, [*base, "carried", i])
            if not (is_item(card.card) or is_one_shot(card.card)):
                raise context.fail([*base, "carried", i], f"{card.name} is not an item")
            try:
                check_can_hold(player, card)
            except RuleViolation as exc:
                raise context.fail([*base, "carried", i], str(exc)) from None
            player.carried.append(card)
        for i, name in enumerate(setup.hand):
            player.hand.append(context.take(name, [*base, "hand", i]))
    names = [p.name.casefold() for p in game.players]
    if len(set(names)) != len(names):
        raise context.fail(["players"], "two players have the same name")
    for deck_name in ("door", "treasure"):
        tops = getattr(document.deck, deck_name)
        pile = game.door_deck if deck_name == "door" else game.treasure_deck
        for i, name in reversed(list(enumerate(tops))):
            card = context.take(name, ["deck", deck_name, i])
            if card.card.deck != deck_name:
                raise context.fail(
                    ["deck", deck_name, i], f"{card.name} is a {card.card.deck} card"
                )
            pile.insert(0, card)
    if document.combat is not None:
        fighter = context.player(document.combat.fighter, ["combat", "fighter"])
        game.active = game.players.index(fighter)
        game.phase = "kicked"
        monsters = []
        for i, name in enumerate(document.combat.monsters):
            card = context.take(name, ["combat", "monsters", i])
            if not is_monster(card.card):
                raise context.fail(["combat", "monsters", i], f"{card.name} is not a monster")
            monsters.append(card)
        combat = start_combat(game, fighter, monsters[0])
        for card in monsters[1:]:
            if game.combat is combat:
                _add_monster(game, combat, card)


def _put_in_play(game: Game, player: Player, card: CardInstance) -> None:
    from validator.engine.turn import _curse, place_in_play

    definition = card.card
    if definition.kind_name == "power":
        rank = getattr(definition, "rank", None) or 1
        if player.power_ranks() + rank > player.power_limit():
            raise RuleViolation(
                f"{player.name}'s Powers would total Rank {player.power_ranks() + rank}, above "
                f"Level {player.level}"
            )
        player.character.append(card)
    elif definition.kind_name == "origin":
        player.character.append(card)  # any number of Origins
    elif definition.kind_name in CHARACTER_KINDS:
        axis = definition.kind_name
        if len(player.axis_cards(axis)) >= 1 + player.extra_slots(axis):
            raise RuleViolation(
                f"{player.name} already has a {axis}; a second needs its Super Munchkin-like card "
                "in play first"
            )
        player.character.append(card)
    elif any(True for _ in effects_of(definition, ExtraCharacterCard)):
        player.attachments.append(card)
    elif is_item(definition) or is_one_shot(definition):
        place_in_play(game, player, card)
    elif is_follower(definition):
        player.followers.append(card)
    elif is_curse(definition):
        _curse(game, card, player)
    else:
        raise RuleViolation(f"{card.name} ({definition.kind_name}) cannot be put in play")


def _cards_of(
    context: _Context, player: Player, names: Sequence[str], path: Sequence[str | int]
) -> list[CardInstance]:
    """Several named cards of a player: a name given twice means two copies."""
    chosen: list[CardInstance] = []
    for index, name in enumerate(names):
        key = name.partition("@")[0].strip().casefold()
        pool = [c for c in [*player.hand, *player.in_play()] if c not in chosen]
        found = next((c for c in pool if c.name.casefold() == key), None)
        if found is None:
            found = _card_of(context, player, name, [*path, index])  # names the error
            raise RuleViolation(f"{player.name} has no other {name}")
        chosen.append(found)
    return chosen


def _card_of(
    context: _Context, player: Player, name: str, path: Sequence[str | int], places: str = "all"
) -> CardInstance:
    pools: list[CardInstance] = []
    if places in ("all", "hand"):
        pools += player.hand
    if places in ("all", "table"):
        pools += list(player.in_play())
    key = name.partition("@")[0].strip().casefold()
    for card in pools:
        if card.name.casefold() == key:
            return card
    try:
        context.library.lookup(name)
    except KeyError as exc:
        raise context.fail(path, str(exc.args[0])) from None
    raise RuleViolation(f"{player.name} has no {name}")


def _target(game: Game, on: str | None) -> tuple[Player | None, str | None]:
    """`on:` names a player or, failing that, a monster in the fight."""
    if on is None:
        return None, None
    if any(p.name.casefold() == on.casefold() for p in game.players):
        return game.player(on), None
    return None, on


def _apply_step(context: _Context, step: Model, path: list[str | int]) -> None:
    from validator.engine import combat_specials, turn
    from validator.engine.combat import resolve

    game = context.game
    if isinstance(step, PlayStep):
        player = context.player(step.by, [*path, "by"])
        card = _card_of(context, player, step.play, [*path, "play"])
        target_player, target_monster = _target(game, step.on)
        with_card = None
        if step.with_ is not None:
            owner = (
                target_player
                if target_player is not None
                and not is_monster(context.library.lookup(step.with_)[1])
                else player
            )
            with_card = _card_of(context, owner, step.with_, [*path, "with"])
        turn.play(
            game,
            player,
            card,
            target_player=target_player,
            target_monster=target_monster,
            with_card=with_card,
        )
    elif isinstance(step, UseStep):
        player = context.player(step.by, [*path, "by"])
        source = _card_of(context, player, step.use, [*path, "use"], "table")
        discards = _cards_of(context, player, step.discard, [*path, "discard"])
        target_player, target_monster = _target(game, step.on)
        turn.use_ability(
            game,
            player,
            source,
            step.ability,
            discards=discards,
            target_player=target_player,
            target_monster=target_monster,
        )
    elif isinstance(step, JoinStep):
        player = context.player(step.by, [*path, "by"])
        turn.join_monster(
            game, player, _card_of(context, player, step.join, [*path, "join"], "hand")
        )
    elif isinstance(step, HelpStep):
        helper = context.player(step.help, [*path, "help"])
        offer_help(
            game,
            helper,
            treasures=step.treasures,
            picks_first=step.picks_first,
            forced=step.forced,
        )
    elif isinstance(step, SacrificeStep):
        player = context.player(step.by, [*path, "by"])
        follower = _card_of(context, player, step.sacrifice, [*path, "sacrifice"], "table")
        turn.sacrifice(game, player, follower, helper_escapes=step.helper_escapes)
    elif isinstance(step, KickDoorStep):
        turn.kick_door(game, context.player(step.kick_door, [*path, "kick_door"]))
    elif isinstance(step, SellStep):
        player = context.player(step.by, [*path, "by"])
        turn.sell(game, player, _cards_of(context, player, step.sell, [*path, "sell"]))
    elif isinstance(step, EquipStep):
        player = context.player(step.by, [*path, "by"])
        turn.equip(game, player, _card_of(context, player, step.equip, [*path, "equip"]))
    elif isinstance(step, UnequipStep):
        player = context.player(step.by, [*path, "by"])
        turn.unequip(
            game, player, _card_of(context, player, step.unequip, [*path, "unequip"], "table")
        )
    elif isinstance(step, ResolveStep):
        resolve(game)
    elif isinstance(step, DeclineStep):
        combat_specials.decline(game, context.player(step.by, [*path, "by"]), step.decline)
    elif isinstance(step, BribeStep):
        player = context.player(step.by, [*path, "by"])
        combat_specials.bribe(
            game, player, _card_of(context, player, step.bribe, [*path, "bribe"]), step.on
        )
    elif isinstance(step, ChaseStep):
        combat_specials.chase_away(game, context.player(step.by, [*path, "by"]), step.chase)
    elif isinstance(step, DiscardCardStep):
        player = context.player(step.by, [*path, "by"])
        turn.discard_character_card(
            game,
            player,
            _card_of(context, player, step.discard_card, [*path, "discard_card"], "table"),
        )
    elif isinstance(step, LootRoomStep):
        turn.loot_room(game, context.player(step.loot_room, [*path, "loot_room"]))
    elif isinstance(step, LookForTroubleStep):
        player = context.player(step.by, [*path, "by"])
        turn.look_for_trouble(
            game,
            player,
            _card_of(context, player, step.look_for_trouble, [*path, "look_for_trouble"], "hand"),
        )
    elif isinstance(step, EndTurnStep):
        turn.end_turn(game)
    elif isinstance(step, GiveStep):
        giver = context.player(step.by, [*path, "by"])
        receiver = context.player(step.to, [*path, "to"])
        turn.trade(
            game,
            giver,
            receiver,
            _cards_of(context, giver, step.give, [*path, "give"]),
            _cards_of(context, receiver, step.take, [*path, "take"]),
        )
    else:  # pragma: no cover - every step type is handled above
        raise TypeError(type(step).__name__)


def _check(
    context: _Context, expect: Expect, values: dict[str, Any], refusal: str | None
) -> list[str]:
    failures: list[str] = []

    def player_name(name: str, path: list[str | int]) -> str:
        return context.player(name, path).name

    if refusal is not None:
        if expect.error is None or expect.error is False:
            failures.append(f"step refused: {refusal}")
        elif isinstance(expect.error, str) and expect.error.casefold() not in refusal.casefold():
            failures.append(
                f"error: expected a refusal containing {expect.error!r}, got {refusal!r}"
            )
    elif expect.error:
        failures.append("error: expected a step to be refused, but every step was allowed")
    for key in (
        "fighter_strength",
        "monster_strength",
        "treasures_drawn",
        "outcome",
        "treasures_face_up",
    ):
        wanted = getattr(expect, key)
        if wanted is not None and values.get(key) != wanted:
            failures.append(f"{key}: expected {wanted}, got {values.get(key)}")
    for key in ("levels", "hand_sizes", "sex"):
        for name, wanted in getattr(expect, key).items():
            actual = values[key][player_name(name, ["expect", key, name])]
            if actual != wanted:
                failures.append(f"{key}.{name}: expected {wanted}, got {actual}")
    for key, present in (
        ("in_play", True),
        ("not_in_play", False),
        ("carried", True),
        ("equipped", True),
    ):
        source_key = "in_play" if key == "not_in_play" else key
        for name, cards in getattr(expect, key).items():
            actual = {
                c.casefold() for c in values[source_key][player_name(name, ["expect", key, name])]
            }
            for card in cards:
                if (card.partition("@")[0].strip().casefold() in actual) != present:
                    verb = "is not" if present else "is still"
                    failures.append(f"{key}.{name}: {card} {verb} there")
    if expect.dead is not None:
        wanted = sorted(player_name(n, ["expect", "dead"]) for n in expect.dead)
        if sorted(values["dead"]) != wanted:
            failures.append(f"dead: expected {wanted}, got {sorted(values['dead'])}")
    if expect.winner is not None and values["winner"] != player_name(
        expect.winner, ["expect", "winner"]
    ):
        failures.append(f"winner: expected {expect.winner}, got {values['winner']}")
    return failures


def run_paths(paths: Sequence[Path], library: CardLibrary | None = None) -> list[ScenarioResult]:
    """Run every scenario file under the given files and folders, in name order."""
    files = scenario_files(paths)
    missing = [p for p in paths if not p.exists()]
    results = [
        ScenarioResult(p.name, str(p), False, [f"{p}: no such file or folder"]) for p in missing
    ]
    return results + [run_scenario_file(path, library) for path in files if path.exists()]


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Run scenario files without Django.")
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON object per scenario")
    args = parser.parse_args(argv)
    results = run_paths(args.paths)
    for result in results:
        print(json.dumps(result.as_json(), sort_keys=True) if args.json else result.line())
    failed = sum(not r.passed for r in results)
    if not args.json:
        print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed or not results else 0


if __name__ == "__main__":
    raise SystemExit(main())
