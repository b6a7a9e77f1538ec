"""Dogfaces in Space (rules text: ``dogfaces_in_space.txt``).

Individual soldiers, D6 combat table. So far: line of sight and the terrain modifiers
of a shot (``los``).
"""
