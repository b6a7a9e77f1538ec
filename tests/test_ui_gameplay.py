"""The game box in the window: DOG SECTOR's automatic steps, overrides, undo, the log
player, setup from the tray, the friendly-fire ring and the after-action report
(issue 6 setup mode, issue 7 "the player aid, surpassed")."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tabletop.engine.game import SETUP
from tabletop.ui.app import App
from tabletop.ui.gameplay import GamePanel
from tabletop.ui.table import open_table

SIZE = (1280, 800)


def key(app: App, k: int, *, mod: int = 0) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def click(app: App, pos: tuple[int, int]) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def panel(app: App) -> GamePanel:
    return next(c for c in app.components if isinstance(c, GamePanel))


def drawn(app: App) -> pygame.Surface:
    pygame.init()
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    return surface


@pytest.fixture
def app(tmp_path: Path) -> App:
    return open_table("dog-sector", size=SIZE, seed=3, autosave=tmp_path / "auto.json")


def test_the_rules_play_their_phases_step_by_step(app: App) -> None:
    """Phases 1-4 are procedures: n plays the next one, and the clock plays them at a
    readable pace when not paused."""
    assert app.play.state.phase == "land"
    key(app, pygame.K_n)
    assert app.play.entries[-1].action == {"do": "land"}
    before = len(app.play.entries)
    gp = panel(app)
    gp.update(app, 0.1)
    assert len(app.play.entries) == before  # not yet
    gp.update(app, 1.0)
    assert len(app.play.entries) == before + 1
    key(app, pygame.K_p)
    gp.update(app, 5.0)
    assert len(app.play.entries) == before + 1 and gp.paused


def test_the_phase_rules_and_the_project_choices_are_shown(app: App) -> None:
    lines, _ = panel(app).box_lines(app)
    text = [t for t, _, _ in lines]
    assert text[0].startswith("Turn 1 · Phase 1")
    assert any("e: all 5 lines of the phase" in t for t in text)  # phase 1: 3 rules, 2 choices
    app.overlays["rules-expanded"] = True
    text = [t for t, _, _ in panel(app).box_lines(app)[0]]
    assert any(t.startswith("project's choice: units are drawn at random") for t in text)


def advance_to(app: App, phase: str) -> None:
    panel(app).confirm = None
    for _ in range(500):
        if app.play.state.phase == phase and app.play.proposal() is not None:
            return
        if app.play.state.phase == phase and phase in ("activity", "american-fire"):
            return
        if app.play.actor() == "american":
            app.act({"do": "end-phase"})  # the player's phases, skipped
        else:
            key(app, pygame.K_n)
    raise AssertionError(f"never reached {phase}")


def test_german_fire_can_be_overridden_and_the_override_is_logged(app: App) -> None:
    """Phase 4: paused, o shows another legal target, Enter fires at it instead; the
    log says it was an override."""
    for _ in range(8):  # find a turn where a German unit has a choice of targets
        advance_to(app, "german-fire")
        gp = panel(app)
        gp.paused = True
        alts = gp.alternatives(app)
        if len(alts) > 1:
            break
        key(app, pygame.K_n)
    assert len(alts) > 1, "no German unit with a choice of targets"
    key(app, pygame.K_o)
    key(app, pygame.K_RETURN)
    last = app.play.entries[-1]
    assert last.action.get("override") is True
    assert any("override" in line for line in last.lines)


def test_undo_and_the_log_player(app: App) -> None:
    """Undo within the turn; Ctrl+Left/Right step through the log; Ctrl+Up jumps to a phase."""
    for _ in range(3):
        key(app, pygame.K_n)
    state = app.play.state.to_json()
    key(app, pygame.K_u)
    assert app.play.state.to_json() != state
    key(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.play.state.to_json() == state
    key(app, pygame.K_LEFT, mod=pygame.KMOD_CTRL)
    key(app, pygame.K_RIGHT, mod=pygame.KMOD_CTRL)
    assert app.play.state.to_json() == state and panel(app).paused
    key(app, pygame.K_UP, mod=pygame.KMOD_CTRL)
    assert app.play.head < len(app.play.entries) - 1


def test_setup_from_the_tray_refuses_illegal_hexes(tmp_path: Path) -> None:
    """Setup mode: pick a piece in the tray, click a hex; an illegal hex is refused with
    the reason; F5 lets the solver place the rest; n begins turn 1."""
    app = open_table("dog-sector", size=SIZE, seed=3, setup="manual", autosave=tmp_path / "a.json")
    assert app.play.state.phase == SETUP
    drawn(app)
    gp = panel(app)
    rect, piece_id = gp.tray[0]
    click(app, rect.center)
    assert gp.placing == piece_id
    sea = app.screen_of(app.board.hex_of("0101"))
    click(app, (round(sea[0]), round(sea[1])))
    assert app.messages[-1].startswith("not allowed:") and "barbed-wire" in app.messages[-1]
    key(app, pygame.K_F5)
    key(app, pygame.K_n)
    assert app.play.state.turn == 1


def test_the_friendly_fire_ring_shows_before_firing(app: App) -> None:
    """Phase 6, Friendly Fire: with a forward observer selected and the pointer on a
    German unit within 3 hexes of an American-occupied hex, the window rings that hex
    (the one a hit would strike instead) before the player fires."""
    state = app.play.state
    board = state.board
    target = state.map.piece("G-infantry-2")  # trench 0612, section 2
    state.phase = "american-fire"  # a position set by hand: the rule, not the way there
    app.edit({"do": "unbox", "box": "landing", "piece": "A-infantry-1", "to": "0710"})
    rules = app.play.rules
    for h in sorted(board.grid.hexes(), key=board.label):
        app.edit({"do": "unbox", "box": "landing", "piece": "A-forward-observer-1", "to": board.label(h)})
        hexes = rules.friendly_fire(app.play.state, "A-forward-observer-1", target.id)  # type: ignore[attr-defined]
        if hexes:
            break
        app.edit({"do": "remove", "piece": "A-forward-observer-1", "box": "landing"})
    assert board.hex_of("0710") in hexes
    app.selected, app.hover = "A-forward-observer-1", target.hex
    assert panel(app)._danger(app) == (target.hex, hexes)
    drawn(app)  # and it draws


def test_the_after_action_report_is_saved(app: App, tmp_path: Path) -> None:
    """Table 7's rank, the player's notes (written after the end too) and the log."""
    app.play.state.result = "Private (0 of 6 trench sections cleared)"  # as if over
    app.act({"do": "note", "text": "the wire held at 0605"})
    key(app, pygame.K_r, mod=pygame.KMOD_CTRL)
    report = tmp_path / "auto-report.txt"  # named after this game's save, not the scenario
    text = report.read_text()
    assert "after-action report" in text and "note: the wire held at 0605" in text
    assert "trench sections cleared" in text


def test_ctrl_s_writes_the_players_own_save_and_keeps_the_previous_version(app: App, tmp_path: Path) -> None:
    """Ctrl+S writes the player's own save, never the autosave (issue 13 finding 13), and
    keeps the one before as NAME.json.1 (finding S2: no write replaces a save with
    nothing kept)."""
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    mine = app.player_save
    assert mine is not None and mine != tmp_path / "auto.json" and not (tmp_path / "auto.json").exists()
    first = mine.read_bytes()
    key(app, pygame.K_n)  # the game moves on
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.player_save == mine and mine.read_bytes() != first
    assert mine.with_name(mine.name + ".1").read_bytes() == first


PROSE = {"click", "drag", "hover", "while", "wheel", "selected", "closing", "choice"}


def _keys_of(rows: list[tuple[str, str]]) -> set[str]:
    """The single keys, F-keys and modifier combinations a shortcut list names."""
    out: set[str] = set()
    for keys, _ in rows:
        for part in keys.split(","):
            if PROSE & set(part.split()):
                continue  # a mouse action, not a key
            prefix = ""
            for word in part.replace("/", " ").split():
                name = word
                if "+" in word.strip("+"):
                    prefix, name = word.rsplit("+", 1)[0] + "+", word.rsplit("+", 1)[1]
                if (len(name) == 1 and name not in "+-") or name.startswith(("F", "Page")):
                    out.add(prefix + name)
    return out


def test_no_two_parts_of_the_table_claim_the_same_key(app: App) -> None:
    """Every shortcut listed on screen (F1) belongs to one part of the table: a key
    claimed by two parts would silently do only one of the two things."""
    from tabletop.ui.app import CORE_SHORTCUTS

    owners = [("the window", CORE_SHORTCUTS)] + [(type(c).__name__, c.shortcuts) for c in app.components]
    seen: dict[str, str] = {}
    for owner, rows in owners:
        for token in _keys_of(rows):
            assert token not in seen, f"{token!r} is claimed by {seen.get(token)} and {owner}"
            seen[token] = owner


def test_n_does_not_end_an_untouched_player_phase_by_accident(app: App) -> None:
    """Hurrying the automatic phases with n stops at the player's phase: ending it with
    nothing done takes a second n."""
    advance_to(app, "activity")
    key(app, pygame.K_n)
    assert app.play.state.phase == "activity" and "n again ends it" in app.messages[-1]
    key(app, pygame.K_n)
    assert app.play.state.phase == "american-fire"


def test_the_score_line_and_the_selected_units_rules_words(app: App) -> None:
    """The game box keeps the score (sections cleared, Table 7 rank so far, turn of N);
    the selection box says a unit's strength and AP left (phase 5)."""
    text = [t for t, _, _ in panel(app).box_lines(app)[0]]
    assert text[1].startswith("sections cleared 0 of 6 (Private so far) · turn 1 of 12")
    advance_to(app, "activity")
    unit = next(p for p in app.state.pieces() if p.side == "american" and p.type == "infantry")
    lines = app.play.rules.unit_lines(app.play.state, unit)  # type: ignore[attr-defined]
    steps = "full (2 of 2 steps)" if unit.steps == 2 else "reduced (1 of 2 steps)"
    assert f"strength: {steps}" in lines and "AP left: 6 of 6 (phase 5)" in lines
    app.selected = unit.id
    drawn(app)


def typed(app: App, words: str) -> None:
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text=words))
    key(app, pygame.K_RETURN)


def test_dice_rolled_by_hand_are_used_logged_and_replayed(app: App) -> None:
    """The player aid's way: roll real dice. Ctrl+D queues the faces; the next roll
    (a phase 2 swamping check) uses them, the log keeps them, the replay repeats them."""
    advance_to(app, "swamp")
    assert app.play.proposal()["do"] == "swamp-check"  # type: ignore[index]
    key(app, pygame.K_d, mod=pygame.KMOD_CTRL)
    typed(app, "6")
    assert app.play.hand_dice == [6]
    key(app, pygame.K_n)
    entry = app.play.entries[-1]
    assert entry.rolls[0].result == (6,) and entry.script == [6] and "all units swamped" in entry.rolls[0].outcome
    assert app.play.replay().to_json() == app.play.state.to_json()


def test_a_hand_rolled_face_the_die_lacks_is_refused_and_dropped(app: App) -> None:
    advance_to(app, "swamp")
    before = app.play.state.to_json()
    key(app, pygame.K_d, mod=pygame.KMOD_CTRL)
    typed(app, "9")
    key(app, pygame.K_n)
    assert "not a face of a 6-sided die" in app.messages[-1] and app.play.hand_dice == []
    assert app.play.state.to_json() == before
    key(app, pygame.K_d, mod=pygame.KMOD_CTRL)
    typed(app, "five")
    assert "nothing queued" in app.messages[-1]


def test_the_reach_overlay_offers_only_what_the_ap_left_allows(app: App) -> None:
    """Issue 13 finding 5: after a move that spent AP, the reach overlay shows the rules'
    reach with the AP left (DOG SECTOR phase 5), and every hex it offers is a move the
    rules accept."""
    advance_to(app, "activity")
    unit = next(p for p in app.state.pieces() if p.side == "american" and p.type == "infantry")
    full = app.overlay_component().show_reach(app, unit.id)
    assert full is not None
    far = max((a for a in app.play.choices("american") if a.get("unit") == unit.id and a["do"] == "move"),
              key=lambda a: full.costs[app.board.hex_of(a["to"])])  # fmt: skip
    assert app.act(far)
    after = app.overlay_component().show_reach(app, unit.id)
    assert after is not None and set(after.costs) < set(full.costs)
    moved = app.play.state.map.piece(unit.id)
    for h in after.costs:
        if h != moved.hex:
            assert app.play.refusal({"do": "move", "unit": unit.id, "to": app.board.label(h)}) is None
    drawn(app)


def test_shift_p_sets_the_pace_of_the_automatic_steps(app: App) -> None:
    """Issue 13, the battle on the map: the automatic steps' speed follows the pace the
    player sets (Shift+P steps through slow, normal, fast, fastest); p still pauses."""
    from tabletop.ui.gameplay import PACES

    game_box = panel(app)
    assert game_box.delay == PACES[1][1]
    key(app, pygame.K_p, mod=pygame.KMOD_SHIFT)
    assert game_box.delay == PACES[2][1] and app.messages[-1].startswith("pace: fast")
    assert not game_box.paused
    before = len(app.play.entries)
    app.update(PACES[2][1] + 0.01)  # one step's worth of time at the fast pace plays one step
    assert len(app.play.entries) == before + 1
    key(app, pygame.K_p)
    assert game_box.paused
