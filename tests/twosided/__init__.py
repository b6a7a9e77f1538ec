"""SKIRMISH: a small two-sided rule system for the engine's tests only (issue 12 item 4),
not shipped. ``rules`` is its Ruleset; ``bots`` its bots and sim contract."""
