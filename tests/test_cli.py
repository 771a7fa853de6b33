"""The command line, run as `python -m glyphline` in a subprocess: outputs, batch, exit codes."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from pdfbuilder import encrypt

from glyphline import batch, cli
from test_extract import image_only_pdf, needs_pipeline, text_pdf, unmapped_font_pdf

REPO = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("GLYPHLINE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "glyphline", *args], input=stdin, capture_output=True,
                          env=env, cwd=cwd, timeout=120)


def stderr_lines(proc) -> list[str]:
    text = proc.stderr.decode("utf-8")
    assert "Traceback" not in text
    return [line for line in text.splitlines() if line]


@pytest.fixture
def files(tmp_path):
    def make(name: str, data: bytes) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)
    return make


# ----------------------------------------------------------------------------- usage (exit 2)

def test_help_documents_every_exit_code():
    proc = run("--help")
    assert proc.returncode == 0
    out = proc.stdout.decode()
    for code in ("0  ok", "2  usage", "3  no text layer", "4  password", "5  not a PDF"):
        assert code in out


@pytest.mark.parametrize("args", [[], ["--pages", "3-1", "x.pdf"], ["--mode", "html", "x.pdf"],
                                  ["--jobs", "0", "x.pdf"], ["-o", "a", "--outdir", "b", "x.pdf"], ["-", "-"],
                                  ["--jobs", "2", "--dask", "local", "x.pdf"]])
def test_usage_errors_exit_2(args):
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr.decode()


def test_a_missing_file_exits_2_with_one_line(tmp_path):
    proc = run(str(tmp_path / "nope.pdf"))
    assert proc.returncode == 2
    assert stderr_lines(proc) == [f"glyphline: {tmp_path / 'nope.pdf'}: cannot read the file (No such file or directory)"]


# ----------------------------------------------------------------------------- password (4), broken (5)

def test_a_password_is_required_then_wrong_then_right(files):
    path = files("locked.pdf", encrypt(text_pdf([["secret words"]]), "AES-128", user_password="pw"))
    proc = run(path)
    assert proc.returncode == 4
    assert stderr_lines(proc) == [f"glyphline: {path}: needs a password (use --password)"]
    proc = run("--password", "nope", path)
    assert proc.returncode == 4
    assert stderr_lines(proc) == [f"glyphline: {path}: the password is wrong"]


@needs_pipeline
def test_the_right_password_opens_the_file(files):
    path = files("locked.pdf", encrypt(text_pdf([["secret words inside"]]), "AES-128", user_password="pw"))
    proc = run("--password", "pw", path)
    assert proc.returncode == 0
    assert proc.stdout.decode() == "secret words inside\n"


@pytest.mark.parametrize("data, words", [(b"", "not a PDF"), (b"<html>hello</html>", "not a PDF"),
                                         (b"%PDF-1.7\n" + b"\x00garbage" * 50, "damaged beyond repair")])
def test_not_a_pdf_or_damaged_exits_5(files, data, words):
    path = files("bad.pdf", data)
    proc = run(path)
    lines = stderr_lines(proc)
    assert proc.returncode == 5
    assert len(lines) == 1 and lines[0].startswith(f"glyphline: {path}: ")
    assert words in lines[0]


# ----------------------------------------------------------------------------- outputs (need the pipeline)

@needs_pipeline
def test_one_file_goes_to_stdout(files):
    proc = run(files("two.pdf", text_pdf([["Hello world, page one"], ["Second page here"]])))
    assert proc.returncode == 0
    assert proc.stdout.decode() == "Hello world, page one\n\fSecond page here\n"
    assert stderr_lines(proc) == []


@needs_pipeline
def test_stdin_and_output_file(tmp_path):
    data = text_pdf([["From standard input"]])
    proc = run("-", stdin=data)
    assert (proc.returncode, proc.stdout) == (0, b"From standard input\n")
    out = tmp_path / "out.txt"
    proc = run("-", "-o", str(out), stdin=data)
    assert proc.returncode == 0 and proc.stdout == b""
    assert out.read_text(encoding="utf-8") == "From standard input\n"


@needs_pipeline
def test_markers_no_page_breaks_bom_and_pages(files):
    path = files("three.pdf", text_pdf([["First page text"], [], ["Third page text"]]))
    proc = run("--markers", path)
    assert proc.stdout.decode() == "--- Page 1 ---\nFirst page text\n\n--- Page 2 ---\n\n--- Page 3 ---\nThird page text\n"
    assert run("--no-page-breaks", path).stdout.decode() == "First page text\n\nThird page text\n"
    assert run("--bom", "--pages", "3", path).stdout == "\ufeffThird page text\n".encode("utf-8")
    assert run("--pages", "1,3-", path).stdout.decode() == "First page text\n\fThird page text\n"


@needs_pipeline
def test_page_warnings_are_printed_unless_quiet(files):
    path = files("three.pdf", text_pdf([["First page text"], ["Second page text"]]))
    proc = run("--pages", "2-9", path)
    assert proc.stdout.decode() == "Second page text\n"
    assert len(stderr_lines(proc)) == 1 and "pages from 3 on" in stderr_lines(proc)[0]
    assert stderr_lines(run("--quiet", "--pages", "2-9", path)) == []


@needs_pipeline
def test_json_mode(files):
    proc = run("--mode", "json", files("one.pdf", text_pdf([["Hello world and more"]])))
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["schema"] == "glyphline/1"
    assert doc["pages"][0]["blocks"][0]["lines"][0]["text"] == "Hello world and more"


@needs_pipeline
def test_an_image_only_file_exits_3_and_says_it_needs_ocr(files, tmp_path):
    path = files("scan.pdf", image_only_pdf(2))
    out = tmp_path / "scan.txt"
    proc = run(path, "-o", str(out))
    assert proc.returncode == 3
    lines = stderr_lines(proc)
    assert len(lines) == 1 and "needs OCR" in lines[0] and lines[0].startswith(f"glyphline: {path}: ")
    assert out.exists()  # whatever text there is (here only the page break) is still written


@needs_pipeline
def test_a_scanned_page_among_text_pages_warns_and_exits_0(files):
    mixed = image_only_pdf(1, text_first="A page with a real text layer, and a few more words on it")
    proc = run(files("mixed.pdf", mixed))
    assert proc.returncode == 0
    assert any("page 2 has no text layer" in line for line in stderr_lines(proc))


@needs_pipeline
def test_a_file_whose_fonts_have_no_character_mapping_says_so_even_quietly_and_is_not_called_a_scan(files):
    proc = run(files("unmapped.pdf", unmapped_font_pdf(20)), "--quiet")
    assert proc.returncode == 0
    lines = stderr_lines(proc)
    assert len(lines) == 1 and "no character mapping" in lines[0] and "OCR" in lines[0]
    assert "scanned" not in lines[0]
    mixed = unmapped_font_pdf(20, text_first="A page with a real text layer, and a few more words on it")
    proc = run(files("mixed.pdf", mixed))
    assert proc.returncode == 0
    assert any("the fonts of page 2 have no character mapping" in line for line in stderr_lines(proc))
    both = run(files("u.pdf", unmapped_font_pdf(20)), files("scan.pdf", image_only_pdf(1)), "--quiet")
    assert both.returncode == 3      # the highest code wins: a scan outranks unmapped fonts


@needs_pipeline
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_keeps_good_outputs_when_one_file_is_broken(files, tmp_path, jobs):
    good = [files(f"good{i}.pdf", text_pdf([[f"Document number {i}"]])) for i in range(3)]
    broken = files("broken.pdf", b"this is not a pdf at all")
    scan = files("scan.pdf", image_only_pdf(1))
    outdir = tmp_path / "out"
    proc = run("--outdir", str(outdir), "--jobs", jobs, good[0], broken, good[1], scan, good[2])
    assert proc.returncode == 5  # the worst of 0, 5, 3
    for i in range(3):
        assert (outdir / f"good{i}.txt").read_text(encoding="utf-8") == f"Document number {i}\n"
    assert (outdir / "scan.txt").exists() and not (outdir / "broken.txt").exists()
    lines = stderr_lines(proc)
    assert any(line.startswith(f"glyphline: {broken}: not a PDF") for line in lines)
    assert any("needs OCR" in line for line in lines)
    assert proc.stdout == b""


@needs_pipeline
@pytest.mark.slow
def test_dask_converts_on_a_local_cluster_and_writes_the_outputs_here(files, tmp_path):
    pytest.importorskip("distributed")
    good = [files(f"good{i}.pdf", text_pdf([[f"Document number {i}"]])) for i in range(3)]
    broken = files("broken.pdf", b"this is not a pdf at all")
    outdir = tmp_path / "out"
    proc = run("--dask", "local", "--outdir", str(outdir), good[0], broken, good[1], good[2])
    assert proc.returncode == 5
    assert sorted(p.name for p in outdir.iterdir()) == ["good0.txt", "good1.txt", "good2.txt"]
    assert (outdir / "good2.txt").read_text(encoding="utf-8") == "Document number 2\n"
    lines = stderr_lines(proc)
    assert len(lines) == 1 and lines[0].startswith(f"glyphline: {broken}: not a PDF")
    to_stdout = run("--dask", "local", good[1], good[0])
    assert to_stdout.stdout.decode() == "Document number 1\nDocument number 0\n"   # argument order


def test_dask_scheduler_that_does_not_answer_is_one_line(files, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "1s")
    proc = run("--dask", "tcp://127.0.0.1:9", files("x.pdf", b"%PDF-1.4"))
    lines = stderr_lines(proc)
    assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("glyphline: --dask tcp://127.0.0.1:9: ")


@needs_pipeline
def test_batch_names_do_not_collide_and_json_gets_its_extension(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "same.pdf").write_bytes(text_pdf([[f"written in folder {folder}"]]))
    outdir = tmp_path / "out"
    proc = run("--outdir", str(outdir), "--mode", "json", "a/same.pdf", "b/same.pdf", cwd=tmp_path)
    assert proc.returncode == 0
    assert sorted(p.name for p in outdir.iterdir()) == ["same-2.json", "same.json"]


@needs_pipeline
def test_several_files_to_stdout_keep_argument_order_and_worst_code(files):
    first = files("first.pdf", text_pdf([["the first file"]]))
    locked = files("locked.pdf", encrypt(text_pdf([["x"]]), "RC4-128", user_password="pw"))
    second = files("second.pdf", text_pdf([["the second file"]]))
    proc = run(first, locked, second)
    assert proc.returncode == 4
    assert proc.stdout.decode() == "the first file\nthe second file\n"


# ----------------------------------------------------------------------------- in-process: last net, progress

class _TtyBuffer(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_an_unexpected_error_is_one_line_and_exit_5_unless_debugging(files, monkeypatch, capsys):
    path = files("any.pdf", text_pdf([["whatever text is here"]]))

    def explode(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cli, "extract_text", explode)
    monkeypatch.delenv("GLYPHLINE_DEBUG", raising=False)
    assert cli.main([path]) == 5
    assert capsys.readouterr().err == f"glyphline: {path}: unexpected error (RuntimeError: boom); please report this file\n"
    monkeypatch.setenv("GLYPHLINE_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main([path])


@needs_pipeline
def test_a_progress_bar_is_drawn_only_on_a_terminal_for_long_files(files, monkeypatch):
    path = files("long.pdf", text_pdf([[f"This is page number {i}"] for i in range(cli.PROGRESS_MIN_PAGES)]))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    terminal = _TtyBuffer()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main([path]) == 0
    drawn = terminal.getvalue()
    assert f"] {cli.PROGRESS_MIN_PAGES}/{cli.PROGRESS_MIN_PAGES} pages" in drawn and drawn.endswith("\r\x1b[K")
    quiet = _TtyBuffer()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert cli.main(["--quiet", path]) == 0
    assert quiet.getvalue() == ""


# stages a plain text run on a Latin page written in a simple font never needs
NOT_FOR_PLAIN_TEXT = ("glyphline.content.ocr", "glyphline.tesseract", "glyphline.images", "glyphline.layout.structure",
                      "glyphline.fonts.composite", "glyphline.fonts.cmaps", "glyphline.fonts.bcmap",
                      "glyphline.bidi", "glyphline.layout.tagged", "glyphline.content.links",
                      "glyphline.structure")


@needs_pipeline
def test_a_plain_text_run_loads_only_the_stages_it_uses(files):
    """Each module imported costs every small file's process its start-up: these wait for the input that needs them."""
    path = files("one.pdf", text_pdf([["a single short page"]]))
    code = ("import sys; from glyphline import cli; code = cli.main([sys.argv[1], '--quiet', '-o', sys.argv[2]]); "
            f"print(code, [m for m in {NOT_FOR_PLAIN_TEXT!r} if m in sys.modules])")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code, path, path + ".txt"], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out.split() == ["0", "[]"]
    assert Path(path + ".txt").read_text(encoding="utf-8").startswith("a single short page")


@needs_pipeline
def test_the_command_line_never_loads_pillow_though_pypdf_would(files):
    """pypdf imports PIL.Image on start when Pillow is installed (~70 M instructions a process), for an API the
    command line never calls: the process hides Pillow while pypdf starts, and pypdf still reads the file."""
    pytest.importorskip("PIL.Image")
    path = files("one.pdf", text_pdf([["a single short page"]]))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "glyphline", path, "--quiet", "-o", path + ".txt"],
                         capture_output=True, text=True, env=env, check=True)
    # (importtime lists attempts too: the hidden PIL.Image appears, failing at once; Pillow's C core never loads)
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "pypdf._page" in imported and "PIL._imaging" not in imported
    assert Path(path + ".txt").read_text(encoding="utf-8").startswith("a single short page")


@needs_pipeline
def test_a_one_file_run_never_loads_the_process_pool(files):
    """The pool machinery (multiprocessing) costs every small file's process start; one short file needs none."""
    path = files("one.pdf", text_pdf([["a single short page"]]))
    code = ("import sys; from glyphline import cli; code = cli.main([sys.argv[1], '--quiet', '-o', sys.argv[2]]); "
            "print(code, 'concurrent.futures.process' in sys.modules, 'multiprocessing' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code, path, path + ".txt"], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out.split() == ["0", "False", "False"]


# ----------------------------------------------------------------------------- per-file budgets (--max-seconds, --max-memory)

from test_batch import CRASH, HANG, HOG, hostile_extract_text, hostile_pdf   # noqa: E402

from glyphline import isolation   # noqa: E402

needs_fork = pytest.mark.skipif(not isolation.FORK_AVAILABLE, reason="needs os.fork")


@pytest.fixture
def hostile_engine(monkeypatch):
    """cli.extract_text misbehaves on marked files; the served children fork after the change."""
    monkeypatch.setattr(cli, "extract_text", lambda data, *args, **kwargs: hostile_extract_text(data, *args, **kwargs))
    isolation.stop_serving()
    yield
    isolation.stop_serving()   # the next test's children must not keep this engine


@needs_fork
def test_a_file_over_its_budget_costs_only_its_own_output(files, hostile_engine, capsys):
    names = [files(name, data) for name, data in (("a.pdf", text_pdf([["Alpha"]])), ("hang.pdf", hostile_pdf(HANG)),
                                                  ("crash.pdf", hostile_pdf(CRASH)), ("b.pdf", text_pdf([["Beta"]])))]
    code = cli.main(["--jobs", "1", "--max-seconds", "1", *names])
    out, err = capsys.readouterr()
    assert code == 5 and out == "Alpha\nBeta\n"
    assert err.splitlines() == [f"glyphline: {names[1]}: took more than 1 s: stopped inside a page",
                                f"glyphline: {names[2]}: the converting process died (exited with code 3); please report this file"]
    hog = files("hog.pdf", hostile_pdf(HOG))
    assert cli.main(["--max-memory", "100", hog, names[0]]) == 5
    out, err = capsys.readouterr()
    assert out == "Alpha\n" and err == f"glyphline: {hog}: out of memory\n"


def test_budgets_must_be_positive(files):
    proc = run("--max-seconds", "0", files("x.pdf", text_pdf([["x"]])))
    assert proc.returncode == 2 and "--max-seconds must be more than 0" in proc.stderr.decode()


try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:   # without the dask extra the cluster test skips
    WorkerPlugin = object


class HostileCliEngine(WorkerPlugin):
    """Every worker's cli.extract_text misbehaves on marked files."""

    def setup(self, worker):
        cli.extract_text = hostile_extract_text


@needs_fork
@pytest.mark.slow
def test_dask_applies_the_budgets_on_the_workers(files):
    distributed = pytest.importorskip("distributed")
    names = [files(name, data) for name, data in (("a.pdf", text_pdf([["Alpha"]])), ("hang.pdf", hostile_pdf(HANG)),
                                                  ("crash.pdf", hostile_pdf(CRASH)), ("b.pdf", text_pdf([["Beta"]])))]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        client.register_plugin(HostileCliEngine())
        workers_before = client.run(os.getpid)
        proc = run("--dask", cluster.scheduler_address, "--max-seconds", "1", *names)
        assert client.run(os.getpid) == workers_before   # the children died, not the workers
    assert proc.returncode == 5 and proc.stdout.decode() == "Alpha\nBeta\n"
    assert stderr_lines(proc) == [f"glyphline: {names[1]}: took more than 1 s: stopped inside a page",
                                  f"glyphline: {names[2]}: the converting process died (exited with code 3); "
                                  "please report this file"]


@needs_pipeline
@pytest.mark.slow
def test_dask_converts_chunks_of_files_and_a_chunk_whose_worker_died_file_by_file(files, tmp_path, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")
    names = [files(f"f{i:02d}.pdf", text_pdf([[f"Document {i}"]])) for i in range(40)]
    killer = names[2]
    log = tmp_path / "tasks.jsonl"   # the tasks' files, one line a task (the task may run on a copy of this function)
    real_task = cli.convert_jobs_within

    def recorded_task(jobs, *args, **kwargs):   # stands in for a worker lost while converting the killer
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps([job.name for job in jobs]) + "\n")
        if any(job.name == killer for job in jobs):
            raise distributed.KilledWorker("convert-killer", SimpleNamespace(address="tcp://worker"), 1)
        return real_task(jobs, *args, **kwargs)

    monkeypatch.setattr(cli, "convert_jobs_within", recorded_task)
    outdir = tmp_path / "out"
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        code = cli.main(["--dask", cluster.scheduler_address, "--outdir", str(outdir), *names])
    assert code == 5
    tasks = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    killers_chunk = next(task for task in tasks if killer in task)
    assert killers_chunk == names[:len(killers_chunk)] and len(killers_chunk) > 1   # the first, large chunk
    alone = [[name] for name in killers_chunk]
    # then its files one by one (a task that raised is retried once), and the killer once more alone after the rest
    assert sorted(task for task in tasks if task in alone and task != [killer]) == [task for task in alone if task != [killer]]
    assert tasks[-1] == [killer]
    first_round = {tuple(task) for task in tasks if task not in alone}
    planned = batch.plan_chunks([batch.expected_cost(name) for name in names], threads=2)
    assert len(first_round) == len(planned) < len(names)   # map_on_dask's chunks: fewer tasks than files
    assert sorted(p.name for p in outdir.iterdir()) == [f"f{i:02d}.txt" for i in range(40) if i != 2]
    assert (outdir / "f39.txt").read_text(encoding="utf-8") == "Document 39\n"
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"glyphline: {killer}: the converting worker died (KilledWorker")


@needs_pipeline
def test_the_text_is_written_as_it_is_made_to_a_file_a_pipe_and_an_output_folder(files, tmp_path, monkeypatch):
    """The command line hands extract_text a writer (-o, a pipe, --outdir), so a long document's
    text is never held whole; the output is that of the text made at once, and a file that fails
    midway leaves no output and no part file behind."""
    from glyphline import extract

    path = files("two.pdf", text_pdf([["Hello world, page one"], ["Second page here"]]))
    calls = []

    def recording(*args, **kwargs):
        calls.append(kwargs.get("write"))
        return extract.extract_text(*args, **kwargs)

    monkeypatch.setattr(cli, "extract_text", recording)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    out = tmp_path / "out.txt"
    assert cli.main(["--quiet", "--markers", path, "-o", str(out)]) == 0
    assert cli.main(["--quiet", path]) == 0
    assert cli.main(["--quiet", "--outdir", str(tmp_path / "folder"), path]) == 0
    assert len(calls) == 3 and all(write is not None for write in calls)
    assert out.read_text(encoding="utf-8") == extract.extract_text(Path(path).read_bytes(), markers=True).text
    sys.stdout.flush()
    assert sys.stdout.buffer.getvalue().decode() == "Hello world, page one\n\fSecond page here\n"
    assert (tmp_path / "folder" / "two.txt").read_text(encoding="utf-8") == "Hello world, page one\n\fSecond page here\n"

    def failing(data, options, **kwargs):
        kwargs["write"]("the first page\n")
        raise extract.Cancelled("stopped")

    monkeypatch.setattr(cli, "extract_text", failing)
    failed = tmp_path / "failed.txt"
    assert cli.main(["--quiet", path, "-o", str(failed)]) == cli.EXIT_BROKEN
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "out.txt", "two.pdf"]


def test_a_worker_that_dies_while_it_writes_an_output_leaves_no_part_file(files, tmp_path, monkeypatch):
    """An output is written as it is made, under a name the main process chose: when the process
    writing it dies midway (out of memory, killed), the main process removes what it left."""
    path = files("one.pdf", text_pdf([["whatever text is here"]]))
    outdir = tmp_path / "out"

    def dies_midway(budgets, job, options):
        with open(job.temporary, "w") as unfinished:
            unfinished.write("the first pages")
        return cli.Outcome(job.index, job.name, cli.EXIT_BROKEN, [f"glyphline: {job.name}: the converting process died"])

    monkeypatch.setattr(cli, "convert_within", dies_midway)
    assert cli.main(["--quiet", "--jobs", "1", "--outdir", str(outdir), path, path]) == cli.EXIT_BROKEN
    assert list(outdir.iterdir()) == []


def test_an_output_that_cannot_be_renamed_into_place_leaves_no_part_file(files, tmp_path):
    """-o naming a directory: the text is written beside it, the rename fails, and the written
    temporary file is removed with the error line (it was left behind once closed)."""
    path = files("one.pdf", text_pdf([["whatever text is here"]]))
    taken = tmp_path / "taken"
    taken.mkdir()
    assert cli.main(["--quiet", path, "-o", str(taken)]) == cli.EXIT_USAGE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.pdf", "taken"]
    assert list(taken.iterdir()) == []


def test_a_path_is_read_through_its_file_not_held_whole(files, monkeypatch, capsys):
    """The command line hands extract_text the open file (pypdf reads the objects it needs), closes
    it after; --jobs workers reopen the path rather than receive the bytes."""
    from glyphline import parallel

    seen = []
    real = cli.extract_text

    def spy(data, *args, **kwargs):
        seen.append(data)
        return real(data, *args, **kwargs)

    monkeypatch.setattr(cli, "extract_text", spy)
    name = files("a.pdf", text_pdf([["Alpha"]]))
    assert cli.main([name]) == 0 and capsys.readouterr().out == "Alpha\n"
    assert not isinstance(seen[0], bytes) and seen[0].closed and seen[0].name == name
    with open(name, "rb") as file:
        assert parallel._worker_source(file) == (name,)
    assert parallel._worker_source(io.BytesIO(b"%PDF")) == b"%PDF"
