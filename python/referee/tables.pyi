"""Verdicts and moves as Arrow tables, for bulk work: ``verify_table`` and ``to_parquet``.

A verdict's row holds the fields of the JSON line ``referee verify --format json`` prints, in its
order and typed (``errors`` and ``claims`` as lists of structs, ``score`` as a map), then the
columns ``referee verify --format csv`` flattens the lists into (the first problem, the result
claim). With ``plies=True`` a row is a move instead: the record it is in, its ply, who played it,
the move and the positions before and after it. python/README.md gives both schemas.

pyarrow is needed only here, and imported when first asked for: ``pip install 'referee[arrow]'``.
pyarrow has no type information, so its tables and schemas are ``Any`` here.
"""

import os
from typing import Any, Iterable, List, Optional, Union

__all__ = ["FLAT_COLUMNS", "schema", "to_parquet", "verify_table"]

_Path = Union[str, "os.PathLike[str]"]

FLAT_COLUMNS: List[str]
"""The columns after the JSON line's fields: the CSV's, for the first problem of the main line
(``problems``, a count, then ``problem_kind``, ``problem_line``, ``problem_column``,
``problem_token``, ``problem_message``, ``problem_rule``) and the result claim (``claim``,
``claim_status``). ``table.drop_columns(FLAT_COLUMNS)`` leaves the JSON line's."""

def schema(plies: bool = False) -> Any:
    """The ``pyarrow.Schema`` of ``verify_table``'s rows: a verdict's, or with ``plies`` a move's.
    Raises ImportError when pyarrow is not installed."""

def verify_table(
    paths: Union[_Path, Iterable[_Path]],
    jobs: Optional[int] = None,
    *,
    game: Optional[str] = None,
    ext: Optional[List[str]] = None,
    plies: bool = False,
) -> Any:
    """The verdicts on every record of the files and folders ``paths`` as a ``pyarrow.Table``, a
    row per record (and per file that cannot be read or holds no record), in the order ``verify``
    gives them: the JSON line's fields typed (``errors`` and ``claims`` lists of structs, ``score``
    a map from player to points, null where the JSON has null or leaves a field out), then the
    CSV's columns for the first problem and the result claim (``FLAT_COLUMNS``).

    With ``plies``, a row per move played instead: ``file``, ``index`` (the record's, to join with
    its verdict), ``game``, ``ply`` (1 for the first move), ``player`` (who played it), ``move``
    (as the notation writes it) and the position codes ``position_before`` and ``position``
    (after it), for each record's main line up to a first illegal move.

    ``jobs``, ``game`` and ``ext`` are ``verify``'s. Raises ReadError at once when a path named
    does not exist, ImportError when pyarrow is not installed."""

def to_parquet(
    paths: Union[_Path, Iterable[_Path]],
    out: Any,
    jobs: Optional[int] = None,
    *,
    game: Optional[str] = None,
    ext: Optional[List[str]] = None,
    plies: bool = False,
) -> int:
    """Writes ``verify_table(paths, jobs, game=game, ext=ext, plies=plies)`` to the Parquet file
    ``out`` (a path or a writable binary file), a row group at a time as the verdicts come, so that
    the whole table is never in memory at once; returns the number of rows written."""
