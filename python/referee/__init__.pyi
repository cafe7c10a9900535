"""referee: judges records of six abstract board games.

Quadraphages, Hexaphages, Quarod, Petrify, Vadrantir and Splinter Quad: positions and their
legal moves (``Position``), the records found in any text with their verdicts (``read``,
``open``, ``Record``), and whole collections verified on all cores (``verify``), also as Arrow
tables and Parquet files (``verify_table``, ``to_parquet``: ``pip install 'referee[arrow]'``).
"""

import os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union, final, overload

from .tables import to_parquet as to_parquet, verify_table as verify_table

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

__version__: str

_Path = Union[str, "os.PathLike[str]"]

def games() -> List[str]:
    """The names of the games referee knows, as ``Position.start`` and ``game=`` take them:
    quadraphages, hexaphages, quarod, petrify, vadrantir, splinter."""

class IllegalMoveError(ValueError):
    """A move that is not legal in the position. The message lists the legal moves."""

    move: str
    """The move as given."""
    legal: List[str]
    """The legal moves of the position, as ``Position.legal_moves()`` gives them."""
    code: str
    """The position's code."""

class CodeError(ValueError):
    """A position code that describes no position; the message says what was expected where."""

    code: str
    """The code as given."""
    offset: int
    """Where in the code it goes wrong: 0-based, in characters."""
    column: int
    """The same place, 1-based."""

class ReadError(OSError):
    """A file that could not be read as text, raised as Python's OSError is
    (``[Errno 2] cannot open: No such file or directory: 'games.txt'``)."""

    filename: str
    """The path as given."""
    errno: Optional[int]
    """The system's error number, or EILSEQ when the file is not UTF-8, EFBIG when it is larger
    than 256 MiB."""
    strerror: str
    """What went wrong, as the command line says it."""
    line: Optional[int]
    """The line of the first byte that is not UTF-8 (else None)."""
    column: Optional[int]
    """Its column, in characters (else None)."""

class ConvertError(ValueError):
    """A record that cannot be converted or replayed: a syntax error, an illegal move, a start
    that cannot be had. The message is the problem that stops it."""

    line: Optional[int]
    """The line of that problem in the text the record was found in (None when it has no place)."""
    column: Optional[int]
    """Its column, in characters."""

@final
class Moves(Sequence[str]):
    """The legal moves of a position as ``Position.legal_moves()`` gives them: a sequence read as
    a list is (``len``, indexing, slicing, ``in``, iteration, ``index``, ``count``, equal to the
    list or tuple of the same moves in the same order), each move made a string when it is asked
    for: a loop that picks one move of a hundred makes one string."""

    @overload
    def __getitem__(self, index: int, /) -> str: ...
    @overload
    def __getitem__(self, index: slice, /) -> List[str]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def __contains__(self, text: object, /) -> bool: ...
    def index(self, move: str) -> int:  # type: ignore[override]
        """The place of ``move`` among the moves; ValueError when it is not one of them."""
    def count(self, move: str) -> int:  # type: ignore[override]
        """How many times ``move`` is among the moves: 0 or 1."""

@final
class Position:
    """A position of any of the six games, from its start or its position code.

    Moves are strings, written as the game's notation writes them (as ``referee moves CODE``
    lists them). ``play`` gives a new position; ``push`` and ``pop`` change this one in place,
    keeping the positions before on a stack. Two positions are equal when their codes are.

    >>> p = Position.start("quarod", size=4)
    >>> p = p.play("c1d1")
    >>> p.code
    'quarod_2Ew/4/4/4_w_1_0_-_b'
    """

    @staticmethod
    def start(game: str, size: Optional[int] = None, players: Optional[int] = None) -> "Position":
        """The start position of ``game`` (quadraphages, hexaphages, quarod, petrify, vadrantir,
        splinter; a title or alias in any case too), on a board of ``size`` for ``players``
        players (the game's defaults when None). Raises ValueError for an unknown game or a board
        or number of players the game is not played on."""
    @staticmethod
    def from_code(code: str) -> "Position":
        """The position a position code describes (``referee show --format code`` writes one).
        Raises CodeError, saying where the code goes wrong, when it describes none."""
    def legal_moves(self) -> "Moves":
        """The legal moves, each once, as the notation writes them, in the engine's order (as
        ``referee moves CODE`` lists them; a move it lists twice, ``----`` for stones that cannot
        move, once). Empty once the game is over. A ``Moves`` sequence, read as a list (equal to
        the list of the same moves); ``list(...)`` makes one."""
    def play(self, move: str) -> "Position":
        """The position after ``move``, a new one; this one is left as it is. Raises
        IllegalMoveError when ``move`` is not one of ``legal_moves()``."""
    def push(self, move: str) -> None:
        """Plays ``move`` on this position, keeping the position before for ``pop``. Raises
        IllegalMoveError (and changes nothing) when ``move`` is not legal here."""
    def pop(self) -> str:
        """Takes back the last move pushed and returns it. Raises IndexError when none was."""
    @property
    def move_stack(self) -> List[str]:
        """The moves pushed and not popped, in order."""
    def copy(self) -> "Position":
        """A copy, with its own stack of moves pushed."""
    def is_over(self) -> bool:
        """Whether the game is over."""
    def outcome(self) -> Optional[str]:
        """The result once the game is over, as a record's result token writes it: ``"1-0"``,
        ``"0-1"``, ``"0-0-1-0"`` (a ``1`` in the winner's place), all zeros when nobody won;
        None while the game goes on."""
    @property
    def code(self) -> str:
        """The position's code: ``Position.from_code(p.code) == p``."""
    @property
    def game(self) -> str:
        """The game's name: quadraphages, hexaphages, quarod, petrify, vadrantir, splinter."""
    def perft(self, depth: int) -> int:
        """The leaves of the move tree ``depth`` moves below this position (1 for depth 0), as
        ``referee perft CODE DEPTH`` counts them; counted without holding the GIL. ``depth`` is at
        most 20."""
    @property
    def to_move(self) -> int:
        """The player to move: an index into ``players``."""
    @property
    def players(self) -> List[str]:
        """The players' names (colours) in turn order from the start, as records name them:
        X, O; Black, White; Blue, Orange; Red, Blue, Green, Yellow."""
    def score(self) -> Dict[str, float]:
        """Each player's points where the game stands (marks, territory, pieces), by name, in
        turn order: what decides the game at its end."""
    def svg(self, width: int = 480, style: str = "light", coordinates: bool = True, caption: bool = True) -> str:
        """The position as an SVG picture, as ``referee show --format svg`` draws one: ``width``
        in pixels, ``style`` light, dark or print, column letters and row numbers, and a caption
        under the board (game, ply, side to move, score)."""
    def _repr_svg_(self) -> str:
        """The picture a notebook shows: ``svg()`` with its defaults."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> "Position": ...
    def __reduce__(self) -> Any:
        """Pickled as its code (the moves pushed are not kept)."""

@final
class Move:
    """A move of a record as written, with what its writer added: its glyphs, the comments after
    it, and the variations that could have been played instead (python-chess's GameNode is the
    model). ``Record.mainline()`` gives them, from the record's game document (``to_json()``).

    >>> [r] = read('[Game "Quarod"]\n[Size "4"]\n\n1. c1d1 {corner} d3c3!? (d4c4) *\n')
    >>> m = r.mainline()[1]
    >>> m.text, m.turn, m.glyphs, [v[0].text for v in m.variations]
    ('d3c3', 1, [5], ['d4c4'])
    """

    @property
    def text(self) -> str:
        """The move as the record writes it."""
    @property
    def canonical(self) -> str:
        """The move as referee writes it (as ``Position.legal_moves()`` lists it); for a
        variation's move that was not played, as written."""
    @property
    def ply(self) -> int:
        """How many moves the game has had once this one is played: 1 for the first move of a game
        played from its start; a variation's first move has the ply of the move it stands in for."""
    @property
    def mover(self) -> Optional[str]:
        """Who plays it, as the record names the players (X, Black, Red); None for a variation's
        move that was not played."""
    @property
    def turn(self) -> Optional[int]:
        """The number of the move's turn as the record counts them. The published notation: the
        number of the move line it is written on (a line is a turn of each column's side; a
        variation's moves have the number of the move they stand in for). The common format, which
        may number its moves any way it likes or not at all: the number ``referee convert --to
        canonical`` writes for the move's round (a pair of moves with two players, as PGN numbers
        them; with three or four, a move of each player still in)."""
    @property
    def code(self) -> Optional[str]:
        """The position code after the move; None for a variation's move that was not played."""
    @property
    def glyphs(self) -> List[int]:
        """The glyphs written after the move, as numbers as PGN numbers them: 1 ``!``, 2 ``?``,
        3 ``!!``, 4 ``??``, 5 ``!?``, 6 ``?!``, any other ``$N`` as written."""
    @property
    def comments(self) -> List[str]:
        """The comments written after the move, in order, as written (without their braces, or
        the ``;`` of a comment to the line's end; markup such as ``[%mark c3 red]`` kept)."""
    @property
    def comments_before(self) -> List[str]:
        """The comments written before the move when it opens a variation (the comments before a
        record's first move are ``Record.comments_before()``)."""
    @property
    def variations(self) -> List[List["Move"]]:
        """The variations written after the move: each a list of moves that could have been
        played instead of this one, from the position before it, with their own annotations. A
        variation's moves are played as far as they are legal; from its first illegal move on they
        are kept as written, with no position."""
    def position(self) -> Optional[Position]:
        """The position after the move; None for a variation's move that was not played."""

@final
class Record:
    """A record found in a text, with its verdict.

    The moves, positions, annotations, document, canonical layout, repairs and replay page are
    made when first asked for, from the record's own lines, which it keeps (with their place in
    the file: every line and column it gives is the file's)."""

    @property
    def game(self) -> Optional[str]:
        """The record's game (quarod, quadraphages, ...); None when it names none referee knows."""
    @property
    def index(self) -> int:
        """Its place among the text's records, from 1."""
    @property
    def file(self) -> str:
        """The name of the file (or text) it was found in, as its verdict gives it."""
    @property
    def status(self) -> str:
        """valid, illegal, refuted, syntax_error or undecided."""
    @property
    def verdict(self) -> Dict[str, Any]:
        """The verdict: the JSON object ``referee verify --format json`` prints for this record,
        as a dict, a new one each time (schema, file, index, line, game, status, moves, game_over,
        winner, score, position, errors with their kind, line, column, token, message, rule, legal
        moves and alternatives, claims, notes: the README's table)."""
    def verdict_json(self) -> str:
        """The verdict as the JSON line ``referee verify --format json`` prints."""
    @property
    def text(self) -> str:
        """The record's own text, as found."""
    @property
    def moves(self) -> List[str]:
        """The moves played, as the notation writes them, up to the first illegal one (none when
        the record cannot be replayed at all): each one ``Position.play`` takes."""
    def position(self, ply: Optional[int] = None) -> Position:
        """The position after ``ply`` moves (0: the start; None: the last one reached, before an
        illegal move if there is one). Raises ConvertError when the record has no start to replay
        from, IndexError past the moves played."""
    def positions(self) -> List[Position]:
        """Every position of the replay, the start first."""
    def to_json(self) -> str:
        """The record as a JSON game document, as ``referee convert --to json`` writes it
        (docs/json.md). Raises ConvertError when the record does not replay to its end."""
    def canonical(self) -> str:
        """The record in its notation's canonical layout, as ``referee convert --to canonical``
        writes it. Raises ConvertError when the record does not replay to its end."""
    @property
    def tags(self) -> Dict[str, str]:
        """The record's tags, in the record's order. The common format: its tag pairs as written
        (``Game``, ``Size``, ``Event``, ...; a name given twice keeps its first value). The
        published notation has no tags: its title line as written (``Title``: ``QUADRAPHAGES``)
        and its column header's two tags (``Header``: ``_xx_ _oo_``), when it has them."""
    def mainline(self) -> List[Move]:
        """The moves of the main line, each a ``Move`` with its glyphs, comments and variations, as
        the record's game document holds them (``to_json()``). Raises ConvertError when the record
        does not replay to its end."""
    def comments_before(self) -> List[str]:
        """The comments written before the first move, as written (without their braces, or the
        ``;`` of a comment to the line's end). Raises ConvertError as ``mainline()`` does."""
    def comments_after(self) -> List[str]:
        """The comments written after the result. Raises ConvertError as ``mainline()`` does."""
    def repair(self, limit: int = 3, *, max_edits: int = 12, time_limit: float = 10.0) -> List[Dict[str, Any]]:
        """The best repairs of a record with an illegal move, as ``referee repair --format json``
        finds them (``limit`` is ``--candidates``, ``max_edits`` ``--max-edits``, ``time_limit``
        ``--time-limit`` in seconds): a list, best first, of the dicts of its ``candidates``
        (``edits`` with their line, column, from, to, kind and expressible; replays_to_end,
        violations_remaining, first_violation, final_position, final_cells_differing, claims),
        each with two more keys: ``text``, the record's text with the repair made (what
        ``repair --write`` would write in its place), and ``verifies``, whether that text
        verifies as valid. Empty when nothing is searched: the record has no illegal move, or
        cannot be judged. Searched without the GIL."""
    def html(self) -> str:
        """The replay page of the record, as ``referee render --format html`` writes it (default
        look): one self-contained HTML document, a picture of every position with steps through
        them, the record's text, its comments and variations, and its verdict. A record that
        cannot be drawn (a syntax error, no known start) gives a short page that says why."""
    def _repr_html_(self) -> str:
        """What a notebook shows: the replay page (``html()``) in an ``<iframe>`` of its own, so
        that its style and script stay in it."""

def read(
    text: str,
    *,
    name: str = "<string>",
    game: Optional[str] = None,
    search_limit: Optional[int] = None,
    lenient: bool = False,
) -> List[Record]:
    """The records found in ``text``, in order, each with its verdict, verified as
    ``referee verify`` verifies a file (``name`` is the file the verdicts name). ``game`` reads
    every record as that game, as ``--game`` does; ``search_limit`` is ``--search-limit`` (the
    most positions searched to judge a result claimed before the game is over; 250,000 when
    None), ``lenient`` is ``--lenient`` (replay past illegal moves that can still be played as
    written, listing every one)."""

@final
class Records(Iterator[Record]):
    """The records of a file, as ``open`` finds and judges them, one at a time: an iterator, and a
    context manager that closes it (``with referee.open(path) as records: ...``)."""

    def __iter__(self) -> "Records": ...
    def __next__(self) -> Record: ...
    def close(self) -> None:
        """Stops reading: the thread ends once the records in hand are judged. The records already
        taken stay as they are."""
    def __enter__(self) -> "Records": ...
    def __exit__(self, *_exc: object) -> bool: ...

def open(
    path: _Path,
    *,
    game: Optional[str] = None,
    search_limit: Optional[int] = None,
    lenient: bool = False,
) -> Records:
    """The records of the file at ``path``, as ``read`` finds them in its text (with the same
    options), one at a time as they are found and judged, on a thread of its own: a file of any
    size is walked in bounded memory, each record keeping only its own lines.
    ``list(referee.open(path))`` is every record of the file. Raises ReadError at once when the
    file cannot be opened; when it cannot be read to its end, or is not UTF-8, the records before
    come first, then ReadError (with the line and column of the first bad byte)."""

@final
class Verdict(Mapping[str, Any]):
    """One verdict of ``verify``: the JSON object ``referee verify --format json`` prints for a
    record (or for an input that could not be read or holds no record), read as a mapping
    (``v["problems"]``, ``dict(v)``, ``v == json.loads(line)``). ``status``, ``file``, ``index``
    and ``game`` come with it; the whole object is read from the JSON line the first time any
    other key is asked for."""

    def __new__(cls, json: str) -> "Verdict": ...
    @property
    def status(self) -> str:
        """``valid``, ``illegal``, ``refuted``, ``syntax_error``, ``undecided``; for a whole
        input, ``unreadable`` or ``no_record``."""
    @property
    def file(self) -> str:
        """The file's name, as the command line prints it."""
    @property
    def index(self) -> Optional[int]:
        """The record's number in its file, from 1; None for a whole input's problem."""
    @property
    def game(self) -> Optional[str]:
        """The record's game (``quarod``, …), None when it could not be told."""
    @property
    def json(self) -> str:
        """The JSON line itself, without its line end."""
    def to_dict(self) -> Dict[str, Any]:
        """The whole object as a new dict."""
    def __getitem__(self, key: str, /) -> Any: ...
    def get(self, key: str, default: Any = None, /) -> Any: ...  # type: ignore[override]
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...

@final
class Verdicts(Iterator[Any]):
    """The verdicts of a ``verify`` run, as they come: ``Verdict`` objects (JSON lines with
    ``as_json``)."""

    def __iter__(self) -> "Verdicts": ...
    def __next__(self) -> Any: ...
    def close(self) -> None:
        """Stops the run: its threads end once the records in hand are judged."""

def verify(
    paths: Union[_Path, Iterable[_Path]],
    jobs: Optional[int] = None,
    *,
    game: Optional[str] = None,
    ext: Optional[List[str]] = None,
    as_json: bool = False,
) -> Verdicts:
    """The verdicts on every record of the files and folders ``paths``, as
    ``referee verify --format json -j JOBS`` prints them: one ``Verdict`` per line, in the same order,
    verified on ``jobs`` threads (all cores when None or 0) without holding the GIL. Folders are walked
    for the files with one of the extensions ``ext`` (txt and pgn by default); ``game`` reads every
    record as that game. Raises ReadError at once when a path named does not exist; an input that
    cannot be read later, or holds no record, gives the command line's object for it (status
    unreadable or no_record). With ``as_json``, each verdict comes as its JSON line (a str without
    the line end)."""
