#!/usr/bin/env python3
"""Cross-checks perft counts at depth 1 and 2 through the notation, apart from the engine's move
generator: every move `referee moves` lists is written into a record that starts from the
position's code, and `referee verify` (its parser, resolver, `check` and replay) must find each
record valid; the positions verify reaches (its JSON `position`) give the moves at depth 2 the
same way, two moves a record. The moves must add up to `referee perft` at depth 1 and 2.

    tests/perft/through_notation.py [--referee BIN] [--most N] FILE.perft...

Positions whose depth 2 has more than N leaves (default 20000) are passed over. Python 3, standard
library; BIN defaults to target/debug/referee (build it first)."""
import argparse
import json
import subprocess
import sys


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True)


def record(code, tokens):
    game, *fields = code.split("_")
    if game in ("quadraphages", "hexaphages"):
        # The first turn has no phase (a): a record writes `....` for each stone it skips.
        if fields[1].endswith("f") and fields[1][1] == "b":
            tokens = ["...."] * len(fields[2].split("-")[0].split(".")) + tokens
        return f"{game.upper()}\nStartup: {code}\n1. {' '.join(tokens)}\n\n"
    title = {"splinter": "Splinter Quad"}.get(game, game.capitalize())
    return f'[Game "{title}"]\n[Position "{code}"]\n\n1. {" ".join(tokens)} *\n\n'


def padded(code, tokens):
    # A published move line opens a record only with a step, `....` or `----` first, or a step
    # after its number: a line of a number and stays alone is prose. Such a line gets a step that
    # is no move (`a1a1`), which verify must find illegal after the moves checked.
    published = code.split("_")[0] in ("quadraphages", "hexaphages")
    if published and tokens[0].isdigit() and not any(t[0].isalpha() for t in tokens):
        return tokens + ["a1a1"]
    return tokens


def verify(code, lines):
    """Verifies one record per line of moves from `code`: the positions where they end."""
    path = "/tmp/referee-perft-through-notation.txt"
    with open(path, "w") as f:
        f.write("".join(record(code, padded(code, t)) for t in lines))
    verdicts = [json.loads(v) for v in run("verify", "-j", "1", "--format", "json", path).stdout.splitlines()]
    assert len(verdicts) == len(lines), (code, len(verdicts), len(lines))
    for v, tokens in zip(verdicts, lines):
        if padded(code, tokens) != tokens:
            assert v["status"] == "illegal" and v["errors"][0]["token"] == "a1a1", (code, tokens, v["errors"][:1])
        else:
            assert v["status"] == "valid", (code, tokens, v["status"], v["errors"][:1])
        assert v["moves"] == len(tokens), (code, tokens, v["moves"])
    return [v["position"] for v in verdicts]


def main():
    global BIN
    parser = argparse.ArgumentParser()
    parser.add_argument("--referee", default="target/debug/referee")
    parser.add_argument("--most", type=int, default=20000)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    BIN = args.referee
    bad = 0
    for path in args.files:
        entries, code = [], None
        for line in open(path):
            if line.startswith("code "):
                code = line.split()[1]
            elif line.startswith("perft ") and code:
                depth, count = map(int, line.split()[1:])
                entries.append((code, depth, count))
        counts = {}
        for code, depth, count in entries:
            counts.setdefault(code, {})[depth] = count
        for code, c in counts.items():
            if c.get(1, 0) == 0 or c.get(2, args.most + 1) > args.most:
                continue
            first = run("moves", code).stdout.split()
            after = verify(code, [[m] for m in first])
            second = 0
            for m, child in zip(first, after):
                replies = run("moves", child).stdout.split()
                if replies:
                    verify(code, [[m, r] for r in replies])
                second += len(replies)
            ok = (len(first), second) == (c[1], c[2])
            bad += not ok
            print(f"{'ok ' if ok else 'BAD'} {len(first)} {second} {code}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
