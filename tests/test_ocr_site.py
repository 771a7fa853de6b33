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
def test_the_banners_languages_and_sizes_are_the_pinned_packages(tmp_path):
    import json
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import build_site

    (tmp_path / "static").mkdir()
    build_site.write_ocr_languages_module(tmp_path)
    module = (tmp_path / build_site.OCR_LANGUAGES_MODULE).read_text(encoding="utf-8")
    languages = json.loads(re.search(r"OCR_LANGUAGES = Object.freeze\((.*)\);", module).group(1))
    sizes = json.loads(re.search(r"DOWNLOAD_BYTES = Object.freeze\((.*)\);", module).group(1))
    pinned = [name.split("/")[1] for name in json.loads((REPO / "package.json").read_text())["dependencies"]
              if name.startswith("@tesseract.js-data/")]
    assert languages[0] == "eng" and sorted(languages) == sorted(code for code in pinned if code != "osd")
    files = {target: (build_site.NODE_MODULES / origin).stat().st_size for target, origin in build_site.ocr_files().items()}
    biggest_core = max(size for target, size in files.items() if target.startswith("core/"))
    assert sizes["base"] == files["tesseract.esm.min.js"] + files["worker.min.js"] + biggest_core
    for code in languages:
        assert sizes[code] == files[f"lang/{code}.traineddata.gz"] > 100_000
    # pdf.js, counted when scan pages must be rendered: its scripts and the larger image codec
    renderer = {target: (build_site.NODE_MODULES / origin).stat().st_size
                for target, origin in build_site.RENDERER_FILES.items()}
    assert sizes["renderer"] == renderer["pdf.min.mjs"] + renderer["pdf.worker.min.mjs"] + max(
        renderer["wasm/jbig2.wasm"], renderer["wasm/openjpeg.wasm"])


def test_a_language_ships_when_package_json_pins_it(tmp_path, monkeypatch):
    import json
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import build_site

    (tmp_path / "package.json").write_text(json.dumps({"dependencies": {
        "@tesseract.js-data/spa": "1.0.0", "@tesseract.js-data/osd": "1.0.0", "@tesseract.js-data/eng": "1.0.0",
        "aes-js": "3.1.2"}}))
    monkeypatch.setattr(build_site, "ROOT", tmp_path)
    assert build_site.ocr_languages() == ["eng", "spa"]   # English first; osd is no language
    assert build_site.ocr_files()["lang/spa.traineddata.gz"] == "@tesseract.js-data/spa/4.0.0_best_int/spa.traineddata.gz"


@needs_packages
def test_vendored_tesseract_names_no_other_origin(tmp_path):
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import build_site

    build_site.vendor_tesseract(tmp_path)
    for path in (tmp_path / build_site.OCR_DIR).rglob("*.js"):
        assert b"cdn.jsdelivr.net" not in path.read_bytes(), path
