"""Browser benchmark: start-up and throughput of the web app, beside pdf.js in the same Chromium.

    .venv/bin/python bench/browser.py [--runs 3] [--docs NAME ...] [--ship-snapshot] [--built DIR ...]

Measures, in one headless Debian Chromium with a persistent profile (a real HTTP cache and the
service worker, as a returning visitor has them), served by `make run`'s server (Brotli):
  - the first visit's bytes as the build reports them (raw, gzip, Brotli);
  - cold start: first visit, empty profile, navigation start → worker "ready"; then how long
    the worker took to take and store its memory snapshot for the next visits (unless the
    build shipped one: --ship-snapshot);
  - warm start: reload served by the service worker → "ready" (median of --runs);
  - for both, when each start-up stage ended (the worker's timings.stages, on the page's clock:
    ms since navigation start; the warm ones from the median run);
  - drop-to-text: a one-page PDF handed to extractText one second after navigation start, and
    once the converter is ready;
  - pages per second on the longest corpus documents, one worker (workers: 1) and the worker
    pool (its default size: the cores, capped by memory), and pdf.js's getTextContent (npm
    pdfjs-dist, self-hosted beside the app) on the same files, with ratios (median of --runs,
    the three taken in turn); where the pool's time went, the memory one more worker took
    (this browser's processes' RSS, before the first helper started and after); the browser's
    CPU seconds for each (on a busy machine wall time says little; pages per CPU second is what
    one idle core would give), and from those what 2, 4 and 8 idle cores would give by Amdahl's
    law with this run's serial part (an estimate, not a measure).
--built DIR measures a site already built (tools/build_site.py --dist DIR) instead of building
one; given several, their start-ups are measured in turn (cold, then warm runs interleaved), so
that two revisions meet the same load: the start-up rows only, one set per site.
Prints one table. A benchmark, not a test: figures depend on the machine's load.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from e2e_support import CHROMIUM_ARGS, StaticServer, find_chromium  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "generated"
DEFAULT_DOCS = ("chromium-long-110p", "pdflatex-long-120p", "lo-fodt-long-100p")
ONE_PAGE_DOC = REPO / "tests" / "data" / "sample.pdf"
DROP_DELAY_MS = 1000  # "a one-page PDF dropped one second after load"
PDFJS_PAGE = """<!doctype html><meta charset="utf-8"><title>pdf.js bench</title>
<script type="module">
  import * as pdfjs from "./pdfjs/pdf.mjs";
  pdfjs.GlobalWorkerOptions.workerSrc = "./pdfjs/pdf.worker.mjs";
  window.pdfjsText = async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const start = performance.now();
    const task = pdfjs.getDocument({ data: bytes, cMapUrl: "./pdfjs/cmaps/", cMapPacked: true });
    const doc = await task.promise;
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) chars += (item.str || "").length;
      page.cleanup();
    }
    const seconds = (performance.now() - start) / 1000;
    await task.destroy();
    return { pages: doc.numPages, seconds, chars };
  };
  window.pdfjsReady = true;
</script>"""


def build_site(root: Path, ship_snapshot: bool, built: Path | None = None) -> dict:
    """Builds the app into root/app (or copies `built`, a dist/ made before) with pdf.js beside
    it; returns the build's FIRST_VISIT."""
    if built is not None:
        shutil.copytree(built, root / "app", symlinks=True)
    else:
        subprocess.run([sys.executable, str(REPO / "tools" / "build_site.py"), "--dist", str(root / "app"),
                        *(["--ship-snapshot"] if ship_snapshot else [])],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    source = (root / "app" / "worker" / "build.mjs").read_text(encoding="utf-8")
    first_visit = json.loads(source.split("export const FIRST_VISIT = ")[1].split(";")[0])
    pdfjs = REPO / "node_modules" / "pdfjs-dist"
    (root / "pdfjs").mkdir()
    for name in ("pdf.mjs", "pdf.worker.mjs"):
        shutil.copyfile(pdfjs / "build" / name, root / "pdfjs" / name)
    shutil.copytree(pdfjs / "cmaps", root / "pdfjs" / "cmaps")
    (root / "pdfjs.html").write_text(PDFJS_PAGE, encoding="utf-8")
    return first_visit


def wait_snapshot(page, timeout_s: float = 120) -> dict:
    """The worker's report on the memory snapshot it took after the first start."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        snapshot = page.evaluate("() => window.glyphline.status.snapshot")
        if snapshot:
            return snapshot
        time.sleep(0.05)
    raise TimeoutError("the worker took no snapshot")


def wait_ready(page, timeout_s: float = 120) -> float:
    """performance.now() at the worker's "ready", from the page's own clock."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready_at = page.evaluate("() => window.glyphline && window.glyphline.status.readyAt")
        if ready_at:
            return float(ready_at)
        failed = page.evaluate("() => window.glyphline && window.glyphline.status.state === 'failed'")
        if failed:
            raise RuntimeError(page.evaluate("() => window.glyphline.status.message"))
        time.sleep(0.05)
    raise TimeoutError("the worker did not become ready")


OURS = """async ([b64, options]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const r = await window.glyphline.extractText(bytes, options);
    return { pages: r.pages.length, seconds: r.seconds, pool: r.pool || null };
}"""


def stages(page, timings: dict) -> str:
    """The worker's start-up stages (timings.stages: ms since the worker started) on the page's
    clock, ms since navigation start, in order; "" from a build that records none."""
    if not timings.get("stages"):
        return ""
    offset = timings["workerOrigin"] - page.evaluate("() => performance.timeOrigin")
    page_side = page.evaluate("""() => ({ "page's modules ran": performance.getEntriesByType("navigation")[0].domContentLoadedEventStart,
                                         "worker created": window.glyphline.status.workerCreatedAt,
                                         "wasm compiled on the page": (performance.getEntriesByName("glyphline: wasm compiled on the page")[0] || {}).startTime })""")
    ordered = sorted([*((name, value - offset) for name, value in page_side.items() if value),
                      *timings["stages"].items()], key=lambda item: item[1])
    return ", ".join(f"{name} {value + offset:.0f}" for name, value in ordered)


def engine_timings(page) -> dict:
    """The worker's timings once the engine is imported (the worker reports that after "ready")."""
    wait_true(page, "window.glyphline.status.timings && 'import' in window.glyphline.status.timings")
    return page.evaluate("() => window.glyphline.status.timings")


def start_ups(page, runs: int, profile: Path | None = None) -> dict:
    """Cold start (this page's first visit) then `runs` warm ones: ready times, stages, timings,
    and with `profile` the browser's CPU seconds from navigation to ready (cold_cpu, warm_cpu)."""
    cpu = chromium_cpu(profile) if profile else 0.0
    page.goto(page.site_url)
    cold = wait_ready(page)
    cold_cpu = chromium_cpu(profile) - cpu if profile else None
    timings = engine_timings(page)
    found = {"cold": cold, "cold_stages": stages(page, timings), "cold_timings": timings, "snapshot": None, "warm": [],
             "cold_cpu": cold_cpu, "warm_cpu": []}
    if timings.get("snapshot") in ("taken", "after-ready"):
        found["snapshot"] = wait_snapshot(page)
    for _ in range(runs):
        cpu = chromium_cpu(profile) if profile else 0.0
        page.reload()
        ready = wait_ready(page)
        if profile:
            found["warm_cpu"].append(chromium_cpu(profile) - cpu)
        timings = engine_timings(page)
        found["warm"].append((ready, stages(page, timings), timings))
    return found


def start_up_rows(label: str, found: dict) -> list[tuple[str, str]]:
    rows = [(f"{label}cold start → ready (first visit, SW install)", f"{found['cold']:.0f} ms  (worker: {found['cold_timings']})")]
    if found["cold_stages"]:
        rows.append((f"{label}cold start stages (ms since navigation start)", found["cold_stages"]))
    snapshot = found["snapshot"]
    if snapshot:
        rows.append((f"{label}memory snapshot of the first start: taken | stored in Cache Storage after",
                     f"{snapshot.get('taken')} | {snapshot.get('ms')} ms, {snapshot.get('bytes') or 0:,} bytes"
                     + (f"  FAILED: {snapshot.get('error')}" if not snapshot.get("stored") else "")))
    warm = sorted(found["warm"], key=lambda run: run[0])
    if warm:
        ready, warm_stages, timings = warm[len(warm) // 2]
        rows.append((f"{label}warm start → ready (service worker, median of {len(warm)})",
                     f"{ready:.0f} ms  (all: {', '.join(f'{run[0]:.0f}' for run in found['warm'])}; worker: {timings})"))
        if warm_stages:
            rows.append((f"{label}warm start stages (median run, ms since navigation start)", warm_stages))
    return rows


def compare_start_ups(builts: list[Path], runs: int, chromium: str, visits: int = 1) -> list[tuple[str, str]]:
    """Several built sites' start-ups, measured in turn: `runs` rounds of a cold start and `visits`
    warm ones per site, each site in a persistent profile of its own; with the browser's CPU
    seconds from navigation to ready (on a busy machine the steadier figure). With several visits,
    each later visit has its own rows ("warm" is the first; the browser's code caches fill over visits)."""
    from playwright.sync_api import sync_playwright

    kinds = ["cold", "warm", *(f"warm visit {visit}" for visit in range(2, visits + 1))]
    found: list[dict] = [{kind: [] for kind in kinds} for _ in builts]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as driver:
        servers = []
        try:
            for index, built in enumerate(builts):
                root = Path(tmp) / f"site{index}"
                root.mkdir()
                shutil.copytree(built, root / "app", symlinks=True)
                servers.append(StaticServer(root))
            for run in range(runs):
                for index, server in enumerate(servers):
                    profile = Path(tmp) / f"profile{index}-{run}"
                    context = driver.chromium.launch_persistent_context(
                        str(profile), executable_path=chromium, args=CHROMIUM_ARGS)
                    page = context.new_page()
                    page.site_url = server.url + "app/"
                    measured = start_ups(page, visits, profile)
                    found[index]["cold"].append((measured["cold"], measured["cold_stages"],
                                                 (measured["snapshot"] or {}).get("taken"), measured["cold_cpu"]))
                    for kind, warm, cpu in zip(kinds[1:], measured["warm"], measured["warm_cpu"]):
                        found[index][kind].append((*warm[:2], None, cpu))
                    context.close()
        finally:
            for server in servers:
                server.stop()
    rows: list[tuple[str, str]] = []
    for built, runs_found in zip(builts, found):
        for kind in kinds:
            ordered = sorted(runs_found[kind], key=lambda run: run[0])
            median = ordered[len(ordered) // 2]
            cpu = statistics.median(run[3] for run in runs_found[kind])
            rows.append((f"{built}: {kind} start → ready, median of {len(ordered)}",
                         f"{median[0]:.0f} ms  (all: {', '.join(f'{r[0]:.0f}' for r in runs_found[kind])}); "
                         f"browser CPU seconds to ready, median {cpu:.2f}"))
            if median[1]:
                rows.append((f"{built}: {kind} stages (median run)", median[1]))
        taken = [run[2] for run in runs_found["cold"] if run[2] is not None]
        if taken:
            rows.append((f"{built}: snapshot taken in the background after (ms)", ", ".join(map(str, taken))))
    return rows


def wait_true(page, expression: str, timeout_s: float = 60) -> None:
    """Polls `expression` (the page's CSP forbids the string predicates of wait_for_function)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(f"() => {expression}"):
        if time.monotonic() > deadline:
            raise TimeoutError(expression)
        time.sleep(0.05)


def browser_tree(profile: Path) -> set[int]:
    """This run's browser (the processes started on `profile`) and every process under them."""
    parents: dict[int, int] = {}
    tree: set[int] = set()
    flag = f"--user-data-dir={profile}".encode()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            parents[int(proc.name)] = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if flag in (proc / "cmdline").read_bytes():
                tree.add(int(proc.name))
        except (OSError, ValueError, IndexError):
            continue
    grew = bool(tree)
    while grew:
        found = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= found
        grew = bool(found)
    return tree


def chromium_cpu(profile: Path) -> float:
    """CPU seconds (user + system) this run's browser has used so far: what a conversion costs
    whatever the machine's load, where wall time on a busy machine says little."""
    ticks = 0
    for pid in browser_tree(profile):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def chromium_rss(profile: Path) -> int:
    """Bytes resident in this run's browser and every process under it: the workers live in
    the page's renderer. Other people's browsers do not count."""
    total = 0
    for pid in browser_tree(profile):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def amdahl(report: dict, extra_work: float, workers: int) -> float:
    """Speed-up over one worker on `workers` idle cores by Amdahl's law: the pool's serial part
    (adding the helpers' pages, the document-wide passes) as a share of its run, the rest
    divided among the workers, all of it `extra_work` times one worker's (the helpers' own
    opening of the file and packing, from the CPU the two took). An estimate, not a measure."""
    if workers == 1:
        return 1.0
    serial = report["receive"] + report["finish"]
    share = serial / max(serial + report["own"] + report["helpers"], 1)
    return 1 / (extra_work * ((1 - share) / workers + share))


def b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--docs", nargs="*", default=list(DEFAULT_DOCS), help="corpus/generated folder names")
    parser.add_argument("--ship-snapshot", action="store_true", help="build with the snapshot made at build time")
    parser.add_argument("--built", nargs="*", type=Path, default=[],
                        help="measure these built sites (dist/ folders) instead of building; several: start-ups in turn")
    parser.add_argument("--visits", type=int, default=1,
                        help="with several --built: warm starts per profile (reported one row set per visit)")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("Chromium not found (make test installs Debian's chromium)", file=sys.stderr)
        return 2
    if len(args.built) > 1:
        rows = compare_start_ups(args.built, args.runs, chromium, args.visits)
        width = max(len(label) for label, _ in rows)
        for label, value in rows:
            print(f"{label.ljust(width)}  {value}")
        return 0
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        root.mkdir()
        first_visit = build_site(root, args.ship_snapshot, args.built[0] if args.built else None)
        server = StaticServer(root)
        rows: list[tuple[str, str]] = [
            ("first visit, bytes raw | gzip | brotli (build report)",
             f"{first_visit['raw']:,} | {first_visit['gzip']:,} | {first_visit['br']:,}"
             f"  (+ {first_visit['background_br']:,} brotli of CMaps after ready)"),
        ]
        try:
            with sync_playwright() as driver:
                context = driver.chromium.launch_persistent_context(
                    str(Path(tmp) / "profile"), executable_path=chromium, args=CHROMIUM_ARGS)
                page = context.new_page()
                page.site_url = server.url + "app/"
                found = start_ups(page, args.runs)
                rows += start_up_rows("", found)
                timings = found["warm"][-1][2]
                drops = []
                for _ in range(args.runs):
                    page.reload()
                    drops.append(page.evaluate(
                        """async ([b64, delay]) => {
                            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
                            await new Promise((r) => setTimeout(r, Math.max(0, delay - performance.now())));
                            const start = performance.now();
                            await window.glyphline.extractText(bytes);
                            return performance.now() - start;
                        }""", [b64(ONE_PAGE_DOC), DROP_DELAY_MS]))
                rows.append((f"drop-to-text, {ONE_PAGE_DOC.name} dropped {DROP_DELAY_MS} ms after load (median)",
                             f"{statistics.median(drops):.0f} ms"))
                wait_ready(page)
                ready_drops = [page.evaluate(
                    """async (b64) => {
                        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
                        const start = performance.now();
                        await window.glyphline.extractText(bytes);
                        return performance.now() - start;
                    }""", b64(ONE_PAGE_DOC)) for _ in range(args.runs)]
                rows.append((f"drop-to-text, {ONE_PAGE_DOC.name} once the converter is ready (median)",
                             f"{statistics.median(ready_drops):.0f} ms"))

                pdfjs_page = context.new_page()
                pdfjs_page.goto(server.url + "pdfjs.html")
                wait_true(pdfjs_page, "window.pdfjsReady === true")
                rows.append(("cores (navigator.hardwareConcurrency) | pool size",
                             f"{page.evaluate('() => navigator.hardwareConcurrency')} | {timings.get('poolSize')}"))
                rss_before_pool = None
                for name in args.docs:
                    found = sorted((CORPUS / name).glob("*.pdf"))
                    if not found:
                        rows.append((name, "not in the corpus"))
                        continue
                    data = b64(found[0])
                    runs: dict[str, list[dict]] = {"one": [], "pool": [], "pdfjs": []}
                    profile = Path(tmp) / "profile"
                    for _ in range(args.runs):   # in turn, so that a change of load hits all three alike
                        for key, options in (("one", {"workers": 1}), ("pool", {})):
                            if key == "pool" and rss_before_pool is None:
                                rss_before_pool = chromium_rss(profile)
                            cpu = chromium_cpu(profile)
                            run = page.evaluate(OURS, [data, options])
                            run["cpu"] = chromium_cpu(profile) - cpu
                            runs[key].append(run)
                        cpu = chromium_cpu(profile)
                        run = pdfjs_page.evaluate("(b64) => window.pdfjsText(b64)", data)
                        run["cpu"] = chromium_cpu(profile) - cpu
                        runs["pdfjs"].append(run)
                    pps = {key: statistics.median(r["pages"] / r["seconds"] for r in values) for key, values in runs.items()}
                    rows.append((f"{name}: pages/s one worker | pool | pdf.js",
                                 f"{pps['one']:.1f} | {pps['pool']:.1f} | {pps['pdfjs']:.1f}  (pool {pps['pool'] / pps['one']:.2f}× "
                                 f"one worker; pdf.js {pps['pdfjs'] / pps['one']:.2f}× one worker, "
                                 f"{pps['pdfjs'] / pps['pool']:.2f}× the pool)"))
                    cpu = {key: statistics.median(r["cpu"] for r in values) for key, values in runs.items()}
                    pages = runs["one"][0]["pages"]
                    rows.append((f"{name}: browser CPU seconds one worker | pool | pdf.js (median)",
                                 f"{cpu['one']:.2f} | {cpu['pool']:.2f} | {cpu['pdfjs']:.2f}  (the pool costs "
                                 f"{cpu['pool'] / cpu['one']:.2f}× one worker's CPU; pages per CPU second: one worker "
                                 f"{pages / cpu['one']:.0f}, pdf.js {pages / cpu['pdfjs']:.0f})"))
                    report = runs["pool"][-1]["pool"]
                    if report:
                        rows.append((f"{name}: the pool's last run (ms)", json.dumps(report)))
                        rows.append((f"{name}: estimate for idle cores, pages/s with 1 | 2 | 4 | 8 workers (pdf.js: "
                                     f"{pages / cpu['pdfjs']:.0f})",
                                     " | ".join(f"{pages / cpu['one'] * amdahl(report, cpu['pool'] / cpu['one'], n):.0f}"
                                                for n in (1, 2, 4, 8))))
                if rss_before_pool is not None:
                    grown = chromium_rss(Path(tmp) / "profile") - rss_before_pool
                    rows.append(("memory: all Chromium processes' RSS after the pool ran − before its helpers",
                                 f"{grown / 2**20:.0f} MB for {max(0, (timings.get('poolSize') or 1) - 1)} helper(s)"))
                context.close()
        finally:
            server.stop()
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
