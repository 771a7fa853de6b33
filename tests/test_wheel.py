"""The wheel as users install it: built from this repo, installed into a fresh venv outside the
checkout, used from elsewhere. It must carry the predefined CMaps and the Brotli data."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from pdfbuilder import PdfBuilder

pytestmark = pytest.mark.slow

REPO_DIR = Path(__file__).resolve().parent.parent
CORPUS_DIR = REPO_DIR.parent / "shared" / "corpus"

JAPANESE = "日本語のテキスト"


def _cjk_pdf() -> bytes:
    """A Type0 font naming the predefined CMap 90ms-RKSJ-H, no /ToUnicode: only the CMap gives text."""
    b = PdfBuilder()
    cid_font = b.add({"Type": "/Font", "Subtype": "/CIDFontType0", "BaseFont": "/KozMinPr6N-Regular",
                      "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Japan1", "Supplement": 2}, "DW": 1000})
    font = b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/KozMinPr6N-Regular",
                  "Encoding": "/90ms-RKSJ-H", "DescendantFonts": [cid_font]})
    codes = JAPANESE.encode("cp932").hex().encode()
    b.page(content=b"BT /F1 12 Tf 72 700 Td <" + codes + b"> Tj ET", fonts={"F1": font})
    return b.build()


def _brotli_pdf() -> bytes | None:
    try:
        import brotli
    except ImportError:
        return None
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(content=b"", fonts={"F1": font})
    b.objects[page.num]["Contents"] = b.stream(brotli.compress(b"BT /F1 12 Tf 72 700 Td (Brotli text) Tj ET"),
                                               {"Filter": "/BrotliDecode"})
    return b.build()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv (no access to the checkout) with the wheel and pypdf; returns its python."""
    tmp = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GLYPHLINE_WHEEL_CMAPS")}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"), str(REPO_DIR)],
                   check=True, env=env, cwd=tmp)
    (wheel,) = (tmp / "dist").glob("glyphline-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "glyphline/data/cmaps/90ms-RKSJ-H.bcmap" in names and "glyphline/data/cmaps/LICENSE" in names
    assert "glyphline/data/brotli/dictionary.bin" in names
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv")], check=True)
    python = tmp / "venv" / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", str(wheel)], check=True, env=env, cwd=tmp)
    # pypdf (pure Python) copied from this interpreter: offline, and the same pinned version
    import pypdf
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True, cwd=tmp).stdout.strip())
    shutil.copytree(Path(pypdf.__file__).parent, site / "pypdf", ignore=shutil.ignore_patterns("__pycache__"))
    assert Path(sysconfig.get_paths()["purelib"]) != site
    return python


def _outside(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The venv's python, away from the checkout: no PYTHONPATH, another working directory."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(python), *args], capture_output=True, text=True, env=env, cwd=cwd)


def _run(python: Path, pdf: Path) -> subprocess.CompletedProcess:
    return _outside(python, "-m", "glyphline", str(pdf), cwd=pdf.parent)


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    out = _outside(installed, "-c", "import glyphline; print(glyphline.__file__)", cwd=tmp_path).stdout
    assert str(REPO_DIR) not in out and str(installed.parent.parent) in out


def test_installed_wheel_reads_a_predefined_cmap(installed, tmp_path):
    pdf = tmp_path / "cjk.pdf"
    pdf.write_bytes(_cjk_pdf())
    done = _run(installed, pdf)
    assert done.returncode == 0, done.stderr
    assert JAPANESE in done.stdout


def test_installed_wheel_reads_the_corpus_cmap_sample(installed, tmp_path):
    source = CORPUS_DIR / "wild" / "pdfjs" / "90ms_rksj_h_sample.pdf"
    if not source.is_file():
        pytest.skip("shared corpus not found")
    pdf = tmp_path / source.name
    shutil.copyfile(source, pdf)
    done = _run(installed, pdf)
    assert done.returncode == 0, done.stderr
    assert "日本語テスト" in done.stdout


def test_installed_wheel_decodes_brotli_without_the_c_extension(installed, tmp_path):
    data = _brotli_pdf()
    if data is None:
        pytest.skip("brotli (the dev extra) is needed to write the test file")
    assert _outside(installed, "-c", "import brotli", cwd=tmp_path).returncode != 0          # the fresh venv has only the pure-Python decoder
    pdf = tmp_path / "brotli.pdf"
    pdf.write_bytes(data)
    done = _run(installed, pdf)
    assert done.returncode == 0, done.stderr
    assert "Brotli text" in done.stdout
    loaded = _outside(installed, "-c", "from glyphline import brotli; d, t = brotli.static_data(); "
                      "print(len(d), len(t), brotli.__file__)", cwd=tmp_path)
    assert str(REPO_DIR) not in loaded.stdout
    assert loaded.stdout.split()[:2] == ["122784", "121"]   # the package data the dictionary words come from
