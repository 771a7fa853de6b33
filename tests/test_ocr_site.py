"""The web app's OCR files: what tools/build_site.py vendors and what the banner says it costs."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TESSERACT = REPO / "node_modules" / "tesseract.js"

needs_packages = pytest.mark.skipif(not (TESSERACT / "package.json").is_file(),
                                    reason="node_modules has no tesseract.js (make cmaps runs npm ci)")


@needs_packages
def test_the_banners_download_sizes_are_the_vendored_files():
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import build_site

    source = (REPO / "static" / "ocr.mjs").read_text(encoding="utf-8")
    sizes = {name: sum(int(n) for n in re.findall(r"\d+", value))
             for name, value in re.findall(r"(\w+): ([\d +]+)[,}]", source.split("DOWNLOAD_BYTES = ")[1].split(";")[0])}
    files = {target: (build_site.NODE_MODULES / origin).stat().st_size for target, origin in build_site.OCR_FILES.items()}
    biggest_core = max(size for target, size in files.items() if target.startswith("core/"))
    assert sizes["base"] == files["tesseract.esm.min.js"] + files["worker.min.js"] + biggest_core
    assert sizes["eng"] == files["lang/eng.traineddata.gz"] and sizes["deu"] == files["lang/deu.traineddata.gz"]


@needs_packages
def test_vendored_tesseract_names_no_other_origin(tmp_path):
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import build_site

    build_site.vendor_tesseract(tmp_path)
    for path in (tmp_path / build_site.OCR_DIR).rglob("*.js"):
        assert b"cdn.jsdelivr.net" not in path.read_bytes(), path
