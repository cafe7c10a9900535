#!/usr/bin/env python3
"""Instructions per byte of `referee verify --format json --jobs 1`, per game, counted by callgrind,
beside the chess anchor's over as much chess: a measure of speed that the machine's load does not
move, where timings on this shared machine move by up to 30%.

For each game, the corpus of about --mb MiB of random finished games that benches/throughput.py
writes and caches (whole records: a cut record would claim its result before its end and be
searched), run once under `valgrind --tool=callgrind`; the anchor (benches/chess-anchor/)
`validate`s a chess corpus of the same size under it too. The table gives each game's
instructions in all (the whole process: start, read, verify, write the JSON lines), per byte of
input and per move, and `÷ chess`: the anchor's instructions per byte divided by referee's, the
ratio throughput.py's `÷ chess` column gives by time, when an instruction costs alike in both. It
need not: the ratio of instructions says what each does per byte, the ratio of times what it costs.

Two builds compare on the same corpora, the second run's figures against the first's:

    benches/instructions.py --json > before.jsonl          # then, after a change:
    benches/instructions.py --against before.jsonl

Needs valgrind. Python 3.9+, standard library only. Progress goes to standard error; the table
(or, with --json, JSON lines) to standard output.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from throughput import (Anchor, Binary, binary_option, build_release, chosen_games, corpus_options,
                        generate_corpus, load_corpus, log)

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def instructions(args):
    """The instructions callgrind counts over the whole of `args`, and its standard output."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *[str(a) for a in args]], capture_output=True)
    counted = COLLECTED.search(proc.stderr.decode(errors="replace"))
    if counted is None or proc.returncode not in (0, 1):
        sys.exit(f"instructions: `valgrind {' '.join(map(str, args))}` failed "
                 f"(exit {proc.returncode}):\n{proc.stderr.decode(errors='replace')[-2000:]}")
    return int(counted[1]), proc.stdout


def moves_of(json_lines):
    """The records and the moves `verify --format json` reports, and how many were not valid."""
    records = moves = invalid = 0
    for line in json_lines.splitlines():
        v = json.loads(line)
        records += 1
        moves += v["moves"]
        invalid += v["status"] != "valid"
    return records, moves, invalid


def main():
    ap = argparse.ArgumentParser(
        description="Instructions per byte of `referee verify --format json --jobs 1`, per game, "
                    "beside the chess anchor's (callgrind).")
    binary_option(ap)
    corpus_options(ap, mb=2.0)
    ap.add_argument("--no-anchor", action="store_true", help="leave out the chess anchor")
    ap.add_argument("--against", metavar="FILE", type=Path,
                    help="JSON lines of an earlier run (--json): each game's instructions per byte "
                         "then, and now as a ratio of then")
    ap.add_argument("--json", action="store_true", help="print JSON lines to standard output")
    args = ap.parse_args()
    games = chosen_games(ap, args)
    if subprocess.run(["valgrind", "--version"], capture_output=True).returncode != 0:
        sys.exit("instructions: valgrind is needed (apt-get install valgrind)")
    binary = Binary(args.binary or build_release())
    before = {}
    if args.against:
        for line in args.against.read_text().splitlines():
            row = json.loads(line)
            before[row["game"]] = row
    rows = []
    for game in games:
        meta = (load_corpus(args.corpus, game, args.mb, args.seed, binary)
                or generate_corpus(args.corpus, game, args.mb, args.seed, binary))
        log(f"callgrind: {game} ({meta['bytes'] / (1 << 20):.1f} MiB)")
        count, out = instructions([binary.path, "verify", "--jobs", "1", "--format", "json",
                                   meta["path"]])
        records, moves, invalid = moves_of(out.decode())
        rows.append({"game": game, "bytes": meta["bytes"], "records": records, "moves": moves,
                     "invalid": invalid, "instructions": count})
    if not args.no_anchor:
        anchor = Anchor()
        meta = anchor.corpus(args.corpus, args.mb, args.seed, False)
        log(f"callgrind: chess anchor ({meta['bytes'] / (1 << 20):.1f} MiB)")
        count, out = instructions([anchor.path, "validate", meta["path"]])
        plies = int(re.search(r"plies=(\d+)", out.decode())[1])
        rows.append({"game": "chess", "bytes": meta["bytes"], "records": meta["records"],
                     "moves": plies, "invalid": 0, "instructions": count})
    for r in rows:
        r["per_byte"] = r["instructions"] / r["bytes"]
        r["per_move"] = r["instructions"] / max(r["moves"], 1)
    chess = next((r for r in rows if r["game"] == "chess"), None)
    for r in rows:
        r["vs_chess"] = chess["per_byte"] / r["per_byte"] if chess else None
        then = before.get(r["game"])
        r["vs_before"] = r["per_byte"] / then["per_byte"] if then else None
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return
    head = ["game", "MiB", "records", "moves", "instructions", "per byte", "per move", "÷ chess",
            "of before"]
    table = [head]
    for r in rows:
        table.append([r["game"], f"{r['bytes'] / (1 << 20):.1f}", str(r["records"]), str(r["moves"]),
                      f"{r['instructions'] / 1e6:.0f}M", f"{r['per_byte']:.0f}", f"{r['per_move']:.0f}",
                      "" if r["vs_chess"] is None or r["game"] == "chess" else f"{r['vs_chess']:.2f}",
                      "" if r["vs_before"] is None else f"{r['vs_before']:.2f}"])
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for k, row in enumerate(table):
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))
    print("note: instructions of the whole process under callgrind, one thread; `÷ chess` is the "
          "anchor's instructions per byte divided by referee's; `of before` this build's per byte "
          "as a share of --against's")
    for r in rows:
        if r["invalid"]:
            print(f"note: {r['invalid']} of {r['game']}'s records were not valid")


if __name__ == "__main__":
    main()
