"""Every message of the effect language in a designer's words, for the control it concerns.

The parser words its errors for the YAML view and the API: a path (`effects[0].amount`) and a
message about keys and inputs. A designer building a card with the editor's controls reads
instead a sentence about the card ("Amount is empty: type a number"), shown at the control the
path leads to. `designer_sentence` turns one into the other; `MESSAGE_FORMS` lists the forms of
message the language produces, each with the sentence it becomes, so a test can hold that none
is left in parser words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

# What the editor's controls call a part of a card, by its key in the document.
FIELD_LABELS: Final = {
    "name": "Name",
    "kind": "Kind",
    "deck": "Deck",
    "copies": "Copies",
    "level": "Level",
    "treasures": "Treasures",
    "levels_gained": "Levels gained",
    "bonus": "Bonus",
    "gold": "Gold",
    "slot": "Slot",
    "size": "Size",
    "tags": "Tags",
    "effects": "Effects",
    "bad_stuff": "Bad Stuff",
    "amount": "Amount",
    "count": "How many",
    "when": "Only when",
    "type": "Effect",
    "outcomes": "Die outcomes",
    "options": "Options",
    "min": "From",
    "max": "To",
    "race": "Race",
    "class": "Class",
    "sex": "Sex",
    "notes": "Notes",
    "encoding": "Encoding",
    "status": "How much of the card the rules engine plays",
    "reason": "Why",
    "abilities": "Abilities",
    "strength": "Strength",
    "duration": "How long",
    "timing": "When it can be played",
    "copies_in_play": "Copies in play",
}

_INDEX = re.compile(r"\[\d+\]")
_QUOTED = re.compile(r"'([^']*)'")


def field_label(path: str) -> str:
    """The control's name for the last part of a path: `effects[0].amount` is "Amount"; a
    path that ends in a list item ("effects[2]") is that list's item ("Effect")."""
    parts = [p for p in _INDEX.sub("", path).split(".") if p]
    if not parts:
        return "The card"
    if path.endswith("]"):
        last = parts[-1]
        return {"effects": "Effect", "bad_stuff": "Bad Stuff effect", "tags": "Tag"}.get(
            last, FIELD_LABELS.get(last, last.replace("_", " ").capitalize())
        )
    last = parts[-1]
    return FIELD_LABELS.get(last, last.replace("_", " ").capitalize())


def _quoted(message: str) -> list[str]:
    return _QUOTED.findall(message)


def _choices(message: str, after: str) -> str:
    listed = message.split(after, 1)[1].split(";")[0].strip()
    return listed


def _did_you_mean(message: str) -> str:
    found = re.search(r"did you mean '([^']*)'\?", message)
    return f" Did you mean {found.group(1)!r}?" if found else ""


# (a form of message, the sentence it becomes): each pattern is matched at the start of the
# parser's message, and its sentence is built from the control's label and the message.
Sentence = Callable[[str, str], str]
MESSAGE_FORMS: Final[list[tuple[str, re.Pattern[str], Sentence]]] = [
    (
        "required key is missing",
        re.compile(r"required key is missing"),
        lambda label, m: f"{label} is still empty: fill it in.",
    ),
    (
        "unknown key 'x'; did you mean 'y'?",
        re.compile(r"unknown key "),
        lambda label, m: (
            f"This card has nothing called {_quoted(m)[0]!r}.{_did_you_mean(m)}"
            if _quoted(m)
            else "This card has a part it cannot have."
        ),
    ),
    (
        "unknown type 'x'; valid: ...",
        re.compile(r"unknown (type|kind|status) "),
        lambda label, m: (
            f"There is no {label.lower()} called {_quoted(m)[0]!r}.{_did_you_mean(m)}"
            if _quoted(m)
            else f"{label}: choose one from the list."
        ),
    ),
    (
        "unknown condition 'x'",
        re.compile(r"unknown condition "),
        lambda label, m: (
            f"There is no condition called {_quoted(m)[0]!r}: pick one under Only when."
            f"{_did_you_mean(m)}"
        ),
    ),
    (
        "missing type",
        re.compile(r"missing (type|kind|tag)"),
        lambda label, m: f"{label}: choose what it does from the list.",
    ),
    (
        "'x' is not one of a, b",
        re.compile(r"'[^']*' is not one of "),
        lambda label, m: (
            f"{label} cannot be {_quoted(m)[0]!r}: pick one of "
            f"{_choices(m, 'is not one of')}.{_did_you_mean(m)}"
        ),
    ),
    (
        "Input should be greater than or equal to N",
        re.compile(r"Input should be greater than or equal to (-?\d+)"),
        lambda label, m: f"{label} cannot be below {_number(m)}.",
    ),
    (
        "Input should be greater than N",
        re.compile(r"Input should be greater than (-?\d+)"),
        lambda label, m: f"{label} must be more than {_number(m)}.",
    ),
    (
        "Input should be less than or equal to N",
        re.compile(r"Input should be less than or equal to (-?\d+)"),
        lambda label, m: f"{label} cannot be above {_number(m)}.",
    ),
    (
        "Input should be a valid integer",
        re.compile(r"Input should be a valid integer|Input should be a finite number"),
        lambda label, m: f"{label} takes a whole number, like 2.",
    ),
    (
        "Input should be a valid boolean",
        re.compile(r"Input should be a valid boolean"),
        lambda label, m: f"{label} is yes or no.",
    ),
    (
        "Input should be a valid string",
        re.compile(r"Input should be a valid string"),
        lambda label, m: f"{label} takes words, not a list or a number.",
    ),
    (
        "Input should be a valid list",
        re.compile(r"Input should be a valid (list|array|tuple)"),
        lambda label, m: f"{label} takes a list: add its entries one by one.",
    ),
    (
        "Input should be a valid dictionary",
        re.compile(r"Input should be a valid (dictionary|mapping)|Input should be an object"),
        lambda label, m: f"{label} needs its own fields filled in, not a single value.",
    ),
    (
        "String should have at least N characters",
        re.compile(r"String should have at least"),
        lambda label, m: f"{label} is still empty: fill it in.",
    ),
    (
        "String should have at most N characters",
        re.compile(r"String should have at most (\d+)"),
        lambda label, m: f"{label} is too long: at most {_number(m)} characters.",
    ),
    (
        "List should have at most N items",
        re.compile(r"List should have at most (\d+)"),
        lambda label, m: f"{label}: at most {_number(m)} of them.",
    ),
    (
        "List should have at least N items",
        re.compile(r"List should have at least (\d+)"),
        lambda label, m: f"{label}: add at least {_number(m)}.",
    ),
    (
        "'x' is not a trait name",
        re.compile(r"'[^']*' is not a trait name"),
        lambda label, m: (
            f"{label}: {_quoted(m)[0]!r} cannot be a name here; use letters, digits, spaces, "
            "hyphens and apostrophes, like Elf or Fry Cook."
        ),
    ),
    (
        "the outcomes must cover each die face 1 to 6 exactly once",
        re.compile(r"the outcomes must cover each die face"),
        lambda label, m: "The die outcomes must cover each roll from 1 to 6, each once.",
    ),
    (
        "give min, max or both",
        re.compile(r"give min, max or both"),
        lambda label, m: f"{label}: give a lowest number, a highest, or both.",
    ),
    (
        "min N is above max M",
        re.compile(r"min (-?\d+) is above max (-?\d+)"),
        lambda label, m: f"{label}: the lowest number is above the highest.",
    ),
    (
        "a card that is not fully encoded needs notes with its text",
        re.compile(r"a card that is not fully encoded needs notes"),
        lambda label, m: "Write the card's text in Notes: the engine does not play all of it.",
    ),
    (
        "tags repeat",
        re.compile(r"tags repeat"),
        lambda label, m: "Tags: each tag once.",
    ),
    (
        "a card of unknown kind can only be 'text_only'",
        re.compile(r"a card of unknown kind can only be"),
        lambda label, m: "Choose the card's kind: until then the engine cannot play it.",
    ),
    (
        "a condition is a mapping with exactly one key",
        re.compile(r"a condition is a mapping with exactly one key"),
        lambda label, m: "Only when: one condition per effect (use All of... for several).",
    ),
    (
        "belongs in effects",
        re.compile(r".*belongs in effects"),
        lambda label, m: "This is not something that happens to the loser: put it in Effects.",
    ),
    (
        "encoding is 'full' but level unknown",
        re.compile(r"encoding is 'full' but"),
        lambda label, m: (
            f"{_unknown_stats(m)} not known yet: fill it in, or say under Encoding that the "
            "engine does not play all of the card."
        ),
    ),
    (
        "the card holds N effects, nested ones counted; at most M",
        re.compile(r"the card holds \d+ effects"),
        lambda label, m: (
            f"Too many effects: at most {_numbers(m)[-1]}, counting those inside others."
        ),
    ),
    (
        "also set in the form; keep one",
        re.compile(r"also set in the form"),
        lambda label, m: f"{label} is set twice, in a control and in the YAML: keep one.",
    ),
]


def _numbers(message: str) -> list[str]:
    return re.findall(r"-?\d+", message) or ["that"]


def _unknown_stats(message: str) -> str:
    found = re.search(r"but (.*) unknown", message)
    names = [n.strip() for n in (found.group(1) if found else "").split(",") if n.strip()]
    labels = [FIELD_LABELS.get(n, n) for n in names] or ["A number"]
    return " and ".join(labels) + (" is" if len(labels) == 1 else " are")


def _number(message: str) -> str:
    found = re.search(r"-?\d+", message)
    return found.group(0) if found else "that"


def known_form(message: str) -> bool:
    """Whether the message is one of the language's known forms (else it is shown as it is,
    made a sentence)."""
    return any(pattern.match(message) for _, pattern, _ in MESSAGE_FORMS)


def designer_sentence(path: str, message: str) -> str:
    """The parser's message about `path` as a sentence a designer reads at the control."""
    label = field_label(path)
    for _, pattern, sentence in MESSAGE_FORMS:
        if pattern.match(message):
            return sentence(label, message)
    text = message.strip().rstrip(".")
    return f"{label}: {text[:1].lower()}{text[1:]}."
