"""What Dogfaces in Space adds to the window and to ``tabletop reach``: Larry's jet-pack
landing hexes (II, Charlie) as extra moves, beside the walk his move policy reaches.

The flight is ``movement.jet_pack_targets``: 4-5 hexes in a straight line over any
terrain; each landing hex comes with the note of its flight as the reason shown.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.engine.extras import NoExtras
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex

from .movement import has_jet_pack, jet_pack_targets


class DogfacesExtras(NoExtras):
    """The jet pack's landing hexes for a soldier who wears one; nothing for the others."""

    def extra_moves(self, state: MapState, piece: Piece) -> Mapping[Hex, str]:
        if piece.kind != "unit" or not has_jet_pack(piece):
            return {}
        return jet_pack_targets(state, piece)


def extras() -> DogfacesExtras:
    return DogfacesExtras()
