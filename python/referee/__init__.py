"""referee: judges records of six abstract board games.

Quadraphages, Hexaphages, Quarod, Petrify, Vadrantir and Splinter Quad: positions and their
legal moves (``Position``), the records found in any text with their verdicts (``read``,
``open``, ``Record``), and whole collections verified on all cores (``verify``).

The work is done by the Rust library behind the command line ``referee``, through the extension
module ``referee._referee``; everything here is re-exported from it.
"""

from ._referee import (
    CodeError,
    ConvertError,
    IllegalMoveError,
    Position,
    ReadError,
    Record,
    Verdicts,
    __version__,
    games,
    open,
    read,
    verify,
)

__all__ = [
    "CodeError",
    "ConvertError",
    "IllegalMoveError",
    "Position",
    "ReadError",
    "Record",
    "Verdicts",
    "__version__",
    "games",
    "open",
    "read",
    "verify",
]
