"""glyphline.batch: one record per file that never raises, the batch command, and Dask (when installed)."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from glyphline import batch, isolation
from glyphline.batch import convert
from glyphline.extract import extract_text
from tests.pdfbuilder import PdfBuilder, encrypt, simple_page_pdf

# a file carrying one of these comments makes hostile_extract_text misbehave the way a hostile file could
HANG, CRASH, HOG = b"%glyphline-test: hang\n", b"%glyphline-test: crash\n", b"%glyphline-test: hog\n"


def hostile_extract_text(data, *args, **kwargs):
    """The engine, except on marked files: hangs inside a page, kills its process, or allocates without end.
    `data`: the bytes, or the file the command line reads through (its marker read from it)."""
    if not isinstance(data, bytes):
        data.seek(0)
        marked = data.read()
        data.seek(0)
    else:
        marked = data
    if HANG in marked:
        time.sleep(3600)
    if CRASH in marked:
        os._exit(3)
    if HOG in marked:
        hoard = []
        while True:
            hoard.append(bytearray(16 * isolation.MiB))
    return extract_text(data, *args, **kwargs)


def hostile_pdf(marker: bytes) -> bytes:
    return simple_page_pdf(b"Hostile") + marker


def two_page_pdf() -> bytes:
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 12 Tf 72 700 Td (First page text) Tj ET", fonts={"F1": font})
    b.page(b"BT /F1 12 Tf 72 700 Td (Second page text) Tj ET", fonts={"F1": font})
    return b.build()


def test_a_good_file_gives_text_pages_and_timing():
    record = convert(two_page_pdf())
    assert record["status"] == "ok" and record["error"] == ""
    assert record["text"].split() == ["First", "page", "text", "Second", "page", "text"]
    assert [page["number"] for page in record["pages"]] == [1, 2]
    assert record["pages"][1]["blocks"][0]["lines"][0]["text"] == "Second page text"
    assert record["page_count"] == 2 and record["seconds"] >= 0
    json.dumps(record)   # JSON-ready as it is


def test_a_path_is_read_and_named(tmp_path):
    path = tmp_path / "hello.pdf"
    path.write_bytes(simple_page_pdf(b"Hello batch"))
    record = convert(path)
    assert (record["source"], record["text"].strip()) == (str(path), "Hello batch")


def test_a_path_is_extracted_through_its_open_file_not_read_whole(tmp_path, monkeypatch):
    """A local path (or file:// URL) is handed to the engine as its open file, which pypdf reads
    through (a long file is not held whole), and closed after; the record is the bytes' one."""
    path = tmp_path / "two.pdf"
    path.write_bytes(two_page_pdf())
    given = []

    def spy(data, *args, **kwargs):
        given.append(data)
        return extract_text(data, *args, **kwargs)

    monkeypatch.setattr(batch, "extract_text", spy)
    records = [convert(path), convert("file://" + str(path)), convert(path.read_bytes())]
    assert [type(data) is bytes for data in given] == [False, False, True]
    assert all(data.closed for data in given[:2])
    same = [{k: v for k, v in record.items() if k not in ("source", "seconds", "cpu_seconds")} for record in records]
    assert same[0] == same[1] == same[2] and same[0]["status"] == "ok"


@pytest.mark.parametrize("source, status", [
    (b"this is not a pdf at all", "not-pdf"),
    (b"%PDF-1.7\n1 0 obj << >> endobj trailer << >>\n%%EOF", "damaged"),
    ("/no/such/file.pdf", "unreadable"),
])
def test_a_bad_file_is_a_record_not_an_exception(source, status):
    record = convert(source)
    assert record["status"] == status and record["error"] and record["text"] == "" and record["pages"] == []


def test_an_encrypted_file_without_its_password_says_so():
    data = encrypt(simple_page_pdf(b"Secret"), "AES-128", user_password="pw")
    assert convert(data)["status"] == "password"
    assert convert(data, password="pw")["text"].strip() == "Secret"


def test_the_file_time_budget_stops_between_pages():
    record = convert(two_page_pdf(), max_seconds=0)
    assert record["status"] == "budget" and "took more than" in record["error"]


needs_fork = pytest.mark.skipif(not isolation.FORK_AVAILABLE, reason="needs os.fork")


@needs_fork
def test_a_file_that_hangs_inside_a_page_is_stopped_at_its_budget(monkeypatch):
    monkeypatch.setattr(batch, "extract_text", hostile_extract_text)
    record = convert(hostile_pdf(HANG), max_seconds=0.5, name="hang.pdf")
    assert (record["source"], record["status"]) == ("hang.pdf", "budget")
    assert "took more than 0.5 s" in record["error"] and record["text"] == ""


@needs_fork
def test_a_file_that_kills_its_process_costs_only_its_record(monkeypatch):
    monkeypatch.setattr(batch, "extract_text", hostile_extract_text)
    record = convert(hostile_pdf(CRASH), isolate=True)
    assert record["status"] == "crashed" and "exited with code 3" in record["error"]
    assert convert(simple_page_pdf(b"Still here"), isolate=True)["text"].strip() == "Still here"


@needs_fork
def test_a_file_over_its_memory_budget_is_stopped(monkeypatch):
    monkeypatch.setattr(batch, "extract_text", hostile_extract_text)
    record = convert(hostile_pdf(HOG), max_memory_mib=100)
    assert (record["status"], record["error"]) == ("budget", "out of memory")


def test_an_isolated_record_is_the_in_process_one():
    isolated, in_process = convert(two_page_pdf(), isolate=True), convert(two_page_pdf(), isolate=False)
    assert isolated["status"] == "ok" and isolated["cpu_seconds"] > 0
    timing = ("seconds", "cpu_seconds")
    assert {k: v for k, v in isolated.items() if k not in timing} == {k: v for k, v in in_process.items() if k not in timing}


def test_unpack_gives_the_record_and_leaves_the_collector_as_it_found_it():
    import gc

    packed = batch.convert_packed(simple_page_pdf(b"Packed"))
    assert gc.isenabled()
    record = batch.unpack(packed)
    assert record["text"].strip() == "Packed" and record["seconds"] == packed[1] and gc.isenabled()
    gc.disable()
    try:
        assert batch.unpack(packed)["text"].strip() == "Packed" and not gc.isenabled()
    finally:
        gc.enable()


def test_options_pass_through():
    record = convert(two_page_pdf(), pages="2")
    assert record["text"].strip() == "Second page text" and len(record["pages"]) == 1


def test_the_command_writes_json_lines_for_files_and_folders(tmp_path, capsys):
    (tmp_path / "a.pdf").write_bytes(simple_page_pdf(b"Alpha"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.pdf").write_bytes(b"not a pdf")
    out = tmp_path / "records.jsonl"
    code = batch.main([str(tmp_path), "-o", str(out), "--no-pages"])
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["source"].rsplit("/", 1)[-1], r["status"]) for r in records] == [("a.pdf", "ok"), ("b.pdf", "not-pdf")]
    assert "pages" not in records[0]
    assert code == 1   # not every file converted
    assert "1 not-pdf, 1 ok" in capsys.readouterr().err


def test_parquet_shards_hold_every_record_with_one_schema(tmp_path):
    parquet = pytest.importorskip("pyarrow.parquet")
    for name, content in (("a.pdf", simple_page_pdf(b"Alpha")), ("b.pdf", b"not a pdf"), ("c.pdf", two_page_pdf())):
        (tmp_path / "in" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_bytes(content)
    code = batch.main([str(tmp_path / "in"), "--format", "parquet", "-o", str(tmp_path / "out"),
                       "--records-per-shard", "2"])
    shards = sorted((tmp_path / "out").iterdir())
    assert [p.name for p in shards] == ["part-00000.parquet", "part-00001.parquet"] and code == 1
    rows = [row for shard in shards for row in parquet.read_table(shard).to_pylist()]
    assert [(Path(r["source"]).name, r["status"]) for r in rows] == [("a.pdf", "ok"), ("b.pdf", "not-pdf"), ("c.pdf", "ok")]
    assert rows[0]["text"].strip() == "Alpha" and rows[1]["error"]
    assert [page["number"] for page in json.loads(rows[2]["pages"])] == [1, 2] and rows[2]["page_count"] == 2
    assert parquet.read_schema(shards[0]) == parquet.read_schema(shards[1])


def test_parquet_without_pyarrow_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)   # as if it were not installed
    (tmp_path / "a.pdf").write_bytes(simple_page_pdf(b"Alpha"))
    assert batch.main([str(tmp_path / "a.pdf"), "--format", "parquet", "-o", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (
        "glyphline.batch: Parquet output needs pyarrow: pip install 'glyphline[dask]' (or pyarrow)\n")


def test_parquet_needs_a_folder():
    with pytest.raises(SystemExit):
        batch.main(["x.pdf", "--format", "parquet"])


def test_fsspec_urls_name_folders_globs_and_outputs(tmp_path):
    fsspec = pytest.importorskip("fsspec")
    memory = fsspec.filesystem("memory")
    memory.pipe({"/corpus/a.pdf": simple_page_pdf(b"Alpha"), "/corpus/sub/b.pdf": simple_page_pdf(b"Beta"),
                 "/corpus/notes.txt": b"not a pdf, and not named like one"})
    try:
        assert batch.pdf_paths(["memory://corpus"]) == ["memory:///corpus/a.pdf", "memory:///corpus/sub/b.pdf"]
        assert batch.pdf_paths(["memory://corpus/*.pdf"]) == ["memory:///corpus/a.pdf"]
        assert batch.main(["memory://corpus", "-o", "memory://out/records.jsonl", "--no-pages"]) == 0
        records = [json.loads(line) for line in memory.cat("/out/records.jsonl").decode().splitlines()]
        assert [r["text"].strip() for r in records] == ["Alpha", "Beta"]
    finally:
        memory.rm("/corpus", recursive=True)
        memory.rm("/out", recursive=True)
    (tmp_path / "local.pdf").write_bytes(simple_page_pdf(b"Gamma"))
    assert convert(f"file://{tmp_path}/local.pdf")["text"].strip() == "Gamma"
    assert batch.pdf_paths([f"file://{tmp_path}"]) == [f"file://{tmp_path}/local.pdf"]


# ----------------------------------------------------------------------------- Dask (optional extra)

def test_dask_bag_and_a_local_cluster_give_one_record_per_file(tmp_path):
    pytest.importorskip("dask.bag")
    distributed = pytest.importorskip("distributed")
    paths = []
    for i in range(3):
        path = tmp_path / f"doc{i}.pdf"
        path.write_bytes(simple_page_pdf(b"Document %d" % i))
        paths.append(str(path))
    (tmp_path / "broken.pdf").write_bytes(b"garbage")
    paths.append(str(tmp_path / "broken.pdf"))

    bag_records = batch.to_dask_bag(paths, files_per_partition=2).compute(scheduler="sync")
    assert [r["status"] for r in bag_records] == ["ok", "ok", "ok", "not-pdf"]

    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        records = list(batch.map_on_dask(client, paths))
        assert list(batch.map_on_dask(client, [])) == []
    by_source = {r["source"]: r for r in records}
    assert sorted(by_source) == sorted(paths)
    assert [by_source[p]["text"].strip() for p in paths[:3]] == ["Document 0", "Document 1", "Document 2"]
    assert by_source[paths[3]]["status"] == "not-pdf"


@pytest.mark.parametrize("files_per_task", [1, 3])
def test_a_task_that_dies_on_the_cluster_becomes_a_record_and_the_run_goes_on(tmp_path, monkeypatch, files_per_task):
    distributed = pytest.importorskip("distributed")
    real_convert = batch.convert_packed

    def dying_convert(path, *args, **kwargs):   # stands in for a worker lost while converting this file
        if path.endswith("killer.pdf"):
            raise distributed.client.KilledWorker("convert-killer", "tcp://worker", None)
        return real_convert(path, *args, **kwargs)

    monkeypatch.setattr(batch, "convert_packed", dying_convert)
    paths = [str(tmp_path / name) for name in ("a.pdf", "killer.pdf", "b.pdf")]
    for path in paths:
        with open(path, "wb") as f:
            f.write(simple_page_pdf(b"Fine"))
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        records = list(batch.map_on_dask(client, paths, retries=0, files_per_task=files_per_task))
    assert [r["source"] for r in records] == paths   # a chunk that died was converted again file by file
    records = {r["source"]: r for r in records}
    assert records[paths[1]]["status"] == "worker-died" and "KilledWorker" in records[paths[1]]["error"]
    assert [records[p]["status"] for p in (paths[0], paths[2])] == ["ok", "ok"]


def test_chunks_are_consecutive_large_first_and_small_at_the_end():
    costs = [100.0] * 200 + [5000.0] + [100.0] * 99
    chunks = batch.plan_chunks(costs, threads=2)
    assert [i for chunk in chunks for i in chunk] == list(range(300))   # every file once, in input order
    assert len(chunks) < len(costs) / 5   # far fewer tasks than files
    assert max(len(chunk) for chunk in chunks) <= batch.MAX_CHUNK_FILES
    assert [len(chunk) for chunk in chunks[-3:]] == [1, 1, 1]   # the tail is a file a task: the threads end together
    sizes = [sum(costs[i] for i in chunk) for chunk in chunks]
    expensive = next(n for n, chunk in enumerate(chunks) if 200 in chunk)
    assert chunks[expensive] == range(200, 201) and len(chunks[expensive + 1]) > 1   # a costly file fills its chunk alone
    assert sizes[0] > sizes[len(sizes) // 2] > sizes[-1]
    assert batch.plan_chunks([], threads=2) == [] and batch.plan_chunks([1.0], threads=4) == [range(0, 1)]


def test_chunks_hold_at_most_the_files_asked():   # write_shards_on_dask: at most records_per_shard a shard
    chunks = batch.plan_chunks([1.0] * 1000, threads=1, max_files=7)
    assert max(len(chunk) for chunk in chunks) == 7 and [i for chunk in chunks for i in chunk] == list(range(1000))


# ----------------------------------------------------------------------------- a LocalCluster of 2 worker processes

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:   # without the dask extra the cluster tests skip
    WorkerPlugin = object


class HostileEngine(WorkerPlugin):
    """A Dask worker plugin: every worker (restarted ones too) gets hostile_extract_text."""

    def setup(self, worker):
        batch.extract_text = hostile_extract_text


@pytest.fixture(scope="module")
def two_worker_cluster():
    pytest.importorskip("distributed")
    # a file that kills one worker is given up at once: the test needs no second death to see it
    with batch.dask_client(batch.LOCAL, workers=2, worker_deaths=1) as client:
        client.register_plugin(HostileEngine())
        yield client


@pytest.mark.slow
@pytest.mark.corpus
def test_two_workers_give_the_records_of_one_process_over_corpus_files(two_worker_cluster, corpus_dir):
    paths = [str(p) for p in sorted((corpus_dir / "generated").glob("*/doc.pdf"))[:6]]
    records = {r["source"]: r for r in batch.map_on_dask(two_worker_cluster, paths)}
    workers = two_worker_cluster.run(os.getpid)
    assert len(set(workers.values())) == 2
    timing = ("seconds", "cpu_seconds")
    for path in paths:
        local = convert(path)
        assert local["status"] == "ok" and local["text"]
        assert {k: v for k, v in records[path].items() if k not in timing} == {k: v for k, v in local.items() if k not in timing}


@pytest.mark.slow
def test_on_the_cluster_a_hang_or_a_crash_costs_only_its_file(two_worker_cluster, tmp_path):
    paths = []
    for name, content in (("a.pdf", simple_page_pdf(b"Alpha")), ("hang.pdf", hostile_pdf(HANG)),
                          ("crash.pdf", hostile_pdf(CRASH)), ("b.pdf", simple_page_pdf(b"Beta"))):
        (tmp_path / name).write_bytes(content)
        paths.append(str(tmp_path / name))
    workers_before = two_worker_cluster.run(os.getpid)
    records = {Path(r["source"]).name: r for r in batch.map_on_dask(two_worker_cluster, paths, max_seconds=1)}
    assert {name: r["status"] for name, r in records.items()} == {
        "a.pdf": "ok", "hang.pdf": "budget", "crash.pdf": "crashed", "b.pdf": "ok"}
    assert two_worker_cluster.run(os.getpid) == workers_before   # no worker died: the children did


def test_our_cluster_runs_its_workers_without_the_profiler(two_worker_cluster):
    assert set(two_worker_cluster.run(dask_setting, "distributed.worker.profile.enabled").values()) == {False}
    assert set(two_worker_cluster.run(dask_setting, "distributed.admin.tick.interval").values()) == {"500ms"}


def dask_setting(name):
    import dask

    return dask.config.get(name)


@pytest.mark.slow
def test_a_chunk_with_a_hanging_and_a_crashing_file_converts_its_other_files(two_worker_cluster, tmp_path):
    paths = []
    for name, content in (("a.pdf", simple_page_pdf(b"Alpha")), ("hang.pdf", hostile_pdf(HANG)),
                          ("b.pdf", simple_page_pdf(b"Beta")), ("crash.pdf", hostile_pdf(CRASH)),
                          ("c.pdf", simple_page_pdf(b"Gamma")), ("d.pdf", simple_page_pdf(b"Delta"))):
        (tmp_path / name).write_bytes(content)
        paths.append(str(tmp_path / name))
    workers_before = two_worker_cluster.run(os.getpid)
    records = list(batch.map_on_dask(two_worker_cluster, paths, max_seconds=1, files_per_task=5))
    assert [r["source"] for r in records] == paths   # input order, though the short chunk finishes first
    assert [(r["status"], r["text"].strip()) for r in records] == [
        ("ok", "Alpha"), ("budget", ""), ("ok", "Beta"), ("crashed", ""), ("ok", "Gamma"), ("ok", "Delta")]
    assert two_worker_cluster.run(os.getpid) == workers_before   # the served child died, not the worker


@pytest.mark.slow
@pytest.mark.parametrize("files_per_task", [None, 3])
def test_without_budgets_a_file_that_kills_its_worker_becomes_a_record(two_worker_cluster, tmp_path, files_per_task):
    paths = []
    for name, content in (("a.pdf", simple_page_pdf(b"Alpha")), ("crash.pdf", hostile_pdf(CRASH)),
                          ("b.pdf", simple_page_pdf(b"Beta"))):
        (tmp_path / name).write_bytes(content)
        paths.append(str(tmp_path / name))
    workers_before = two_worker_cluster.run(os.getpid)
    records = {Path(r["source"]).name: r for r in batch.map_on_dask(two_worker_cluster, paths, max_seconds=None,
                                                                    files_per_task=files_per_task)}
    assert records["crash.pdf"]["status"] == "worker-died" and "KilledWorker" in records["crash.pdf"]["error"]
    assert [records[name]["text"].strip() for name in ("a.pdf", "b.pdf")] == ["Alpha", "Beta"]
    two_worker_cluster.wait_for_workers(2, timeout=60)   # the nanny restarts the worker the file killed
    assert _settled_worker_pids(two_worker_cluster) != workers_before


def _settled_worker_pids(client, tries: int = 20) -> dict:
    """The workers' process ids once every worker answers: a worker the crash file killed again
    on its file-by-file retry may still be restarting when wait_for_workers returns (seen under load)."""
    from distributed.comm.core import CommClosedError
    for _ in range(tries - 1):
        try:
            return client.run(os.getpid)
        except (CommClosedError, OSError):
            time.sleep(0.5)
            client.wait_for_workers(2, timeout=60)
    return client.run(os.getpid)


def _shard_records(folder: Path) -> dict[str, dict]:
    records = {}
    for shard in sorted(folder.glob("part-*.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            assert record["source"] not in records   # each file once, in one shard
            records[record["source"]] = record
    return records


@pytest.mark.slow
def test_on_the_cluster_the_workers_write_the_shards(two_worker_cluster, tmp_path, monkeypatch):
    def no_writing_here(*args, **kwargs):
        raise AssertionError("the client wrote records")

    monkeypatch.setattr(batch, "JsonLinesWriter", no_writing_here)   # the workers' copies are untouched
    paths = []
    for name, content in (("a.pdf", simple_page_pdf(b"Alpha")), ("hang.pdf", hostile_pdf(HANG)),
                          ("crash.pdf", hostile_pdf(CRASH)), ("b.pdf", simple_page_pdf(b"Beta")),
                          ("c.pdf", simple_page_pdf(b"Gamma"))):
        (tmp_path / name).write_bytes(content)
        paths.append(str(tmp_path / name))
    out = tmp_path / "out"
    summaries = list(batch.write_shards_on_dask(two_worker_cluster, paths, f"file://{out}", batch.JSONL, max_seconds=1,
                                                keep_pages=False))
    assert sorted(s["source"] for s in summaries) == sorted(paths) and all("text" not in s for s in summaries)
    records = _shard_records(out)
    assert len(list(out.glob("part-*.jsonl"))) == 5   # shards sized by cost: files this small get one each
    assert {Path(p).name: (r["status"], r["text"].strip()) for p, r in records.items()} == {
        "a.pdf": ("ok", "Alpha"), "hang.pdf": ("budget", ""), "crash.pdf": ("crashed", ""), "b.pdf": ("ok", "Beta"),
        "c.pdf": ("ok", "Gamma")}
    assert "pages" not in records[paths[0]]


@pytest.mark.slow
def test_a_shard_whose_worker_died_is_converted_again_file_by_file(tmp_path):
    pytest.importorskip("distributed")
    pyarrow_parquet = pytest.importorskip("pyarrow.parquet")
    names = ["a.pdf", "crash.pdf", "b.pdf", "c.pdf", "d.pdf", "e.pdf", "f.pdf", "g.pdf", "h.pdf"]
    paths = []
    for name in names:
        (tmp_path / name).write_bytes(hostile_pdf(CRASH) if name == "crash.pdf" else simple_page_pdf(name[0].encode()))
        paths.append(str(tmp_path / name))
    out = tmp_path / "out"
    # its own cluster of one worker: the first shard holds two files (a quarter of the cost), and the
    # worker restarts after each death leave no other test waiting for them
    with batch.dask_client(batch.LOCAL, workers=1, worker_deaths=1) as client:
        client.register_plugin(HostileEngine())
        summaries = {Path(s["source"]).name: s["status"] for s in batch.write_shards_on_dask(
            client, paths, str(out), batch.PARQUET, max_seconds=None, records_per_shard=3)}
    assert summaries == {name: "worker-died" if name == "crash.pdf" else "ok" for name in names}
    shards = sorted(p.name for p in out.glob("part-*.parquet"))
    # the shard of crash.pdf file by file (so is a shard queued on the worker it killed: that worker's tasks all die)
    assert "part-00000.parquet" not in shards
    assert {"part-00000-00.parquet", "part-00000-01.parquet"} <= set(shards)
    rows = [row for shard in shards for row in pyarrow_parquet.read_table(out / shard).to_pylist()]
    assert len(rows) == len(names)   # each file once
    rows = {Path(row["source"]).name: row for row in rows}
    assert {name: (row["status"], row["text"].strip()) for name, row in rows.items()} == {
        name: ("worker-died", "") if name == "crash.pdf" else ("ok", name[0]) for name in names}


@pytest.mark.slow
def test_the_command_on_a_cluster_writes_shards_to_a_url_from_the_workers(two_worker_cluster, tmp_path):
    for name, text in (("a.pdf", b"Alpha"), ("b.pdf", b"Beta")):
        (tmp_path / name).write_bytes(simple_page_pdf(text))
    out = tmp_path / "out"
    assert batch.main([str(tmp_path), "--dask", two_worker_cluster.scheduler.address, "-o", f"file://{out}",
                       "--no-pages"]) == 0
    records = _shard_records(out)
    assert sorted(r["text"].strip() for r in records.values()) == ["Alpha", "Beta"]
