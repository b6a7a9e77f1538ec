"""Imports: other tools' hex maps turned into tabletop maps (issue 21 item 3).

``tabletop import tiled FILE.tmx --out DIR`` (Tiled, through pytmx) and ``tabletop
import vassal FILE.vmod --out DIR`` (a VASSAL module, read with the standard library)
write a map YAML (maps/FORMAT.md) with its picture as a ``background:`` beside it, ready
for a player to paint terrain over. Nothing here is needed to play: the libraries an
import uses are an optional extra (``pip install 'tabletop[import]'``).
"""
