"""Maps: the ground as YAML data, loaded into a validated read-only Map.

Sits between pure geometry (``tabletop.hexgrid``) and the rules-agnostic engine.
"""

from .loader import build_map, load_map
from .model import HexFeature, HexsideFeature, Map, Region, TerrainType

__all__ = ["HexFeature", "HexsideFeature", "Map", "Region", "TerrainType", "build_map", "load_map"]
