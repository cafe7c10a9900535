#!/usr/bin/env python3
"""Counts Quarod's move tree from an empty board, written from the rules text alone
(docs/rules/quarod.md, RULINGS Quarod 1-6) without referee's engine, to cross-check
src/games/quarod/quarod.perft on small boards.

    tests/perft/quarod_by_rules.py SIZE DEPTH    # prints perft 1 .. DEPTH of the SIZE x SIZE start

Python 3, standard library. Slow: for boards up to 4x4."""
import sys

DIRS = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # the four edges a rod can point to


def opposite(d):
    return (-d[0], -d[1])


def perft(n, board, to_move, turn, passes, depth):
    """Leaves `depth` moves below: `board` maps a square to (colour, rod), `turn` counts the turns
    taken (White's first is turn 1), `passes` the passes in a row (two end the game)."""
    if passes >= 2:
        return 0 if depth > 0 else 1
    if depth == 0:
        return 1

    def adjacent(a):
        for d in DIRS:
            b = (a[0] + d[0], a[1] + d[1])
            if 0 <= b[0] < n and 0 <= b[1] < n:
                yield d, b

    def partner(a):
        colour, rod = board[a]
        b = (a[0] + rod[0], a[1] + rod[1])
        if b in board and board[b][0] != colour and board[b][1] == opposite(rod):
            return b
        return None

    squares = [(x, y) for y in range(n) for x in range(n)]
    children = []
    # Placements: Black on a, White on b, rods towards each other.
    for a in squares:
        if a not in board:
            for d, b in adjacent(a):
                if b not in board:
                    child = dict(board)
                    child[a], child[b] = ("B", d), ("W", opposite(d))
                    children.append(child)
    # Board swaps of two pieces of different colours, each engaged but not to each other: named
    # from either piece, both orders are moves (as referee's engine and notation have them).
    for a in squares:
        if a in board:
            for d, b in adjacent(a):
                if b in board and board[a][0] != board[b][0] and partner(a) and partner(b) and partner(a) != b:
                    child = dict(board)
                    child[a], child[b] = (board[b][0], d), (board[a][0], opposite(d))
                    children.append(child)
    other = "W" if to_move == "B" else "B"
    total = 0
    if not children:  # a pass, only when there is nothing else to do
        total += perft(n, board, other, turn + 1, passes + 1, depth - 1)
    for child in children:
        total += perft(n, child, other, turn + 1, 0, depth - 1)
    if turn == 1:  # White's first turn: the pie swap, and White moves again
        total += perft(n, board, to_move, turn + 1, 0, depth - 1)
    return total


if __name__ == "__main__":
    size, depth = int(sys.argv[1]), int(sys.argv[2])
    print(" ".join(str(perft(size, {}, "B", 0, 0, d)) for d in range(1, depth + 1)))
