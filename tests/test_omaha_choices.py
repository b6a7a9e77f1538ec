"""D-Day at Omaha Beach, part 1: every gap (G*) and reading (A*) of the checklist that
the code or the data uses is settled as the project's choice and shown in the rules
panel (``phase_rules``: its "project's choice:" lines, from phases.yaml) of a phase, so
a player can see which rules are the text's and which the project's (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

from tabletop.engine.pieces import MapState
from tabletop.engine.state import GameState
from tabletop.games.omaha.ruleset import SEQUENCE, OmahaRules, phase_texts

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tabletop" / "games" / "omaha"
USED = re.compile(r"\b(?:gaps?|readings?)\s+([GA]\d{1,2}b?)\b", re.IGNORECASE)
NAMED = re.compile(r"\b([GA]\d{1,2}b?)\b")
KNOWN = {f"G{i}" for i in range(1, 16)} | {"G5b"} | {f"A{i}" for i in range(1, 11)}


def used_ids() -> set[str]:
    """The ids the part-1 code and data cite as "gap Gn" / "reading An"."""
    files = [*PACKAGE.glob("*.py"), *PACKAGE.glob("*.yaml"), ROOT / "scenarios" / "omaha.yaml"]
    return {m.upper().replace("B", "b") for f in files for m in USED.findall(f.read_text())}


def panel(phase: str) -> list[str]:
    from tabletop.board import load_map

    state = GameState(MapState.of(load_map("omaha")), turn=1, phase=phase)
    return OmahaRules().phase_rules(state)


def test_the_ids_cited_are_the_checklists() -> None:
    """Only ids of shared/games/omaha.md (G1-G15, G5b, A1-A10) are cited."""
    assert used_ids() and used_ids() <= KNOWN
    for text in phase_texts().values():
        for line in text.get("choices", []):
            assert set(NAMED.findall(line)) <= KNOWN, line


def test_every_gap_and_reading_used_is_shown_as_the_projects_choice() -> None:
    """Each id the code or data uses has a "project's choice" line of the rules panel."""
    shown: dict[str, list[str]] = {}
    for phase in SEQUENCE:
        for line in panel(phase.key):
            if line.startswith("project's choice: "):
                for found in NAMED.findall(line):
                    shown.setdefault(found, []).append(phase.key)
    missing = sorted(used_ids() - set(shown))
    assert not missing, f"gaps/readings used but not in the rules panel: {missing}"


def test_the_part_1_gaps_and_readings_are_all_there() -> None:
    """The gaps and readings of part 1 (the landing and the German side) as the
    checklist lists them: G1 sequence, G3 deck, G4 US data, G5/G5b order of battle and
    Depth, G6 map data, G7 tide, G8 heroes, G13 length, G14 turn 0, G15 the 9.2 letter;
    A1 9.2 rows, A2 9.3 rows, A5 pools, A8 armour bonus, A9 EXT actions, A10 delayed."""
    part_1 = {"G1", "G3", "G4", "G5", "G5b", "G6", "G7", "G8", "G13", "G14", "G15",
              "A1", "A2", "A5", "A8", "A9", "A10"}  # fmt: skip
    every = {found for phase in SEQUENCE for line in panel(phase.key) for found in NAMED.findall(line)}
    assert part_1 <= every
