"""Dogfaces in Space (rules text: ``dogfaces_in_space.txt``).

Individual soldiers, D6 combat table. ``los``: line of sight and the terrain modifiers
of a shot; ``movement``: terrain costs, roads, bridges, stacking, stopping next to an
enemy and Larry's jet pack. Unit types are the soldiers' names in lower case.
"""
