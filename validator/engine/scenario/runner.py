"""Running a scenario: set the table, play the steps through the engine, check what is
expected (the format is in scenario/document.py and shared/design/scenario-format.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.engine import abilities, combat_specials, turn
from validator.engine.cards import (
    CHARACTER_KINDS,
    CardDocumentError,
    ExtraCharacterCard,
    Model,
    format_path,
    nearest_word,
    parse_card,
)
from validator.engine.choices import DefaultChooser
from validator.engine.combat import offer_help, resolve
from validator.engine.combat_specials import start_combat
from validator.engine.invariants import check_invariants
from validator.engine.library import CardLibrary, library_from_set_files
from validator.engine.pack import load_pack
from validator.engine.scenario.document import (
    BribeStep,
    CharityStep,
    ChaseStep,
    DeclineStep,
    DiscardCardStep,
    EndTurnStep,
    EquipStep,
    Expect,
    GiveStep,
    HelpStep,
    JoinStep,
    KickDoorStep,
    LookForTroubleStep,
    LootRoomStep,
    PlayStep,
    ResolveStep,
    SacrificeStep,
    ScenarioDocument,
    ScenarioError,
    ScenarioResult,
    SellStep,
    UnequipStep,
    UseStep,
    load_scenario_file,
    located_error,
    scenario_files,
)
from validator.engine.state import (
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
from validator.engine.strength import monsters_strength, side_strength
from validator.engine.table_moves import give_charity
from validator.engine.turn import add_monster, apply_curse, check_can_hold, place_in_play


def library_from_pack(path: Path) -> CardLibrary:
    """Every card of a pack file (docs/pack-format.md) under its set code.

    The pack is checked as `load_pack` checks it; a bad one raises `pack.PackError` (a
    CardDocumentError) naming the file, path and line."""

    return load_pack(path).library()


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
        return located_error(path, message, self.lines, self.source)

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

    def take(
        self, reference: str, path: Sequence[str | int], placed: frozenset[int] = frozenset()
    ) -> CardInstance:
        """Take a copy of the named card out of the decks (or make one) for the table; not one
        of `placed`, the copies already put on top of a deck (a name listed twice in `deck:`
        is two copies)."""
        try:
            set_code, card = self.library.lookup(reference)
        except KeyError as exc:
            raise self.fail(path, str(exc.args[0])) from None
        for deck in (self.game.door_deck, self.game.treasure_deck):
            for instance in deck:
                if instance.card is card and instance.uid not in placed:
                    deck.remove(instance)
                    return instance
        self.next_uid += 1
        return CardInstance(self.next_uid, card, set_code)


def run_scenario_file(path: Path, library: CardLibrary | None = None) -> ScenarioResult:
    """Run one scenario file; a malformed scenario is a failed result naming file and line."""
    try:
        document, lines = load_scenario_file(path)
        return run_scenario(
            document, source=str(path), lines=lines, library=library, base_dir=path.parent
        )
    except ScenarioError as exc:
        return ScenarioResult(path.stem, str(path), False, exc.lines())


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
    context = _set_up(document, source=source, lines=lines, library=library, base_dir=base_dir)
    game = context.game
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
    values["hands"] = {p.name: sorted(c.name for c in p.hand) for p in game.players}
    values["in_play"] = {p.name: sorted(c.name for c in p.in_play()) for p in game.players}
    values["carried"] = {p.name: sorted(c.name for c in p.carried) for p in game.players}
    values["equipped"] = {p.name: sorted(c.name for c in p.equipped) for p in game.players}
    values["dead"] = [p.name for p in game.players if p.dead]
    values["winner"] = game.winner.name if game.winner is not None else None
    values["winners"] = [p.name for p in game.winners]  # a shared victory has several
    values["sex"] = {p.name: p.sex for p in game.players}
    values["log"] = list(game.log)
    failures = _check(context, document.expect, values, refusal)
    return ScenarioResult(document.name, source, not failures, failures, values)


def _set_up(
    document: ScenarioDocument,
    *,
    source: str,
    lines: dict[tuple[str | int, ...], int] | None,
    library: CardLibrary | None,
    base_dir: Path | None,
) -> _Context:
    """The game a scenario starts from: its cards, decks, players' tables and combat."""
    known_lines = lines or {}

    def fail(path: Sequence[str | int], message: str) -> ScenarioError:
        return located_error(path, message, known_lines, source)

    cards = build_library(document, library, base_dir, fail)
    rng = random.Random(document.seed if document.seed is not None else 0)
    game = Game(
        players=[Player(p.name, level=p.level, sex=p.sex) for p in document.players],
        rng=rng,
        options=Options(document.options.faster_play, document.options.shared_victory),
        chooser=DefaultChooser(),
    )
    game.die = ScriptedDie(document.dice, SeededDie(rng))
    context = _Context(document, known_lines, source, cards, game)
    _build_decks(context)
    _set_table(context)
    game.total_cards = sum(map(len, game.card_piles()))
    return context


def scenario_game(document: ScenarioDocument, *, library: CardLibrary | None = None) -> Game:
    """The game a scenario sets up, after its steps, for code that then makes moves of its own
    (the validator's checks of refused moves, which no step can express). Its `expect` is not
    read. A table that breaks an invariant or a step the rules refuse raises ScenarioError
    naming it: such a game is not the one the document describes."""
    context = _set_up(document, source="", lines=None, library=library, base_dir=None)
    game = context.game
    broken = check_invariants(game)
    if broken:
        raise context.fail(["players"], f"invariant broken by the table: {'; '.join(broken)}")
    for index, step in enumerate(document.steps):
        path: list[str | int] = ["steps", index]
        try:
            _apply_step(context, step, path)
        except RuleViolation as exc:
            raise context.fail(path, f"the step is refused: {exc}") from None
        broken = check_invariants(game)
        if broken:
            raise context.fail(path, f"invariant broken: {'; '.join(broken)}")
    return game


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
def forget_library_decks(library: CardLibrary) -> None:
    """Drop the shuffled decks cached for a library built for one run (a server builds a
    library per request; each holds every official card)."""
    for key in [k for k, v in _DECK_CACHE.items() if v and v[0] is library]:
        _DECK_CACHE.pop(key, None)


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
        placed: set[int] = set()
        for i, name in reversed(list(enumerate(tops))):
            card = context.take(name, ["deck", deck_name, i], frozenset(placed))
            placed.add(card.uid)
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
                add_monster(game, combat, card)


def _put_in_play(game: Game, player: Player, card: CardInstance) -> None:

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
        apply_curse(game, card, player)
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
        abilities.use_ability(
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
        abilities.discard_character_card(
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
    elif isinstance(step, CharityStep):
        player = context.player(step.by, [*path, "by"])
        card = _card_of(context, player, step.charity, [*path, "charity"], "hand")
        if game.active_player is not player or game.combat is not None:
            raise RuleViolation("charity: only on your own turn, outside combat")
        if len(player.hand) <= player.hand_limit():
            raise RuleViolation(
                f"charity is for cards over the hand limit of {player.hand_limit()}; "
                f"{player.name} holds {len(player.hand)}"
            )
        give_charity(game, player, card)
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
    for key, present, source_key in (
        ("in_play", True, "in_play"),
        ("not_in_play", False, "in_play"),
        ("in_hand", True, "hands"),
        ("not_in_hand", False, "hands"),
        ("carried", True, "carried"),
        ("equipped", True, "equipped"),
    ):
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
