#!/usr/bin/env python3
"""Move generation speed: `referee perft CODE DEPTH` per game, beside the chess anchor's perft.

For each game, the start position is the one `referee random --game G` starts from (its default
board), as `referee show --ply 0 --format code` writes it. `referee perft CODE DEPTH` is run as a
whole process for each depth of --depths (default 3 and 4), --repeat times (the best wall is kept),
and its nodes/s printed twice: over the whole process, and less the start-up (the best wall of
`referee perft CODE 0`, which starts, reads the code and counts 1). A depth whose time, predicted
from the one before (its wall times the last branching factor), passes --max-seconds is left out.
When the deepest run took less than --min-seconds (default 0.2: a count of a few hundred nodes
says nothing about speed), deeper depths are run until one takes that long, as long as they are
not predicted past --deeper-seconds (default 5), and the deepest is shown too, marked `+`.

Beside them, unless --no-anchor: the chess anchor (benches/chess-anchor/, shakmaty's perft, built
in release into target/chess-anchor/) from the chess start at --anchor-depths, best of --repeat:
by default 5 and 6, since perft 5 takes some 20 ms, too short to time steadily. Its nodes/s are
its own timing of the count (no process start), and `\u00f7 chess` divides each of referee's nodes/s
less start-up by the anchor's at the last of its depths. The games' nodes are not chess's: a ratio says how
fast each generator runs, not that one game is as hard to generate as another.

    benches/perft.py                                   # cargo build --release, then all games
    benches/perft.py --binary PATH --games quarod,splinter --repeat 5

Progress goes to standard error, the table to standard output. Python 3.9+, standard library
only, Linux (peak RSS from wait4, in KiB).
"""

import argparse
import subprocess
import sys

from throughput import (ANCHOR, Anchor, Binary, binary_option, build_release, chosen_games,
                        games_option, load_note, log, measure, render_table, wrapped)


def start_code(binary, game):
    """The code of the position `referee random --game GAME` starts from."""
    record = subprocess.run([str(binary.path), "random", "--game", game, "--seed", "1"],
                            capture_output=True)
    code = subprocess.run([str(binary.path), "show", "--ply", "0", "--format", "code", "-"],
                          input=record.stdout, capture_output=True)
    if record.returncode != 0 or code.returncode != 0:
        sys.exit(f"perft: no start code for {game}:\n"
                 f"{record.stderr.decode(errors='replace')}{code.stderr.decode(errors='replace')}")
    return code.stdout.decode().strip()


def perft(binary, code, depth, repeat):
    """`referee perft CODE DEPTH` --repeat times: the count, the best wall and the highest peak."""
    runs = [measure([binary.path, "perft", code, depth], ok_codes=(0,)) for _ in range(repeat)]
    counts = {r["stdout"].split()[0] for r in runs}
    if len(counts) != 1:
        sys.exit(f"perft: `referee perft {code} {depth}` counted {sorted(counts)} in its runs")
    return {"depth": depth, "nodes": int(counts.pop()), "wall": min(r["wall"] for r in runs),
            "peak_rss_kib": max(r["maxrss_kib"] for r in runs), "repeat": repeat}


def bench_game(binary, game, args):
    """The runs of one game: the depths asked for (those not predicted past --max-seconds), then
    deeper ones while the last took under --min-seconds; depths 1 and 2 once, to predict."""
    code = start_code(binary, game)
    startup = perft(binary, code, 0, args.repeat)["wall"]
    log(f"{game}: {code} (start-up {startup * 1000:.1f} ms)")
    asked = sorted(set(args.depths))
    runs = []
    skipped = []
    depth = 1
    while depth <= 20:
        if depth > asked[-1] and runs[-1]["wall"] - startup >= args.min_seconds:
            break
        if len(runs) >= 2 and runs[-2]["nodes"]:
            last = runs[-1]
            branching = last["nodes"] / runs[-2]["nodes"]
            predicted = startup + max(last["wall"] - startup, 0) * branching
            limit = args.max_seconds if depth <= asked[-1] else args.deeper_seconds
            if predicted > limit:
                skipped += [d for d in asked if d >= depth]
                log(f"{game}: depth {depth} left out: predicted {predicted:.1f} s")
                break
        shown = depth in asked or depth > asked[-1]
        run = perft(binary, code, depth, args.repeat if shown else 1)
        run.update({"game": game, "code": code, "startup_s": startup, "shown": shown})
        log(f"{game}: perft {depth}: {run['nodes']} nodes, {run['wall']:.3f} s")
        runs.append(run)
        if run["nodes"] == 0:
            break
        depth += 1
    shown = [r for r in runs if r["depth"] in asked]
    if runs and runs[-1]["depth"] > asked[-1]:
        runs[-1]["deeper"] = True
        shown.append(runs[-1])
    return shown, skipped


def main():
    ap = argparse.ArgumentParser(
        description="Nodes/s of `referee perft` from each game's start, beside the chess anchor's.")
    binary_option(ap)
    games_option(ap)
    ap.add_argument("--depths", default="3,4", help="comma-separated depths (default 3,4)")
    ap.add_argument("--max-seconds", type=float, default=20.0,
                    help="leave out a depth predicted to take longer (default 20)")
    ap.add_argument("--min-seconds", type=float, default=0.2,
                    help="go deeper until a run takes this long, less start-up (default 0.2)")
    ap.add_argument("--deeper-seconds", type=float, default=5.0,
                    help="but not to a depth predicted to take longer (default 5)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per depth; the best wall time is kept (default 3)")
    ap.add_argument("--anchor-depths", default="5,6",
                    help="the chess anchor's depths, comma-separated (default 5,6: its perft 5 "
                         "takes some 20 ms, too short to time steadily, 6 some 0.5 s); "
                         "\u00f7 chess divides by the last")
    ap.add_argument("--no-anchor", dest="anchor", action="store_false",
                    help="do not build and run the chess anchor")
    args = ap.parse_args()
    games = chosen_games(ap, args)
    try:
        args.depths = [int(d) for d in args.depths.split(",")]
        args.anchor_depths = [int(d) for d in args.anchor_depths.split(",")]
    except ValueError:
        ap.error("--depths and --anchor-depths take comma-separated numbers")
    if args.repeat < 1 or not all(1 <= d <= 20 for d in args.depths + args.anchor_depths):
        ap.error("--repeat must be at least 1 and each depth 1 to 20")

    binary = Binary(args.binary or build_release())
    log(f"binary: {binary.path} ({binary.version})")
    anchors = []
    if args.anchor:
        anchor = Anchor()
        for depth in args.anchor_depths:
            anchors.append(anchor.perft(depth, args.repeat))
            log(f"chess: perft {depth}: {anchors[-1]['nodes']:.0f} nodes, "
                f"{anchors[-1]['secs']:.3f} s")
    chess = anchors[-1] if anchors else None

    head = ["game", "depth", "nodes", "wall s", "nodes/s", "less start-up", "peak RSS MiB"]
    if chess:
        head.insert(6, "\u00f7 chess")
    body = []
    skipped_all = []
    for game in games:
        runs, skipped = bench_game(binary, game, args)
        skipped_all += [f"{game} {d}" for d in skipped]
        for r in runs:
            rest = r["wall"] - r["startup_s"]
            quicker = r["nodes"] / rest if rest > 0 else None
            row = [game, f"{r['depth']}{'+' if r.get('deeper') else ''}", str(r["nodes"]),
                   f"{r['wall']:.3f}", f"{r['nodes'] / r['wall'] / 1e6:.2f}M",
                   f"{quicker / 1e6:.2f}M" if quicker else "-", f"{r['peak_rss_kib'] / 1024:.0f}"]
            if chess:
                row.insert(6, f"{quicker / chess['nodes_per_s']:.3f}" if quicker else "-")
            body.append(row)
    for a in anchors:
        body.append([ANCHOR, f"{a['depth']:.0f}", f"{a['nodes']:.0f}", f"{a['secs']:.3f}",
                     f"{a['nodes_per_s'] / 1e6:.2f}M", "-",
                     f"{a['nodes_per_s'] / chess['nodes_per_s']:.3f}",
                     f"{a['peak_rss_kib'] / 1024:.0f}"])
    print(render_table(head, body))
    notes = ["referee's wall s and nodes/s are its whole process (best of "
             f"{args.repeat}); `less start-up` takes off the wall of `referee perft CODE 0`; "
             f"`+`: deeper than asked, until a run takes {args.min_seconds:g} s (when one "
             f"is predicted under {args.deeper_seconds:g} s)"]
    if chess:
        notes.append(f"{ANCHOR}: shakmaty's perft from the chess start (bulk counting at the last "
                     "ply), timed by itself: no process start (its whole process took "
                     + ", ".join(f"{a['wall']:.3f} s" for a in anchors) + "); \u00f7 chess = "
                     f"referee's nodes/s less start-up divided by the anchor's at depth "
                     f"{chess['depth']:.0f}")
    notes.append(load_note())
    if skipped_all:
        notes.append("left out, predicted past --max-seconds: " + ", ".join(skipped_all))
    print("\n".join(wrapped("note: ", n) for n in notes))


if __name__ == "__main__":
    main()
