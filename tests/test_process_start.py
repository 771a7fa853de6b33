"""Process start: a plain text extraction in a fresh interpreter skips the work it does not need.

Tables only some fonts use are built when such a font first needs them (glyphline.fonts); the
crypto provider is covered in test_lazy_crypto.py. The tables' contents are tested in
test_fonts.py; here, only that a process meeting none of those fonts never builds them.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from pdfbuilder import PdfBuilder, simple_page_pdf

REPO = Path(__file__).resolve().parents[1]


def fresh_process(script: str) -> dict:
    code = f"import sys\nsys.path.insert(0, {str(REPO)!r})\n" + textwrap.dedent(script)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def built_tables_after(pdf: Path) -> dict:
    return fresh_process(f"""
        import json, pathlib
        import glyphline
        text = glyphline.extract_text(pathlib.Path({str(pdf)!r}).read_bytes()).text
        from glyphline.fonts import encodings, texfonts
        print(json.dumps({{"text": text,
                          "tex": texfonts.t1_table.cache_info().currsize + texfonts.ot1_table.cache_info().currsize,
                          "mac_expert": encodings.mac_expert.cache_info().currsize}}))
    """)


def test_a_plain_file_builds_neither_tex_nor_mac_expert_tables(tmp_path):
    pdf = tmp_path / "plain.pdf"
    pdf.write_bytes(simple_page_pdf(b"plain words"))
    out = built_tables_after(pdf)
    assert out["text"].strip() == "plain words"
    assert out["tex"] == 0
    assert out["mac_expert"] == 0


def test_a_mac_expert_font_builds_its_table_on_first_use(tmp_path):
    b = PdfBuilder()
    font = b.font_type1("Times-Roman", encoding="/MacExpertEncoding")
    b.page(b"BT /F1 12 Tf 72 700 Td (\x56) Tj ET", fonts={"F1": font})   # 0x56: ff
    pdf = tmp_path / "expert.pdf"
    pdf.write_bytes(b.build())
    out = built_tables_after(pdf)
    assert out["text"].strip() == "ff"   # the ligature, spelled out by layout (0x56 is "V" in other encodings)
    assert out["mac_expert"] == 1


def command_line_run(pdf: Path, then: str = "") -> dict:
    """The command line's start (glyphline.__main__) on one file, then `then`; what it imported."""
    return fresh_process(f"""
        import json, sys
        from glyphline.__main__ import _import_pypdf_reading_half
        _import_pypdf_reading_half()
        from glyphline.cli import main
        code = main([{str(pdf)!r}, "-o", {str(pdf.with_suffix(".txt"))!r}, "--quiet"])
        out = {{"code": code, "modules": sorted(sys.modules)}}
        {textwrap.indent(textwrap.dedent(then), " " * 8).strip()}
        print(json.dumps(out))
    """)


def test_the_command_line_reads_without_pypdfs_writer_or_pillow(tmp_path):
    pdf = tmp_path / "plain.pdf"
    pdf.write_bytes(simple_page_pdf(b"plain words"))
    out = command_line_run(pdf)
    assert out["code"] == 0
    assert pdf.with_suffix(".txt").read_text(encoding="utf-8").strip() == "plain words"
    assert "pypdf._reader" in out["modules"]
    for unneeded in ("pypdf._writer", "pypdf.pagerange", "pypdf.papersizes", "pypdf.generic._appearance_stream", "PIL"):
        assert unneeded not in out["modules"], unneeded


def test_pypdf_imported_after_the_command_lines_start_is_the_whole_package(tmp_path):
    pdf = tmp_path / "plain.pdf"
    pdf.write_bytes(simple_page_pdf(b"plain words"))
    out = command_line_run(pdf, then="""
        import pypdf
        from pypdf import PdfWriter, PageRange
        out["missing"] = [name for name in pypdf.__all__ if not hasattr(pypdf, name)]
        out["writer"] = PdfWriter.__module__
        out["same_reader"] = pypdf.PdfReader is sys.modules["pypdf._reader"].PdfReader
        out["version"] = pypdf.__version__
        out["plain_module"] = type(pypdf).__name__
    """)
    assert out["code"] == 0
    assert out["missing"] == []
    assert out["writer"] == "pypdf._writer"
    assert out["same_reader"] is True
    assert out["version"]
    assert out["plain_module"] == "module"


def test_the_command_lines_start_compiles_no_record_methods_once_the_table_is_written(tmp_path):
    """`python -m glyphline._record_code` (make bytecode) writes what the start and a first page
    compile; a command line's run then takes every dataclass and NamedTuple method from it."""
    prefix = ["-X", f"pycache_prefix={tmp_path / 'bytecode'}"]
    written = subprocess.run([sys.executable, *prefix, "-m", "glyphline._record_code"], capture_output=True,
                             text=True, timeout=120, cwd=REPO)
    assert written.returncode == 0, written.stderr
    pdf = tmp_path / "plain.pdf"
    pdf.write_bytes(simple_page_pdf(b"plain words"))
    code = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(REPO)!r})
        from glyphline.__main__ import import_start_up
        from glyphline._record_code import precompiled
        with precompiled() as learnt:
            code = import_start_up()([{str(pdf)!r}, "-o", {str(tmp_path / 'out.txt')!r}, "--quiet"])
        print(json.dumps({{"code": code, "compiled": [repr(key[0][:80]) for key in learnt]}}))
    """)
    done = subprocess.run([sys.executable, *prefix, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["code"] == 0 and (tmp_path / "out.txt").read_text(encoding="utf-8").strip() == "plain words"
    assert out["compiled"] == []


def test_import_glyphline_loads_no_engine_stage_nor_dataclasses():
    out = fresh_process("""
        import json, sys
        import glyphline
        before = sorted(sys.modules)
        limits = glyphline.Limits   # a lazy name loads its module on first use
        print(json.dumps({"before": before, "limits": limits.__module__}))
    """)
    for unneeded in ("dataclasses", "inspect", "pypdf", "glyphline.limits", "glyphline.document", "glyphline.layout"):
        assert unneeded not in out["before"], unneeded
    assert out["limits"] == "glyphline.limits"
