"""The setup finds a Python 3.12+ by itself, and says what to install when there is none."""

import os
import subprocess
import sys
from pathlib import Path

FIND_PYTHON = Path(__file__).resolve().parent.parent / "scripts" / "find-python"
ENSURE_CHROMIUM = FIND_PYTHON.with_name("ensure-chromium")


def run_finder(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": str(tmp_path), "HOME": str(tmp_path), "PYENV_ROOT": str(tmp_path / "pyenv")}
    return subprocess.run(
        ["/bin/sh", str(FIND_PYTHON)], capture_output=True, text=True, env={**base, **env}
    )


def test_finds_a_new_enough_interpreter_on_path(tmp_path: Path) -> None:
    (tmp_path / "python3.12").symlink_to(sys.executable)
    result = run_finder(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "python3.12")


def test_finds_a_pyenv_install(tmp_path: Path) -> None:
    bin_dir = tmp_path / "pyenv" / "versions" / "3.12.9" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python3").symlink_to(sys.executable)
    result = run_finder(tmp_path)
    assert result.stdout.strip() == str(bin_dir / "python3")


def test_explains_what_to_install_when_none_is_found(tmp_path: Path) -> None:
    old = tmp_path / "python3"
    old.write_text("#!/bin/sh\nexit 1\n")  # an interpreter that is too old
    old.chmod(0o755)
    result = run_finder(tmp_path)
    assert result.returncode == 1
    assert "No Python 3.12 or newer was found" in result.stderr
    assert "pyenv install 3.12" in result.stderr and "PYTHON=" in result.stderr


def test_rejects_a_named_interpreter_that_is_too_old(tmp_path: Path) -> None:
    old = tmp_path / "oldpython"
    old.write_text("#!/bin/sh\nexit 1\n")
    old.chmod(0o755)
    result = run_finder(tmp_path, PYTHON=str(old))
    assert result.returncode == 1 and "not a Python 3.12" in result.stderr
    assert os.access(FIND_PYTHON, os.X_OK)


def test_without_chromium_the_setup_says_how_to_run_the_rest(tmp_path: Path) -> None:
    # No apt-get and no `id` on this PATH: nothing can be installed, as for a plain user.
    (tmp_path / "cat").symlink_to("/bin/cat")
    result = subprocess.run(
        ["/bin/sh", str(ENSURE_CHROMIUM)],
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path), "CARDSITE_CHROMIUM": str(tmp_path / "no-chromium")},
    )
    assert result.returncode == 1
    assert f"The browser tests need Chromium at {tmp_path / 'no-chromium'}" in result.stderr
    assert "make test NO_BROWSER=1" in result.stderr
