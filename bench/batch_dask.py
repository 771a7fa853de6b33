"""glyphline.batch on a local Dask cluster: throughput with 1 and 2 workers, measured in the same run.

    python bench/batch_dask.py [--files N] [--corpus DIR] [--rounds R] [--configs 1,2,1-inprocess]

Takes N PDFs spread evenly over the corpus folder (sorted by path; default: the whole wild
corpus), and runs map_on_dask over them on a LocalCluster of one worker process and then of two
(one thread each), alternating for R rounds so that the machine's changing load falls on both.
A config "W-inprocess" runs W workers without a child process (no hard budgets), to show what
the isolation costs; "W-fork" forks one child per file (as before the served children), to show
what serving many files from one child saves; "W-pertask" submits a task per file on a cluster with
Dask's default settings (as before the chunks and OWN_CLUSTER_CONFIG), to show what they save. For each run it prints the wall time, files per second, the
CPU-seconds the conversions took (the children's or workers' own user + system time), the
parallel efficiency (conversion CPU / (wall × workers): 1.0 when every worker computed all the
time), and the machine's load during the run from /proc/stat: the core-seconds all processes
used out of (cores × wall), so the share other users took is stated, not guessed, and where our
CPU went: the client process's threads (its event loop runs the scheduler and the nannies too),
the workers' threads and their served children. With
--memory-limit, workers over it are restarted by their nanny ("worker-died" records).
Needs `pip install '.[dask]'`. Figures are only comparable within one run.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "wild"
FILE_SECONDS = 120.0   # per-file budget of the isolated runs: a hang must not stall the benchmark


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) core-seconds since boot, all processes, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]   # idle + iowait
    return (sum(fields[:8]) - idle) / ticks, sum(fields[:8]) / ticks


def process_cpu_seconds() -> float:
    """This process's own user + system time (a worker's: reading files, forking, unpickling records)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_by_part() -> dict[str, float]:
    """This process's CPU seconds (user + system) by part: each live thread by its name (digits
    dropped, so a worker's task threads add up under one name), the threads that already ended,
    and its child processes (the served children: those reaped, and those alive now)."""
    import re
    import threading

    import psutil

    me = psutil.Process()
    names = {thread.native_id: re.sub(r"[-_]?\d+", "", thread.name).strip("-_ ") or "thread"
             for thread in threading.enumerate()}
    parts: dict[str, float] = {}
    for thread in me.threads():
        name = "thread " + names.get(thread.id, "(not Python's)")
        parts[name] = parts.get(name, 0.0) + thread.user_time + thread.system_time
    times = me.cpu_times()
    parts["threads ended"] = max(0.0, times.user + times.system - sum(parts.values()))
    live_children = 0.0
    for child in me.children():
        try:
            child_times = child.cpu_times()
            live_children += child_times.user + child_times.system
        except psutil.Error:   # ended meanwhile: its time is in the reaped children's
            pass
    parts["children"] = times.children_user + times.children_system + live_children
    return parts


def part_deltas(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {name: after[name] - before.get(name, 0.0) for name in after}


def run(paths: list[str], workers: int, isolated: bool, memory_limit: str | None, reuse_child: bool = True,
        per_task: bool = False) -> dict:
    from glyphline.batch import LOCAL, dask_client, map_on_dask

    with dask_client(LOCAL, workers=workers, memory_limit=memory_limit or "auto", tuned=not per_task) as client:
        client.run(lambda: __import__("glyphline.batch"))   # start-up is not throughput: import first
        workers_before = client.run(process_cpu_seconds)
        parts_before = {"client": cpu_by_part(), **client.run(cpu_by_part)}
        load_before = os.getloadavg()[0]
        busy_before, total_before = machine_busy_seconds()
        started = time.perf_counter()
        records = list(map_on_dask(client, paths, max_seconds=FILE_SECONDS if isolated else None,
                                   reuse_child=reuse_child, files_per_task=1 if per_task else None))
        wall = time.perf_counter() - started
        busy_after, total_after = machine_busy_seconds()
        workers_after = client.run(process_cpu_seconds)
        parts_after = {"client": cpu_by_part(), **client.run(cpu_by_part)}
    parts_after["client"].pop("children")   # the worker processes: measured on their own
    parts = {process: part_deltas(parts_before.get(process, {}), after) for process, after in parts_after.items()}
    cpu = sum(r["cpu_seconds"] for r in records)
    worker_cpu = sum(workers_after[w] - workers_before.get(w, 0.0) for w in workers_after)
    return {"workers": workers, "isolated": isolated, "reuse_child": reuse_child, "wall": wall, "cpu": cpu,
            "total_cpu": worker_cpu + (cpu if isolated else 0.0),   # in-process, the records' CPU is the workers'
            "statuses": Counter(r["status"] for r in records),
            "machine_busy": (busy_after - busy_before) / (total_after - total_before),   # 0..1 of all cores
            "load": (load_before + os.getloadavg()[0]) / 2, "parts": parts}


def describe_parts(parts: dict[str, dict[str, float]], files: int) -> str:
    """The client process's parts, then the workers' summed over the worker processes, largest first."""
    workers: dict[str, float] = {}
    for process, process_parts in parts.items():
        if process != "client":
            for name, seconds in process_parts.items():
                workers[name] = workers.get(name, 0.0) + seconds
    workers["served children"] = workers.pop("children", 0.0)

    def listed(of: dict[str, float]) -> str:
        shown = [f"{name} {seconds:.1f}" for name, seconds in sorted(of.items(), key=lambda item: -item[1])
                 if seconds >= 0.05]
        return f"{sum(of.values()):.1f} ({1000 * sum(of.values()) / files:.0f} ms/file: " + ", ".join(shown) + ")"

    return (f"client + scheduler + nannies process {listed(parts.get('client', {}))}; "
            f"{len(parts) - 1} worker process(es) {listed(workers)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=0, help="how many files, spread over the corpus (default: all)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=1, help="alternate the configs this many times")
    parser.add_argument("--configs", default="1,2",
                        help="comma-separated: W (isolated), W-pertask, W-fork or W-inprocess")
    parser.add_argument("--memory-limit", help="per worker, e.g. 400MiB (default: Dask's own)")
    args = parser.parse_args(argv)
    every = sorted(str(p) for p in args.corpus.rglob("*.pdf"))
    step = max(1, len(every) // args.files) if args.files else 1
    paths = every[::step][:args.files or None]
    configs = [c.strip() for c in args.configs.split(",")]
    cores = os.cpu_count() or 1
    print(f"{len(paths)} files of {args.corpus} (every {step}), {cores} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the start", flush=True)
    results: dict[str, list[dict]] = {config: [] for config in configs}
    for round_number in range(1, args.rounds + 1):
        for config in configs:
            workers, *kinds = config.split("-")
            r = run(paths, int(workers), "inprocess" not in kinds, args.memory_limit, "fork" not in kinds,
                    "pertask" in kinds)
            workers = int(workers)
            results[config].append(r)
            label = "" if config.isdigit() else " " + config.split("-", 1)[1]
            print(f"round {round_number}, {workers} worker(s){label}: "
                  f"{r['wall']:.1f} s wall, {len(paths) / r['wall']:.2f} files/s, "
                  f"conversion CPU {r['cpu']:.1f} s ({1000 * r['cpu'] / len(paths):.0f} ms/file), "
                  f"all CPU (workers + children) {r['total_cpu']:.1f} s ({1000 * r['total_cpu'] / len(paths):.0f} ms/file), "
                  f"parallel efficiency {r['cpu'] / (r['wall'] * workers):.2f}; machine {100 * r['machine_busy']:.0f} % "
                  f"busy ({r['machine_busy'] * cores * r['wall'] - r['cpu']:.0f} core-s not ours), "
                  f"load {r['load']:.1f}; " + ", ".join(f"{n} {s}" for s, n in sorted(r["statuses"].items())),
                  flush=True)
            print("    CPU by process and thread (core-s): " + describe_parts(r["parts"], len(paths)), flush=True)
    median_wall = {config: statistics.median(r["wall"] for r in runs) for config, runs in results.items()}
    median_cpu = {config: statistics.median(r["total_cpu"] for r in runs) for config, runs in results.items()}
    for one, two in (("1", "2"), ("1-pertask", "2-pertask"), ("1-fork", "2-fork"), ("1-inprocess", "2-inprocess")):
        if one in median_wall and two in median_wall:
            print(f"throughput 2 workers / 1 worker{'' if one == '1' else ' (' + one[2:] + ')'} "
                  f"(median wall of {args.rounds} round(s)): {median_wall[one] / median_wall[two]:.2f}×")
    for base, other in (("1", "1-inprocess"), ("1-fork", "1-inprocess"), ("1-fork", "1"), ("1-pertask", "1"),
                        ("2-pertask", "2")):
        if base in median_wall and other in median_wall:
            print(f"{base} / {other}: wall ×{median_wall[base] / median_wall[other]:.2f}, "
                  f"all CPU ×{median_cpu[base] / median_cpu[other]:.2f} "
                  f"({1000 * (median_cpu[base] - median_cpu[other]) / len(paths):+.0f} ms/file)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
