#!/usr/bin/env python3
"""What an illegal record costs beside a valid one of the same length (issue 20: at most 10x).

Builds two files of --count one-line Quarod records on a --size board (default 26x26, where a
position has some 2,600 legal moves to list and try as alternatives): from each random game of
`referee random --game quarod --size 26 --count N --seed S`, the first line of its moves as
`random` wraps them (about ten moves), under the tags `[Game "Quarod"]` and `[Size "26"]`, ending
with `*`. In the valid file the line is as played; in the illegal file one early move (the first
from move --at on, counted from 1, that has an earlier move of the same length) is replaced by
that earlier move, whose cells are taken: the two files have records of the same bytes and moves,
the only difference is the illegal move, which ends the replay there. Records where no move can be
replaced so are left out of both (counted below).

Each file is verified with `referee verify --jobs 1 --format json` (--format for another),
--repeat times as a whole process, the best wall kept; start-up is the best wall of the same
command on an empty file. Prints both rates, milliseconds per record with and without start-up,
and the ratio illegal / valid, against the goal of 10. The files are cached in
target/illegal-cost/ while the count, seed, size, --at and `referee --version` are the same.

    benches/illegal_cost.py                          # cargo build --release, 2,000 records
    benches/illegal_cost.py --binary PATH --count 30000 --repeat 1

Measured before (issue 20): 30,000 one-line illegal Quarod 26x26 records (1.3 MB) in 79 s, 2.6 ms
each. Python 3.9+, standard library only, Linux.
"""

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from throughput import (REPO, Binary, binary_option, build_release, load_note, log, measure,
                        render_table, startup, wrapped)

RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
GOAL = 10


def first_line_records(text, size, at):
    """(valid, illegal, moves, the illegal move's number from 1) made from each random game in
    `text`; None for a game where no move from move `at` on has an earlier one of the same length
    to repeat."""
    head = f'[Game "Quarod"]\n[Size "{size}"]\n\n'
    for game in re.split(r"\n\n(?=\[)", text):
        line = next((ln for ln in game.splitlines() if ln.startswith("1. ")), None)
        if line is None:
            continue
        tokens = [t for t in line.split() if t not in RESULTS]
        moves = [i for i, t in enumerate(tokens) if not t.endswith(".")]
        illegal = None
        for k in range(max(at - 1, 1), len(moves)):
            token = tokens[moves[k]]
            earlier = [tokens[moves[j]] for j in range(k)]
            # A capture's cells may be free again; a placement's stay taken this early.
            repeat = next((e for e in earlier if len(e) == len(token) and "x" not in e
                           and e != token), None)
            if repeat:
                illegal = tokens[:moves[k]] + [repeat] + tokens[moves[k] + 1:]
                break
        if illegal is None:
            yield None
            continue
        yield (head + " ".join(tokens) + " *\n", head + " ".join(illegal) + " *\n", len(moves), k + 1)


def build(binary, folder, args):
    """The valid and illegal files (cached), and their metadata."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"quarod{args.size}-{args.count}-seed{args.seed}-at{args.at}"
    valid_path, illegal_path = folder / f"{stem}-valid.txt", folder / f"{stem}-illegal.txt"
    meta_path = folder / f"{stem}.meta.json"
    try:
        meta = json.loads(meta_path.read_text())
        if (not args.fresh and meta.get("version") == binary.version
                and valid_path.stat().st_size == meta["bytes"]
                and illegal_path.stat().st_size == meta["bytes"]):
            log(f"reusing {valid_path} and {illegal_path}")
            return valid_path, illegal_path, meta
    except (OSError, ValueError, KeyError):
        pass
    valid, illegal, moves, where = [], [], [], Counter()
    left_out = 0
    seed = args.seed
    while len(valid) < args.count:
        batch = min(500, args.count - len(valid))
        out = subprocess.run([str(binary.path), "random", "--game", "quarod", "--size",
                              str(args.size), "--count", str(batch), "--seed", str(seed)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"illegal_cost: referee random failed (exit {out.returncode}):\n{out.stderr}")
        seed += batch
        for made in first_line_records(out.stdout, args.size, args.at):
            if made is None:
                left_out += 1
            elif len(valid) < args.count:
                valid.append(made[0])
                illegal.append(made[1])
                moves.append(made[2])
                where[made[3]] += 1
        log(f"records: {len(valid)} of {args.count}")
    valid_text, illegal_text = "\n".join(valid), "\n".join(illegal)
    valid_path.write_text(valid_text)
    illegal_path.write_text(illegal_text)
    meta = {"version": binary.version, "records": len(valid), "bytes": len(valid_text.encode()),
            "moves": sum(moves), "left_out": left_out,
            "illegal_move": {str(k): n for k, n in sorted(where.items())}}
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return valid_path, illegal_path, meta


def verify(binary, path, args):
    """`referee verify --jobs 1` over one file, best of --repeat, and the statuses it reported."""
    command = [binary.path, "verify", "--jobs", "1", "--format", args.format, path]
    runs = []
    for i in range(args.repeat):
        runs.append(measure(command))
        log(f"verify {Path(path).name}: run {i + 1}/{args.repeat}: {runs[-1]['wall']:.2f} s")
    best = min(runs, key=lambda r: r["wall"])
    summary = best["stderr"].splitlines()[-1] if best["stderr"] else ""
    return {"wall": best["wall"], "peak_rss_kib": max(r["maxrss_kib"] for r in runs),
            "summary": summary}


def main():
    ap = argparse.ArgumentParser(
        description="The cost of an illegal one-line Quarod record beside a valid one of the "
                    "same length, with `referee verify --jobs 1`.")
    binary_option(ap)
    ap.add_argument("--count", type=int, default=2000, help="records per file (default 2000)")
    ap.add_argument("--size", type=int, default=26, help="the Quarod board's side (default 26)")
    ap.add_argument("--at", type=int, default=2,
                    help="the first move, counted from 1, that may be made illegal (default 2: "
                         "White's first)")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per file; the best wall time is kept (default 3)")
    ap.add_argument("--format", default="json", choices=["json", "human", "short"],
                    help="verify's --format (default json)")
    ap.add_argument("--dir", type=Path, default=REPO / "target/illegal-cost",
                    help="where the files are cached (default: target/illegal-cost/)")
    ap.add_argument("--fresh", action="store_true", help="write the files anew")
    args = ap.parse_args()
    if args.count < 1 or args.repeat < 1 or args.at < 1:
        ap.error("--count, --repeat and --at must be at least 1")

    binary = Binary(args.binary or build_release())
    log(f"binary: {binary.path} ({binary.version})")
    valid_path, illegal_path, meta = build(binary, args.dir, args)
    start = startup(binary, args.dir, 1, args.repeat)
    runs = {"valid": verify(binary, valid_path, args), "illegal": verify(binary, illegal_path, args)}

    n = meta["records"]
    head = ["file", "records", "MiB", "moves", "wall s", "records/s", "ms/record",
            "less start-up", "peak RSS MiB"]
    body = []
    per = {}
    for kind, r in runs.items():
        rest = max(r["wall"] - start, 1e-9)
        per[kind] = (r["wall"] / n, rest / n)
        body.append([kind, str(n), f"{meta['bytes'] / (1 << 20):.2f}", str(meta["moves"]),
                     f"{r['wall']:.3f}", f"{n / r['wall']:.0f}", f"{1000 * r['wall'] / n:.3f}",
                     f"{1000 * rest / n:.3f}", f"{r['peak_rss_kib'] / 1024:.0f}"])
    print(render_table(head, body))
    whole = per["illegal"][0] / per["valid"][0]
    less = per["illegal"][1] / per["valid"][1]
    where = ", ".join(f"move {k} in {v}" for k, v in meta["illegal_move"].items())
    lines = [
        wrapped("ratio: ", f"an illegal record costs {less:.1f}x a valid one (less start-up), "
                           f"{whole:.1f}x whole process; goal: at most {GOAL}x: "
                           f"{'met' if less <= GOAL else 'not met'}"),
        wrapped("note: ", f"`referee verify --jobs 1 --format {args.format}`, best of "
                          f"{args.repeat}; start-up (an empty file) {1000 * start:.1f} ms; "
                          f"one-line Quarod {args.size}x{args.size} records; the illegal move is "
                          f"{where}; {meta['left_out']} games left out (no move to "
                          "repeat)"),
    ]
    lines += [wrapped(f"{kind}: ", r["summary"]) for kind, r in runs.items()]
    lines.append(wrapped("note: ", load_note()))
    print("\n".join(lines))
    if not re.search(rf"\b{n} valid\b", runs["valid"]["summary"]) or not re.search(
            rf"\b{n} illegal\b", runs["illegal"]["summary"]):
        print("warning: not every record is what its file should hold (see the summaries)")


if __name__ == "__main__":
    main()
