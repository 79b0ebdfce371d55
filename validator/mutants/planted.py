"""Named bugs, planted by hand rather than generated: the rule slips the issue tracker has seen
the validator miss, kept so that a test proves the validator now fails cards for each.

Each is a patch of one rules module (text found once, replaced) turned into a `Mutant`, so it
is planted and judged exactly as generated mutants are (`--planted NAME`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from validator.mutants.operators import Mutant, module_source


@dataclass(frozen=True)
class Patch:
    module: str
    old: str
    new: str
    about: str


PLANTED: dict[str, Patch] = {
    "discard-own-card-does-nothing": Patch(
        module="badstuff",
        old="""            if card in owner.character:
                discard_character(game, owner, card)
            else:
                take_card(game, owner, card)
                game.discard(card)
            return True""",
        new="""            return True""",
        about="a card that says to discard one of your own cards in play leaves it in play",
    ),
    "conditional-extra-treasure-ignored": Patch(
        module="combat",
        old=(
            "if effect.when is None or any(holds(effect.when, p, game, combat) "
            "for p in combat.side):"
        ),
        new="if effect.when is None:",
        about="a monster's extra Treasure that depends on a condition is never given",
    ),
}


class PatchError(Exception):
    pass


def _function_at(module: str, line: int) -> str:
    tree = ast.parse(module_source(module))
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        for member in members:
            if isinstance(
                member, ast.FunctionDef | ast.AsyncFunctionDef
            ) and member.lineno <= line <= (member.end_lineno or member.lineno):
                prefix = f"{node.name}." if isinstance(node, ast.ClassDef) else ""
                return prefix + member.name
    raise PatchError(f"{module}: line {line} is not inside a function")


def planted_mutant(name: str) -> Mutant:
    """The named bug as a mutant; a clear error when the engine no longer has its text."""
    if name not in PLANTED:
        raise PatchError(f"no planted bug {name!r}; known: {', '.join(sorted(PLANTED))}")
    patch = PLANTED[name]
    text = module_source(patch.module)
    if text.count(patch.old) != 1:
        raise PatchError(
            f"planted bug {name!r}: its text is found {text.count(patch.old)} times in "
            f"validator/engine/{patch.module.replace('.', '/')}.py (once is needed): the engine "
            "changed, so update the patch in validator/mutants/planted.py"
        )
    start_char = text.index(patch.old)
    start = len(text[:start_char].encode("utf-8"))
    end = start + len(patch.old.encode("utf-8"))
    line = text.count("\n", 0, start_char) + 1
    return Mutant(
        id=f"planted:{name}",
        module=patch.module,
        function=_function_at(patch.module, line),
        operator="planted",
        line=line,
        end_line=line + patch.old.count("\n"),
        original=patch.old,
        mutated=patch.new,
        start=start,
        end=end,
    )
