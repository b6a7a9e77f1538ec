"""Dogs of War (modern skirmish, D10, action points; 1 hex = 1 inch).

``los``: facing arcs, models in the way, smoke, darkness, buildings and cover, and the
10-inch priority-target rule; ``movement``: action points per inch by order (walk, run,
crawl), rubble, climbing walls, doorways; ``blasts``: grenades, C4, claymores,
automatic fire and grenade deviation. Figures in the yaml files beside them.
"""

from __future__ import annotations

from .los import DogsOfWarPolicy, policy, priority_targets

__all__ = ["DogsOfWarPolicy", "policy", "priority_targets"]
