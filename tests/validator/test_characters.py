"""Character abilities: what the card's cost and timing refuse is tried, not only the use."""

from validator.checks.characters import _ability_refusals
from validator.checks.references import _library_for
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext
from validator.engine import CharacterCard, SetDocument


def test_berserking_is_refused_past_its_discards_and_outside_combat(
    core_set: SetDocument,
) -> None:
    warrior = next(c for c in core_set.cards if c.name == "Warrior")
    assert isinstance(warrior, CharacterCard)
    berserking = next(a for a in warrior.abilities if a.slug == "berserking")
    report = CardReport("munchkin-core", warrior.name, warrior.kind_name, "full")
    ctx = CheckContext(warrior, "munchkin-core", report, _library_for(warrior, "munchkin-core"))
    _ability_refusals(ctx, warrior, berserking)
    # Up to 3 discards (the core set's Warrior): 4 are refused; a combat ability is refused
    # out of combat. Both are run and both hold.
    assert report.scenarios_run == 2 and report.status == "pass", report.messages
    assert ctx.covered == {"ability_cost"}
