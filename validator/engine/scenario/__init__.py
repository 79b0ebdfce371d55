"""Scenarios: the document format (document.py) and the runner (runner.py); `python -m
validator.engine.scenario PATH...` runs files (__main__.py)."""

from validator.engine.library import CardLibrary, library_from_set_files
from validator.engine.scenario.document import (
    STEP_TYPES,
    Expect,
    ScenarioDocument,
    ScenarioError,
    ScenarioResult,
    load_scenario_file,
    parse_scenario,
    scenario_files,
)
from validator.engine.scenario.runner import (
    build_library,
    fingerprint,
    forget_library_decks,
    library_from_pack,
    run_paths,
    run_scenario,
    run_scenario_file,
    scenario_game,
)

__all__ = [
    "STEP_TYPES",
    "CardLibrary",
    "Expect",
    "ScenarioDocument",
    "ScenarioError",
    "ScenarioResult",
    "build_library",
    "fingerprint",
    "forget_library_decks",
    "library_from_pack",
    "library_from_set_files",
    "load_scenario_file",
    "parse_scenario",
    "run_paths",
    "run_scenario",
    "run_scenario_file",
    "scenario_files",
    "scenario_game",
]
