"""How fast Python plays through referee: legal_moves() + play() on Quarod 8x8, and referee.verify
against `referee verify -j N`.

    python bench/speed.py moves [SECONDS]   (beside python-chess, when it is installed)
    python bench/speed.py verify PATH... [--jobs N] [--referee PATH]

The command line is --referee, else $REFEREE, else the repository's target/release/referee. A
corpus to verify: `referee random --game quarod --count 30000 --seed 1 > corpus/quarod.txt`, and
so on for each game. Wall times are the best of three runs; CPU times count every thread.

Issue 36 asks for 300,000 moves a second from a Python loop, and verify within 10% of the
command line's throughput with the same threads. `moves` runs python-chess's loop of
`legal_moves` + `push` on chess in the same sitting, interleaved with referee's, when python-chess
is installed (`pip install chess`: for the benchmark only, the package does not need it).
"""

import os
import random
import resource
import subprocess
import sys
import time

import referee


def quarod_games(seconds, rng, every=False):
    """Random games of Quarod 8x8, each move legal_moves() then play(), for `seconds`: moves a
    second, games, moves a game. With `every`, each list of legal moves is made whole
    (list(legal_moves())), every move a string, as python-chess's loop below makes every move."""
    start = referee.Position.start("quarod", 8)
    played = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        position = start
        while True:
            legal = list(position.legal_moves()) if every else position.legal_moves()
            if not legal:
                break
            position = position.play(legal[rng.randrange(len(legal))])
            played += 1
        games += 1
    return played / (time.perf_counter() - began), games, played / games


def chess_games(seconds, rng):
    """Random games of chess with python-chess, each move list(board.legal_moves) then push(), as
    its users write the loop, for `seconds`; a game ends at checkmate, stalemate, insufficient
    material or the 75-move rule (`is_game_over()`), as python-chess's own random games do."""
    import chess

    played = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        board = chess.Board()
        while not board.is_game_over():
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
            played += 1
        games += 1
    return played / (time.perf_counter() - began), games, played / games


def moves(seconds=3.0):
    """referee's loop on Quarod 8x8 and, when python-chess is installed, its loop on chess,
    interleaved three times each; the best of each."""
    try:
        import chess
    except ImportError:
        chess = None
    rng = random.Random(1)
    best = {}
    for _ in range(3):
        for name, run in [("referee, Quarod 8x8: legal_moves()+play()", quarod_games),
                          ("referee, Quarod 8x8: list(legal_moves())+play()", lambda s, r: quarod_games(s, r, True)),
                          ("python-chess, chess: list(legal_moves)+push()", chess_games if chess else None)]:
            if run is None:
                continue
            rate, games, length = run(seconds, rng)
            if name not in best or rate > best[name][0]:
                best[name] = (rate, games, length)
    for name, (rate, games, length) in best.items():
        print(f"{name}: {rate:,.0f} moves/s ({games} games, {length:.0f} moves a game)")
    if len(best) == 3:
        (referee_rate, *_), (every_rate, *_), (chess_rate, *_) = best.values()
        print(f"referee's loop makes {referee_rate / chess_rate:.2f} times python-chess's moves a second "
              f"({every_rate / chess_rate:.2f} times making every move a string)")
    elif chess is None:
        print("python-chess is not installed: pip install chess, to compare")
    # The same with push/pop of a whole game (python-chess style).
    start = referee.Position.start("quarod", 8)
    played = 0
    began = time.perf_counter()
    position = start.copy()
    while time.perf_counter() - began < seconds:
        pushed = 0
        while True:
            legal = position.legal_moves()
            if not legal:
                break
            position.push(legal[rng.randrange(len(legal))])
            pushed += 1
        for _ in range(pushed):
            position.pop()
        played += pushed
    elapsed = time.perf_counter() - began
    print(f"legal_moves()+push(), then pop() each: {played / elapsed:,.0f} moves/s")
    # The parts alone.
    position = start
    for m in ["c1d1", "d3c3", "b4a4"]:
        position = position.play(m)
    n = 20000
    began = time.perf_counter()
    for _ in range(n):
        position.legal_moves()
    t_legal = (time.perf_counter() - began) / n
    legal = position.legal_moves()
    began = time.perf_counter()
    for i in range(n):
        position.play(legal[i % len(legal)])
    t_play = (time.perf_counter() - began) / n
    print(f"after 3 moves ({len(legal)} legal): legal_moves() {t_legal * 1e6:.2f} µs, play() {t_play * 1e6:.2f} µs")


def timed(run):
    """Wall and CPU seconds (user + system, every thread) of run()."""
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    result = run()
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before))
    return result, wall, cpu


def verify(paths, jobs, cli, repeat=3):
    """The best of `repeat` runs of each: referee.verify as dicts, as JSON lines, and the command line."""
    runs = {
        "referee.verify": lambda: sum(1 for _ in referee.verify(paths, jobs=jobs)),
        "referee.verify(as_json=True)": lambda: sum(1 for _ in referee.verify(paths, jobs=jobs, as_json=True)),
        f"referee verify -j {jobs}": lambda: subprocess.run(
            [cli, "verify", "--format", "json", "-j", str(jobs), *paths], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, check=False).stdout.count(b"\n"),
    }
    best = {}
    for _ in range(repeat):
        for name, run in runs.items():
            count, wall, cpu = timed(run)
            if name not in best or wall < best[name][1]:
                best[name] = (count, wall, cpu)
    command = best[f"referee verify -j {jobs}"][1]
    for name, (count, wall, cpu) in best.items():
        print(f"{name:32} {count} verdicts in {wall:.2f} s ({count / wall:,.0f}/s, {cpu:.2f} s CPU): "
              f"{command / wall:.0%} of the command line's throughput")


if __name__ == "__main__":
    if sys.argv[1:2] == ["moves"]:
        moves(float(sys.argv[2]) if len(sys.argv) > 2 else 3.0)
    elif sys.argv[1:2] == ["verify"]:
        args = sys.argv[2:]
        jobs = os.cpu_count()
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        cli = os.environ.get("REFEREE", os.path.join(repo, "target", "release", "referee"))
        if "--jobs" in args:
            k = args.index("--jobs")
            jobs = int(args[k + 1])
            del args[k:k + 2]
        if "--referee" in args:
            k = args.index("--referee")
            cli = args[k + 1]
            del args[k:k + 2]
        verify(args, jobs, cli)
    else:
        sys.exit(__doc__)
