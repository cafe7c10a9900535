#!/usr/bin/env python3
"""Whole-process throughput of `referee verify`, per game, side by side with the chess anchor.

For each game, builds (or reuses) a corpus of about --mb MiB (default 10) of random finished
games written by `referee random --game G --count K --seed S` (the game's default board), and
beside it as much random chess for the chess anchor (benches/chess-anchor/: pgn-reader +
shakmaty, built in release into target/chess-anchor/; `--no-anchor` leaves it out). Then, in
--repeat rounds (default 3), each round the anchor first and every game after it (so that the
machine's load, which moves through a sitting, falls on both alike):

- `like`: `referee verify -q --format short --jobs 1 CORPUS`, which writes nothing for a valid
  record, like for like with `chess-anchor validate CORPUS`, which writes nothing either: both
  whole processes, measured in MiB per CPU second (user + system) on one thread;
- `JSON`: `referee verify --format json --jobs 1 CORPUS` into a pipe (the full report, a line per
  record), in MiB per CPU second;
- all cores: `referee verify --format json CORPUS`, in MiB per wall second, and its CPU/wall.

Each child is measured by a small helper with os.wait4 (wall, CPU, peak memory); the best round
is kept (the lowest CPU on one thread, the lowest wall on all cores). The table gives each game's
MiB/s and, on one thread, `\u00f7 chess`: referee's MiB/s divided by the anchor's; then the goals
of issue 38 (like for like at least 1.3 times the anchor, 2 for Quadraphages and Hexaphages; the
JSON report at least 1; CPU/wall at least 1.9 on 2 cores; peak memory under 64 MB). The JSON
lines are parsed to count the records and their statuses and to sum their `moves`: every record
should be `valid`, and a run that says otherwise is reported.

Corpora are cached in --corpus (default target/throughput-corpus/) and reused while their target
size, seed and the generating binary's `--version` are the same (--fresh regenerates them), so two
builds can be compared on the same corpora:

    benches/throughput.py --json > after.jsonl
    benches/throughput.py --binary /tmp/old-referee --json > before.jsonl

Progress goes to standard error; the table (or, with --json, JSON lines) to standard output.
Python 3.9+, standard library only, Linux (ru_maxrss is in KiB there).
"""

import argparse
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

GAMES = ["quadraphages", "hexaphages", "quarod", "petrify", "vadrantir", "splinter"]
REPO = Path(__file__).resolve().parent.parent
MIB = 1 << 20
# Records in the first batch of a corpus, written to estimate the size of one record.
FIRST_BATCH = 50


def log(msg, end="\n"):
    sys.stderr.write(msg + end)
    sys.stderr.flush()


class Progress:
    """One progress line on stderr: redrawn in place on a terminal, every few seconds otherwise."""

    def __init__(self, label):
        self.label = label
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.drawn = False

    def update(self, text, force=False):
        now = time.monotonic()
        if not force and now - self.last < (0.5 if self.tty else 10.0):
            return
        self.last = now
        if self.tty:
            log(f"\r\x1b[K{self.label}: {text}", end="")
            self.drawn = True
        else:
            log(f"{self.label}: {text}")

    def done(self, text):
        if self.drawn:
            log("\r\x1b[K", end="")
        log(f"{self.label}: {text}")


# ---------------------------------------------------------------------------------------------
# The binary


def cargo_build(args, name, what):
    """`cargo build --release ARGS` in the repository; returns the path of the executable `name`."""
    args = [str(a) for a in args]
    log(f"building {what}: cargo build --release {' '.join(args)}")
    proc = subprocess.run(
        ["cargo", "build", "--release", *args, "--message-format=json-render-diagnostics"],
        cwd=REPO, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"throughput: cargo build --release of {what} failed (exit {proc.returncode})")
    exe = None
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if (msg.get("reason") == "compiler-artifact" and msg.get("executable")
                and msg.get("target", {}).get("name") == name):
            exe = msg["executable"]
    if exe is None:
        sys.exit(f"throughput: cargo build did not report the {name} executable")
    return Path(exe)


def build_release():
    """The release build of referee in this repository: the path of its executable."""
    return cargo_build(["--bin", "referee"], "referee", f"referee in {REPO}")


def git_commit():
    """The repository's commit (with `-dirty` if the work tree has changes), or None."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO, text=True, capture_output=True, check=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


class Binary:
    def __init__(self, path):
        self.path = Path(path).resolve()
        if not os.access(self.path, os.X_OK):
            sys.exit(f"throughput: {self.path} is not an executable file")
        self.version = self._run("--version").strip()
        self.verify_help = self._run("verify", "--help")
        self.random_help = self._run("random", "--help")
        self.has_jobs = re.search(r"--jobs\b", self.verify_help) is not None
        self.has_count = re.search(r"--count\b", self.random_help) is not None
        with open(self.path, "rb") as f:
            self.sha256 = hashlib.file_digest(f, "sha256").hexdigest() if hasattr(
                hashlib, "file_digest") else hashlib.sha256(f.read()).hexdigest()

    def _run(self, *args):
        proc = subprocess.run([str(self.path), *args], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"throughput: `{self.path} {' '.join(args)}` failed (exit {proc.returncode}):"
                     f"\n{proc.stderr.strip()}")
        return proc.stdout


# ---------------------------------------------------------------------------------------------
# Corpora


def corpus_paths(folder, game, mb, seed):
    stem = f"{game}-{mb:g}MiB-seed{seed}"
    return folder / f"{stem}.txt", folder / f"{stem}.meta.json"


def load_corpus(folder, game, mb, seed, generator):
    """The cached corpus's metadata if it is there, complete and from the same generator version."""
    text, meta_path = corpus_paths(folder, game, mb, seed)
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError):
        return None
    same = (meta.get("game") == game and meta.get("mb") == mb and meta.get("seed") == seed
            and meta.get("version") == generator.version)
    if not same or not text.is_file() or text.stat().st_size != meta.get("bytes"):
        return None
    meta["path"] = str(text)
    return meta


def chunks_of(pipe):
    """The chunks of a pipe as they come, until it is closed."""
    fd = pipe.fileno()
    while True:
        chunk = os.read(fd, MIB)
        if not chunk:
            return
        yield chunk


def text_of(errfile):
    """The text of a child's standard error, kept in a temporary file (then closed)."""
    errfile.seek(0)
    text = errfile.read().decode(errors="replace").strip()
    errfile.close()
    return text


def random_batch(generator, game, seed, count, out, progress, base_bytes, target_bytes):
    """Appends `referee random --count count --seed seed` to the open file `out`; returns bytes."""
    args = [str(generator.path), "random", "--game", game, "--count", str(count),
            "--seed", str(seed)]
    errfile = tempfile.TemporaryFile()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errfile, stdin=subprocess.DEVNULL)
    written = 0
    try:
        for chunk in chunks_of(proc.stdout):
            out.write(chunk)
            written += len(chunk)
            done = base_bytes + written
            progress.update(f"{done / MIB:.1f} of {target_bytes / MIB:.1f} MiB "
                            f"({100 * done / target_bytes:.0f}%)")
        proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        proc.stdout.close()
    if proc.returncode != 0:
        sys.exit(f"throughput: `{' '.join(args)}` failed (exit {proc.returncode}):\n"
                 f"{text_of(errfile)}")
    errfile.close()
    return written


def generate_corpus(folder, game, mb, seed, generator):
    """Writes about `mb` MiB of random games of `game`: a first batch of FIRST_BATCH records gives
    the size of a record, then batches of the records still needed, each with the seeds after the
    previous ones, so that the corpus is what one `random --count TOTAL --seed SEED` writes."""
    if not generator.has_count:
        sys.exit(f"throughput: {generator.path} has no `random --count`; generate the corpora with "
                 "a newer build (--generator PATH)")
    folder.mkdir(parents=True, exist_ok=True)
    text, meta_path = corpus_paths(folder, game, mb, seed)
    tmp = text.with_suffix(".txt.tmp")
    target = mb * MIB
    progress = Progress(f"corpus {game}")
    start = time.monotonic()
    records = 0
    size = 0
    with open(tmp, "wb") as out:
        count = FIRST_BATCH
        while True:
            if records:
                out.write(b"\n")  # the blank line that `--count` puts between two games
                size += 1
            size += random_batch(generator, game, seed + records, count, out, progress, size,
                                 target)
            records += count
            if size >= target * 0.995:
                break
            per_record = size / records
            count = max(1, math.ceil((target - size) / per_record))
    os.replace(tmp, text)
    meta = {"game": game, "mb": mb, "seed": seed, "records": records, "bytes": size,
            "version": generator.version, "generator_sha256": generator.sha256}
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    progress.done(f"{size / MIB:.1f} MiB, {records} records in {time.monotonic() - start:.1f} s "
                  f"-> {text}")
    meta["path"] = str(text)
    return meta


# ---------------------------------------------------------------------------------------------
# Runs


def warm(path):
    """Reads the corpus once so that every run finds it in the page cache."""
    with open(path, "rb") as f:
        while f.read(16 * MIB):
            pass


# The measuring helper, run by a fresh `python3 -I -S`: it forks and execs referee, waits for it
# with os.wait4 and writes its exit code, wall time, user and system CPU, ru_maxrss (KiB) and its
# own anonymous resident size at the fork (KiB) to the file descriptor argv[1].
#
# Why a helper: on Linux, exec keeps in ru_maxrss the peak of the memory it replaces. Spawned
# straight from this script (vfork), referee's ru_maxrss would start at this script's own peak,
# which grows with every corpus it reads; forked (a copy, not a vfork) from a small fresh
# interpreter, it starts at the pages the fork copies, about that interpreter's anonymous resident
# size (under 3 MiB: the "floor" below which no reading can go).
MEASURE = r"""
import os, sys, time
fd = int(sys.argv[1])
os.set_inheritable(fd, False)
argv = sys.argv[2:]
floor = 0
with open("/proc/self/status") as f:
    for line in f:
        if line.startswith("RssAnon:"):
            floor = int(line.split()[1])
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
os.write(fd, ("%d %r %r %r %d %d" % (os.waitstatus_to_exitcode(status), wall, ru.ru_utime,
                                     ru.ru_stime, ru.ru_maxrss, floor)).encode())
"""


def measure(args, ok_codes=(0, 1)):
    """Runs `args` through the MEASURE helper, its standard output read from a pipe while it runs
    (kept in memory, so that this script takes no CPU from it on a busy machine). Returns its wall
    time, CPU time, peak RSS, the measuring floor, exit code, standard output (bytes) and standard
    error (text); exits with a message when it fails with a code outside `ok_codes`."""
    args = [str(a) for a in args]
    errfile = tempfile.TemporaryFile()
    rfd, wfd = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", MEASURE, str(wfd), *args],
            stdout=subprocess.PIPE, stderr=errfile, stdin=subprocess.DEVNULL, pass_fds=(wfd,),
            start_new_session=True)
    finally:
        os.close(wfd)
    try:
        chunks = list(chunks_of(proc.stdout))
        with os.fdopen(rfd, "rb") as measured:
            rfd = None
            figures = measured.read().decode().split()
        proc.wait()
    except BaseException:
        os.killpg(proc.pid, 9)  # the helper's session: the helper and the measured program
        proc.wait()
        raise
    finally:
        if rfd is not None:
            os.close(rfd)
        proc.stdout.close()
    err = text_of(errfile)
    if proc.returncode != 0 or len(figures) != 6:
        sys.exit(f"throughput: the measuring helper failed (exit {proc.returncode}):\n{err}")
    code, wall, utime, stime, maxrss, floor = figures
    code = int(code)
    if code not in ok_codes:
        sys.exit(f"throughput: `{' '.join(args)}` failed (exit {code}):\n{err}")
    return {
        "wall": float(wall),
        "cpu": float(utime) + float(stime),
        "maxrss_kib": int(maxrss),
        "floor_kib": int(floor),
        "exit": code,
        "stdout": b"".join(chunks),
        "stderr": err,
    }


# What each run of referee writes, as the table names it: `like` is like the anchor (nothing for a
# valid record: `-q --format short`), `json` the full report (a JSON line per record).
MODES = {"like": ["-q", "--format", "short"], "json": ["--format", "json"]}


def run_verify(binary, corpus, jobs, mode):
    """One `referee verify` over the corpus in `mode` (MODES), measured by the MEASURE helper; the
    JSON lines, when it writes them, are parsed once it has exited."""
    args = [binary.path, "verify", *MODES[mode]]
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    args.append(corpus["path"])
    run = measure(args)

    records = 0
    moves = 0
    statuses = Counter()
    out = run.pop("stdout")
    if mode == "json":
        for line in out.splitlines():
            if not line.strip():
                continue
            obj = json.loads(line)
            statuses[obj.get("status")] += 1
            if obj.get("index", 0) >= 1:
                records += 1
                moves += obj.get("moves") or 0
    else:
        # `-q --format short` prints a line per problem of a record that is not valid, and nothing
        # for a valid one: the records are the corpus's, and every line is one not valid.
        bad = len([line for line in out.splitlines() if line.strip()])
        records = corpus["records"]
        statuses = Counter({"valid": records - bad, **({"not valid": bad} if bad else {})})
    err = run.pop("stderr")
    run.update({"records": records, "moves": moves, "statuses": dict(statuses),
                "summary": err.splitlines()[-1] if err else ""})
    return run


def run_label(jobs, has_jobs):
    if not has_jobs:
        return "one thread, no --jobs"
    return "--jobs 1" if jobs == 1 else "all cores"


def summary(binary, corpus, jobs, mode, runs, cores):
    """The row of one game, thread count and mode, from its runs: the best CPU time on one thread
    (what the machine's other work moves least), the best wall time on all cores."""
    one = jobs == 1 or not binary.has_jobs
    best = min(runs, key=lambda r: r["cpu"] if one else r["wall"])
    first = runs[0]
    for r in runs[1:]:
        if (r["records"], r["moves"], r["statuses"]) != (first["records"], first["moves"],
                                                          first["statuses"]):
            log(f"{corpus['game']} ({mode}): warning: the runs disagree on the records they report")
    mib = corpus["bytes"] / MIB
    valid = best["statuses"].get("valid", 0)
    return {
        "game": corpus["game"],
        "mode": mode,
        "corpus_bytes": corpus["bytes"],
        "corpus_mib": round(mib, 3),
        "corpus_records": corpus["records"],
        "records": best["records"],
        "moves": best["moves"],
        "valid": valid,
        "not_valid": sum(best["statuses"].values()) - valid,
        "statuses": best["statuses"],
        "jobs": jobs,
        "threads": 1 if one else cores,
        "wall_s": round(best["wall"], 4),
        "cpu_s": round(best["cpu"], 4),
        # One thread: MiB per CPU second of the whole process; all cores: MiB per wall second.
        "mib_per_s": round(mib / (best["cpu"] if one else best["wall"]), 3),
        "cpu_per_wall": round(best["cpu"] / best["wall"], 3),
        "peak_rss_kib": max(r["maxrss_kib"] for r in runs),
        "rss_floor_kib": max(r["floor_kib"] for r in runs),
        "repeat": len(runs),
        "exit": best["exit"],
        "summary": best["summary"],
    }





def startup(binary, folder, jobs, repeat):
    """The best wall time of `referee verify --format json` on an empty file (which exits 1: no
    record): process start, argument parsing, thread pool, summary; what whole-process figures
    hold beyond reading, verifying and writing (benches/illegal_cost.py takes it off)."""
    folder.mkdir(parents=True, exist_ok=True)
    empty = folder / "empty.txt"
    empty.write_bytes(b"")
    args = [binary.path, "verify", "--format", "json"]
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    return min(measure([*args, empty])["wall"] for _ in range(repeat))


# ---------------------------------------------------------------------------------------------
# The chess anchor (benches/chess-anchor/): pgn-reader + shakmaty, the reference of issue 20


ANCHOR_MANIFEST = REPO / "benches/chess-anchor/Cargo.toml"
ANCHOR_TARGET = REPO / "target/chess-anchor"
ANCHOR = "chess-anchor"


def key_values(text):
    """The `key=value` figures a chess-anchor command prints, as numbers."""
    return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", text)}


class Anchor:
    """The chess anchor's release build (its own workspace, built into target/chess-anchor/)."""

    def __init__(self):
        self.path = cargo_build(["--locked", "--manifest-path", ANCHOR_MANIFEST, "--target-dir",
                                 ANCHOR_TARGET],
                                ANCHOR, "the chess anchor")

    def corpus(self, folder, mb, seed, fresh):
        """A cached corpus of random chess games of at least `mb` MiB: `chess-anchor gen` counts in
        megabytes of 1,000,000 bytes, hence the whole megabytes rounded up."""
        megabytes = math.ceil(mb * MIB / 1e6)
        folder.mkdir(parents=True, exist_ok=True)
        text = folder / f"{ANCHOR}-{megabytes}MB-seed{seed}.pgn"
        meta_path = text.with_suffix(".meta.json")
        try:
            meta = {} if fresh else json.loads(meta_path.read_text())
            if meta.get("megabytes") == megabytes and text.stat().st_size == meta.get("bytes"):
                log(f"corpus chess: reusing {text} ({meta['bytes'] / MIB:.1f} MiB, "
                    f"{meta['records']} games)")
                meta["path"] = str(text)
                return meta
        except (OSError, ValueError):
            pass
        out = subprocess.run([str(self.path), "gen", str(text), str(megabytes), str(seed)],
                             capture_output=True, text=True)
        wrote = re.match(r"wrote (\d+) games, (\d+) bytes", out.stdout)
        if out.returncode != 0 or not wrote:
            sys.exit(f"throughput: chess-anchor gen failed (exit {out.returncode}):\n{out.stderr}")
        meta = {"game": "chess", "megabytes": megabytes, "seed": seed,
                "records": int(wrote[1]), "bytes": int(wrote[2])}
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")
        log(f"corpus chess: {meta['bytes'] / MIB:.1f} MiB, {meta['records']} games -> {text}")
        meta["path"] = str(text)
        return meta

    def validate(self, corpus):
        """One `chess-anchor validate`: its own timing of the bytes in memory, and the whole
        process's wall, CPU and peak memory."""
        run = measure([self.path, "validate", corpus["path"]], ok_codes=(0,))
        run.update(key_values(run.pop("stdout").decode()))
        return run

    def summary(self, corpus, runs):
        """The anchor's row: its whole process's best CPU time (like referee's on one thread), and
        its own best timing of the bytes in memory beside it."""
        best = min(runs, key=lambda r: r["cpu"])
        inside = min(r["secs"] for r in runs)
        if best["illegal"] or best["games"] != corpus["records"]:
            log(f"warning: the anchor found {best['illegal']:.0f} illegal games and read "
                f"{best['games']:.0f} of {corpus['records']}")
        mib = corpus["bytes"] / MIB
        return {
            "game": ANCHOR,
            "mode": "like",
            "corpus_bytes": corpus["bytes"],
            "corpus_mib": round(mib, 3),
            "corpus_records": corpus["records"],
            "records": int(best["games"]),
            "moves": int(best["plies"]),
            "illegal": int(best["illegal"]),
            "jobs": 1,
            "threads": 1,
            "wall_s": round(best["wall"], 4),
            "cpu_s": round(best["cpu"], 4),
            "mib_per_s": round(mib / best["cpu"], 3),
            "in_memory_s": inside,
            "in_memory_mib_per_s": round(mib / inside, 3),
            "cpu_per_wall": round(best["cpu"] / best["wall"], 3),
            "peak_rss_kib": max(r["maxrss_kib"] for r in runs),
            "rss_floor_kib": max(r["floor_kib"] for r in runs),
            "repeat": len(runs),
        }

    def perft(self, depth, repeat):
        """`chess-anchor perft DEPTH` --repeat times: the run with the best time of its own (the
        count alone, from the chess start), with its whole process's wall and peak memory."""
        runs = []
        for _ in range(repeat):
            run = measure([self.path, "perft", depth], ok_codes=(0,))
            run.update(key_values(run.pop("stdout").decode()))
            runs.append(run)
        best = min(runs, key=lambda r: r["secs"])
        best["peak_rss_kib"] = max(r["maxrss_kib"] for r in runs)
        return best


# ---------------------------------------------------------------------------------------------
# Output


def render_table(head, body):
    """Columns padded to their widest cell: the first to the left, the others to the right."""
    widths = [max(len(row[i]) for row in [head] + body) for i in range(len(head))]

    def fmt(row):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths)))

    lines = [fmt(head), "  ".join("-" * w for w in widths)]
    lines += [fmt(row) for row in body]
    return "\n".join(lines)


def wrapped(label, text):
    """A note under a table: lines of at most 100 columns, indented under its label."""
    return textwrap.fill(text, 100, initial_indent=label, subsequent_indent=" " * len(label))


def table(rows, cores, anchor):
    """A line per game: like for like and the full report on one thread, each in MiB per CPU
    second and against the anchor; the full report on all cores, its MiB per wall second and
    CPU/wall; the peak memory of all its runs."""
    head = ["game", "MiB", "records", "like MiB/s", "\u00f7 chess", "JSON MiB/s", "\u00f7 chess",
            f"JSON MiB/s, {cores} cores", "CPU/wall", "peak RSS MiB"]
    body = []
    for game in dict.fromkeys(r["game"] for r in rows):
        of = {(r["mode"], r["threads"] == 1): r for r in rows if r["game"] == game}
        like, json1, many = of.get(("like", True)), of.get(("json", True)), of.get(("json", False))
        first = like or json1 or many
        ratio = lambda r: f"{r['per_chess']:.2f}" if r and r.get("per_chess") is not None else ""
        body.append([
            game, f"{first['corpus_mib']:.1f}", str(first["corpus_records"]),
            f"{like['mib_per_s']:.1f}" if like else "", ratio(like),
            f"{json1['mib_per_s']:.1f}" if json1 else "", ratio(json1),
            f"{many['mib_per_s']:.1f}" if many else "", f"{many['cpu_per_wall']:.2f}" if many else "",
            f"{max(r['peak_rss_kib'] for r in of.values()) / 1024:.0f}",
        ])
    if anchor:
        body.append([ANCHOR, f"{anchor['corpus_mib']:.1f}", str(anchor["records"]),
                     f"{anchor['mib_per_s']:.1f}", "1", "", "", "", "",
                     f"{anchor['peak_rss_kib'] / 1024:.0f}"])
    return render_table(head, body)


def notes(rows, binary, anchor):
    out = []
    if not binary.has_jobs:
        out.append("this binary's verify has no --jobs: one run per game, on its one thread")
    out.append("one thread (--jobs 1): MiB per CPU second (user + system) of the whole process, "
               "start, reading and writing included, the best of the runs; `like`: `verify -q "
               "--format short`, which writes nothing for a valid record, as the anchor writes "
               "nothing; `JSON`: `verify --format json` into a pipe, a line per record. All cores: "
               "the JSON run without --jobs, MiB per wall second, the best of the runs")
    if anchor:
        out.append(f"{ANCHOR} (pgn-reader + shakmaty, benches/chess-anchor/): `validate` over random "
                   f"chess of the same size, as a whole process, MiB per CPU second "
                   f"({anchor['mib_per_s']:.1f}); its own timing of the bytes in memory gives "
                   f"{anchor['in_memory_mib_per_s']:.1f}. \u00f7 chess: referee's MiB/s on one "
                   "thread divided by the anchor's whole-process MiB/s. The runs interleave: each "
                   "round runs the anchor, then every game, so that the machine's load falls alike")
    slowest = min((r for r in rows if r["threads"] == 1), key=lambda r: r["cpu_per_wall"],
                  default=None)
    if slowest and slowest["cpu_per_wall"] < 0.9:
        out.append(f"one-thread runs had a CPU/wall as low as {slowest['cpu_per_wall']:.2f} "
                   f"({slowest['game']}): other work on the machine took the core from them")
    out.append(load_note())
    for r in rows:
        where = f"{r['game']} ({r['mode']}, {run_label(r['jobs'], binary.has_jobs)})"
        if r["not_valid"]:
            out.append(f"{where}: {r['not_valid']} of {r['records']} records not valid: "
                       + ", ".join(f"{n} {s}" for s, n in sorted(r["statuses"].items())))
        if r["peak_rss_kib"] <= r["rss_floor_kib"] * 1.1:
            out.append(f"{where}: peak RSS {r['peak_rss_kib']} KiB is at the measuring floor "
                       f"({r['rss_floor_kib']} KiB, the helper that forks referee): it may be less")
        if r["records"] != r["corpus_records"]:
            out.append(f"{where}: verify reported {r['records']} records, the corpus holds "
                       f"{r['corpus_records']}")
    return out


def load_note():
    """The machine's load when the runs ended: on a shared machine, other work slows every wall
    time (and a one-thread run's CPU/wall under 1 shows it took the core from it)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    one, five, _ = os.getloadavg()
    return (f"load average at the end: {one:.2f} (1 min), {five:.2f} (5 min) on {cores} cores"
            + ("; the machine was busy: slower wall times than the build's own" if one > 1.2
               else ""))


def goals(rows, cores):
    """Issue 38's goals: like for like on one thread at least 1.3 times the anchor (2 times for
    Quadraphages and Hexaphages), the full report at least as fast as it; CPU/wall of the
    all-cores runs at least 1.9 on 2 cores; peak memory under 64 MB."""
    out = []
    for r in rows:
        if r["threads"] != 1 or r.get("per_chess") is None:
            continue
        wanted = 1.0 if r["mode"] == "json" else (2.0 if r["game"] in ("quadraphages", "hexaphages")
                                                  else 1.3)
        met = "met" if r["per_chess"] >= wanted else "not met"
        out.append(f"{r['game']} {r['mode']}: {r['per_chess']:.2f} of the anchor, wanted "
                   f"{wanted:g}: {met}")
    many = [r for r in rows if r["threads"] > 1]
    if many:
        low = min(many, key=lambda r: r["cpu_per_wall"])
        met = "met" if low["cpu_per_wall"] >= 1.9 else "not met"
        out.append(f"CPU/wall on all cores ({cores}): lowest {low['cpu_per_wall']:.2f} "
                   f"({low['game']}, {low['corpus_mib']:.1f} MiB); wanted at least 1.9 on 2 cores: {met}")
    top = max(rows, key=lambda r: r["peak_rss_kib"])
    mb = top["peak_rss_kib"] * 1024 / 1e6
    out.append(f"highest peak RSS: {mb:.1f} MB = {top['peak_rss_kib'] / 1024:.1f} MiB "
               f"({top['game']}, {top['mode']}, {run_label(top['jobs'], True)}); "
               f"wanted: under 64 MB: {'met' if mb < 64 else 'not met'}")
    return out


def binary_option(ap):
    """The --binary option every script in benches/ takes."""
    ap.add_argument("--binary", metavar="PATH",
                    help="the referee binary to measure (default: `cargo build --release` here)")


def games_option(ap):
    """The --games option; `chosen_games` reads it."""
    ap.add_argument("--games", default=",".join(GAMES),
                    help=f"comma-separated games (default: all: {','.join(GAMES)})")


def corpus_options(ap, mb):
    """--games and the options of the corpora: --mb (default `mb`), --seed and --corpus."""
    games_option(ap)
    ap.add_argument("--mb", type=float, default=mb, help=f"corpus size per game, MiB (default {mb:g})")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    ap.add_argument("--corpus", metavar="DIR", type=Path, default=REPO / "target/throughput-corpus",
                    help="where the corpora are cached (default: target/throughput-corpus/)")


def chosen_games(ap, args):
    """The games --games names, or a usage error."""
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        ap.error(f"unknown game(s) {', '.join(unknown) or '(none)'}; known: {', '.join(GAMES)}")
    return games


def main():
    ap = argparse.ArgumentParser(
        description="Throughput (MiB/s, records/s, moves/s) and peak memory of "
                    "`referee verify --format json` per game, on one thread and on all cores.")
    binary_option(ap)
    ap.add_argument("--generator", metavar="PATH",
                    help="the binary that writes missing corpora (default: --binary); "
                         "for an old build without `random --count`")
    corpus_options(ap, mb=10.0)
    ap.add_argument("--fresh", action="store_true", help="regenerate the corpora")
    ap.add_argument("--repeat", type=int, default=3,
                    help="rounds (the anchor, then every game in every mode); the best of them is "
                         "kept: CPU time on one thread, wall time on all cores (default 3)")
    ap.add_argument("--no-anchor", dest="anchor", action="store_false",
                    help="do not build and run the chess anchor (benches/chess-anchor/) beside "
                         "referee")
    ap.add_argument("--json", action="store_true",
                    help="print JSON lines, one per game and thread count, to standard output "
                         "(the table goes to standard error)")
    args = ap.parse_args()

    games = chosen_games(ap, args)
    if args.mb <= 0 or args.repeat < 1:
        ap.error("--mb must be positive and --repeat at least 1")

    commit = None
    if args.binary:
        binary = Binary(args.binary)
    else:
        binary = Binary(build_release())
        commit = git_commit()
    generator = Binary(args.generator) if args.generator else binary
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    log(f"binary: {binary.path} ({binary.version}{', commit ' + commit if commit else ''}); "
        f"verify --jobs: {'yes' if binary.has_jobs else 'no'}; {cores} cores")

    corpora = []
    for game in games:
        meta = None if args.fresh else load_corpus(args.corpus, game, args.mb, args.seed, generator)
        if meta:
            log(f"corpus {game}: reusing {meta['path']} ({meta['bytes'] / MIB:.1f} MiB, "
                f"{meta['records']} records)")
        else:
            meta = generate_corpus(args.corpus, game, args.mb, args.seed, generator)
        corpora.append(meta)

    anchor = Anchor() if args.anchor else None
    chess = anchor.corpus(args.corpus, args.mb, args.seed, args.fresh) if anchor else None
    # (game, jobs, mode) -> runs. Each round runs the anchor, then each game in each mode: a
    # machine's load, which moves through a sitting, falls on both sides alike.
    plans = [(1, "like"), (1, "json"), (None, "json")] if binary.has_jobs else [(None, "like"),
                                                                             (None, "json")]
    runs = {}
    anchor_runs = []
    for round_ in range(args.repeat):
        if anchor:
            warm(chess["path"])
            log(f"round {round_ + 1}/{args.repeat}: chess (anchor) ...", end="")
            run = anchor.validate(chess)
            log(f" {run['cpu']:.2f} s CPU")
            anchor_runs.append(run)
        for corpus in corpora:
            warm(corpus["path"])
            for jobs, mode in plans:
                log(f"round {round_ + 1}/{args.repeat}: {corpus['game']} {mode} "
                    f"({run_label(jobs, binary.has_jobs)}) ...", end="")
                run = run_verify(binary, corpus, jobs, mode)
                log(f" {run['cpu']:.2f} s CPU, {run['wall']:.2f} s wall, "
                    f"peak {run['maxrss_kib'] / 1024:.0f} MiB")
                runs.setdefault((corpus["game"], jobs, mode), []).append(run)
    anchor_row = None
    if anchor:
        anchor_row = anchor.summary(chess, anchor_runs)
        anchor_row.update({"binary": str(anchor.path), "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
    rows = []
    for corpus in corpora:
        for jobs, mode in plans:
            row = summary(binary, corpus, jobs, mode, runs[(corpus["game"], jobs, mode)], cores)
            row.update({"binary": str(binary.path), "version": binary.version,
                        "binary_sha256": binary.sha256, "commit": commit,
                        "jobs_flag": binary.has_jobs, "cores": cores,
                        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
            if anchor_row and row["threads"] == 1:
                row["per_chess"] = round(row["mib_per_s"] / anchor_row["mib_per_s"], 4)
            rows.append(row)
            if row["not_valid"]:
                log(f"warning: {row['game']}: {row['not_valid']} records not valid "
                    f"({row['statuses']})")
    if anchor_row:
        anchor_row["per_chess"] = 1.0

    text = table(rows, cores, anchor_row)
    extra = "\n".join([wrapped("note: ", n) for n in notes(rows, binary, anchor_row)]
                      + [wrapped("goal: ", g) for g in goals(rows, cores)])
    if args.json:
        for row in rows + ([anchor_row] if anchor_row else []):
            print(json.dumps(row), flush=True)
        log(text)
        log(extra)
    else:
        print(text)
        print(extra)


if __name__ == "__main__":
    main()
