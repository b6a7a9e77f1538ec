"""Shared test set-up: no display needed, and small helpers for map files."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parent.parent
SHIPPED_MAPS = sorted((REPO / "maps").glob("*.yaml"))


from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from tabletop.ui import theme  # noqa: E402


@pytest.fixture(autouse=True)
def _no_saves_in_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves and reports of tests go to a temporary folder, never the user's home."""
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path_factory.mktemp("tabletop-home")))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the window draws (theme.text), in order: what a player reads."""
    seen: list[str] = []
    text = theme.text

    def spy(words: str, *args: Any, **kw: Any) -> pygame.Surface:
        seen.append(words)
        return text(words, *args, **kw)

    monkeypatch.setattr(theme, "text", spy)
    return seen
