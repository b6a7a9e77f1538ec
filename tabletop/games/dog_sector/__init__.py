"""DOG SECTOR (White Dog Games): the Omaha Beach Dog sector landing, solitaire.

``los`` holds the line-of-sight policy and the geometric targeting limits of phases 4
and 6 (figures and the project's choices in ``los.yaml``); the registry in
``tabletop.games`` finds it through ``los.policy(state)``. Pieces use the sides
"american" and "german" and the unit type keys listed in ``los.yaml``.
"""
