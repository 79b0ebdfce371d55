"""Every message the effect language produces has a sentence a designer reads at the control
(issue 38): bad cards of every kind of mistake are parsed, and each error's sentence is checked
for parser words; the language's own ValueErrors are found in its source, so a new one
without a sentence fails here."""

import re
from pathlib import Path
from typing import Any

import pytest

from tests.engine.conftest import monster
from validator.engine import designer_sentence
from validator.engine.cards import CardDocumentError, parse_card
from validator.engine.cards.designer_words import MESSAGE_FORMS, field_label, known_form

# Words of the parser a designer never reads at a control.
JARGON = re.compile(r"Input should|required key|\bkey\b|\[\d+\]|_|\bmapping\b|discriminator")

CARDS = Path(__file__).resolve().parents[2] / "validator" / "engine" / "cards"

STRENGTH = {"type": "strength", "amount": 2}

# One bad card for each kind of mistake the language reports.
BAD_CARDS: list[tuple[str, dict[str, Any]]] = [
    ("missing", monster(effects=[{"type": "strength"}])),
    ("unknown key", monster(levle=3)),
    ("unknown type", monster(effects=[{"type": "strenght", "amount": 2}])),
    ("missing type", monster(effects=[{"amount": 2}])),
    ("unknown condition", monster(effects=[{**STRENGTH, "when": {"rase": "elf"}}])),
    ("not one of", monster(tags=["undaed"])),
    ("below", monster(level=-4)),
    ("whole number", monster(level="ten")),
    ("trait", monster(effects=[{**STRENGTH, "when": {"race": "Elf!"}}])),
    ("condition shape", monster(effects=[{**STRENGTH, "when": {"race": "elf", "sex": "male"}}])),
    ("bad stuff", monster(bad_stuff=[{"type": "no_help"}])),
    (
        "die faces",
        monster(bad_stuff=[{"type": "roll", "outcomes": [{"min": 1, "max": 3, "effects": []}]}]),
    ),
    ("encoding full", monster(level=None)),
    ("notes", monster(encoding={"status": "partial", "reason": "x"}, notes=None)),
    ("tags repeat", monster(tags=["undead", "undead"])),
    ("too long", monster(name="x" * 81)),
    ("empty name", monster(name="")),
    ("too many", monster(effects=[STRENGTH] * 21)),
    ("a string", {**monster(), "name": ["a", "list"]}),
    ("a list", monster(effects={"type": "strength"})),
]


def errors_of(document: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(CardDocumentError) as caught:
        parse_card(document)
    return [(e.path, e.message) for e in caught.value.errors]


@pytest.mark.parametrize(("mistake", "document"), BAD_CARDS, ids=[m for m, _ in BAD_CARDS])
def test_each_error_of_a_bad_card_reads_as_a_sentence(mistake: str, document: Any) -> None:
    for path, message in errors_of(document):
        assert known_form(message), f"{mistake}: no designer's sentence for {message!r}"
        sentence = designer_sentence(path, message)
        assert not JARGON.search(sentence), (mistake, message, sentence)
        assert sentence[:1].isupper() and sentence.endswith((".", "?")), sentence


def test_the_sentences_name_the_control_and_the_numbers() -> None:
    assert designer_sentence("effects[0].amount", "required key is missing") == (
        "Amount is still empty: fill it in."
    )
    assert designer_sentence("level", "Input should be greater than or equal to 0") == (
        "Level cannot be below 0."
    )
    assert field_label("bad_stuff[1]") == "Bad Stuff effect"
    assert field_label("effects[0].when.race") == "Race"
    said = designer_sentence(
        "tags[0]", "'undaed' is not one of undead, shark; did you mean 'undead'?"
    )
    assert said == "Tag cannot be 'undaed': pick one of undead, shark. Did you mean 'undead'?"


def test_every_value_error_of_the_language_has_a_sentence() -> None:
    """The language's own messages (each `raise ValueError(...)` under cards/) match a form,
    read from the source so that a new message cannot be added without its sentence."""
    found: list[str] = []
    for source in CARDS.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        # A message may be several string literals in a row, joined.
        for raised in re.finditer(r"raise ValueError\(((?:\s*f?\"[^\"]*\")+)", text):
            found.append("".join(re.findall(r"\"([^\"]*)\"", raised.group(1))))
    assert len(found) >= 9  # the language raises at least the nine known today
    # An f-string's fields are filled with a sample value before matching.
    samples = [re.sub(r"\{[^}]*\}", "1", message) for message in found]
    samples = [s.replace("1 is not a trait name", "'1' is not a trait name") for s in samples]
    missing = [s for s in samples if not known_form(s)]
    assert missing == []


def test_each_form_is_reached_by_its_example() -> None:
    """A form's first words are its example: each example matches its own pattern."""
    for example, pattern, _ in MESSAGE_FORMS:
        sample = re.sub(r"\bN\b", "3", re.sub(r"\bM\b", "4", example))
        assert pattern.match(sample) or pattern.match(example), example
