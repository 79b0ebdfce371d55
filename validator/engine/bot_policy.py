"""How a bot decides: whom it helps, whom it curses and with what, which fights it spends cards
against, what it sells. A policy is an object, so that bots of two policies can sit at one table
(the tournament, validator/engine/bot_tournament.py, plays them against each other).

`CLASSIC` takes every decision as the bots always have (simulated games replay as before):
it helps anyone not about to win, curses the leader with whatever curse comes first, plays one
card against the leader's fights, sells the cheapest cards worth a Level. `SHREWD` plays to
win: it never helps a player who leads or who would win with the fight, and weighs the
Treasures offered against the Levels the fighter gains; it curses the player who leads among
those a curse really hurts (no "lose the armor" on a player wearing none); it spends its cards
against the fights that make a rival the leader or win them the game, only as many as turn the
fight, never against a fight it then helps in (nor helps one it played against); in its own
fight it plays the monster enhancers that weaken its monsters, the smallest one-shot that wins
and, beaten all the same, a card that takes the monster away; it looks for trouble with any
monster it beats; it sells for as many Levels as its cards fetch, wasting the least, and never
sells its fight cards. (Each of these was kept because the tournament said it wins more games;
`python manage.py tournament` measures it.)

A policy decides and makes no move: the simulated games' bots (bots.py) and the table's bots
(table_bots.py) make the moves it chose, each through the rules. Its methods read a `Game` and
its `Player`s alone (no table), and reckon a fight's strengths afresh unless the simulated
bots just reckoned them (bot_facts.strengths), so they may be asked at any moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from validator.engine.bot_facts import FACTS, leader, reckoned
from validator.engine.cards import (
    AutomaticEscape,
    ChangeCharacterCard,
    ChangeSex,
    CurseCard,
    DieRolls,
    DiscardFromHand,
    EffectBase,
    LoseCharacterCard,
    LoseItems,
    LoseLevels,
    MonsterCard,
    MonsterEnhancerCard,
    OnlySlotBonuses,
    OthersPayValue,
    OutcomeBase,
    RemoveMonster,
    RivalsTake,
    Strength,
)
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    Player,
    effects_of,
    item_candidates,
    levels_for_kill,
)
from validator.engine.strength import (
    monsters_strength,
    side_member_strength,
    side_strength,
    side_wins_ties,
)


class Play(NamedTuple):
    """A card a bot means to play, and at what: a monster of the fight (by name), another card
    played with it (a Wandering Monster's monster), or a player (a curse's victim)."""

    card: CardInstance
    monster: str | None = None
    with_card: CardInstance | None = None
    player: Player | None = None


def fight_strengths(game: Game, combat: Combat) -> tuple[int, int]:
    """The side's strength and the monsters': as the simulated bots last reckoned them when no
    move came since, else reckoned now (and not kept: a table's moves do not forget it)."""
    known = reckoned(game, combat)
    if known is not None:
        return known
    return side_strength(game, combat), monsters_strength(game, combat)


def side_winning(game: Game, combat: Combat) -> bool:
    """Whether the fighter's side would win if the fight were resolved now."""
    ours, theirs = fight_strengths(game, combat)
    return ours > theirs or (ours == theirs and side_wins_ties(game, combat))


def levels_at_stake(combat: Combat) -> int:
    """The Levels the fighter gains by winning the fight (before any card's extra)."""
    return sum(levels_for_kill(m.monster) for m in combat.monsters)


def wins_the_game(game: Game, combat: Combat) -> bool:
    """Whether winning the fight would give the fighter the winning Level."""
    return combat.fighter.level + levels_at_stake(combat) >= WINNING_LEVEL


def leads(game: Game, player: Player, than: Player) -> bool:
    """Whether `player` is ahead of `than` and at least level with everyone else alive."""
    if player.level <= than.level:
        return False
    return all(p.level <= player.level for p in game.players if not p.dead)


class BotPolicy:
    """A bot's decisions. This base class takes them as the classic bots do (`CLASSIC`); a
    policy that plays otherwise overrides the methods it changes (`ShrewdPolicy`)."""

    name = "classic"
    # Whether the rivals spend cards against a fight again after the fighter's own cards and
    # help, just before it is resolved (the classic bots speak once, at its start).
    late_word = False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BotPolicy) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    # -- help ----------------------------------------------------------------------------------

    def help_requests(self, game: Game, combat: Combat) -> list[tuple[Player, int]]:
        """Whom the fighter asks for help, in order, each with the Treasures offered (the first
        who accepts helps). Classic: the strongest rival alone, if strong enough to turn the
        fight, for half the Treasure (at least 1); no one in a fight for the win."""
        fighter = combat.fighter
        # A rival will not help a fight that could win the game for the fighter (asked first:
        # then no one's strength needs reckoning).
        if wins_the_game(game, combat) and not game.options.shared_victory:
            return []
        ours, theirs = fight_strengths(game, combat)
        gap = theirs - ours
        # Only the strongest rival is asked (the first in seat order from the left among equals).
        helper: Player | None = None
        strongest = 0
        for p in game.others(fighter):
            if not p.dead:
                strength = side_member_strength(game, combat, p)
                if helper is None or strength > strongest:
                    helper, strongest = p, strength
        if helper is None or strongest < gap:
            return []
        treasures = sum(m.monster.treasures or 0 for m in combat.monsters)
        return [(helper, max(1, treasures // 2))]

    def wants_to_help(
        self,
        game: Game,
        helper: Player,
        fighter: Player,
        treasures: int,
        *,
        played_against: bool = False,
    ) -> bool:
        """Whether `helper` accepts to help `fighter` in the current fight for `treasures`
        Treasures; `played_against`: the helper has played a card against this fight.
        Classic: yes, unless the fight could win the game for the fighter."""
        combat = game.combat
        if combat is None:
            return False
        return not (wins_the_game(game, combat) and not game.options.shared_victory)

    # -- curses --------------------------------------------------------------------------------

    def curse_target(self, game: Game, bot: Player, card: CardInstance) -> Player | None:
        """The player the bot curses with `card` now (None: it keeps the card). Classic: the
        leader, when level with the bot or ahead, whatever the curse does to them."""
        target = leader(game, bot)
        if target is None or target.level < bot.level:
            return None
        return target

    def curses(self, game: Game, bot: Player) -> list[Play]:
        """The curses the bot means to play, in the order tried (the first the rules allow is
        played, one a turn)."""
        facts = FACTS
        wanted = []
        for card in bot.hand:
            if facts[card].curse:
                target = self.curse_target(game, bot, card)
                if target is not None:
                    wanted.append(Play(card, player=target))
        return wanted

    # -- cards against a fight -----------------------------------------------------------------

    def meddles_in(self, game: Game, bot: Player, combat: Combat) -> bool:
        """Whether the bot spends cards against this fight now. Classic: the leader's fights
        (or a fighter one Level short of the win), while the fighter's side is winning."""
        fighter = combat.fighter
        level = fighter.level
        if level < WINNING_LEVEL - 1:
            for p in game.players:
                if p.level > level:
                    return False  # only the leader's fights are worth spoiling
        if bot.dead or bot is fighter or bot is combat.helper:
            return False
        return side_winning(game, combat)

    def spoilers(self, game: Game, bot: Player, combat: Combat) -> list[Play]:
        """The bot's cards against the fight, in the order tried. Classic: every card that
        strengthens a monster, on the first monster, and a Wandering Monster with the first
        monster in the hand, in the hand's order."""
        wanted = []
        target = combat.monsters[0].monster.name
        for card in bot.hand:
            if FACTS[card].spoils:
                wanted.append(Play(card, monster=target))
            elif card.card.name == "Wandering Monster":
                monster = next((c for c in bot.hand if isinstance(c.card, MonsterCard)), None)
                if monster is not None:
                    wanted.append(Play(card, with_card=monster))
        return wanted

    def meddled_enough(self, game: Game, bot: Player, combat: Combat, played: int) -> bool:
        """Whether the bot stops playing cards against the fight, `played` of them made.
        Classic: after one."""
        return played >= 1

    # -- the bot's own fight -------------------------------------------------------------------

    def weakening(self, game: Game, combat: Combat, fighter: Player) -> list[Play]:
        """Cards the fighter plays on its monsters to weaken them while losing, before its
        one-shots. Classic: none."""
        return []

    def boost_order(
        self, game: Game, combat: Combat, cards: list[CardInstance], gap: int
    ) -> list[CardInstance]:
        """The order the fighter plays its one-shots for its side in, `gap` short of the
        monsters (each played while the fight is still lost). Classic: the biggest first."""
        return sorted(cards, key=lambda c: -c.bonus)

    def last_resort(self, game: Game, combat: Combat, fighter: Player) -> list[Play]:
        """Cards the fighter plays when the fight is lost all the same, just before it is
        resolved (a monster taken away, an escape). Classic: none."""
        return []

    def trouble(
        self, game: Game, player: Player, plain: CardInstance | None
    ) -> CardInstance | None:
        """The monster from the hand the player looks for trouble with, the room being empty
        (None: it loots the room); `plain` is the lowest monster more than 2 Levels below the
        player's Level and gear (bots.beatable_monster). Classic: that one."""
        return plain

    # -- selling -------------------------------------------------------------------------------

    def sale(self, game: Game, player: Player) -> list[CardInstance]:
        """The cards the bot sells now, for Levels (none: it sells nothing). Classic: the
        cheapest cards in the hand and carried worth 1,000 Gold, unless the Level would be the
        winning one."""
        facts = FACTS
        total = 0
        for pile in (player.hand, player.carried):
            for card in pile:
                price = facts[card].price
                if price > 0:
                    total += price
        if total < 1000:  # most turns: nothing to sell for a level
            return []
        priced = [
            (price, card)
            for pile in (player.hand, player.carried)
            for card in pile
            if (price := facts[card].price) > 0
        ]
        priced.sort(key=lambda pair: pair[0])  # stable: equal prices keep the hand's order
        chosen: list[CardInstance] = []
        value = 0
        for price, card in priced:
            chosen.append(card)
            value += price
            if value >= 1000:
                break
        if player.level + value // 1000 < WINNING_LEVEL:
            return chosen
        return []


CLASSIC = BotPolicy()


class Seats:
    """Each player's policy in one game, by the player's name (unique in a game)."""

    __slots__ = ("by_name", "late_word")

    def __init__(self, game: Game, policies: Sequence[BotPolicy] | None = None) -> None:
        if policies is not None and len(policies) != len(game.players):
            raise ValueError(f"{len(policies)} policies for {len(game.players)} players")
        chosen = policies or [CLASSIC] * len(game.players)
        self.by_name = {p.name: policy for p, policy in zip(game.players, chosen, strict=True)}
        # Whether any seat's policy speaks again against a fight before it is resolved.
        self.late_word = any(policy.late_word for policy in chosen)

    def of(self, player: Player) -> BotPolicy:
        return self.by_name.get(player.name, CLASSIC)


# -- what a curse does to its target -------------------------------------------------------------


def curse_harm(game: Game, target: Player, card: CardInstance) -> int:
    """How much the curse hurts `target` now, roughly in Treasure-sized units (a Level is
    worth 10): 0 when it would do nothing to them (no armor to lose, no Class to change...);
    negative when it costs its player more than its target."""
    return sum(_harm(game, target, effect) for effect in card.card.effects)


def _harm(game: Game, target: Player, effect: EffectBase) -> int:
    if isinstance(effect, LoseLevels):
        lost = target.level - 1 if effect.amount == "roll" else effect.amount
        if min(lost, target.level - 1) > 0:
            return 10 * min(lost, target.level - 1)
        return _otherwise(game, target, effect)
    if isinstance(effect, LoseItems):
        candidates = item_candidates(target, effect)
        if not candidates:
            return _otherwise(game, target, effect)
        bonuses = [c.bonus for c in candidates]
        # The victim gives up the item they miss least, unless the curse picks the best.
        bonus = max(bonuses) if effect.pick == "biggest_bonus" else min(bonuses)
        return 3 * max(0, bonus) + 2
    if isinstance(effect, LoseCharacterCard):
        if target.axis_cards(effect.axis):
            return 4
        return _otherwise(game, target, effect)
    if isinstance(effect, ChangeCharacterCard):
        return 2 if target.axis_cards(effect.axis) else 0
    if isinstance(effect, ChangeSex):
        return 1
    if isinstance(effect, Strength):
        return -effect.amount  # a penalty in the victim's next fight
    if isinstance(effect, DieRolls):
        return 3 if effect.amount < 0 else 0
    if isinstance(effect, RivalsTake):
        pool = target.hand if effect.what == "hand_card" else target.items
        return 2 * min(len(pool), 2 * effect.count)
    if isinstance(effect, OnlySlotBonuses):
        return sum(max(0, i.bonus) for i in target.equipped if i.slot != effect.slot)
    if isinstance(effect, DiscardFromHand):
        harm = min(len(target.hand), effect.count)
        if len(target.hand) < effect.count:
            harm += sum(_harm(game, target, e) for e in effect.if_fewer or ())
        return harm
    if isinstance(effect, OthersPayValue):
        return -6  # its player pays as well
    return 1  # an effect not weighed here: taken to do something


def _otherwise(game: Game, target: Player, effect: OutcomeBase) -> int:
    return sum(_harm(game, target, e) for e in effect.otherwise or ())


# -- the shrewd bots -----------------------------------------------------------------------------


class ShrewdPolicy(BotPolicy):
    """Bots that play to win (the module's docstring says how)."""

    name = "shrewd"
    late_word = True

    def help_requests(self, game: Game, combat: Combat) -> list[tuple[Player, int]]:
        """Every rival strong enough to turn the fight, the lowest Level first (the Treasure
        then goes to the least dangerous), each offered 1 Treasure, then 2... up to all: the
        first offer accepted is the cheapest."""
        fighter = combat.fighter
        if wins_the_game(game, combat) and not game.options.shared_victory:
            return []  # no one helps a fight for the win
        ours, theirs = fight_strengths(game, combat)
        need = theirs - ours + (0 if side_wins_ties(game, combat) else 1)
        rivals = [
            (p.level, -strength, index, p)
            for index, p in enumerate(game.others(fighter))
            if not p.dead and (strength := side_member_strength(game, combat, p)) >= need
        ]
        treasures = sum(m.monster.treasures or 0 for m in combat.monsters)
        return [
            (p, share)
            for _, _, _, p in sorted(rivals, key=lambda r: r[:3])
            for share in range(1, max(1, treasures) + 1)
        ]

    def wants_to_help(
        self,
        game: Game,
        helper: Player,
        fighter: Player,
        treasures: int,
        *,
        played_against: bool = False,
    ) -> bool:
        """Never a fight it played against, a fight for the win, or a fighter who leads; else
        for Treasures that pay for the fighter's Levels: 1 Treasure when the fighter ends 1
        Level below the helper, 2 when level with it, 3 when 1 Level above, and so on (a
        Level is worth more than a Treasure); never to put a fighter one Level short of the
        win above the helper."""
        combat = game.combat
        if combat is None or played_against or treasures < 1 or helper is combat.helper:
            return False
        if wins_the_game(game, combat) or leads(game, fighter, helper):
            return False
        after = fighter.level + levels_at_stake(combat)
        if after >= WINNING_LEVEL - 1 and after > helper.level:
            return False
        return after - helper.level <= treasures - 2

    def curse_target(self, game: Game, bot: Player, card: CardInstance) -> Player | None:
        """The rival of the highest Level (then the one it hurts most) among those the curse
        really hurts; none when the curse would hurt no rival, or when every rival it hurts
        is two Levels or more below the bot."""
        best: tuple[int, int] | None = None
        target = None
        for rival in game.others(bot):
            if rival.dead:
                continue
            harm = curse_harm(game, rival, card)
            if harm <= 0 or rival.level < bot.level - 1:
                continue
            if best is None or (rival.level, harm) > best:
                best, target = (rival.level, harm), rival
        return target

    def curses(self, game: Game, bot: Player) -> list[Play]:
        """Its curses, the one that hurts its target most first."""
        wanted: list[tuple[int, int, Play]] = []
        for card in bot.hand:
            if isinstance(card.card, CurseCard):
                target = self.curse_target(game, bot, card)
                if target is not None:
                    wanted.append(
                        (-curse_harm(game, target, card), len(wanted), Play(card, player=target))
                    )
        return [play for *_, play in sorted(wanted, key=lambda w: w[:2])]

    def threat(self, game: Game, bot: Player, combat: Combat) -> int:
        """How much the fight's win would hurt the bot: 3 it wins the fighter the game, 2 it
        takes them within two Levels of the win and level with the bot or past, 1 it puts
        them ahead of the bot and of everyone else, 0 otherwise."""
        fighter = combat.fighter
        after = fighter.level + levels_at_stake(combat)
        if after >= WINNING_LEVEL:
            return 3
        if after >= WINNING_LEVEL - 2 and after >= bot.level:
            return 2
        others = [p.level for p in game.players if p is not bot and p is not fighter and not p.dead]
        if after > bot.level and after > max(others, default=0):
            return 1
        return 0

    def meddles_in(self, game: Game, bot: Player, combat: Combat) -> bool:
        """A fight it is not part of, the fighter's side winning, a threat to the bot (threat),
        and cards enough to turn it (in a fight for the win, any card: others may add theirs)."""
        if bot.dead or bot is combat.fighter or bot is combat.helper or not combat.monsters:
            return False
        threat = self.threat(game, bot, combat)
        if threat == 0 or not side_winning(game, combat):
            return False
        plays = self.allowed_spoilers(bot, threat)
        if not plays:
            return False
        return threat == 3 or sum(s for s, _ in plays) >= self._needed(game, combat)

    def spoilers(self, game: Game, bot: Player, combat: Combat) -> list[Play]:
        """The cards it allows itself against this fight (monster enhancers always; a
        Wandering Monster and one-shots for the monsters only against a fighter near the win):
        the cheapest single card that turns the fight first, then the strongest down."""
        threat = self.threat(game, bot, combat)
        plays = self.allowed_spoilers(bot, threat)
        if not plays or not combat.monsters:
            return []
        needed = self._needed(game, combat)
        target = combat.monsters[0].monster.name
        ordered = sorted(plays, key=lambda p: -p[0])
        enough = [p for p in plays if p[0] >= needed]
        if enough:
            cheapest = min(enough, key=lambda p: p[0])
            ordered.remove(cheapest)
            ordered.insert(0, cheapest)
        return [
            Play(card, with_card=other) if other is not None else Play(card, monster=target)
            for _, (card, other) in ordered
        ]

    def meddled_enough(self, game: Game, bot: Player, combat: Combat, played: int) -> bool:
        """Once the fight is turned."""
        return not side_winning(game, combat)

    def allowed_spoilers(
        self, bot: Player, threat: int
    ) -> list[tuple[int, tuple[CardInstance, CardInstance | None]]]:
        """(strength added, (card, the card played with it)) of each card it may spend."""
        if threat == 0:
            return []
        plays: list[tuple[int, tuple[CardInstance, CardInstance | None]]] = []
        monster = None
        if threat >= 2:
            monster = max(
                (c for c in bot.hand if isinstance(c.card, MonsterCard)),
                key=lambda c: FACTS[c].monster_level or 0,
                default=None,
            )
        for card in bot.hand:
            definition = card.card
            if isinstance(definition, MonsterEnhancerCard) and (definition.strength or 0) > 0:
                plays.append((definition.strength or 0, (card, None)))
            elif threat >= 2 and FACTS[card].boost:
                plays.append((card.bonus, (card, None)))
            elif threat >= 2 and definition.name == "Wandering Monster" and monster is not None:
                plays.append((FACTS[monster].monster_level or 0, (card, monster)))
        return plays

    def _needed(self, game: Game, combat: Combat) -> int:
        """The strength the monsters still need to win the fight."""
        ours, theirs = fight_strengths(game, combat)
        return ours - theirs + (1 if side_wins_ties(game, combat) else 0)

    def weakening(self, game: Game, combat: Combat, fighter: Player) -> list[Play]:
        """Its monster enhancers that weaken a monster, the strongest first."""
        if not combat.monsters:
            return []
        target = combat.monsters[0].monster.name
        weak = [
            c
            for c in fighter.hand
            if isinstance(c.card, MonsterEnhancerCard) and (c.card.strength or 0) < 0
        ]
        weak.sort(key=lambda c: c.card.__dict__.get("strength") or 0)
        return [Play(c, monster=target) for c in weak]

    def boost_order(
        self, game: Game, combat: Combat, cards: list[CardInstance], gap: int
    ) -> list[CardInstance]:
        """The smallest one-shot that wins the fight alone first (the bigger ones are kept for
        later), then the biggest down."""
        need = gap + (0 if side_wins_ties(game, combat) else 1)
        ordered = sorted(cards, key=lambda c: -c.bonus)
        enough = [c for c in ordered if c.bonus >= need]
        if enough:
            ordered.remove(enough[-1])
            ordered.insert(0, enough[-1])
        return ordered

    def last_resort(self, game: Game, combat: Combat, fighter: Player) -> list[Play]:
        """A one-shot that takes a monster away (the strongest), else one that escapes."""
        if not combat.monsters:
            return []
        strongest = max(combat.monsters, key=lambda m: m.monster.level or 0).name
        removing, escaping = [], []
        for card in (*fighter.hand, *fighter.carried):
            if effects_of(card.card, RemoveMonster):
                removing.append(Play(card, monster=strongest))
            elif any(e.timing == "instead_of_roll" for e in effects_of(card.card, AutomaticEscape)):
                escaping.append(Play(card))
        return removing + escaping

    def trouble(
        self, game: Game, player: Player, plain: CardInstance | None
    ) -> CardInstance | None:
        """The lowest monster in the hand its Level and gear beat (the monster wins ties): a
        fight it wins is a Level, where the room is only a card."""
        strength = player.level + sum(item.bonus for item in player.equipped)
        best: CardInstance | None = None
        lowest = 0
        for card in player.hand:
            level = FACTS[card].monster_level
            if level is not None and level < strength and (best is None or level < lowest):
                best, lowest = card, level
        return best

    def sale(self, game: Game, player: Player) -> list[CardInstance]:
        """As many Levels as its cards fetch (never the winning one), for the least Gold; never
        its fight cards (one-shots that boost, take a monster away or escape): a fight won
        with them is a Level and Treasure, and a fight for the win needs them."""
        room = WINNING_LEVEL - 1 - player.level
        if room <= 0:
            return []
        facts = FACTS
        spare: list[tuple[int, CardInstance]] = []
        for card in (*player.hand, *player.carried):
            price = facts[card].price
            if price > 0 and not (
                facts[card].boost
                or card.effects_by_type.get(RemoveMonster)
                or card.effects_by_type.get(AutomaticEscape)
            ):
                spare.append((price, card))
        return cheapest_levels(spare, room)


def cheapest_levels(priced: list[tuple[int, CardInstance]], most: int) -> list[CardInstance]:
    """The cards, of (price, card), that fetch as many Levels as they can (at most `most`) for
    the least Gold; none when they are not worth a Level."""
    total = sum(price for price, _ in priced)
    levels = min(most, total // 1000)
    if levels <= 0:
        return []
    goal = 1000 * levels
    # The cheapest total of at least `goal`, by dynamic programming over the totals reached
    # (each kept with the first way found, cards in the given order).
    best: dict[int, tuple[int, ...]] = {0: ()}
    for index, (price, _) in enumerate(priced):
        for reached, cards in list(best.items()):
            if reached >= goal:
                continue
            new = reached + price
            if new not in best:
                best[new] = (*cards, index)
    enough = min(r for r in best if r >= goal)
    return [priced[i][1] for i in best[enough]]


SHREWD = ShrewdPolicy()
POLICIES = {p.name: p for p in (CLASSIC, SHREWD)}
