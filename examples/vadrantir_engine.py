#!/usr/bin/env python3
"""A Vadrantir engine speaking the referee game protocol, in Python 3 (standard library only).

It reads one command a line on standard input and answers on standard output, as
docs/protocol.md describes: rgp, isready, position (start or code, with moves), moves, perft,
divide, go, result and quit. Its move generator and its scoring are its own, written from the
rules alone; it never calls referee. It plays only Vadrantir.

Run it by hand, or let referee drive it:

    python3 examples/vadrantir_engine.py [--seed N]
    referee conformance --engine "python3 examples/vadrantir_engine.py" --game vadrantir

`go` plays the move that most improves the mover's score right after it (one ply: territories
plus the half point, as the end of the game would count them), choosing at random among equal
moves; `--seed N` fixes that choice (default seed 0), so a run can be repeated.

It was written from docs/protocol.md, docs/rules/vadrantir.md and the parts of grammar.md on
Vadrantir's cell names and on position codes (Part V) alone, as a test that these documents are
enough to write an engine.
"""

import random
import re
import sys

GAME = "vadrantir"
DEFAULT_SIDE = 6
SIDES = (5, 6, 7)
MAX_DEPTH = 20
# The names of the games referee knows, so that another game's start or code gets a clear
# "not this engine's game" rather than a vague syntax error.
OTHER_GAMES = ("quadraphages", "hexaphages", "quarod", "petrify", "splinter", "splinter-quad")
# The docs do not give the limit of the code's "turns taken"; referee refuses a count above
# 2^32 - 1 (found by running it), so this engine refuses the same codes.
MAX_TURNS = 2**32 - 1

EMPTY, BLACK, WHITE = 0, 1, 2
DIGITS = re.compile(r"[0-9]+\Z")  # ASCII only: str.isdigit would take "²" or "٣"


def other(colour):
    return BLACK + WHITE - colour


class Board:
    """The cells of a hexagon of side s: their names, and whom each touches.

    Rows 1 to 2s-1 from the top; row r starts at letter |r-s| (0 = `a`) and holds every second
    letter. A cell touches the cells two letters away in its row and one letter away in the rows
    above and below (rules, "The board").
    """

    def __init__(self, side):
        self.side = side
        rows = 2 * side - 1
        self.row_lengths = []
        self.names = []  # cell index -> name, in reading order (the order moves are listed)
        where = {}  # (row, letter) -> cell index
        for r in range(1, rows + 1):
            first = abs(r - side)
            length = rows - first
            self.row_lengths.append(length)
            for k in range(length):
                letter = first + 2 * k
                where[(r, letter)] = len(self.names)
                self.names.append(chr(ord("a") + letter) + str(r))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.neighbours = []
        for (r, letter) in where:  # dicts keep insertion order: the reading order again
            near = []
            for dr, dl in ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1)):
                j = where.get((r + dr, letter + dl))
                if j is not None:
                    near.append(j)
            self.neighbours.append(tuple(near))
        self.size = len(self.names)


BOARDS = {}


def board_of(side):
    if side not in BOARDS:
        BOARDS[side] = Board(side)
    return BOARDS[side]


class Position:
    """A Vadrantir position: what a position code holds.

    cells: EMPTY/BLACK/WHITE per cell; to_move: the colour to move; turns: the turns taken (the
    swap counts as one); swapped: whether the pie swap was taken (it changes no rule: scores and
    results go by colour, so it is kept only as a code keeps it).
    """

    def __init__(self, board, cells, to_move, turns, swapped):
        self.board = board
        self.cells = cells
        self.to_move = to_move
        self.turns = turns
        self.swapped = swapped

    @classmethod
    def start(cls, side):
        board = board_of(side)
        return cls(board, [EMPTY] * board.size, BLACK, 0, False)

    # --- groups -------------------------------------------------------------------------

    def groups(self):
        """Label the groups: (group of each cell or -1, sizes, colours, members).

        A group is a maximal connected set of stones of one colour.
        """
        cells, nbrs = self.cells, self.board.neighbours
        label = [-1] * len(cells)
        sizes, colours, members = [], [], []
        for start, colour in enumerate(cells):
            if colour == EMPTY or label[start] >= 0:
                continue
            g = len(sizes)
            label[start] = g
            stack, found = [start], [start]
            while stack:
                c = stack.pop()
                for n in nbrs[c]:
                    if label[n] < 0 and cells[n] == colour:
                        label[n] = g
                        stack.append(n)
                        found.append(n)
            sizes.append(len(found))
            colours.append(colour)
            members.append(found)
        return label, sizes, colours, members

    def placements(self):
        """The cells the colour to move may place on, in reading order (rules, "The group limit").

        A stone on an empty cell joins every friendly group it touches. That merged group may
        hold at most one stone more than the largest enemy group adjacent to any of its stones
        (0 if none). A placement never changes an enemy group, so the enemy groups adjacent to
        the merged group are those adjacent to the new stone or to one of the friendly groups it
        joins: each group's largest enemy neighbour is computed once per position.
        """
        cells, nbrs = self.cells, self.board.neighbours
        me = self.to_move
        label, sizes, colours, members = self.groups()
        largest_enemy = [0] * len(sizes)
        for g, stones in enumerate(members):
            best = 0
            for c in stones:
                for n in nbrs[c]:
                    h = label[n]
                    if h >= 0 and colours[h] != colours[g] and sizes[h] > best:
                        best = sizes[h]
            largest_enemy[g] = best
        legal = []
        for c, colour in enumerate(cells):
            if colour != EMPTY:
                continue
            friends = set()
            enemy = 0
            for n in nbrs[c]:
                h = label[n]
                if h < 0:
                    continue
                if colours[h] == me:
                    friends.add(h)
                elif sizes[h] > enemy:
                    enemy = sizes[h]
            if not friends:
                legal.append(c)  # a lone stone, a group of 1: always allowed
                continue
            size = 1 + sum(sizes[g] for g in friends)
            for g in friends:
                if largest_enemy[g] > enemy:
                    enemy = largest_enemy[g]
            if size <= enemy + 1:
                legal.append(c)
        return legal

    def swap_allowed(self):
        # The pie rule: only on White's first turn, the second move of the game; the code tells
        # it by the turns taken (grammar.md Part V, "swap" field).
        return self.to_move == WHITE and self.turns == 1

    def legal_moves(self):
        """Every legal move as a cell index or "swap"; none once the game is over.

        The game is over as soon as the colour to move has no legal placement, and then even a
        swap is refused (rules, "The end of the game").
        """
        moves = self.placements()
        if moves and self.swap_allowed():
            moves.append("swap")
        return moves

    def play(self, move):
        """The position after a legal move (a new Position: perft keeps the parent)."""
        if move == "swap":
            # The board stays and White moves again (played by the player who moved first).
            return Position(self.board, self.cells, self.to_move, self.turns + 1, not self.swapped)
        cells = list(self.cells)
        cells[move] = self.to_move
        return Position(self.board, cells, other(self.to_move), self.turns + 1, self.swapped)

    def move_name(self, move):
        return "swap" if move == "swap" else self.board.names[move]

    def parse_move(self, word):
        """The legal move a word names, or None."""
        legal = self.legal_moves()
        if word == "swap":
            return "swap" if "swap" in legal else None
        c = self.board.index.get(word)
        return c if c is not None and c in legal else None

    # --- score --------------------------------------------------------------------------

    def score(self):
        """Each colour's total in half points: {BLACK: n, WHITE: n} (rules, "The score").

        A territory (maximal connected empty cells) is worth its cells to the colour whose
        adjacent groups, sizes listed largest first, compare larger place by place (a missing
        group counts 0). The half point goes the same way over all groups on the board.
        """
        cells, nbrs = self.cells, self.board.neighbours
        label, sizes, colours, _ = self.groups()
        total = {BLACK: 0, WHITE: 0}
        seen = [False] * len(cells)
        for start, colour in enumerate(cells):
            if colour != EMPTY or seen[start]:
                continue
            seen[start] = True
            stack, count = [start], 0
            touching = set()
            while stack:
                c = stack.pop()
                count += 1
                for n in nbrs[c]:
                    if cells[n] == EMPTY:
                        if not seen[n]:
                            seen[n] = True
                            stack.append(n)
                    else:
                        touching.add(label[n])
            owner = larger(
                [sizes[g] for g in touching if colours[g] == BLACK],
                [sizes[g] for g in touching if colours[g] == WHITE],
            )
            if owner != EMPTY:
                total[owner] += 2 * count
        half = larger(
            [s for s, col in zip(sizes, colours) if col == BLACK],
            [s for s, col in zip(sizes, colours) if col == WHITE],
        )
        if half != EMPTY:
            total[half] += 1
        return total

    def result(self):
        """`*` while the game goes on, else `1-0`, `0-1` or `0-0` (by colour)."""
        if self.placements():
            return "*"
        total = self.score()
        if total[BLACK] > total[WHITE]:
            return "1-0"
        if total[WHITE] > total[BLACK]:
            return "0-1"
        return "0-0"

    # --- position codes -----------------------------------------------------------------

    @classmethod
    def from_code(cls, code):
        """Read a code `vadrantir_BOARD_COLOUR_TURNS_SWAP` (grammar.md Part V); raise
        ValueError with the reason when it gives no Vadrantir position."""
        game, sep, rest = code.partition("_")
        if not sep:
            raise ValueError("not a position code: it has no `_` after the game's name")
        if game.lower() in OTHER_GAMES:
            raise ValueError("this engine plays only vadrantir, not %s" % game)
        if game != GAME:  # codes are case-sensitive
            raise ValueError("not a position code: it starts with `%s`, not `vadrantir_`" % game)
        parts = rest.split("_")
        names = ("board", "colour to move", "turns taken", "swap")
        if len(parts) < 4:
            raise ValueError("the code ends before its %s" % names[len(parts)])
        if len(parts) > 4:
            raise ValueError("nothing may follow the swap field")
        board_text, colour, turns, swap = parts
        rows = board_text.split("/")
        # 2s-1 rows make the hexagon of side s.
        if len(rows) % 2 == 0 or (len(rows) + 1) // 2 not in SIDES:
            raise ValueError(
                "the board has %d rows; Vadrantir is played on hex boards of side 5 to 7 "
                "(9, 11 or 13 rows)" % len(rows))
        board = board_of((len(rows) + 1) // 2)
        cells = []
        for r, (text, length) in enumerate(zip(rows, board.row_lengths), start=1):
            row = []
            for token in re.findall(r"[0-9]+|.", text):
                if token[0] in "0123456789":
                    if token[0] == "0":
                        raise ValueError("row %d: a run of empty cells is 1 or more, with no "
                                         "leading zero, not `%s`" % (r, token))
                    if len(token) > 3 or len(row) + int(token) > length:
                        raise ValueError("row %d has %d cells, and the run %s goes past them"
                                         % (r, length, token))
                    row.extend([EMPTY] * int(token))
                elif token in ("B", "W"):
                    if len(row) == length:
                        raise ValueError("row %d has %d cells, and `%s` is one more"
                                         % (r, length, token))
                    row.append(BLACK if token == "B" else WHITE)
                else:
                    raise ValueError("`%s` is not a Vadrantir cell: expected `B`, `W` or a "
                                     "number of empty cells" % token)
            if len(row) != length:
                raise ValueError("row %d has %d cells, not %d" % (r, length, len(row)))
            cells.extend(row)
        if colour not in ("b", "w"):
            raise ValueError("expected the colour to move, `b` or `w`, not `%s`" % colour)
        if not DIGITS.match(turns):
            raise ValueError("expected the turns taken, a whole number, not `%s`" % turns)
        stripped = turns.lstrip("0") or "0"
        if len(stripped) > 10 or int(stripped) > MAX_TURNS:
            raise ValueError("expected the turns taken, at most %d, not %s" % (MAX_TURNS, turns))
        if swap not in ("s", "-"):
            raise ValueError("expected the swap field, `s` or `-`, not `%s`" % swap)
        to_move = BLACK if colour == "b" else WHITE
        return cls(board, cells, to_move, int(stripped), swap == "s")


def larger(a, b):
    """BLACK if the sizes `a` compare larger, largest first, a missing group counting 0; WHITE
    if `b` do; EMPTY when the lists are the same."""
    a, b = sorted(a, reverse=True), sorted(b, reverse=True)
    width = max(len(a), len(b))
    a += [0] * (width - len(a))
    b += [0] * (width - len(b))
    if a > b:
        return BLACK
    if b > a:
        return WHITE
    return EMPTY


def perft(position, depth):
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(m), depth - 1) for m in moves)


class Engine:
    def __init__(self, seed):
        self.position = None
        self.random = random.Random(seed)

    def handle(self, words):
        """Answer one command: the list of lines to write. Returns None for quit."""
        command, args = words[0], words[1:]
        handler = {
            "rgp": self.rgp, "isready": self.isready, "position": self.set_position,
            "moves": self.moves, "perft": self.perft, "divide": self.divide, "go": self.go,
            "result": self.result, "quit": self.quit,
        }.get(command)
        if handler is None:
            return ["error unknown command %s" % command]
        return handler(args)

    def rgp(self, args):
        if args:
            return ["error rgp takes no arguments"]
        return ["id name vadrantir_engine.py", "id author the referee project", "rgpok"]

    def isready(self, args):
        if args:
            return ["error isready takes no arguments"]
        return ["readyok"]  # every earlier command is done: they are answered in order

    def quit(self, args):
        if args:
            return ["error quit takes no arguments"]
        return None

    def set_position(self, args):
        """position start GAME [size N] [players N] [moves ...] | position code CODE [moves ...]

        The position is replaced only when the whole command is good: after an error the earlier
        position stays.
        """
        if args[:1] == ["start"] and len(args) >= 2:
            game = args[1].lower()  # game names go in any case
            if game != GAME:
                if game in OTHER_GAMES:
                    return ["error this engine plays only vadrantir, not %s" % args[1]]
                return ["error no game is named %s (this engine plays only vadrantir)" % args[1]]
            side, rest = DEFAULT_SIDE, args[2:]
            while rest and rest[0] != "moves":
                if rest[0] not in ("size", "players") or len(rest) < 2:
                    return ["error position start takes size N, players N and moves, not %s"
                            % " ".join(rest)]
                key, value = rest[0], rest[1]
                if not DIGITS.match(value):
                    return ["error %s takes a number, not %s" % (key, value)]
                digits = value.lstrip("0") or "0"
                number = int(digits) if len(digits) < 4 else None  # a long number is no size
                if key == "size":
                    if number not in SIDES:
                        return ["error Vadrantir is played on hex boards of side 5 to 7, not %s"
                                % value]
                    side = number
                elif number != 2:
                    return ["error Vadrantir is a game for two players, not %s" % value]
                rest = rest[2:]
            position = Position.start(side)
        elif args[:1] == ["code"] and len(args) >= 2:
            try:
                position = Position.from_code(args[1])
            except ValueError as why:
                return ["error %s" % why]
            rest = args[2:]
            if rest and rest[0] != "moves":
                return ["error expected moves after the code, not %s" % rest[0]]
        else:
            return ["error expected position start GAME [size N] [players N] [moves ...] "
                    "or position code CODE [moves ...]"]
        for number, word in enumerate(rest[1:], start=1):
            move = position.parse_move(word)
            if move is None:
                # The reasons in the order the rules give them: a finished game refuses
                # everything, whatever else is wrong with the move.
                if not position.placements():
                    why = "the game is over: no legal placement"
                elif word == "swap":
                    why = "a swap of sides is only allowed on White's first turn"
                elif word not in position.board.index:
                    why = "%s is not a cell of the side-%d board" % (word, position.board.side)
                elif position.cells[position.board.index[word]] != EMPTY:
                    why = "%s is not empty" % word
                else:
                    why = "the group it would form breaks the group limit"
                return ["error move %d of the position, %s: %s" % (number, word, why)]
            position = position.play(move)
        self.position = position
        return []

    def need_position(self, args, wanted):
        if self.position is None:
            return "error no position yet: send position first"
        if len(args) != wanted:
            return "error expected %s" % ("one depth" if wanted else "no arguments")
        return None

    def moves(self, args):
        problem = self.need_position(args, 0)
        if problem:
            return [problem]
        p = self.position
        return [" ".join(["moves"] + [p.move_name(m) for m in p.legal_moves()])]

    def depth(self, args):
        """The depth of perft and divide, or an error line."""
        problem = self.need_position(args, 1)
        if problem:
            return None, problem
        text = args[0]
        digits = text.lstrip("0") or "0"
        if not DIGITS.match(text) or len(digits) > 2 or int(digits) > MAX_DEPTH:
            return None, "error the depth is a number from 0 to %d, not %s" % (MAX_DEPTH, text)
        return int(digits), None

    def perft(self, args):
        depth, problem = self.depth(args)
        if problem:
            return [problem]
        return ["perft %d %d" % (depth, perft(self.position, depth))]

    def divide(self, args):
        depth, problem = self.depth(args)
        if problem:
            return [problem]
        p = self.position
        lines, total = [], 0
        if depth > 0:  # depth 0 has no move below the position: referee answers `divideok 0 0`
            for m in p.legal_moves():
                count = perft(p.play(m), depth - 1)
                total += count
                lines.append("divide %s %d" % (p.move_name(m), count))
        lines.append("divideok %d %d" % (depth, total))
        return lines

    def go(self, args):
        if self.position is None:
            return ["error no position yet: send position first"]
        # `go movetime MS`: the answer comes at once, well within any time.
        if args and not (len(args) == 2 and args[0] == "movetime" and DIGITS.match(args[1])):
            return ["error expected go or go movetime MS, not go %s" % " ".join(args)]
        p = self.position
        moves = p.legal_moves()
        if not moves:
            return ["error the game is over: no move"]
        best, best_value = [], None
        for m in moves:
            after = p.play(m)
            # After a swap the mover owns Black's side on the same board; else its own colour.
            mine = BLACK if m == "swap" else p.to_move
            total = after.score()
            value = total[mine] - total[other(mine)]
            if best_value is None or value > best_value:
                best, best_value = [m], value
            elif value == best_value:
                best.append(m)
        return ["bestmove %s" % p.move_name(self.random.choice(best))]

    def result(self, args):
        problem = self.need_position(args, 0)
        if problem:
            return [problem]
        return ["result %s" % self.position.result()]


def main(argv):
    seed = 0
    if len(argv) == 2 and argv[0] == "--seed" and re.match(r"-?[0-9]+\Z", argv[1]):
        seed = int(argv[1])
    elif argv:
        sys.stderr.write("usage: vadrantir_engine.py [--seed N]\n")
        return 2
    engine = Engine(seed)
    out = sys.stdout
    for raw in iter(sys.stdin.buffer.readline, b""):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            answer = ["error the line is not UTF-8"]
        else:
            words = line.split()
            if not words:
                continue  # an empty line is ignored
            try:
                answer = engine.handle(words)
            except Exception as failure:  # never crash: a bug becomes an answer, not silence
                sys.stderr.write("vadrantir_engine: %r on %r\n" % (failure, line))
                answer = ["error internal error: %s" % failure]
            if answer is None:
                return 0
        try:
            for text in answer:
                out.write(text + "\n")
            out.flush()
        except BrokenPipeError:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
