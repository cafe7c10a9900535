"""An engine with one rule broken, for the conformance tests: it speaks the protocol through
`referee engine` (the inner engine, started from the command line given after `--`) but drops
the moves a regular expression matches from every list of legal moves, as an engine that never
generates them would (a Quarod engine without board swaps: `x`). Its counts are made from its
own lists, so `perft` and `divide` differ from referee's below any position that has such a move.

    python3 broken.py REGEX -- referee engine
"""

import re
import subprocess
import sys

dropped = re.compile(sys.argv[1])
inner = subprocess.Popen(sys.argv[sys.argv.index("--") + 1:], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(command):
    inner.stdin.write(command + "\n")
    inner.stdin.flush()
    return inner.stdout.readline().strip()


def moves_at(position):
    """The legal moves of `position` (a `position` command's words), those dropped left out."""
    inner.stdin.write(f"position {position}\n")
    answer = ask("moves").split()[1:]
    return [m for m in answer if not dropped.search(m)]


def extended(position, m):
    return f"{position} {m}" if " moves " in f" {position} " else f"{position} moves {m}"


def split_at(position):
    """Each move of `position` kept, as `divide 1` lists them: in Quadraphages and Hexaphages,
    `----` once per stone that stays, as perft counts them (only the first can be played through
    the protocol, so this engine's counts below a `----` are right at depth 1 only)."""
    inner.stdin.write(f"position {position}\ndivide 1\n")
    inner.stdin.flush()
    split = []
    while True:
        words = inner.stdout.readline().split()
        if not words or words[0] != "divide":
            return split
        if not dropped.search(words[1]):
            split.append(words[1])


def perft(position, depth):
    if depth == 0:
        return 1
    moves = split_at(position)
    if depth == 1:
        return len(moves)
    return sum(perft(extended(position, m), depth - 1) for m in moves)


position = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "quit":
        break
    if command == "position":
        answer = ask(line.strip() + "\nisready")
        if answer.startswith("error"):
            ask("isready")
            print(answer, flush=True)
        else:
            position = " ".join(words[1:])
        continue
    if command == "moves" and position is not None:
        print(" ".join(["moves"] + moves_at(position)), flush=True)
    elif command == "perft" and position is not None:
        depth = int(words[1])
        print(f"perft {depth} {perft(position, depth)}", flush=True)
    elif command == "divide" and position is not None:
        depth = int(words[1])
        total = 0
        for m in split_at(position):
            n = perft(extended(position, m), depth - 1)
            total += n
            print(f"divide {m} {n}", flush=True)
        print(f"divideok {depth} {total}", flush=True)
    else:
        # Everything else as the inner engine answers it: one line, or rgp's several.
        inner.stdin.write(line)
        inner.stdin.flush()
        while True:
            answer = inner.stdout.readline()
            print(answer.strip(), flush=True)
            if command != "rgp" or answer.strip() == "rgpok" or not answer:
                break
