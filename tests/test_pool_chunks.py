"""worker/pool.mjs's runs of pages (poolChunks), checked in Node: every page once, in order, in
consecutive runs; near-equal runs on each side of where the helpers (from the start) and the
coordinator (from the end) meet, and runs that halve toward that point, so the workers run out
of pages together instead of one waiting for the other's last whole run."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
POOL = Path(__file__).resolve().parent.parent / "worker" / "pool.mjs"
CASES = [(110, 2), (120, 2), (16, 2), (17, 3), (100, 4), (16, 8), (40, 8)]


@pytest.fixture(scope="module")
def runs() -> dict:
    script = (f"import {{ poolChunks }} from {json.dumps(POOL.as_uri())};\n"
              f"const cases = {json.dumps(CASES)};\n"
              "const out = {};\n"
              "for (const [n, w] of cases) out[`${n}/${w}`] = poolChunks(Array.from({ length: n }, (_, i) => i + 1), w);\n"
              "console.log(JSON.stringify(out));\n")
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


pytestmark = pytest.mark.skipif(NODE is None, reason="worker/pool.mjs runs in Node")


@pytest.mark.parametrize(("pages", "workers"), CASES)
def test_every_page_once_in_order_in_non_empty_runs(runs, pages, workers):
    chunks = runs[f"{pages}/{workers}"]
    assert [page for run in chunks for page in run] == list(range(1, pages + 1))
    assert all(run for run in chunks)


def test_runs_halve_toward_where_the_workers_meet(runs):
    # 110 pages, 2 workers: they meet after page 55; 4 runs a side, the one beside the meeting point halved 3 times
    assert [len(run) for run in runs["110/2"]] == [14, 14, 14, 7, 3, 2, 1, 1, 2, 4, 7, 14, 14, 13]
    assert runs["110/2"][6][-1] == 55 and runs["110/2"][7][0] == 56
    # 4 workers: the helpers' side is 3/4 of the pages
    lengths = [len(run) for run in runs["100/4"]]
    meet = lengths.index(1)
    assert sum(lengths[:meet + 1]) == 75 and lengths[meet + 1] == 1
    assert max(lengths[meet - 2:meet + 3]) < min(lengths[:meet - 3] + lengths[meet + 4:])
