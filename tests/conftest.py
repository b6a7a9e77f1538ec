"""Shared test set-up: no display needed, and small helpers for map files."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parent.parent
SHIPPED_MAPS = sorted((REPO / "maps").glob("*.yaml"))
