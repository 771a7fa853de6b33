"""The page renderer's files (static/pdfrender.mjs): what tools/build_site.py vendors from pdfjs-dist."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PDFJS = REPO / "node_modules" / "pdfjs-dist"
sys.path.insert(0, str(REPO / "tools"))
import build_site  # noqa: E402

needs_packages = pytest.mark.skipif(not (PDFJS / "package.json").is_file(),
                                    reason="node_modules has no pdfjs-dist (make cmaps runs npm ci)")


@needs_packages
def test_every_path_the_renderer_asks_for_is_vendored(tmp_path):
    build_site.vendor_pdfjs(tmp_path)
    vendored = tmp_path / build_site.RENDERER_DIR
    source = (REPO / "static" / "pdfrender.mjs").read_text(encoding="utf-8")
    asked = set(re.findall(r'new URL\("([^"]+)", BASE\)', source))
    assert asked == {"pdf.min.mjs", "pdf.worker.min.mjs", "standard_fonts/", "wasm/", "iccs/"}
    for path in asked:
        assert (vendored / path).exists(), path
    # the decoders a scan needs (JBIG2, JPEG 2000) and the standard 14 fonts' stand-ins
    assert (vendored / "wasm" / "jbig2.wasm").is_file() and (vendored / "wasm" / "openjpeg.wasm").is_file()
    assert any((vendored / "standard_fonts").glob("*.pfb"))


@needs_packages
def test_the_site_cmaps_must_be_the_ones_pdfjs_reads(tmp_path):
    (tmp_path / "cmaps").mkdir()
    for path in sorted((PDFJS / "cmaps").glob("*.bcmap")):
        (tmp_path / "cmaps" / path.name).write_bytes(path.read_bytes())
    build_site.vendor_pdfjs(tmp_path)  # the same files: fine
    first = sorted((tmp_path / "cmaps").glob("*.bcmap"))[0]
    first.write_bytes(first.read_bytes() + b"\0")
    with pytest.raises(SystemExit, match="make cmaps"):
        build_site.vendor_pdfjs(tmp_path)


def test_the_renderer_is_fetched_on_first_use_not_at_install(tmp_path, monkeypatch):
    monkeypatch.setattr(build_site, "ROOT", REPO)
    (tmp_path / build_site.RENDERER_DIR).mkdir(parents=True)
    (tmp_path / build_site.RENDERER_DIR / "pdf.min.mjs").write_text("// pdf.js\n")
    (tmp_path / "index.html").write_text("<!doctype html>\n")
    build_site.write_service_worker(tmp_path, later=set())
    sw = (tmp_path / "sw.js").read_text(encoding="utf-8")
    shell = sw.split("const SHELL = ")[1].split(";")[0]
    renderer = sw.split("const RENDERER = ")[1].split(";")[0]
    assert "vendor/pdfjs/pdf.min.mjs" in renderer and "vendor/pdfjs/" not in shell and "index.html" in shell
