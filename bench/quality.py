#!/usr/bin/env python3
"""Quality benchmark: glyphline against every installed peer, scored by the shared scorer.

    .venv/bin/python bench/quality.py                      # all corpora found, all peers found
    .venv/bin/python bench/quality.py --corpus generated --filter 'col|table' --peers pdftotext,pymupdf
    .venv/bin/python bench/quality.py --peers none --save-outputs /tmp/out

Runs ../shared/bench/score.py (relative to the repository) once over the chosen corpora,
with glyphline's CLI (`python -m glyphline {pdf}`, reflow mode) and each peer preset whose
tool is installed here, then prints one table extractor × corpus (word F1, order, para F1,
split %, merged %, hyphenation errors, scans signalled, s/page) and, for the generated
corpus, word F1 / order per feature tag. Not a test: it takes minutes.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
SCORER = SHARED / "bench" / "score.py"
CORPORA = {
    "own": REPO / "tests" / "data",
    "generated": SHARED / "corpus" / "generated",
    "real": SHARED / "corpus" / "real",
}
DEFAULT_CORPORA = ("own", "generated", "real")

# score.py presets and what each one needs on this machine
COMMAND_PEERS = {"pdftotext": "pdftotext", "pdftotext-raw": "pdftotext", "pdftotext-layout": "pdftotext",
                 "mutool": "mutool"}
PYTHON_PEERS = {"pdfminer": "pdfminer", "pypdf": "pypdf", "pypdf-layout": "pypdf", "pymupdf": "pymupdf",
                "pymupdf-sort": "pymupdf", "pypdfium2": "pypdfium2", "pdfplumber": "pdfplumber"}
PDFJS_PEERS = ("pdfjs-join", "pdfjs-eol", "pdfjs-yjump")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", metavar="NAME|DIR",
                        help="own, generated, real or a folder of cases (repeatable; default: every one present)")
    parser.add_argument("--filter", help="regex on case ids (passed to score.py)")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                        help="parallel runs (default: half the CPUs: the machine is shared)")
    parser.add_argument("--peers", default="all",
                        help="comma list of peer presets, 'all' (every installed one) or 'none'")
    parser.add_argument("--mode", default="reflow", help="glyphline --mode for the run (default reflow)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per file (default 60)")
    parser.add_argument("--json", metavar="FILE", help="keep score.py's full JSON here")
    parser.add_argument("--save-outputs", metavar="DIR", help="keep every extractor's text in DIR/NAME/CASE.txt")
    args = parser.parse_args(argv)

    if not SCORER.is_file():
        print(f"quality.py: the scorer is not at {SCORER} (expected ../shared/bench/score.py beside the repository)",
              file=sys.stderr)
        return 2
    if importlib.util.find_spec("rapidfuzz") is None:
        print("quality.py: score.py needs rapidfuzz; run this with the project's .venv/bin/python", file=sys.stderr)
        return 2
    corpora = resolve_corpora(args.corpus)
    if not corpora:
        print("quality.py: no corpus with cases found (tests/data cases, ../shared/corpus/{generated,real})",
              file=sys.stderr)
        return 2
    peers, env = installed_peers(smallest_pdf(corpora))
    if args.peers == "none":
        peers = []
    elif args.peers != "all":
        wanted = [p.strip() for p in args.peers.split(",") if p.strip()]
        missing = [p for p in wanted if p not in peers]
        if missing:
            print(f"quality.py: not installed here (skipped): {', '.join(missing)}", file=sys.stderr)
        peers = [p for p in wanted if p in peers]
    glyphline = f"glyphline={shlex.quote(sys.executable)} -m glyphline --mode {shlex.quote(args.mode)} {{pdf}}"
    extractors = [glyphline] + peers
    print(f"corpora: {', '.join(f'{n} ({p})' for n, p in corpora)}", file=sys.stderr)
    print(f"extractors: glyphline, {', '.join(peers) or '(no peers)'}", file=sys.stderr)

    json_path = args.json or tempfile.mkstemp(prefix="glyphline-quality-", suffix=".json")[1]
    command = [sys.executable, str(SCORER), "--corpus", *[str(p) for _, p in corpora], "--jobs", str(args.jobs),
               "--timeout", str(args.timeout), "--json", json_path, "--quiet"]
    for extractor in extractors:
        command += ["--extractor", extractor]
    if args.filter:
        command += ["--filter", args.filter]
    if args.save_outputs:
        command += ["--save-outputs", args.save_outputs]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    proc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL)
    if proc.returncode != 0:
        print(f"quality.py: score.py failed (exit {proc.returncode})", file=sys.stderr)
        return 1
    with open(json_path, encoding="utf-8") as f:
        results = json.load(f)
    if not args.json:
        os.unlink(json_path)
    print(report(results, corpora, ["glyphline"] + peers))
    return 0


def resolve_corpora(requested: list[str] | None) -> list[tuple[str, Path]]:
    names = requested or list(DEFAULT_CORPORA)
    found = []
    for name in names:
        path = CORPORA.get(name, Path(name))
        if path.is_dir() and any(path.rglob("meta.json")) and any(path.rglob("truth.txt")):
            found.append((name if name in CORPORA else path.name, path))
        elif requested:
            print(f"quality.py: corpus {name!r} has no cases with truth at {path}; skipped", file=sys.stderr)
    return found


def installed_peers(probe_pdf: Path) -> tuple[list[str], dict[str, str]]:
    """score.py presets whose tools are present, and the environment that lets them run."""
    env = dict(os.environ)
    peers = [name for name, tool in COMMAND_PEERS.items() if shutil.which(tool)]
    peers += [name for name, module in PYTHON_PEERS.items() if importlib.util.find_spec(module) is not None]
    pdfjs = find_pdfjs()
    if pdfjs and shutil.which("node"):
        env["PDFJS_DIST"] = str(pdfjs)
        if pdfjs_runs(probe_pdf, env):
            peers += list(PDFJS_PEERS)
    env["BENCH_PYTHON"] = sys.executable
    return peers, env


def pdfjs_runs(pdf: Path, env: dict[str, str]) -> bool:
    """pdfjs-dist and node must match (pdf.js 6 needs Node 22): one trial run tells."""
    script = SCORER.parent / "pdfjs_extract.mjs"
    try:
        proc = subprocess.run(["node", str(script), "eol", str(pdf)], env=env, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    if proc.returncode != 0:
        reason = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
        print(f"quality.py: pdf.js found but does not run with this node ({reason[0][:120]}); pdfjs-* skipped",
              file=sys.stderr)
    return proc.returncode == 0


def smallest_pdf(corpora: list[tuple[str, Path]]) -> Path:
    return min((pdf for _, path in corpora for pdf in path.rglob("doc.pdf")), key=lambda p: p.stat().st_size)


def find_pdfjs() -> Path | None:
    # .cache/node: pdfjs-dist 5.x for Node 20 (`npm install --prefix .cache/node pdfjs-dist@5.6.205`, as in the baseline)
    candidates = [os.environ.get("PDFJS_DIST"), REPO / ".cache" / "node" / "node_modules" / "pdfjs-dist",
                  REPO / "node_modules" / "pdfjs-dist",
                  SHARED / ".cache" / "node" / "node_modules" / "pdfjs-dist"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "legacy" / "build" / "pdf.mjs").is_file():
            return Path(candidate)
    return None


# ----------------------------------------------------------------------------- tables

def report(results: dict, corpora: list[tuple[str, Path]], names: list[str]) -> str:
    scorer = load_scorer()
    rows = results["per_case"]
    out = ["## glyphline vs peers (score.py, macro means; para F1 over cases with block truth)", "",
           "| corpus | extractor | cases | word F1 | order | para F1 | split | merged | hyph err | scans signalled | failed | s/page |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, path in corpora:
        key = os.path.normpath(str(path))
        ranked = []
        for name in names:
            mine = [r for r in rows if r["extractor"] == name and r["corpus"] == key and "score" in r]
            if mine:
                ranked.append((name, scorer.aggregate(mine)))
        ranked.sort(key=lambda item: -(item[1]["order"] or 0))
        for name, a in ranked:
            failed = sum(1 for r in rows if r["extractor"] == name and r["corpus"] == key and _failed(r))
            scans = f"{a['scan_signalled']}/{a['scan_cases']}" if a["scan_cases"] else "-"
            out.append(f"| {label} | {'**glyphline**' if name == 'glyphline' else name} | {a['scored']} | "
                       f"{_f(a['word_f1'])} | {_f(a['order'])} | {_f(a['para_f1'])} | {_pct(a['split_rate'])} | "
                       f"{_pct(a['merged_rate'])} | {a['hyph_errors']} | {scans} | {failed} | "
                       f"{_f(a['seconds_per_page'], 4)} |")
    generated = [p for label, p in corpora if label == "generated"]
    if generated:
        out += ["", "## generated: word F1 / order per feature tag (best order in bold; ✗ = glyphline behind the best peer)", ""]
        out += feature_table(scorer, rows, os.path.normpath(str(generated[0])), names)
    return "\n".join(out) + "\n"


def feature_table(scorer, rows: list[dict], corpus: str, names: list[str]) -> list[str]:
    mine = [r for r in rows if r["corpus"] == corpus and "score" in r]
    features = sorted({f for r in mine for f in r["features"]})
    lines = ["| feature | cases | " + " | ".join(names) + " |", "|---|---:|" + "---|" * len(names)]
    for feature in features:
        cells = {}
        count = 0
        for name in names:
            subset = [r for r in mine if r["extractor"] == name and feature in r["features"]]
            if subset:
                count = len(subset)
                cells[name] = scorer.aggregate(subset)
        best = max((a["order"] or 0 for a in cells.values()), default=0)
        best_peer = max((a["order"] or 0 for n, a in cells.items() if n != "glyphline"), default=0)
        texts = []
        for name in names:
            a = cells.get(name)
            if a is None or a["word_f1"] is None:
                texts.append("-")
                continue
            text = f"{a['word_f1']:.3f} / {a['order']:.3f}"
            if a["order"] == best:
                text = f"**{text}**"
            if name == "glyphline" and (a["order"] or 0) < best_peer:
                text += " ✗"
            texts.append(text)
        lines.append(f"| {feature} | {count} | " + " | ".join(texts) + " |")
    return lines


def _failed(row: dict) -> bool:
    """A run that did not succeed; exit 3 on a scan case is the documented scan signal, not a failure."""
    return row["status"] != "ok" and not (row.get("scan") and row.get("scan_signalled") and row["status"] == "error")


def load_scorer():
    """score.py's own aggregate(), so every figure here is computed exactly as the scorer does."""
    spec = importlib.util.spec_from_file_location("glyphline_bench_score", SCORER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _f(value, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _pct(value) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


if __name__ == "__main__":
    sys.exit(main())
