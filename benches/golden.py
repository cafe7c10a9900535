#!/usr/bin/env python3
"""The golden harness: every output of a referee build on the bundled samples, the published
records and the throughput corpora, so that a change meant to move code and not behaviour can be
shown to change no byte.

For each record file (samples/, ../shared/records/ when it is there, tests/annotated/) it runs
`verify` (JSON lines and the human report), `convert` to canonical, JSON and code, `show` as text
and SVG, `render --format svg` (every file of the folder) and `repair --format json`; for each
corpus that benches/throughput.py cached (target/throughput-corpus/), `verify --format json` and
`convert --to canonical`. It keeps each output's exit code and SHA-256, and with --against
compares them with an earlier run's:

    benches/golden.py --binary /tmp/old-referee > before.json
    benches/golden.py --against before.json          # the current release build

Python 3.9+, standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def record_files():
    """Every record file the harness judges, by path relative to the repository."""
    roots = [REPO / "samples", REPO / "../shared/records", REPO / "tests/annotated"]
    files = []
    for root in roots:
        if root.is_dir():
            files += sorted(p for p in root.rglob("*") if p.is_file())
    return files


def corpora():
    folder = REPO / "target/throughput-corpus"
    return sorted(p for p in folder.glob("*.txt")) if folder.is_dir() else []


# What differs between two runs of the same build: the time a run took, and the folder written to.
TIMING = re.compile(rb"\d+\.\d+ s \([\d,]+ records/s\)")


def run(binary, args, out_dir=None):
    """Exit code and SHA-256 of standard output and standard error of `binary args`, their timings
    and `out_dir` left out."""
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    proc = subprocess.run([binary, *args], capture_output=True, env=env, timeout=600)
    stderr = TIMING.sub(b"(time)", proc.stderr)
    if out_dir:
        stderr = stderr.replace(out_dir.encode(), b"(out)")
    digest = hashlib.sha256(proc.stdout + b"\0" + stderr).hexdigest()
    return {"rc": proc.returncode, "sha256": digest}


def folder_digest(binary, args):
    """`binary args --out DIR`, then the SHA-256 of every file it wrote, by name."""
    with tempfile.TemporaryDirectory() as out:
        result = run(binary, [*args, "--out", os.path.join(out, "pictures")], out)
        h = hashlib.sha256()
        for p in sorted(Path(out).rglob("*")):
            if p.is_file():
                h.update(str(p.relative_to(out)).encode() + b"\0" + p.read_bytes())
        result["files"] = h.hexdigest()
        return result


def outputs(binary):
    results = {}
    for f in record_files():
        name = os.path.relpath(f, REPO)
        path = str(f)
        for label, args in [
            ("verify-json", ["verify", "--format", "json", path]),
            ("verify-human", ["verify", path]),
            ("convert-canonical", ["convert", "--to", "canonical", path]),
            ("convert-json", ["convert", "--to", "json", path]),
            ("convert-code", ["convert", "--to", "code", path]),
            ("show-ascii", ["show", path]),
            ("show-svg", ["show", "--format", "svg", path]),
            ("repair-json", ["repair", "--format", "json", "--time-limit", "20", path]),
        ]:
            results[f"{name} {label}"] = run(binary, args)
        results[f"{name} render-svg"] = folder_digest(binary, ["render", "--format", "svg", path])
        print(f"golden: {name}", file=sys.stderr)
    for c in corpora():
        name = os.path.relpath(c, REPO)
        results[f"{name} verify-json"] = run(binary, ["verify", "--format", "json", "--jobs", "1", str(c)])
        results[f"{name} convert-canonical"] = run(binary, ["convert", "--to", "canonical", str(c)])
        print(f"golden: {name}", file=sys.stderr)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=str(REPO / "target/release/referee"),
                    help="the referee to run (default: target/release/referee)")
    ap.add_argument("--against", metavar="FILE", type=Path,
                    help="compare with an earlier run's output; exit code 1 if any output differs")
    args = ap.parse_args()
    now = outputs(args.binary)
    if not args.against:
        json.dump(now, sys.stdout, indent=1, sort_keys=True)
        print()
        return
    before = json.loads(args.against.read_text())
    differ = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    for k in differ:
        print(f"differs: {k}: {before.get(k)} -> {now.get(k)}")
    print(f"{len(now)} outputs, {len(differ)} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
