"""What the tests share: the command line they compare with, and the repository's files.

The command line is $REFEREE, else the repository's target/debug/referee (build_and_test.sh
builds it when it is missing).
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
CONFORMANCE = REPO / "conformance"


def referee_binary():
    return os.environ.get("REFEREE") or str(REPO / "target" / "debug" / "referee")


@pytest.fixture(scope="session")
def cli():
    """Runs the command line: cli(*args) -> CompletedProcess with text output."""
    binary = referee_binary()
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no referee command line at {binary}: build it (cargo build) or set REFEREE")

    def run(*args, check=False):
        return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, check=check)

    return run


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sample_files():
    """Every file of samples/ the command line reads in a folder (.txt and .pgn), by path."""
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix.lower() in (".txt", ".pgn"))


def suite_entries():
    """Each entry of conformance/*.suite: a dict of its lines (id, code, start, moves, perft, result)."""
    entries = []
    for path in sorted(CONFORMANCE.glob("*.suite")):
        entry = None
        for line in path.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                if entry:
                    entries.append(entry)
                entry = None
                continue
            key, _, value = line.partition(" ")
            if entry is None:
                entry = {"suite": path.stem, "perft": {}}
            if key == "perft":
                depth, count = value.split()
                entry["perft"][int(depth)] = int(count)
            elif key == "moves":
                entry["moves"] = value.split()
            else:
                entry[key] = value
        if entry:
            entries.append(entry)
    return entries
