"""Verifies a folder of shards of records on a Dask cluster, into one Parquet file.

    python dask_verify.py SHARDS OUT.parquet [--workers N] [--scheduler ADDRESS]

Each entry of the folder SHARDS (a file of records, or a folder of such files) is a shard. One
task per shard verifies it on a worker with ``referee.verify_table`` (one thread: the workers are
the parallelism) and returns its Arrow table. The client writes the tables into one Parquet file
in the shards' order, a row group per shard, each as soon as it and those before it are done, so
that it never holds the whole table. The file's rows are those of ``referee verify --format json
SHARDS/*`` (python/README.md gives the columns).

Without --scheduler the cluster is a LocalCluster of --workers processes (2 by default) of one
thread each, on this machine; with it, the cluster at ADDRESS, whose workers must have referee
installed and see the shards at the same paths.

Needs referee, pyarrow and Dask: pip install 'referee[arrow]' 'dask[distributed]'.
"""

import argparse
import os
import sys
import time

import pyarrow.parquet as pq
from dask.distributed import Client, LocalCluster

import referee


def verify_shard(path):
    """One task: the verdicts on the records of one shard, as an Arrow table."""
    return referee.verify_table([path], jobs=1)


def shards_in(folder):
    """The shards: the folder's entries, by name, but hidden ones (as verify passes them over)."""
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if not name.startswith(".")]


def verify_shards(client, shards, out):
    """Verifies every shard on the cluster and writes their verdicts to the Parquet file ``out``,
    in the shards' order; returns the number of rows written."""
    futures = client.map(verify_shard, shards)
    rows = 0
    with pq.ParquetWriter(out, referee.tables.schema()) as writer:
        for future in futures:
            table = future.result()
            writer.write_table(table)
            rows += table.num_rows
            # The worker lets go of the shard's table once it is written.
            future.release()
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shards", help="a folder whose entries (files or folders of records) are the shards")
    parser.add_argument("out", help="the Parquet file to write")
    parser.add_argument("--workers", type=int, default=2, help="processes of a local cluster (default 2)")
    parser.add_argument("--scheduler", help="the address of a running cluster's scheduler, instead of a local one")
    args = parser.parse_args(argv)

    shards = shards_in(args.shards)
    started = time.perf_counter()
    if args.scheduler:
        with Client(args.scheduler) as client:
            rows = verify_shards(client, shards, args.out)
    else:
        # Loopback only, and no dashboard (it would need bokeh).
        cluster = LocalCluster(
            n_workers=args.workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
        )
        with cluster, Client(cluster) as client:
            rows = verify_shards(client, shards, args.out)
    elapsed = time.perf_counter() - started
    print(f"{rows} verdicts from {len(shards)} shards written to {args.out} in {elapsed:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
