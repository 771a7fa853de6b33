"""The Python side of the web worker protocol (see worker/worker.mjs).

One call per conversion: the file's bytes and the page's options come in; "progress" messages
go out through `post` after every page; the return value is the final message, a "result",
an "error" with a kind the page turns into a sentence (password, not-pdf, damaged, budget,
bad-options, failed) or "cancelled". Cancellation is checked between pages. No extraction
logic lives here.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypedDict


def _load_aes_shim() -> None:
    """Runs glyphline/_aes_shim before anything imports pypdf.

    Importing it as `glyphline._aes_shim` would run glyphline/__init__.py first, which may
    import pypdf, and pypdf fixes its crypto provider on first import; so the shim is found
    inside the package folder (source or, in the browser's wheels, bytecode) and run alone.
    """
    package = importlib.machinery.PathFinder.find_spec("glyphline")
    if package is None or not package.submodule_search_locations:
        return
    spec = importlib.machinery.PathFinder.find_spec("glyphline._aes_shim", list(package.submodule_search_locations))
    if spec is None or spec.loader is None:
        return
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


_load_aes_shim()

from glyphline.errors import Cancelled, GlyphlineError, error_kind  # noqa: E402
from glyphline.content.ocr import OcrWord, recorded_engine  # noqa: E402
from glyphline.extract import extract_text, ocr_images  # noqa: E402
from glyphline.notices import notices  # noqa: E402
from glyphline.options import ExtractOptions  # noqa: E402
from glyphline.split import SplitExtraction  # noqa: E402

PAUSE_INTERVAL_S = 0.05  # how often the worker's event loop gets a turn to deliver "cancel"


_site_cmaps: tuple[str, frozenset[str]] | None = None  # what use_site_cmaps was given
_missing_cmaps: set[str] = set()  # CMaps the site has but that could not be fetched (offline, not cached)


def _recording_loader(load: Callable[[str], bytes | None], shipped: frozenset[str]) -> Callable[[str], bytes | None]:
    def recorded(name: str) -> bytes | None:
        data = load(name)
        if not data and name in shipped:  # a name the site does not ship is the PDF's problem
            _missing_cmaps.add(name)
        return data

    return recorded


def use_site_cmaps(base_url: str, names: Any = ()) -> None:
    """In the browser the engine fetches a CMap from the site's cmaps/ folder when a font names it.

    A file that cannot be fetched (offline before it was cached) is remembered, so the result
    can say "font data missing" instead of the engine's "no text layer, needs OCR"; `names` are
    the CMaps the site ships (the build's list)."""
    global _site_cmaps
    try:
        from glyphline.fonts.cmaps import browser_loader, set_cmap_loader
    except ImportError:  # an engine without the pluggable loader reads CMaps from its package data
        return
    shipped = frozenset(str(name) for name in names)
    _site_cmaps = (base_url, shipped)
    _missing_cmaps.clear()
    set_cmap_loader(_recording_loader(browser_loader(base_url), shipped))


def use_site_wordlists(base_url: str) -> None:
    """In the browser the engine fetches a word list from the site's wordlists/ folder when a
    hyphen needs one (the build moves the lists out of the wheel)."""
    try:
        from glyphline.layout.wordlists import browser_loader, set_wordlist_loader
    except ImportError:  # an engine without word lists
        return
    set_wordlist_loader(browser_loader(base_url))


_pause_supported = True  # the worker turns it off when run_sync cannot work (see set_pause_supported)


def set_pause_supported(supported: bool) -> None:
    """The worker's probe result: without JSPI (an old browser, or a memory snapshot taken in
    Node, which remembers that Node had none) run_sync raises, so cancelling is left to the page."""
    global _pause_supported
    _pause_supported = bool(supported)


def _event_loop_pause() -> Callable[[], None] | None:
    """Inside Pyodide with JSPI, a function that yields to the worker's event loop; else None."""
    if not _pause_supported:
        return None
    try:
        import js  # type: ignore[import-not-found]
        from pyodide.ffi import can_run_sync, run_sync  # type: ignore[import-not-found]
    except ImportError:
        return None

    def pause() -> None:
        if can_run_sync():
            run_sync(js.glyphlineYield())

    return pause


def _as_bytes(data: Any) -> bytes:
    """The file's bytes: a JS Uint8Array arrives as a JsProxy (copied out once), tests pass bytes."""
    to_bytes = getattr(data, "to_bytes", None)
    return to_bytes() if callable(to_bytes) else bytes(data)


def _scan_message(scan: Any) -> dict[str, Any] | None:
    """The engine's ScanReport: whole_document means nothing readable; else the listed pages lack text."""
    if scan is None:
        return None
    return {"wholeDocument": bool(scan.whole_document), "pages": [int(p) for p in scan.pages], "message": scan.message}


def _result_message(job_id: int, result: Any, seconds: float) -> dict[str, Any]:
    pages = []
    for page in result.pages:
        pages.append(
            {
                "number": int(page.number),
                "text": page.text,
                "charCount": int(page.char_count),
                "wordCount": len(page.text.split()),
                "warnings": [str(w) for w in page.warnings],
                "ocr": page.ocr,
            }
        )
    return {
        "type": "result",
        "id": job_id,
        "text": result.text,
        "pageCount": int(result.page_count),
        "pages": pages,
        "charCount": sum(p["charCount"] for p in pages),
        "wordCount": sum(p["wordCount"] for p in pages),
        "scan": _scan_message(result.scan),
        "unmapped": _scan_message(result.unmapped),
        "warnings": [str(w) for w in result.warnings],
        # the same warnings with stable codes and parameters: the page words them in its language
        "notices": [n.as_message() for n in notices(
            result.document_warnings, [(int(p.number), p.warnings) for p in result.pages])],
        "seconds": round(seconds, 4),
    }


def error_message(job_id: int, error: BaseException) -> dict[str, Any]:
    """Maps an exception to the protocol's error message (glyphline.errors.ERROR_KINDS)."""
    kind = error_kind(error)
    expected = isinstance(error, (GlyphlineError, ValueError))  # their messages are sentences already
    detail = str(error) if expected else f"{type(error).__name__}: {error}"
    return {"type": "error", "id": job_id, "kind": kind, "message": detail}


def _to_python(value: Any) -> Any:
    to_py = getattr(value, "to_py", None)
    return to_py() if callable(to_py) else value


def images_for_ocr(job_id: int, data: bytes, raw_options: Mapping[str, Any] | None) -> dict[str, Any]:
    """OCR's first pass: the images of the pages without a text layer, for tesseract.js; never raises.
    Each: {page, key, format ("jpeg"|"pnm"|"tiff"|"render"), width, height, dpi, data (bytes)}; "render":
    the page itself, for the page to render at dpi and read (words scaled to width × height pixels)."""
    try:
        options = ExtractOptions.from_message(_to_python(raw_options)).replace(ocr="")
        found = ocr_images(_as_bytes(data), options)
    except Exception as error:
        return error_message(job_id, error)
    images = [{"page": page, "key": key, "format": image.format, "width": image.width, "height": image.height,
               "dpi": round(image.dpi, 1), "data": image.data} for page, key, image in found]
    return {"type": "ocr-images", "id": job_id, "images": images}


def _recorded_words(raw: Any) -> dict[str, list[OcrWord]]:
    """tesseract.js's words by image key: {key: [{text, bbox: [x0, y0, x1, y1], confidence, line, baseline, size}]}."""
    words: dict[str, list[OcrWord]] = {}
    for key, items in (_to_python(raw) or {}).items():
        words[str(key)] = [
            OcrWord(str(w["text"]), *(float(v) for v in w["bbox"]), float(w.get("confidence", 0.0)),
                    w.get("line"), None if w.get("baseline") is None else float(w["baseline"]),
                    None if w.get("size") is None else float(w["size"]))
            for w in items]
    return words


def convert(
    job_id: int,
    data: bytes,
    raw_options: Mapping[str, Any] | None,
    post: Callable[[dict[str, Any]], None],
    is_cancelled: Callable[[], bool],
    ocr_words: Any = None,
) -> dict[str, Any]:
    """Runs one conversion and returns the final message; never raises. `ocr_words` (OCR's second
    pass): the words tesseract.js read in the images of images_for_ocr, by image key."""
    started = time.perf_counter()
    if _missing_cmaps and _site_cmaps is not None:
        # the engine caches a missing CMap as None: a new loader (empty cache) tries again now
        use_site_cmaps(*_site_cmaps)
    pause = _event_loop_pause()
    last_pause = started

    def on_progress(done: int, total: int) -> None:
        nonlocal last_pause
        post({"type": "progress", "id": job_id, "page": int(done), "pages": int(total)})
        now = time.perf_counter()
        if pause is not None and now - last_pause >= PAUSE_INTERVAL_S:
            pause()
            last_pause = time.perf_counter()
        if is_cancelled():
            raise Cancelled()

    try:
        options = ExtractOptions.from_message(raw_options)
        engine = recorded_engine(_recorded_words(ocr_words)) if ocr_words is not None else None
        if engine is not None:
            options = options.replace(ocr="")   # the words were read already: no engine runs here
        result = extract_text(_as_bytes(data), options, on_progress=on_progress, cancel=is_cancelled,
                              ocr_engine=engine)
    except Cancelled:
        return {"type": "cancelled", "id": job_id}
    except Exception as error:  # every failure becomes a message: the worker must live on
        if is_cancelled():
            return {"type": "cancelled", "id": job_id}
        return error_message(job_id, error)
    if is_cancelled():
        return {"type": "cancelled", "id": job_id}
    message = _result_message(job_id, result, time.perf_counter() - started)
    message["missingFontData"] = sorted(_missing_cmaps)
    return message


# ----------------------------------------------------------------------------- the worker pool
# A long document is converted by several workers (worker/pool.mjs): each opens it (pool_open),
# analyses the runs of pages it is given (pool_analyse); the helpers send theirs packed to the
# worker that coordinates, which adds them (pool_receive) and runs the document-wide passes
# (pool_finish). One pooled document per worker at a time; never raises.

class PoolOpened(TypedDict):
    type: str        # "pool-open"
    id: int
    pages: list[int]   # the selected pages, in order


class PoolPages(TypedDict, total=False):
    type: str        # "pool-pages"
    id: int
    pages: list[int]
    packed: bytes    # a helper's pages (glyphline.packed_pages); absent in the coordinator, which keeps its own
    missingFontData: list[str]   # CMaps this worker could not fetch
    seconds: float   # analysing and packing them (the pool's report)


@dataclass
class _PoolJob:
    job_id: int
    split: SplitExtraction
    started: float


_pool_job: _PoolJob | None = None


def pool_open(job_id: int, data: Any, raw_options: Mapping[str, Any] | None) -> PoolOpened | dict[str, Any]:
    """Opens the document for a pooled conversion (replacing any earlier one): its selected pages,
    or the error message the whole conversion ends with."""
    global _pool_job
    _pool_job = None
    started = time.perf_counter()
    if _missing_cmaps and _site_cmaps is not None:
        use_site_cmaps(*_site_cmaps)   # as in convert: a new loader tries the missing CMaps again
    try:
        split = SplitExtraction(_as_bytes(data), ExtractOptions.from_message(_to_python(raw_options)))
    except Exception as error:
        return error_message(job_id, error)
    _pool_job = _PoolJob(job_id, split, started)
    return {"type": "pool-open", "id": job_id, "pages": list(split.numbers)}


def _job(job_id: int) -> _PoolJob:
    if _pool_job is None or _pool_job.job_id != job_id:
        raise LookupError(f"no pooled conversion {job_id} is open in this worker")
    return _pool_job


def pool_analyse(job_id: int, pages: Any, on_page: Callable[[], Any], is_cancelled: Callable[[], bool],
                 send: bool) -> PoolPages | dict[str, Any]:
    """Analyses `pages` of the open document; `on_page()` after each. `send`: a helper's answer,
    the pages packed for the coordinator; else they stay here for pool_finish."""
    pause = _event_loop_pause()
    last_pause = time.perf_counter()

    def after_page() -> None:
        nonlocal last_pause
        on_page()
        if pause is not None and time.perf_counter() - last_pause >= PAUSE_INTERVAL_S:
            pause()
            last_pause = time.perf_counter()

    numbers = [int(n) for n in _to_python(pages)]
    started = time.perf_counter()
    try:
        job = _job(job_id)
        job.split.analyse(numbers, after_page, is_cancelled)
        message: PoolPages = {"type": "pool-pages", "id": job_id, "pages": numbers,
                              "missingFontData": sorted(_missing_cmaps)}
        if send:
            message["packed"] = job.split.take_packed(numbers)
        else:
            job.split.feed()   # the pages next in order go to the document passes now, not all at pool_finish
        message["seconds"] = round(time.perf_counter() - started, 4)
        return message
    except Cancelled:
        return {"type": "cancelled", "id": job_id}
    except Exception as error:
        if is_cancelled():
            return {"type": "cancelled", "id": job_id}
        return error_message(job_id, error)


def pool_receive(job_id: int, packed: Any, missing_font_data: Any = ()) -> dict[str, Any] | None:
    """Adds a helper's pages to the open document; None, or the error message."""
    try:
        split = _job(job_id).split
        split.add_packed(_as_bytes(packed))
        # the pages next in document order go to the document passes as they arrive (the helpers
        # take the runs from the start): less of them left for pool_finish, after the last page,
        # and their whole layouts let go early (glyphline.parallel does the same)
        split.feed()
    except Exception as error:
        return error_message(job_id, error)
    _missing_cmaps.update(str(name) for name in (_to_python(missing_font_data) or ()))
    return None


def pool_finish(job_id: int) -> dict[str, Any]:
    """The document-wide passes once every page is in: convert's final message."""
    global _pool_job
    try:
        job = _job(job_id)
        if job.split.missing():
            raise RuntimeError(f"pages {job.split.missing()} were never analysed")
        result = job.split.finish()
    except Exception as error:
        return error_message(job_id, error)
    finally:
        _pool_job = None
    message = _result_message(job_id, result, time.perf_counter() - job.started)
    message["missingFontData"] = sorted(_missing_cmaps)
    return message


def pool_close(job_id: int) -> None:
    """Forgets the pooled conversion (cancelled, failed, or finished elsewhere)."""
    global _pool_job
    if _pool_job is not None and _pool_job.job_id == job_id:
        _pool_job = None
