"""How fast Python plays through referee: legal_moves() + play() on Quarod 8x8, and referee.verify
against `referee verify -j N`.

    python bench/speed.py moves [SECONDS]
    python bench/speed.py verify PATH... [--jobs N] [--referee PATH]

The command line is --referee, else $REFEREE, else the repository's target/release/referee. A
corpus to verify: `referee random --game quarod --count 30000 --seed 1 > corpus/quarod.txt`, and
so on for each game. Wall times are the best of three runs; CPU times count every thread.

Issue 36 asks for 300,000 moves a second from a Python loop, and verify within 10% of the
command line's throughput with the same threads.
"""

import os
import random
import resource
import subprocess
import sys
import time

import referee


def moves(seconds=3.0):
    """Random games of Quarod 8x8, each move legal_moves() then play(), for `seconds`."""
    rng = random.Random(1)
    start = referee.Position.start("quarod", 8)
    played = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        position = start
        while True:
            legal = position.legal_moves()
            if not legal:
                break
            position = position.play(legal[rng.randrange(len(legal))])
            played += 1
        games += 1
    elapsed = time.perf_counter() - began
    print(f"legal_moves()+play(): {played / elapsed:,.0f} moves/s ({games} games, {played / games:.0f} moves a game)")
    # The same with push/pop of a whole game (python-chess style).
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
