"""examples/dask_verify.py on 100 shards, on a LocalCluster of two workers of one thread: its one
Parquet file holds the lines `referee verify --format json` prints for the same shards, in order."""

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import referee

from conftest import json_lines, sample_files
from test_tables import as_verdict, dumps

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dask_verify.py"
GAMES = ["quadraphages", "hexaphages", "quarod", "petrify", "vadrantir", "splinter"]
SHARDS = 100


@pytest.fixture(scope="module")
def shards(cli, tmp_path_factory):
    """100 shard folders: random games of every game (`referee random`, 3 a shard) and a file of
    samples/ each (illegal moves, refuted claims, syntax errors); one shard also holds a file that
    is not UTF-8, and one is empty (no record)."""
    root = tmp_path_factory.mktemp("shards")
    pool = tmp_path_factory.mktemp("pool")
    for k, game in enumerate(GAMES):
        cli("random", "--game", game, "--count", 50, "--seed", 1000 * (k + 1), "--out", pool, check=True)
    games = sorted(pool.iterdir())
    samples = sample_files()
    for k in range(SHARDS):
        shard = root / f"shard-{k:03}"
        shard.mkdir()
        if k == SHARDS - 1:
            continue
        for game in games[k::SHARDS]:
            shutil.move(str(game), shard / game.name)
        sample = samples[k % len(samples)]
        shutil.copy(sample, shard / f"sample-{sample.parent.name}-{sample.name}")
    (root / "shard-007" / "latin1.txt").write_bytes(b"1. c1d1 d3c3 {caf\xe9}\n")
    return root


def test_dask_example(cli, shards, tmp_path):
    out = tmp_path / "verdicts.parquet"
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), str(shards), str(out), "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    elapsed = time.perf_counter() - started
    assert run.returncode == 0, run.stderr
    paths = sorted(str(p) for p in shards.iterdir())
    assert len(paths) == SHARDS
    printed = cli("verify", "--format", "json", *paths).stdout.splitlines()
    table = pq.read_table(out)
    assert table.schema == referee.tables.schema()
    assert table.num_rows == len(printed) > 300
    for row, line in zip(table.to_pylist(), printed):
        assert dumps(as_verdict(row)) == line
    statuses = set(table.column("status").to_pylist())
    assert {"valid", "illegal", "unreadable", "no_record"} <= statuses
    # A row group per shard, in the shards' order.
    assert pq.ParquetFile(out).num_row_groups == SHARDS
    assert f"{len(printed)} verdicts from {SHARDS} shards" in run.stderr
    print(f"dask_verify.py: {SHARDS} shards, {len(printed)} verdicts, {elapsed:.1f} s")
