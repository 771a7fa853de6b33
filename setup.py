"""The wheel's generated package data (metadata lives in pyproject.toml).

`build_py` adds to the built package, never to git:
- glyphline/data/cmaps/: Adobe's predefined CMaps as packed by the pinned npm pdfjs-dist
  (node_modules/pdfjs-dist/cmaps/*.bcmap and its LICENSE; `npm ci` is run when node_modules is
  missing), so an installed Glyphline reads CJK fonts that name a predefined CMap. The web app's
  wheel leaves them out (GLYPHLINE_WHEEL_CMAPS=0, set by tools/build_site.py): the browser fetches
  each CMap from the site's cmaps/ only when a font names it.
- glyphline/data/brotli/: the Brotli static dictionary and transforms (tools/brotli_static.py),
  copied from the checkout when `make brotli-data` made them, else generated here (into the
  checkout itself for an editable install).
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
CMAP_SOURCE = ROOT / "node_modules" / "pdfjs-dist" / "cmaps"
WITH_CMAPS_ENV = "GLYPHLINE_WHEEL_CMAPS"   # "0": a wheel without CMaps (the web app's)


def _cmap_source() -> Path:
    if not (CMAP_SOURCE / "LICENSE").is_file() and (ROOT / "package-lock.json").is_file() and shutil.which("npm"):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--omit=optional"], cwd=ROOT, check=True)
    if not (CMAP_SOURCE / "LICENSE").is_file():
        raise SystemExit(f"{CMAP_SOURCE} is missing: run `npm ci` (or build with {WITH_CMAPS_ENV}=0 for a wheel "
                         "without predefined CMaps)")
    return CMAP_SOURCE


def _brotli_tool():
    spec = importlib.util.spec_from_file_location("brotli_static", ROOT / "tools" / "brotli_static.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            # an editable install reads the checkout: its node_modules/ CMaps, and the Brotli data
            # that `make brotli-data` would write there
            source = ROOT / "glyphline" / "data" / "brotli"
            if not (source / "dictionary.bin").is_file():
                _brotli_tool().generate(source)
            return
        data = Path(self.build_lib) / "glyphline" / "data"
        brotli = data / "brotli"
        if not ((brotli / "dictionary.bin").is_file() and (brotli / "transforms.json").is_file()):
            _brotli_tool().generate(brotli)
        cmaps = data / "cmaps"
        shutil.rmtree(cmaps, ignore_errors=True)
        if os.environ.get(WITH_CMAPS_ENV, "1") != "0":
            source = _cmap_source()
            cmaps.mkdir(parents=True)
            for path in sorted(source.glob("*.bcmap")) + [source / "LICENSE"]:
                shutil.copyfile(path, cmaps / path.name)


setup(cmdclass={"build_py": BuildPyWithData})
