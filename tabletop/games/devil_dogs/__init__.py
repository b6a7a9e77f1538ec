"""The Devil Dogs of Belleau Wood (rules text: ``devil_dogs_of_belleau_wood.txt``).

WWI company level, card-driven orders, no dice. So far: line of sight (``los``).
"""
