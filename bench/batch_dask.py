"""glyphline.batch on a local Dask cluster: throughput with 1 and 2 workers, measured in the same run.

    python bench/batch_dask.py [--files N] [--corpus DIR] [--memory-limit 400MiB]

Takes the first N PDFs of the corpus folder (sorted by path, default: the wild corpus), runs
map_on_dask over them on a LocalCluster of one worker process and then of two (one thread
each), and prints files per second and the ratio. With --memory-limit, workers over it are
restarted by their nanny: the files that did it come back as "worker-died" records while the
run goes on. Needs `pip install '.[dask]'`. Figures are only comparable within one run (the
machine's other load counts).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "wild"


def run(paths: list[str], workers: int, memory_limit: str | None) -> tuple[float, Counter]:
    from distributed import Client, LocalCluster

    from glyphline.batch import map_on_dask

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      memory_limit=memory_limit or "auto") as cluster, Client(cluster) as client:
        client.run(lambda: __import__("glyphline.batch"))   # start-up is not throughput: import first
        started = time.perf_counter()
        statuses = Counter(record["status"] for record in map_on_dask(client, paths, max_seconds=60))
        return time.perf_counter() - started, statuses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--memory-limit", help="per worker, e.g. 400MiB (default: Dask's own)")
    args = parser.parse_args(argv)
    paths = [str(p) for p in sorted(args.corpus.rglob("*.pdf"))[:args.files]]
    times = {}
    for workers in (1, 2):
        seconds, statuses = run(paths, workers, args.memory_limit)
        times[workers] = seconds
        print(f"{workers} worker(s): {len(paths)} files in {seconds:.1f} s, {len(paths) / seconds:.2f} files/s; "
              + ", ".join(f"{n} {status}" for status, n in sorted(statuses.items())), flush=True)
    print(f"throughput 2 workers / 1 worker: {times[1] / times[2]:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
