"""DOG SECTOR (White Dog Games): the Omaha Beach Dog sector landing, solitaire.

``los`` holds the line-of-sight policy and the geometric targeting limits of phases 4
and 6 (``los.yaml``); ``movement`` the phase 5 movement, stacking and obstacle rules
(``movement.yaml``). The registry in ``tabletop.games`` finds them through
``los.policy(state)`` and ``movement.move_policy(state)``. Pieces use the sides
"american" and "german" and the unit type keys listed in the yaml files.
``ruleset`` is the turn machine (``ruleset.ruleset()`` for the registry): ``procedures``
runs phases 1, 2, 3 and 7, ``german`` phase 4, ``american`` phases 5 and 6, ``hits``
what a hit does (``hits.yaml``), ``victory`` Table 7; their tables are ``rules.yaml``.
"""
