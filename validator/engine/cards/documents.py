"""Errors that name their path and line (and the nearest valid word); the reading of YAML
itself is in reader.py."""

from __future__ import annotations

import difflib
import itertools
import re
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    Discriminator,
    Tag,
    ValidationError,
)

from validator.engine.cards.conditions import CONDITION_TYPES

# --------------------------------------------------------------------------------------------
# Errors with paths, lines and the nearest valid word
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentError:
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.path or '(document)'}: {self.message}"


# A document is answered with at most this many errors, then one line saying how many more:
# enough to fix a document by, and an answer whose size does not grow with the input's.
MAX_ERRORS = 50


def more_errors(count: int) -> DocumentError:
    """The line that stands for the errors past MAX_ERRORS."""
    noun = "error" if count == 1 else "errors"
    return DocumentError("", f"...and {count:,} more {noun}, not listed (the first are above)")


@dataclass
class CardDocumentError(Exception):
    """A document that does not parse; every error names its path (and line, from YAML).
    Holds at most MAX_ERRORS errors and a last line counting the rest, however it was made."""

    errors: list[DocumentError]
    source: str | None = None

    def __post_init__(self) -> None:
        if len(self.errors) > MAX_ERRORS + 1:
            self.errors = [*self.errors[:MAX_ERRORS], more_errors(len(self.errors) - MAX_ERRORS)]
        self.errors = _valid_words_once(self.errors)

    def __str__(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return head + "; ".join(str(e) for e in self.errors)

    def lines(self) -> list[str]:
        out = []
        for error in self.errors:
            where = ":".join(str(p) for p in (self.source, error.line) if p)
            what = f"{error.path}: {error.message}" if error.path else error.message
            out.append(f"{where}: {what}" if where else what)
        return out


def _valid_words_once(errors: list[DocumentError]) -> list[DocumentError]:
    """Each list of valid words ("...; valid: strength, bonus, ...", "...; valid keys: ...")
    given in full at its first error only, the later ones pointing to it: fifty misspelt effect
    types read as fifty lines, not fifty copies of the eighty types."""
    shown: set[str] = set()
    out = []
    for error in errors:
        head, marker, rest = error.message.partition("; valid")
        # A set's errors end by naming their card: " (card 'Ogre')".
        words, card, name = rest.partition(" (card ")
        if marker and words in shown:
            label = words.partition(":")[0]
            message = f"{head}{marker}{label}: as listed above{card}{name}"
            error = DocumentError(error.path, message, error.line)
        elif marker:
            shown.add(words)
        out.append(error)
    return out


def nearest_word(word: str, candidates: Iterable[str]) -> str | None:
    """The valid word closest to a misspelt one, if any is close enough to be a likely typo."""
    matches = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def _union_members(annotation: Any) -> dict[str, Any] | None:
    """For a discriminated union annotation, map each tag to its member type."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        base, *meta = typing.get_args(annotation)
        discriminator = next((m for m in meta if isinstance(m, Discriminator)), None) or next(
            (
                m.discriminator
                for m in meta
                if hasattr(m, "discriminator") and m.discriminator is not None
            ),
            None,
        )
        if discriminator is None:
            return None
        members: dict[str, Any] = {}
        for member in typing.get_args(base):
            if typing.get_origin(member) is Annotated:
                cls, *tags = typing.get_args(member)
                tag = next(t.tag for t in tags if isinstance(t, Tag))
                members[tag] = cls
            elif isinstance(discriminator, str):
                for value in typing.get_args(member.model_fields[discriminator].annotation):
                    members[value] = member
        return members
    return None


def _strip_optional(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _walk(root: Any, loc: Sequence[str | int]) -> tuple[list[str | int], Any]:
    """Follow a pydantic error location through the definitions.

    Returns the location without union tags (the path a person would write) and the type found
    at its end (a model class, when the location ends inside one)."""
    current: Any = root
    path: list[str | int] = []
    for part in loc:
        current = _strip_optional(current)
        members = _union_members(current)
        if members is not None and isinstance(part, str) and part in members:
            current = members[part]
            continue
        if typing.get_origin(current) is Annotated:
            current = _strip_optional(typing.get_args(current)[0])
            members = _union_members(current)
        if isinstance(part, int) and typing.get_origin(current) is list:
            current = typing.get_args(current)[0]
            path.append(part)
            continue
        if isinstance(current, type) and issubclass(current, BaseModel) and isinstance(part, str):
            field_name = next(
                (n for n, f in current.model_fields.items() if (f.alias or n) == part), None
            )
            if field_name is not None:
                current = current.model_fields[field_name].annotation
                path.append(part)
                continue
        if typing.get_origin(current) in (typing.Union, types.UnionType):
            # A plain union (int | "roll"): pydantic names the branch; it is not a path step.
            continue
        path.append(part)
        current = None
    return path, current


def _model_keys(model: Any) -> list[str]:
    model = _strip_optional(model)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return [f.alias or n for n, f in model.model_fields.items()]
    return []


def format_path(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_QUOTED = re.compile(r"'([^']*)'")


# A word of the input echoed in an error is cut to this many characters: a key of a megabyte
# is named by its start, not copied into every answer that mentions it.
_SHOWN_CHARACTERS = 40
# How many keys of a map missing its tag (`type:`) are looked at for a misspelt tag.
_TYPO_CANDIDATES = 100


def shown(word: object) -> str:
    """`word` as an error quotes it (repr), its start only when it is long."""
    text = str(word)
    if len(text) > _SHOWN_CHARACTERS:
        return repr(text[:_SHOWN_CHARACTERS]) + f" (cut; {len(text):,} characters)"
    return repr(word)


def _error_message(error: Any, parent: Any, field_name: str | int | None) -> str:
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        valid = _model_keys(parent)
        hint = nearest_word(str(field_name)[:_SHOWN_CHARACTERS], valid)
        message = f"unknown key {shown(field_name)}"
        if hint:
            message += f"; did you mean {hint!r}?"
        elif valid:
            message += f"; valid keys: {', '.join(valid)}"
        return message
    if kind == "union_tag_invalid":
        tags = _QUOTED.findall(str(ctx.get("expected_tags", "")))
        word = ctx.get("tag")
        message = f"unknown {ctx.get('discriminator', 'tag').strip(chr(39))} {shown(word)}"
        hint = nearest_word(str(word)[:_SHOWN_CHARACTERS], tags)
        return message + (f"; did you mean {hint!r}?" if hint else f"; valid: {', '.join(tags)}")
    if kind == "condition_shape":
        given = error.get("input")
        if isinstance(given, dict) and len(given) == 1:
            word = str(next(iter(given)))
            keys = [c.key for c in CONDITION_TYPES]
            hint = nearest_word(word[:_SHOWN_CHARACTERS], keys)
            return f"unknown condition {shown(word)}" + (
                f"; did you mean {hint!r}?" if hint else f"; valid: {', '.join(keys)}"
            )
        return str(error["msg"])
    if kind == "union_tag_not_found":
        return f"missing {str(ctx.get('discriminator', 'tag')).strip(chr(39))!s}"
    if kind == "literal_error":
        words = _QUOTED.findall(str(ctx.get("expected", "")))
        given = error.get("input")
        hint = nearest_word(str(given)[:_SHOWN_CHARACTERS], words)
        message = f"{shown(given)} is not one of {', '.join(words)}"
        return message + (f"; did you mean {hint!r}?" if hint else "")
    if kind == "missing":
        return "required key is missing"
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def count_values(data: Any, stop_after: int) -> int:
    """How many values (maps, lists, scalars) `data` holds, counting no further than
    `stop_after` + 1: what bounds the errors a validation of it can find."""
    count = 0
    stack = [data]
    while stack and count <= stop_after:
        value = stack.pop()
        count += 1
        if isinstance(value, dict):
            stack.extend(value.values())
            count += len(value)  # the keys
        elif isinstance(value, list):
            stack.extend(value)
    return count


def errors_from_validation(
    exc: ValidationError, root: Any, lines: dict[tuple[str | int, ...], int] | None = None
) -> list[DocumentError]:
    """Turn pydantic's errors into path + message (+ line) errors, one per distinct place;
    the first MAX_ERRORS places, then a line counting the others (each error costs a walk of
    the definitions and a search for the nearest word, so the rest are only counted)."""
    listed, not_listed = validation_errors(exc, root, lines)
    return [*listed, more_errors(not_listed)] if not_listed else listed


def validation_errors(
    exc: ValidationError,
    root: Any,
    lines: dict[tuple[str | int, ...], int] | None = None,
    *,
    prefix: tuple[str | int, ...] = (),
    limit: int = MAX_ERRORS,
) -> tuple[list[DocumentError], int]:
    """The errors of `exc` as `errors_from_validation` words them, at most `limit` of them,
    and how many distinct places were left out. `prefix` is the path of the validated value
    inside a larger document (a set's `cards[3]`), for the paths shown and their lines."""
    out: list[DocumentError] = []
    seen: set[tuple[str, str]] = set()
    errors = exc.errors(include_url=False)
    # A plain union reports every branch; keep the most specific message per path.
    for index, error in enumerate(errors):
        if len(out) >= limit:
            listed = {tuple(e["loc"]) for e in errors[:index]}
            rest = {tuple(e["loc"]) for e in errors[index:]} - listed
            return _collapse_union_branches(out), len(rest)
        loc = tuple(error["loc"])
        path, _ = _walk(root, loc)
        parent_path, parent = _walk(root, loc[:-1]) if loc else ([], root)
        last = loc[-1] if loc else None
        message = _error_message(error, parent, last)
        if error["type"] == "extra_forbidden":
            path = [*parent_path, last] if last is not None else parent_path
        elif error["type"] == "union_tag_not_found" and isinstance(error.get("input"), dict):
            # The discriminator is missing: most often because its key is misspelt.
            discriminator = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
            # Only the first keys are candidates: a typo of the tag sits among a handful.
            candidates = itertools.islice(error["input"], _TYPO_CANDIDATES)
            typo = next((k for k in candidates if nearest_word(str(k), [discriminator])), None)
            if typo is not None and typo != discriminator:
                path = [*path, typo]
                message = f"unknown key {shown(typo)}; did you mean {discriminator!r}?"
            elif discriminator.isidentifier():
                path = [*path, discriminator]
        elif error["type"] in ("union_tag_invalid", "union_tag_not_found"):
            discriminator = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
            if discriminator.isidentifier():
                path = [*path, discriminator]
        path = [*prefix, *path]
        display = format_path(path)
        key = (display, message)
        if key in seen:
            continue
        seen.add(key)
        line = line_for(path, lines) if lines else None
        out.append(DocumentError(display, message, line))
    return _collapse_union_branches(out), 0


def _collapse_union_branches(errors: list[DocumentError]) -> list[DocumentError]:
    by_path: dict[str, list[DocumentError]] = {}
    for error in errors:
        by_path.setdefault(error.path, []).append(error)
    out: list[DocumentError] = []
    for path, group in by_path.items():
        if len(group) > 1 and all(e.message.startswith(("Input should be", "'")) for e in group):
            expected = "; or ".join(e.message for e in group)
            out.append(DocumentError(path, expected, group[0].line))
        else:
            out.extend(group)
    return out


def line_for(path: Sequence[str | int], lines: dict[tuple[str | int, ...], int]) -> int | None:
    """The line of a path in a YAML document, or of its nearest ancestor that has one."""
    for end in range(len(path), -1, -1):
        line = lines.get(tuple(path[:end]))
        if line is not None:
            return line
    return None
