"""The engine's version, and digests of the source that makes what the engine produces.

`ENGINE_VERSION` is a label, raised by hand: it is written into packs (their `engine_version`)
and into the key of every stored validation report, for people to read. It never decides
whether something the engine produced may be reused: a label raised by hand is forgotten (rules
changes once landed after its last raise, and `validate_cards` kept reusing the reports the
earlier rules had made). That is decided by digests of the source itself (`source_digest`),
which change with any change to it and with nothing else:

- a stored validation report is kept under the digest of the engine's and the checks' source
  (`validator.checks.check_version`);
- a card's face under the digest of the effect language's source (`language_source_hash`): the
  rules text printed on it comes from there.

Each digest is computed once per process (about 6 ms for the engine and the checks, 87 files and
0.96 MB read and hashed; 10 to 15 ms when the files are not in the page cache).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path

ENGINE_VERSION = "0.2.5"

# The folder that holds the engine (`engine/`) and its checks (`checks/`).
VALIDATOR_DIR = Path(__file__).resolve().parents[1]
# The effect language's own code, under VALIDATOR_DIR: card documents made into definitions
# (`cards/`) and their rules text (`text.py`). They import nothing else of the engine
# (tests/validator/test_code_hash.py holds it), so the words on a card's face are a function of
# its document and of these files alone.
LANGUAGE_SOURCES = ("engine/cards", "engine/text.py")


def source_files(root: Path, parts: Iterable[str]) -> list[tuple[str, Path]]:
    """(path relative to `root` in POSIX form, path) of every Python source file in `parts`
    (folders, searched through, or files, relative to `root`), sorted by relative path.
    Compiled files (`__pycache__`) and files of other kinds are not sources."""
    found: dict[str, Path] = {}
    for part in parts:
        path = root / part
        candidates = [path] if path.is_file() else path.rglob("*.py")
        for file in candidates:
            if file.suffix == ".py" and "__pycache__" not in file.parts and file.is_file():
                found[file.relative_to(root).as_posix()] = file
    return sorted(found.items())


def source_digest(root: Path, parts: Iterable[str]) -> str:
    """sha256 (hex) of the Python source files in `parts` (see `source_files`): each one's
    relative path and bytes, in the order of their paths. Deterministic: the same files with the
    same bytes give the same digest on any machine, whatever their times or the order the
    file system lists them in; a changed byte, a file added, removed or renamed changes it."""
    digest = hashlib.sha256()
    for relative, path in source_files(root, parts):
        data = path.read_bytes()
        # Lengths first, so that no two different sets of files run together into one stream.
        name = relative.encode("utf-8")
        digest.update(b"%d:%s:%d:" % (len(name), name, len(data)))
        digest.update(data)
    return digest.hexdigest()


@functools.cache
def language_source_hash() -> str:
    """The digest of the effect language's source (`LANGUAGE_SOURCES`), once per process: what
    a face's rules text is made by."""
    return source_digest(VALIDATOR_DIR, LANGUAGE_SOURCES)
