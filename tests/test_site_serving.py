"""The site's precompressed files: the build writes .br/.gz siblings and reports a first visit's
bytes (tools/build_site.py), and `make run`'s server sends a sibling only to a browser that
accepts it (tools/serve.py)."""
from __future__ import annotations

import functools
import gzip
import http.client
import http.server
import json
import random
import shutil
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402
import serve  # noqa: E402

COMPRESSIBLE = b"the same words again and again, " * 400
NODE = shutil.which("node")


# ----------------------------------------------------------------------------- Accept-Encoding

@pytest.mark.parametrize("header, expected", [
    ("gzip, deflate, br, zstd", {"gzip", "deflate", "br", "zstd"}),
    ("gzip;q=1.0, br;q=0", {"gzip"}),
    ("BR", {"br"}),
    ("*", {"br", "gzip", "*"}),
    ("*, gzip;q=0", {"br", "*"}),
    ("", set()),
    (None, set()),
    ("br;q=nonsense", set()),
])
def test_accepted_encodings(header, expected):
    assert serve.accepted_encodings(header) == expected


# ----------------------------------------------------------------------------- the server

@pytest.fixture()
def site(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    (root / "big.wasm").write_bytes(COMPRESSIBLE)
    (root / "big.wasm.br").write_bytes(b"brotli bytes")
    (root / "big.wasm.gz").write_bytes(gzip.compress(COMPRESSIBLE))
    (root / "only-gzip.mjs").write_bytes(COMPRESSIBLE)
    (root / "only-gzip.mjs.gz").write_bytes(gzip.compress(COMPRESSIBLE))
    (root / "plain.txt").write_bytes(b"small")
    return root


@pytest.fixture()
def server(site):
    handler = functools.partial(serve.PrecompressedHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def fetch(port: int, path: str, headers: dict[str, str] | None = None, method: str = "GET"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_brotli_first_when_the_browser_takes_it(server):
    status, headers, body = fetch(server, "/big.wasm", {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200
    assert headers["content-encoding"] == "br" and body == b"brotli bytes"
    assert headers["content-type"] == "application/wasm"  # the type of the file asked for, not of .br
    assert headers["vary"] == "Accept-Encoding"
    assert headers["content-length"] == str(len(b"brotli bytes"))


def test_gzip_when_brotli_is_not_accepted(server):
    status, headers, body = fetch(server, "/big.wasm", {"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == COMPRESSIBLE
    status, headers, body = fetch(server, "/only-gzip.mjs", {"Accept-Encoding": "br, gzip"})
    assert headers["content-encoding"] == "gzip" and headers["content-type"] == "text/javascript"


def test_identity_when_nothing_is_accepted_still_varies(server):
    status, headers, body = fetch(server, "/big.wasm")
    assert status == 200 and "content-encoding" not in headers and body == COMPRESSIBLE
    assert headers["vary"] == "Accept-Encoding"  # a cache must not hand this copy to a br browser


def test_a_file_without_siblings_is_served_as_before(server):
    status, headers, body = fetch(server, "/plain.txt", {"Accept-Encoding": "br, gzip"})
    assert status == 200 and body == b"small"
    assert "content-encoding" not in headers and "vary" not in headers
    assert fetch(server, "/missing.js", {"Accept-Encoding": "br"})[0] == 404


def test_head_and_revalidation(server):
    status, headers, body = fetch(server, "/big.wasm", {"Accept-Encoding": "br"}, method="HEAD")
    assert status == 200 and body == b"" and headers["content-encoding"] == "br"
    status, headers, _ = fetch(server, "/big.wasm", {"Accept-Encoding": "br", "If-Modified-Since": headers["last-modified"]})
    assert status == 304 and headers["vary"] == "Accept-Encoding"


# ----------------------------------------------------------------------------- the build

@pytest.fixture()
def dist(tmp_path, monkeypatch):
    monkeypatch.setattr(build_site, "WORK", tmp_path / "work")  # the Brotli cache of this test
    root = tmp_path / "dist"
    (root / "pyodide").mkdir(parents=True)
    (root / "pyodide" / "runtime.wasm").write_bytes(COMPRESSIBLE)
    (root / "wheels").mkdir()
    (root / "wheels" / "noise.whl").write_bytes(random.Random(7).randbytes(12000))  # like a zip: no redundancy left
    (root / "tiny.js").write_bytes(b"x" * 100)
    (root / "cmaps").mkdir()
    (root / "cmaps" / "UniJIS-UTF16-H.bcmap").write_bytes(COMPRESSIBLE[:5000])
    (root / "sw.js").write_bytes(b"// service worker\n" * 100)
    (root / build_site.OCR_DIR).mkdir(parents=True)
    (root / build_site.OCR_DIR / "worker.min.js").write_bytes(b"// on demand only\n" * 100)
    (root / build_site.RENDERER_DIR).mkdir(parents=True)
    (root / build_site.RENDERER_DIR / "pdf.min.mjs").write_bytes(b"// on first use only\n" * 10)  # below COMPRESS_MIN_BYTES
    return root


@pytest.mark.skipif(NODE is None, reason="Brotli comes from Node's zlib")
def test_precompress_writes_siblings_only_where_they_pay(dist):
    import brotli  # the venv's decoder checks Node's encoder

    count = build_site.precompress(dist)
    wasm = dist / "pyodide" / "runtime.wasm"
    assert brotli.decompress(Path(f"{wasm}.br").read_bytes()) == COMPRESSIBLE
    assert gzip.decompress(Path(f"{wasm}.gz").read_bytes()) == COMPRESSIBLE
    assert not Path(f"{dist / 'tiny.js'}.br").exists()  # under COMPRESS_MIN_BYTES
    noise = dist / "wheels" / "noise.whl"
    assert not Path(f"{noise}.br").exists() and not Path(f"{noise}.gz").exists()  # would not save 10 %
    assert count == 4  # runtime.wasm, the CMap, sw.js and the OCR script
    # a second run over a changed file replaces its siblings; the siblings get none of their own
    wasm.write_bytes(COMPRESSIBLE[::-1])
    build_site.precompress(dist)
    assert gzip.decompress(Path(f"{wasm}.gz").read_bytes()) == COMPRESSIBLE[::-1]
    assert not list(dist.rglob("*.br.br")) and not list(dist.rglob("*.gz.gz"))


@pytest.mark.skipif(NODE is None, reason="Brotli comes from Node's zlib")
def test_first_visit_report_counts_each_file_once_at_its_wire_size(dist):
    build_site.precompress(dist)
    files, background = build_site.first_visit_files(dist)
    assert sorted(files) == ["pyodide/runtime.wasm", "sw.js", "tiny.js", "wheels/noise.whl"]
    assert background == ["cmaps/UniJIS-UTF16-H.bcmap"]
    report = build_site.first_visit_report(dist)
    sizes = {path: (dist / path).stat().st_size for path in files}
    assert report["raw"] == sum(sizes.values())
    wasm, sw = dist / "pyodide" / "runtime.wasm", dist / "sw.js"
    assert report["gzip"] == (sizes["tiny.js"] + sizes["wheels/noise.whl"]
                              + Path(f"{wasm}.gz").stat().st_size + Path(f"{sw}.gz").stat().st_size)
    assert report["br"] == (sizes["tiny.js"] + sizes["wheels/noise.whl"]
                            + min(Path(f"{wasm}.br").stat().st_size, Path(f"{wasm}.gz").stat().st_size)
                            + min(Path(f"{sw}.br").stat().st_size, Path(f"{sw}.gz").stat().st_size))
    assert report["background_raw"] == 5000


def test_the_manifest_carries_the_first_visit(tmp_path):
    (tmp_path / "worker").mkdir()
    module = tmp_path / build_site.BUILD_MODULE
    module.write_text('export const BUILD = {"files": {}};\n', encoding="utf-8")
    build_site.set_first_visit(tmp_path, {"raw": 10, "gzip": 5, "br": 4})
    build_site.set_first_visit(tmp_path, {"raw": 11, "gzip": 6, "br": 5})  # replaced, not appended
    source = module.read_text(encoding="utf-8")
    assert source.count("FIRST_VISIT") == 1
    assert json.loads(source.split("export const FIRST_VISIT = ")[1].rstrip(";\n")) == {"raw": 11, "gzip": 6, "br": 5}


def test_the_lock_file_keeps_its_abi_and_loses_its_package_list(tmp_path):
    lock = tmp_path / "pyodide-lock.json"
    info = {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3", "python": "3.14.2"}
    lock.write_text(json.dumps({"info": info, "packages": {"numpy": {"name": "numpy", "imports": ["numpy"]}}}))
    build_site.trim_lock_file(lock)
    assert json.loads(lock.read_text()) == {"info": info, "packages": {}}
