"""The Devil Dogs of Belleau Wood (rules text: ``devil_dogs_of_belleau_wood.txt``).

WWI company level, card-driven orders, no dice. ``los``: line of sight (7.1);
``movement``: orders ADV/RET/REP/HOLD, stacking, enemy adjacency and forced retreat
(4.1, 6). Sides are "allied" and "german".
"""
