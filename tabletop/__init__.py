"""tabletop: a hex-map tabletop simulator with an exact geometry core.

Layers, imports pointing down only: ``ui`` -> ``games`` -> ``engine`` -> ``board`` ->
``hexgrid``. See README.md for the tour.
"""

__version__ = "0.1.0"
