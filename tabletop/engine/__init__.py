"""Rules-agnostic mechanics: pieces on a map, line of sight, viewsheds.

Knows terrain, hexsides, units and markers as data, but no rule system's names: a game
package supplies the policy (what blocks, what hinders, what grazing means).
"""
