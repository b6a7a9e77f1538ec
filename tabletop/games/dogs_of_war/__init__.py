"""Dogs of War (modern skirmish, D10, action points; 1 hex = 1 inch).

So far: the line-of-sight policy (``los``: facing arcs, models in the way, smoke,
darkness, buildings and cover) and the 10-inch priority-target rule, with their
figures in ``los.yaml``.
"""

from __future__ import annotations

from .los import DogsOfWarPolicy, policy, priority_targets

__all__ = ["DogsOfWarPolicy", "policy", "priority_targets"]
