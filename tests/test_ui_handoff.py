"""The window in a two-sided game (issue 12 item 2, window side; item 8, E8): it draws
only what the side at the screen may see, covers the table with a hand-off screen
between two hot-seat players, and shows the player-aid dice keys only where the rule
system uses them. Played through App.run, pygame's own event queue, SDL dummy
(tests/conftest.py), with SKIRMISH, the tests' two-sided rule system (tests/twosided)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from helpers import small_map
from twosided import rules
from twosided.rules import SkirmishRules, other, sentry

from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import Scenario
from tabletop.engine.state import GameState
from tabletop.ui import counters, theme
from tabletop.ui.app import HANDOFF_BACK, App
from tabletop.ui.gameplay import GamePanel
from tabletop.ui.panels import Panels, player_aid_dice
from tabletop.ui.table import open_game, open_table

SIZE = (1000, 700)
BOARD = small_map(rules.MAP_YAML)
SCENARIO = Scenario("SKIRMISH", BOARD, "twosided", (), frozenset(), Path("skirmish.yaml"))
HANDOFF = {side: f"Pass to {side.upper()} \u2014 press Space when ready" for side in rules.SIDES}


class HiddenSentries(SkirmishRules):
    """SKIRMISH with hidden units besides the hidden hands: each side's sentry is off
    the other side's view (as Dogs of War mines or Omaha's unrevealed Germans)."""

    def view(self, state: GameState, side: str) -> GameState:
        state = super().view(state, side)
        state.map.remove(sentry(other(side)))
        return state


def skirmish(ruleset: SkirmishRules | None = None) -> App:
    """The two-sided test game at the window, set up, both seats human (hot-seat)."""
    game: Game = new_game(SCENARIO, ruleset or HiddenSentries(), seed=1)
    auto_setup(game)
    return open_game(game, SCENARIO, size=SIZE, rules="twosided")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Every text and every piece drawn since the last frame was recorded."""
    seen: dict[str, list[str]] = {"text": [], "pieces": []}
    text, parts = theme.text, counters.CounterLayer._frame_parts  # every stack's blits, each frame

    def spy_text(words: str, *args: Any, **kw: Any) -> pygame.Surface:
        seen["text"].append(words)
        return text(words, *args, **kw)

    def spy_parts(self: counters.CounterLayer, app: App, *args: Any) -> Any:
        seen["pieces"].extend(p.id for s in self.stacks(app) for p in [*s.counters, *s.chips])
        return parts(self, app, *args)

    monkeypatch.setattr(theme, "text", spy_text)
    monkeypatch.setattr(counters.CounterLayer, "_frame_parts", spy_parts)
    return seen


def key_event(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def play_to_the_activations(app: App, drawn: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Through the loop, one event a frame: Space at a hand-off screen, n for the rules'
    steps, a click on the bid row in the game box (red bids 2, blue 1); stops once the
    activations begin. Returns what each frame showed."""
    frames: list[dict[str, Any]] = []
    panel = next(c for c in app.components if isinstance(c, GamePanel))
    bids = {"red": "2", "blue": "1"}

    def on_frame(a: App) -> None:
        game = a.play
        frames.append({
            "side": a.at_screen, "handoff": a.handoff, "text": list(drawn["text"]),
            "pieces": list(drawn["pieces"]), "hands": {s: list(h) for s, h in a.seen_state().hands.items()},
        })  # fmt: skip
        drawn["text"].clear()
        drawn["pieces"].clear()
        actor = game.actor()
        if a.handoff is not None:
            pygame.event.post(key_event(pygame.K_SPACE))
        elif game.state.phase == "act" and actor != "auto":
            a.running = False
        elif actor == "auto":
            pygame.event.post(key_event(pygame.K_n))
        else:
            row = next(r for r, act in panel.buttons if act.get("action", {}).get("card") == bids[str(actor)])
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=row.center, button=1))

    app.run(fps=1000, frames=80, on_frame=on_frame)
    assert app.play.state.phase == "act", "the script did not reach the activations"
    return frames


def private_text(app: App, side: str) -> list[str]:
    """The log lines only ``side`` may read (its cards drawn, its secret bid)."""
    mark = f"[only {side}] "
    return [
        line[len(mark) :]
        for i in app.play.path()
        for line in app.play.entries[i].lines
        if line.startswith(mark)
    ]


def test_hot_seat_draws_only_the_side_at_the_screen_and_hands_off_between_them(
    drawn: dict[str, list[str]],
) -> None:
    """Item 2: a hidden piece, the other hand and the other side's private log lines
    never reach what is drawn; at each change of the side to act the hand-off screen
    covers everything (no piece, no text but its own line) until Space."""
    app = skirmish()
    frames = play_to_the_activations(app, drawn)
    secret = {side: private_text(app, side) for side in rules.SIDES}
    assert any("red chose: " in line for line in secret["red"])  # the bid was made in secret
    for f in frames:
        if f["handoff"] is not None:
            assert f["text"] == [HANDOFF[f["handoff"]]] and f["pieces"] == []
            continue
        side = f["side"]
        foe = other(side)
        assert sentry(foe) not in f["pieces"] and sentry(side) in f["pieces"]
        assert set(f["hands"][foe]) == {"?"}
        assert not [t for t in f["text"] for line in secret[foe] if line in t]
    # the screen went to red at the start, to blue once red had bid, to red (initiative)
    handoffs = [
        f["handoff"]
        for i, f in enumerate(frames)
        if f["handoff"] and (i == 0 or not frames[i - 1]["handoff"])
    ]
    assert handoffs == ["red", "blue", "red"]
    # and each side's own lines were drawn: the log is there, filtered
    for side in rules.SIDES:
        own = [line for line in secret[side] if " draws " in line]
        shown = [t for f in frames if f["side"] == side and not f["handoff"] for t in f["text"]]
        assert own and all(any(line in t for t in shown) for line in own)


def test_the_handoff_screen_takes_every_key_but_space(drawn: dict[str, list[str]]) -> None:
    """Item 2: at the hand-off screen no key reaches the table (n does not play the
    rules' step, u does not undo); Space shows the table; Space is in F1's list."""
    app = skirmish()
    assert app.handoff == "red"
    head = app.play.head
    for k in (pygame.K_n, pygame.K_u, pygame.K_r, pygame.K_F1):
        app.handle(key_event(k))
    app.update(1.0)  # the rules' clock does not run either
    assert app.play.head == head and app.handoff == "red"
    app.handle(key_event(pygame.K_SPACE))
    assert app.handoff is None
    assert any(k == "Space" for k, _ in app.all_shortcuts())


def test_one_human_against_a_bot_sees_only_its_side_and_gets_no_handoff() -> None:
    """Item 2: with a bot in red's seat the window is always blue's, with no hand-off."""
    app = skirmish()
    app.seats["red"] = object()
    app.handoff = None
    app.sync()
    assert app.at_screen == "blue" and app.handoff is None
    assert sentry("red") not in {p.id for p in app.state.pieces()}
    assert set(app.seen_state().hands["red"]) == {"?"}


def test_dog_sector_is_drawn_whole_and_keeps_its_dice_buttons(tmp_path: Path) -> None:
    """Items 2 and 8: DOG SECTOR (one side) is drawn from the full state, with no
    hand-off, and keeps its player-aid dice keys (3-7 roll buttons, hit / miss)."""
    app = open_table("dog-sector", size=SIZE, seed=3, autosave=tmp_path / "auto.json")
    assert app.at_screen is None and app.handoff is None and app.state is app.play.state.map
    assert player_aid_dice(app)
    app.handle(key_event(pygame.K_3))
    assert any("roll button 3" in m for m in app.messages)
    assert ("3 - 7", "player-aid roll buttons: roll 1D6 for button 3-7") in help_rows(app)


def test_the_test_game_shows_no_player_aid_dice_buttons(drawn: dict[str, list[str]]) -> None:
    """Item 8 (E8): a rule system that does not use them gets no 3-7 buttons, no
    hit / miss keys and no such hint; the generic roll key stays."""
    app = skirmish()
    app.handle(key_event(pygame.K_SPACE))
    assert not player_aid_dice(app)
    entries = len(app.play.entries)
    app.handle(key_event(pygame.K_3))
    assert len(app.play.entries) == entries  # no roll button
    app.handle(key_event(pygame.K_r))
    assert len(app.play.entries) == entries + 1  # the generic roll
    rows = help_rows(app)
    assert not [k for k, _ in rows if k in ("3 - 7", "h / 1, m / 2")]
    drawn["text"].clear()
    app.draw(pygame.Surface(SIZE))
    assert "r roll 1D6" in drawn["text"] and not [t for t in drawn["text"] if "3-7" in t]


def help_rows(app: App) -> list[tuple[str, str]]:
    """The rows F1's overlay lists, as drawn."""
    pan = next(c for c in app.components if isinstance(c, Panels))
    pan.help_open = True
    app.draw(pygame.Surface(SIZE))
    pan.help_open = False
    return pan.help_rows


def test_a_frame_of_the_handoff_screen_is_saved(tmp_path: Path) -> None:
    """The hand-off screen as the player sees it (a PNG to look at)."""
    pygame.font.init()
    app = skirmish()
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "handoff.png"))
    middle = range(SIZE[1] // 2 - 40, SIZE[1] // 2 + 40)  # the one line of text
    rest = {
        tuple(surface.get_at((x, y)))[:3]
        for x in range(0, SIZE[0], 10)
        for y in range(0, SIZE[1], 10)
        if y not in middle
    }
    assert rest == {HANDOFF_BACK}  # nothing of the map, the counters or the panels
