"""referee: judges records of six abstract board games.

Quadraphages, Hexaphages, Quarod, Petrify, Vadrantir and Splinter Quad: positions and their
legal moves (``Position``), the records found in any text with their verdicts (``read``,
``open``, ``Record``), and whole collections verified on all cores (``verify``), also as Arrow
tables and Parquet files (``verify_table``, ``to_parquet``: ``pip install 'referee[arrow]'``).

The work is done by the Rust library behind the command line ``referee``, through the extension
module ``referee._referee``; everything here is re-exported from it, but the tables, which
``referee.tables`` makes in Python from ``verify``'s verdicts.
"""

from collections.abc import Mapping as _Mapping, Sequence as _Sequence

from ._referee import (
    CodeError,
    ConvertError,
    IllegalMoveError,
    Move,
    Moves,
    Position,
    ReadError,
    Record,
    Records,
    Verdict,
    Verdicts,
    __version__,
    games,
    open,
    read,
    verify,
)
from .tables import to_parquet, verify_table

# A verdict reads as the mapping it is (`isinstance(v, Mapping)`), as the dict it stands for did.
_Mapping.register(Verdict)
# The legal moves read as the sequence they are, as the list they stand for did.
_Sequence.register(Moves)

__all__ = [
    "CodeError",
    "ConvertError",
    "IllegalMoveError",
    "Move",
    "Moves",
    "Position",
    "ReadError",
    "Record",
    "Records",
    "Verdict",
    "Verdicts",
    "__version__",
    "games",
    "open",
    "read",
    "to_parquet",
    "verify",
    "verify_table",
]
