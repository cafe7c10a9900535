"""Verdicts and moves as Arrow tables, for bulk work: ``verify_table`` and ``to_parquet``.

A verdict's row holds the fields of the JSON line ``referee verify --format json`` prints, in its
order and typed (``errors`` and ``claims`` as lists of structs, ``score`` as a map), then the
columns ``referee verify --format csv`` flattens the lists into (the first problem, the result
claim). With ``plies=True`` a row is a move instead: the record it is in, its ply, who played it,
the move and the positions before and after it. python/README.md gives both schemas.

pyarrow is needed only here, and imported when first asked for: ``pip install 'referee[arrow]'``.
"""

import gc
import itertools
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import _referee

__all__ = ["FLAT_COLUMNS", "schema", "to_parquet", "verify_table"]

_Path = Union[str, "os.PathLike[str]"]
_Paths = Union[_Path, Iterable[_Path]]

# Rows gathered before they are made a record batch (a Parquet row group): enough for the columns'
# work to be done in bulk, few enough that a large run does not hold every row as Python objects.
_BATCH_ROWS = 10_000

# The columns after the JSON line's fields: the CSV's, for the first problem and the result claim.
# ``table.drop_columns(FLAT_COLUMNS)`` leaves the JSON line's.
FLAT_COLUMNS = [
    "problems",
    "problem_kind",
    "problem_line",
    "problem_column",
    "problem_token",
    "problem_message",
    "problem_rule",
    "claim",
    "claim_status",
]


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as e:
        raise ImportError("referee's tables need pyarrow: pip install 'referee[arrow]' (or pip install pyarrow)") from e
    return pyarrow


def schema(plies: bool = False) -> Any:
    """The ``pyarrow.Schema`` of ``verify_table``'s rows: a verdict's, or with ``plies`` a move's.
    Raises ImportError when pyarrow is not installed."""
    pa = _pyarrow()
    return _ply_schema(pa) if plies else _verdict_schema(pa)


def _verdict_schema(pa: Any) -> Any:
    text, number = pa.string(), pa.int64()
    stops_at = pa.struct([("line", number), ("column", number), ("token", text)])
    alternative = pa.struct([("move", text), ("replays_to_end", pa.bool_()), ("stops_at", stops_at)])
    error = pa.struct(
        [
            ("kind", text),
            ("line", number),
            ("column", number),
            ("token", text),
            ("message", text),
            # Absent from the JSON object (here null) but for a problem inside a variation.
            ("variation", text),
            ("rule", text),
            ("legal", pa.list_(text)),
            ("legal_count", number),
            # Absent (null) but for an illegal move.
            ("alternatives", pa.list_(alternative)),
        ]
    )
    claim = pa.struct(
        [
            ("kind", text),
            ("text", text),
            ("status", text),
            ("reason", text),
            ("line", number),
            ("column", number),
            ("detail", text),
            # Absent (null) but for a claim judged against a lenient replay.
            ("violations_accepted", number),
        ]
    )
    points = pa.map_(text, pa.float64())

    def required(name: str, kind: Any) -> Any:
        return pa.field(name, kind, nullable=False)

    return pa.schema(
        [
            required("schema", number),
            required("file", text),
            required("index", number),
            pa.field("line", number),
            pa.field("game", text),
            required("status", text),
            required("moves", number),
            required("game_over", pa.bool_()),
            pa.field("winner", text),
            required("score", points),
            # Absent (null) but for Quadraphages and Hexaphages.
            pa.field("score_with_stones", points),
            pa.field("position", text),
            required("errors", pa.list_(error)),
            required("claims", pa.list_(claim)),
            required("notes", pa.list_(text)),
            required("problems", number),
            pa.field("problem_kind", text),
            pa.field("problem_line", number),
            pa.field("problem_column", number),
            pa.field("problem_token", text),
            pa.field("problem_message", text),
            pa.field("problem_rule", text),
            pa.field("claim", text),
            pa.field("claim_status", text),
        ]
    )


def _ply_schema(pa: Any) -> Any:
    text, number = pa.string(), pa.int64()
    return pa.schema(
        [
            pa.field("file", text, nullable=False),
            pa.field("index", number, nullable=False),
            pa.field("game", text, nullable=False),
            pa.field("ply", number, nullable=False),
            pa.field("player", text, nullable=False),
            pa.field("move", text, nullable=False),
            pa.field("position_before", text, nullable=False),
            pa.field("position", text, nullable=False),
        ]
    )


def _flat(verdict: Dict[str, Any]) -> Dict[str, Any]:
    """The CSV's columns for the lists: the first problem of the main line (else the first
    problem), the result claim."""
    errors = verdict["errors"]
    first = next((e for e in errors if "variation" not in e), errors[0] if errors else None)
    claim = next((c for c in verdict["claims"] if c["kind"] == "result"), None)
    row: Dict[str, Any] = {"problems": len(errors)}
    for field in ("kind", "line", "column", "token", "message", "rule"):
        row["problem_" + field] = first[field] if first else None
    row["claim"] = claim["text"] if claim else None
    row["claim_status"] = claim["status"] if claim else None
    return row


def _verdict_batches(pa: Any, verdicts: Iterator[Dict[str, Any]]) -> Iterator[Any]:
    kind = _verdict_schema(pa)
    while True:
        # The cyclic garbage collector is paused while a batch is made: its objects are all new,
        # hold no cycle, and its passes over them would cost a fifth of the time.
        collecting = gc.isenabled()
        gc.disable()
        try:
            rows = [{**verdict, **_flat(verdict)} for verdict in itertools.islice(verdicts, _BATCH_ROWS)]
            batch = pa.RecordBatch.from_pylist(rows, schema=kind) if rows else None
            del rows
        finally:
            if collecting:
                gc.enable()
        if batch is None:
            return
        yield batch


def _files(verdicts: Iterator[Dict[str, Any]]) -> List[str]:
    """The files a run of ``verify`` read, in its order, as its verdicts name them: those with a
    record."""
    files: Dict[str, None] = {}
    for verdict in verdicts:
        if verdict["index"] > 0:
            files.setdefault(verdict["file"], None)
    return list(files)


_PLY_COLUMNS = ["file", "index", "game", "ply", "player", "move", "position_before", "position"]


def _records(path: str, game: Optional[str]) -> Iterator[Any]:
    """The records of the file, those before a part that cannot be read too: its verdicts say what
    went wrong there, and a table of moves has no row for it."""
    try:
        yield from _referee.open(path, game=game)
    except _referee.ReadError:
        return


def _add_plies(columns: Dict[str, List[Any]], record: Any) -> None:
    """The moves of the record, added to the columns."""
    # The moves the verdict judged: none of a record whose rules are not known (undecided), which
    # the replay still plays.
    n = record.verdict["moves"]
    if not n:
        return
    positions = record.positions()[: n + 1]
    players = positions[0].players
    codes = [p.code for p in positions]
    columns["file"] += [record.file] * n
    columns["index"] += [record.index] * n
    columns["game"] += [record.game] * n
    columns["ply"] += range(1, n + 1)
    # Who played a move is who was to move before it.
    columns["player"] += [players[p.to_move] for p in positions[:n]]
    columns["move"] += record.moves[:n]
    columns["position_before"] += codes[:n]
    columns["position"] += codes[1:]


def _ply_batches(pa: Any, files: List[str], game: Optional[str]) -> Iterator[Any]:
    kind = _ply_schema(pa)
    columns: Dict[str, List[Any]] = {name: [] for name in _PLY_COLUMNS}
    # One file after another: ``open`` reads and judges a file on a thread of its own, ahead of the
    # records taken, and what is done here with a record holds the GIL.
    for path in files:
        for record in _records(path, game):
            _add_plies(columns, record)
            if len(columns["ply"]) >= _BATCH_ROWS:
                yield pa.RecordBatch.from_pydict(columns, schema=kind)
                columns = {name: [] for name in _PLY_COLUMNS}
    if columns["ply"]:
        yield pa.RecordBatch.from_pydict(columns, schema=kind)


def _batches(
    pa: Any, paths: _Paths, jobs: Optional[int], game: Optional[str], ext: Optional[List[str]], plies: bool
) -> Iterator[Any]:
    """The rows' record batches, as they come. The run starts here, so that a path that does not
    exist is raised before anything is written."""
    verdicts = _referee.verify(paths, jobs, game=game, ext=ext)
    if plies:
        return _ply_batches(pa, _files(verdicts), game)
    return _verdict_batches(pa, verdicts)


def verify_table(
    paths: _Paths,
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
    pa = _pyarrow()
    kind = schema(plies)
    return pa.Table.from_batches(list(_batches(pa, paths, jobs, game, ext, plies)), schema=kind)


def to_parquet(
    paths: _Paths,
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
    pa = _pyarrow()
    import pyarrow.parquet as pq

    batches = _batches(pa, paths, jobs, game, ext, plies)
    rows = 0
    with pq.ParquetWriter(out, schema(plies)) as writer:
        for batch in batches:
            writer.write_batch(batch)
            rows += batch.num_rows
    return rows
