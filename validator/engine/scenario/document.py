"""The scenario runner (see shared/design/scenario-format.md).

A scenario sets a table, plays steps through the engine and checks expectations. It is callable
without Django: cards come from the scenario's inline `cards`, a pack file, set files on disk
(`fixtures/sets/` by default) or any `CardLibrary` the caller passes (the `scenario` management
command passes the catalog's).

Keys added beyond the format's: steps `unequip`, `decline`, `bribe`, `chase`, `discard_card`,
`loot_room`, `look_for_trouble`, `end_turn`, `charity` (one card of the hand given away as
charity, as the table's move: `charity: CARD`, `by`), `give` (trade Items from the table:
`give: [...]`, `by`, `to`, optional `take: [...]` back); a `help` step's `treasures` (how
many of the drawn Treasures the helper gets), `picks_first` and `forced`; a `sacrifice` step's
`helper_escapes`; expectations `winner`, `sex`, `carried`, `equipped`, `treasures_face_up`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, ValidationError

from validator.engine.cards import (
    CardDocumentError,
    DocumentError,
    Model,
    errors_from_validation,
    format_path,
    line_for,
    read_yaml,
)

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


class CharityStep(Model):
    charity: Name
    by: Name


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
    "charity": CharityStep,
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
    | Annotated[GiveStep, Tag("give")]
    | Annotated[CharityStep, Tag("charity")],
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
    in_hand: dict[Name, list[Name]] = Field(default_factory=dict)
    not_in_hand: dict[Name, list[Name]] = Field(default_factory=dict)
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


def located_error(
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


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
            files.extend(sorted(p for p in path.rglob("*.yml") if p.is_file()))
        else:
            files.append(path)
    return files
