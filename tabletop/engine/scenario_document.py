"""A scenario file as an editable document (``tabletop edit SCENARIO``): the pieces
placed in the window written back as ``units:`` and ``markers:`` entries, setup entries
and constraints added, and the file checked live as ``tabletop validate`` checks it,
the setup solver included (can the constraints all hold, and which conflict).

The window places, moves and removes pieces through its ordinary counter tools on a
free-play table; ``sync_pieces`` then writes the table's pieces into the document, in
place: an existing entry keeps its line, its comment and its keys' order, only the
values that changed are rewritten. Pieces the file gives only under an option other
than the default (``when:``) are not on the table and are left as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from tabletop.board import Map
from tabletop.board.editing import YamlDocument, flow, quoted, same_label
from tabletop.engine.counters import Counters, counters_for
from tabletop.engine.pieces import MapState, Piece
from tabletop.yamlfile import DataError, DataErrors

from .scenario import Scenario, load_scenario, setup_errors

SOLVER_STEPS = 5_000  # the live check's search limit (validate's is larger; undecided is not an error)


class ScenarioDocument(YamlDocument):
    """The scenario file being edited, and the scenario it builds."""

    def __init__(self, path: Path, text: str, scenario: Scenario) -> None:
        super().__init__(path, text)
        self.scenario = scenario
        self.map_of: Callable[[], Map] | None = None  # the map as the editor holds it (unsaved edits)
        self.synced = frozenset(p.id for p in scenario.state().pieces())  # the ids the table shows
        self.problems = setup_errors(scenario, limit=SOLVER_STEPS)

    @classmethod
    def open(cls, path: Path) -> ScenarioDocument:
        """The scenario at ``path`` (DataErrors, as ``tabletop validate`` gives them)."""
        scenario = load_scenario(path)
        return cls(path.resolve(), path.read_text(encoding="utf-8"), scenario)

    def build(self, text: str) -> list[DataError]:
        """The scenario as the loader reads it (on the map as edited), and whether its
        setup can be done: the solver's verdict, live."""
        self.scenario = load_scenario(self.path, text, self.map_of() if self.map_of is not None else None)
        self.synced = self.synced | {p.id for p in self.scenario.state().pieces()}
        return setup_errors(self.scenario, limit=SOLVER_STEPS)

    def recheck(self) -> None:
        """Check again after its map changed."""
        self.rebuild(self.text())

    # --- pieces --------------------------------------------------------------------------

    def sync_pieces(self, state: MapState) -> bool:
        """Write the pieces on the table into ``units:`` and ``markers:`` (see the module
        doc); whether anything changed."""
        on_table = {p.id: p for p in state.pieces()}
        label = state.board.label

        def change() -> bool:
            changed = False
            for block in ("units", "markers"):
                items = self.doc.get(block)
                if not isinstance(items, list):
                    continue
                for i in reversed(range(len(items))):
                    entry = items[i]
                    ident = str(entry.get("id", "")) if isinstance(entry, dict) else ""
                    if ident in self.synced and ident not in on_table:
                        del items[i]
                        changed = True
            listed = {
                str(e.get("id")): e for b in ("units", "markers") for e in self.doc.get(b) or [] if isinstance(e, dict)
            }
            for piece in on_table.values():
                block = "units" if piece.kind == "unit" else "markers"
                if piece.id in listed:
                    changed |= _update(listed[piece.id], piece, label(piece.hex), self._full_steps(piece))
                else:
                    self.doc.setdefault(block, CommentedSeq()).append(_entry(piece, label(piece.hex), self._full_steps(piece)))
                    changed = True
            return changed

        done = self._edit(change)
        self.synced = self.synced | set(on_table)
        return done

    def _full_steps(self, piece: Piece) -> int:
        """A unit's full steps: a unit at them needs no ``steps:`` in the file."""
        if piece.type in self.scenario.newcomers.steps:
            return self.scenario.newcomers.steps[piece.type]
        try:
            return scenario_counters(self.scenario).unit(piece.type).steps or 1
        except (DataErrors, KeyError):
            return 1

    # --- setup and constraints --------------------------------------------------------

    def add_setup(self, *, count: int, regions: list[str], unit: str | None = None,
                  marker: str | None = None, side: str | None = None, text: str = "") -> bool:  # fmt: skip
        """A setup entry: ``count`` units of type ``unit`` (or markers ``marker``) of
        ``side`` placed by the solver in the hexes of ``regions``."""
        entry = CommentedMap()
        if text:
            entry["text"] = text
        if side:
            entry["side"] = side
        entry["type" if unit else "marker"] = unit or marker
        entry["count"] = count
        entry["zone"] = CommentedMap(regions=flow(list(regions)))
        entry.fa.set_flow_style()
        return self._append("setup", entry)

    def add_constraint(self, *, text: str, pieces: dict[str, str], bound: str, value: int,
                       every: str | None = None, per_hex: list[str] | None = None) -> bool:  # fmt: skip
        """A constraint: the pieces matching ``pieces`` bounded (``bound``: min, max or
        exactly) in every region of kind ``every``, or in any one hex of the regions
        ``per_hex``, or on the whole map."""
        entry = CommentedMap(text=text)
        if every is not None:
            entry["every"] = every
        elif per_hex is not None:
            entry["per-hex"] = CommentedMap(regions=flow(list(per_hex)))
        else:
            entry["total"] = "all"
        entry["pieces"] = CommentedMap(pieces)
        entry[bound] = value
        entry.fa.set_flow_style()
        return self._append("constraints", entry)

    def set_setup_count(self, index: int, count: int) -> bool:
        """The ``count`` of setup entry ``index`` (at least 1)."""
        entries = self.doc.get("setup")
        if not isinstance(entries, list) or not 0 <= index < len(entries) or count < 1:
            return False
        entry = entries[index]

        def change() -> bool:
            if entry.get("count") == count:
                return False
            entry["count"] = count
            return True

        return self._edit(change)

    def _append(self, block: str, entry: CommentedMap) -> bool:
        def change() -> bool:
            self.doc.setdefault(block, CommentedSeq()).append(entry)
            return True

        return self._edit(change)


def scenario_counters(scenario: Scenario) -> Counters:
    """The counters a scenario's pieces are drawn and placed from: its own ``counters:``
    (beside it, in ../counters, then shipped), else its rule system's."""
    if scenario.counters and scenario.sheet is not None:
        return scenario.sheet
    return counters_for(scenario.rules)


def new_scenario_text(name: str, map_ref: str, rules: str | None) -> str:
    """A new scenario file on the map ``map_ref`` (a bare name), ready to edit."""
    from tabletop.board.blank import yaml_string

    made_for = f"rules: {rules}\n" if rules else ""
    return (
        "# A scenario made with `tabletop edit`: place pieces from the counter tray (t), add\n"
        "# setup zones and constraints (F9); see scenarios/FORMAT.md for every key.\n"
        f"name: {yaml_string(name)}\nmap: {map_ref}\n{made_for}"
    )


def _entry(piece: Piece, hex_label: str, full: int) -> CommentedMap:
    """A new ``units:``/``markers:`` entry for ``piece``, one flow line as the shipped
    scenarios write them."""
    entry = CommentedMap(id=piece.id, type=piece.type)
    if piece.kind == "unit" and piece.side:
        entry["side"] = piece.side
    entry["hex"] = quoted(hex_label)
    _update(entry, piece, hex_label, full)
    entry.fa.set_flow_style()
    return entry


def _update(entry: Any, piece: Piece, hex_label: str, full: int) -> bool:
    """``entry`` made to say where ``piece`` is and what state it is in; whether it
    changed. Keys at their defaults are left out (or taken out)."""
    wanted: dict[str, Any] = {"hex": hex_label}
    if piece.level:
        wanted["level"] = piece.level
    if piece.kind == "unit":
        if piece.facing is not None:
            wanted["facing"] = piece.facing
        if piece.status:
            wanted["status"] = flow(sorted(piece.status))
        if piece.steps != full:
            wanted["steps"] = piece.steps
    changed = False
    for key in ("hex", "level", "facing", "status", "steps"):
        have, want = entry.get(key), wanted.get(key)
        same = (have is None and want is None) or (
            key == "hex" and have is not None and same_label(have, hex_label)
        ) or (key == "status" and have is not None and want is not None and sorted(have) == list(want)) or (
            key not in ("hex", "status") and have == want
        )
        if same:
            continue
        if want is None:
            del entry[key]
        else:
            entry[key] = quoted(want) if key == "hex" else want
        changed = True
    return changed
