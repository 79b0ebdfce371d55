"""Mutants: one small change each to a rules module's source, written back as source.

Each mutation operator models a plausible rules bug (a bound off by one, a sign flipped, a
condition inverted or dropped, a move that does nothing). Only function bodies are mutated:
module-level definitions, class bodies, default values and decorators run once at import, an
error message or a docstring is not a rule, and a pydantic validator checks a document while it
is parsed (so does a discriminator, which picks a document's type while it is parsed). In the
effect language's modules (`cards/...`)
functions that return `str` render text, which the text tests judge, so they are left out too.

A mutant is written as source (the node's text replaced by `ast.unparse` of the mutated node)
and kept only when that source parses back to exactly the mutated tree, so what the report
shows is what ran.
"""

from __future__ import annotations

import ast
import copy
import difflib
import functools
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parents[1] / "engine"

# The rules: everything the engine decides while a card is played. Text rendering, parsing, the
# scenario and pack formats, the bots of whole games and the benchmarks are not rules.
RULES_MODULES: tuple[str, ...] = (
    "abilities",
    "badstuff",
    "choices",
    "combat",
    "combat_specials",
    "runaway",
    "state",
    "strength",
    "turn",
    "cards.conditions",
    "cards.effects.base",
    "cards.effects.combat",
    "cards.effects.outcomes",
    "cards.effects.monsters",
    "cards.effects.tricks",
    "cards.effects.allowances",
)

# Modules of the effect language, where a function returning `str` renders rules text.
TEXT_RENDERING_MODULES = frozenset(
    {"cards.conditions", *(m for m in RULES_MODULES if m.startswith("cards.effects."))}
)

COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
}
BOOLOP_SWAPS: dict[type[ast.boolop], type[ast.boolop]] = {ast.And: ast.Or, ast.Or: ast.And}
CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}

OPERATORS = (
    "compare",  # < to <=, == to !=, in to not in ...
    "arithmetic",  # + to -, * to //
    "boolean",  # and to or
    "negation",  # not x to x
    "number",  # n to n + 1
    "truth",  # True to False
    "augmented",  # += to -=
    "builtin",  # min to max, any to all
    "branch",  # if c: to if False:
    "statement",  # a call made for its effect does nothing
)


@dataclass(frozen=True)
class Mutant:
    """One change to one function of a rules module."""

    id: str
    module: str  # dotted, under validator.engine ("badstuff", "cards.effects")
    function: str  # qualified name of the top-level function or method changed
    operator: str
    line: int
    end_line: int
    original: str  # the changed node's text before and after
    mutated: str
    start: int = field(repr=False)  # byte offsets of the changed text in the module's source
    end: int = field(repr=False)

    @property
    def path(self) -> Path:
        return ENGINE_DIR / (self.module.replace(".", "/") + ".py")

    @property
    def module_name(self) -> str:
        return f"validator.engine.{self.module}"

    @property
    def source(self) -> str:
        """The whole mutated module."""
        encoded = module_source(self.module).encode("utf-8")
        return (encoded[: self.start] + self.mutated.encode("utf-8") + encoded[self.end :]).decode(
            "utf-8"
        )

    def diff(self) -> str:
        original = module_source(self.module).splitlines(keepends=True)
        mutated = self.source.splitlines(keepends=True)
        name = f"validator/engine/{self.module.replace('.', '/')}.py"
        return "".join(difflib.unified_diff(original, mutated, name, name, n=1))


@dataclass
class _Site:
    node: ast.AST
    operator: str
    replacement: ast.AST
    function: str


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
    )


def _is_narration(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "note"
    )


class _SiteFinder(ast.NodeVisitor):
    """Walks function bodies and lists every place an operator applies."""

    def __init__(self, module: str, parsing_hooks: frozenset[str] = frozenset()) -> None:
        self.module = module
        self.parsing_hooks = parsing_hooks
        self.sites: list[_Site] = []
        self._scope: list[str] = []
        self._function: str | None = None

    # Scopes ---------------------------------------------------------------------------------

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self._function is not None:
            return  # a class defined inside a function: rare, and not worth the bookkeeping
        self._scope.append(node.name)
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.visit(statement)
        self._scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self._function is not None:
            # A function inside a function is part of it: its code is one of the outer's constants.
            for statement in node.body:
                self.visit(statement)
            return
        returns = ast.unparse(node.returns) if node.returns is not None else ""
        decorators = [ast.unparse(d) for d in node.decorator_list]
        if any("validator" in d or "serializer" in d for d in decorators):
            return  # checks a document while it is parsed: parsing, not a rule
        if not self._scope and node.name in self.parsing_hooks:
            return  # a discriminator: picks a document's type while it is parsed
        if self.module in TEXT_RENDERING_MODULES and returns in ("str", "'str'"):
            return
        self._function = ".".join([*self._scope, node.name])
        for statement in node.body:
            self.visit(statement)
        self._function = None

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815 (ast.NodeVisitor's naming)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.visit(node.body)

    # What is never mutated --------------------------------------------------------------------

    def visit_Raise(self, node: ast.Raise) -> None:
        return  # the error raised, and its message, are what refused moves report

    def visit_Assert(self, node: ast.Assert) -> None:
        return

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant):
            return  # a docstring
        if _is_narration(node.value):
            return  # the game log's narration: what a move says, not what it does
        if isinstance(node.value, ast.Call) and self._function is not None:
            self._add(node, "statement", ast.Pass())
        self.visit(node.value)

    # Operators ----------------------------------------------------------------------------------

    def _add(self, node: ast.AST, operator: str, replacement: ast.AST) -> None:
        if self._function is None:
            return
        ast.copy_location(replacement, node)
        self.sites.append(_Site(node, operator, replacement, self._function))

    def visit_If(self, node: ast.If) -> None:
        if not (isinstance(node.test, ast.Constant)):
            self._add(node.test, "branch", ast.Constant(False))
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        for index, op in enumerate(node.ops):
            swap = COMPARE_SWAPS.get(type(op))
            if swap is not None:
                mutated = copy.deepcopy(node)
                mutated.ops[index] = swap()
                self._add(node, "compare", mutated)
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swap = BINOP_SWAPS.get(type(node.op))
        if swap is not None and not (_is_text(node.left) or _is_text(node.right)):
            mutated = copy.deepcopy(node)
            mutated.op = swap()
            self._add(node, "arithmetic", mutated)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        swap = BINOP_SWAPS.get(type(node.op))
        if swap is not None and not _is_text(node.value):
            mutated = copy.deepcopy(node)
            mutated.op = swap()
            self._add(node, "augmented", mutated)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        mutated = copy.deepcopy(node)
        mutated.op = BOOLOP_SWAPS[type(node.op)]()
        self._add(node, "boolean", mutated)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self._add(node, "negation", copy.deepcopy(node.operand))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, bool):
            self._add(node, "truth", ast.Constant(not node.value))
        elif isinstance(node.value, int):
            self._add(node, "number", ast.Constant(node.value + 1))

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in CALL_SWAPS:
            mutated = copy.deepcopy(node)
            mutated.func = ast.Name(CALL_SWAPS[node.func.id], ast.Load())
            self._add(node, "builtin", mutated)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.visit(node.value)
        # An index or a slice bound is mutated; a type subscript (list[int]) never reaches here
        # because annotations are not visited.
        self.visit(node.slice)


def _segment_bounds(lines: list[bytes], node: ast.AST) -> tuple[int, int]:
    """Byte offsets of a node in the whole source (ast columns count UTF-8 bytes)."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    start = starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
    end = starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
    return start, end


def _shape(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=False)


@functools.cache
def module_source(module: str) -> str:
    return (ENGINE_DIR / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")


def _written(site: _Site) -> str | None:
    """The replacement as source, or None when it would not read back as the mutated node."""
    written = ast.unparse(site.replacement)
    if isinstance(site.replacement, ast.stmt):
        return written
    if not isinstance(site.replacement, ast.Constant):
        written = f"({written})"  # keeps the mutated expression's precedence in any context
    try:
        reparsed = ast.parse(written, mode="eval").body
    except SyntaxError:
        return None
    if _shape(reparsed) != _shape(site.replacement) or _shape(reparsed) == _shape(site.node):
        return None
    return written


def _discriminators(tree: ast.Module) -> frozenset[str]:
    """Names of the module's functions given to pydantic's `Discriminator(...)`."""
    return frozenset(
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Discriminator"
        and node.args
        and isinstance(node.args[0], ast.Name)
    )


def mutants_of_module(module: str, operators: frozenset[str] | None = None) -> list[Mutant]:
    """Every mutant of one rules module, in source order, each with an id that survives edits
    elsewhere in the module (module, function, operator and the change itself)."""
    text = module_source(module)
    tree = ast.parse(text)
    finder = _SiteFinder(module, _discriminators(tree))
    finder.visit(tree)
    encoded = text.encode("utf-8")
    lines = encoded.splitlines(keepends=True)
    mutants: list[Mutant] = []
    seen: dict[str, int] = {}
    for site in finder.sites:
        if operators is not None and site.operator not in operators:
            continue
        written = _written(site)
        if written is None:
            continue
        start, end = _segment_bounds(lines, site.node)
        original = encoded[start:end].decode("utf-8")
        key = f"{module}:{site.function}:{site.operator}:{' '.join(original.split())}=>{written}"
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        digest = hashlib.sha1(f"{key}#{occurrence}".encode()).hexdigest()[:8]
        mutants.append(
            Mutant(
                id=f"{module}:{site.function}:{site.operator}:{digest}",
                module=module,
                function=site.function,
                operator=site.operator,
                line=site.node.lineno,  # type: ignore[attr-defined]
                end_line=site.node.end_lineno or site.node.lineno,  # type: ignore[attr-defined]
                original=original,
                mutated=written,
                start=start,
                end=end,
            )
        )
    return mutants


def rules_mutants(modules: tuple[str, ...] = RULES_MODULES) -> Iterator[Mutant]:
    for module in modules:
        yield from mutants_of_module(module)
