"""worker/engine_setup.mjs's packing of the memory snapshot the worker stores (packSnapshot,
unpackSnapshot), checked in Node: long runs of zero pages are left out and put back byte for
byte, short ones are kept, Pyodide's own format passes through, and a damaged copy is refused."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
SETUP = Path(__file__).resolve().parent.parent / "worker" / "engine_setup.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="worker/engine_setup.mjs runs in Node")

# a heap of 64 pages of 4 KB: data, a long run of zero pages (20), data, a short run (3 pages,
# kept), data with zero words inside, then zero pages to the end (18)
SCRIPT = """
const { packSnapshot, unpackSnapshot } = await import(%s);
const PAGE = 4096;
const heap = new Uint8Array(64 * PAGE);
const fill = (from, to, seed) => { for (let i = from * PAGE; i < to * PAGE; i++) heap[i] = (i * seed + 7) %% 251 || 1; };
fill(0, 10, 3); fill(30, 40, 5); fill(43, 46, 11);
heap.fill(0, 44 * PAGE + 100, 44 * PAGE + 200);
const packed = packSnapshot(heap);
const back = unpackSnapshot(packed);
const same = back.length === heap.length && back.every((value, i) => value === heap[i]);
const pyodideFormat = new Uint8Array(64); pyodideFormat[0] = 1;
let damaged = null;
try { unpackSnapshot(packed.subarray(0, packed.length - 8)); } catch (error) { damaged = String(error.message); }
console.log(JSON.stringify({ heap: heap.length, packed: packed.length, same,
  passes: unpackSnapshot(pyodideFormat) === pyodideFormat, damaged }));
"""


@pytest.fixture(scope="module")
def packed() -> dict:
    script = SCRIPT % json.dumps(SETUP.as_uri())
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_zeros_come_back_byte_for_byte(packed):
    assert packed["same"] is True


def test_long_zero_runs_are_left_out_short_ones_kept(packed):
    # kept: pages 0-9, 10-29 out (20 pages), 30-45 kept (the 3 zero pages between are too short
    # a run), 46-63 out (18 pages): 26 pages of data and a header of 3 + 2 × 2 words
    assert packed["heap"] == 64 * 4096
    assert packed["packed"] == 26 * 4096 + 4 * (3 + 2 * 2)


def test_pyodide_s_own_format_passes_and_a_damaged_copy_is_refused(packed):
    assert packed["passes"] is True
    assert packed["damaged"] and "damaged snapshot" in packed["damaged"]
