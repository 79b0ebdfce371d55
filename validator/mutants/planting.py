"""Planting a mutant in this process: the changed function's code object is swapped in place.

Every reference to the function (`from module import f` elsewhere, a method looked up on its
class, a dispatch table of functions) holds the same function object, so replacing its
`__code__` plants the bug everywhere at once without re-importing anything. This is done only in
a forked child that exits after its run, so the parent's engine stays as it was.

The engine's modules are reached by name with `importlib`, as files and code objects: the
mutator plants bugs in them and never calls them (the checks and scenarios run the engine
through its front door).
"""

from __future__ import annotations

import importlib
import types
from typing import Any

from validator.mutants.operators import Mutant


class PlantingError(Exception):
    """The mutated function could not be found or swapped (a bug in the mutator)."""


def _code_named(code: types.CodeType, qualname: str) -> types.CodeType | None:
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            # A generic function (def f[T]) is compiled inside a "<generic parameters of f>"
            # code object with its own qualname; look through it.
            if constant.co_qualname == qualname and not constant.co_name.startswith("<"):
                return constant
            found = _code_named(constant, qualname)
            if found is not None:
                return found
    return None


def function_object(module: types.ModuleType, qualname: str) -> types.FunctionType:
    """The function `qualname` (a dotted path through classes) defines in `module`."""
    target: Any = module
    for part in qualname.split("."):
        namespace = vars(target) if isinstance(target, type | types.ModuleType) else {}
        if part not in namespace:
            raise PlantingError(f"{module.__name__}.{qualname}: {part!r} not found")
        target = namespace[part]
    for unwrap in ("__func__", "fget", "__wrapped__", "func"):
        while not isinstance(target, types.FunctionType) and hasattr(target, unwrap):
            target = getattr(target, unwrap)
    if not isinstance(target, types.FunctionType):
        raise PlantingError(f"{module.__name__}.{qualname} is a {type(target).__name__}")
    return target


def plant(mutant: Mutant) -> None:
    """Swap the mutated function's code into the live engine (only in a throwaway process)."""
    module = importlib.import_module(mutant.module_name)
    compiled = compile(mutant.source, str(mutant.path), "exec")
    new_code = _code_named(compiled, mutant.function)
    if new_code is None:
        raise PlantingError(f"{mutant.id}: no code for {mutant.function} in the mutated module")
    function = function_object(module, mutant.function)
    if function.__code__.co_freevars != new_code.co_freevars:
        raise PlantingError(f"{mutant.id}: the mutated function closes over other names")
    function.__code__ = new_code
