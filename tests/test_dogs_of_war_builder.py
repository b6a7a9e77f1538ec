"""The roster builder (BUILDING PHASE l.167, team lists l.749-1589; issue 16 item 2,
"a roster builder (CLI and window) that keeps within the point budget and the
faction's allowed weapons, refusing with the reason; rosters saved as YAML"): the steps
(``builder``) and the dialog driven through the window's real event loop."""

from __future__ import annotations

from pathlib import Path

import pygame

from tabletop.games.dogs_of_war import roster
from tabletop.games.dogs_of_war.builder import Builder, allowed
from tabletop.games.dogs_of_war.builder_window import RosterBuilderWindow
from tabletop.games.dogs_of_war.data import data
from tabletop.ui.table import open_table


def test_a_step_that_breaks_the_budget_or_a_fixed_list_is_refused_with_the_checks_reason() -> None:
    b = Builder.of("blue", "crossroads-blue")  # the Rangers, 250 of 250
    assert not b.add_team("delta")  # Delta Force, 300 and its weapons: over the budget
    assert b.refused is not None and "over the budget of 250" in b.refused
    assert b.roster == roster.load("crossroads-blue")  # bad input changes nothing
    delta_cost = roster.cost({"teams": [{"faction": "delta"}]})  # 300 and its weapons
    assert b.budget(delta_cost) and b.add_team("delta") and b.spent() == 250 + delta_cost
    assert roster.check(b.roster) == []
    # the Rangers' weapons are fixed (l.883-1016): the leader's only weapon is his own
    assert allowed(data().factions["rangers"], b.teams()[0], 0) == ["m16a2"]
    # Delta buys its weapons (not fixed): any firearm of the chart, each at its price
    delta = len(b.teams()) - 1
    before = b.spent()
    assert b.next_weapon(delta, 0)
    assert b.members(delta)[0]["weapon"] in allowed(b.faction(delta), b.teams()[delta], 0)
    assert b.spent() != before or b.members(delta)[0]["weapon"] != "m4"
    assert b.undo() and b.spent() == before


def test_the_window_builds_a_roster_and_saves_it_atomically_as_yaml(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path))
    app = open_table("dogs-of-war", size=(1280, 800), seed=5, autosave=tmp_path / "auto.json")
    dialog = next(c for c in app.components if isinstance(c, RosterBuilderWindow))
    # over the budget (refused), the budget to 500, a second Rangers team (500 of 500),
    # a medic (refused: over the budget), the budget to 550 and the medic again, the
    # first team removed, saved
    clicks = ["add:rangers", "budget+", "budget+", "budget+", "budget+", "budget+", "add:rangers",
              "medic:1:1", "budget+", "medic:1:1", "remove:0", "save"]  # fmt: skip
    said: list[str] = []
    seen: dict[str, object] = {}

    def on_frame(a):  # type: ignore[no-untyped-def]
        frame = int(seen.get("frame", 0)) + 1
        seen["frame"] = frame
        if frame == 1:
            pygame.event.post(
                pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, mod=0, unicode="", scancode=0)
            )
        elif dialog.open and dialog.buttons and clicks and frame % 2 == 0:
            name = clicks.pop(0)
            x, y = dialog.buttons[name].center
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
            seen[name] = True
        if dialog.side in dialog.builders and dialog.builders[dialog.side].said not in said[-1:]:
            said.append(dialog.builders[dialog.side].said)

    app.run(fps=1000, frames=40, on_frame=on_frame)
    assert not clicks, clicks
    assert any(s.startswith("refused: ") and "over the budget of 250" in s for s in said), said
    assert any(s.startswith("refused: ") and "over the budget of 500" in s for s in said), said
    b = dialog.builders["blue"]
    assert b.roster["budget"] == 550
    assert [t["id"] for t in b.teams()] == ["rangers-1"]  # the first team removed
    assert b.members(0)[1].get("medic") is True, said
    saved = tmp_path / "rosters" / "crossroads-blue-rangers.yaml"
    assert saved.exists() and not list(saved.parent.glob(".*"))  # no temporary file left
    assert roster.load(str(saved)) == b.roster and roster.check(roster.load(str(saved))) == []
    assert any("Roster builder" in t for t in dialog.drawn)
