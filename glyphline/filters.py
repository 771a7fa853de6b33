"""Stream filters: Brotli for pypdf, and a report for every stream whose filter fails.

pypdf decodes every stream the engine reads — content streams, Form XObjects, fonts and their
CMaps, and the object and cross-reference streams it reads on its own while resolving objects —
through `pypdf.filters.decode_stream_data`. `install()` (called by `glyphline.open`) hooks in
there once per process:

- `/BrotliDecode` (the PDF Association's proposed filter): pypdf needs the `brotli` C extension
  and raises without it. The hook uses the extension when it imports (the optional `brotli`
  extra) and the pure-Python decoder `glyphline.brotli` otherwise (always in Pyodide). Both stop
  at pypdf's `brotli_maximum_output_length`, which the document sets to the stream budget.
- Abbreviated filter names (`/A85`, `/AHx`, `/Fl`, … of ISO 32000-1 Table 92, meant for inline
  images) are spelled out before pypdf sees them: pypdf 7 refuses them, pdf.js, MuPDF and
  poppler read them in any stream.
- Any filter that fails (an unknown name such as `/FooDecode`, corrupt data) is told to the
  reporter active on this thread (`reporting`), so the page being read gets a warning naming
  the filter instead of silently losing its text. The exception itself still propagates.
"""
from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, ContextManager, Iterator

from pypdf.errors import LimitReachedError

from .notices import EngineWarning, warning

DEFAULT_STREAM_SECONDS = 30.0   # one stream may take as long as a whole page (Limits.seconds_per_page)

_state = threading.local()
_installed = False
_install_lock = threading.Lock()

Reporter = Callable[[str], None]

# the inline-image abbreviations of the standard filter names (ISO 32000-1 Table 92)
FILTER_ABBREVIATIONS = {"/AHx": "/ASCIIHexDecode", "/A85": "/ASCII85Decode", "/LZW": "/LZWDecode",
                        "/Fl": "/FlateDecode", "/RL": "/RunLengthDecode", "/CCF": "/CCITTFaxDecode",
                        "/DCT": "/DCTDecode"}


def reporting(report: Reporter) -> ContextManager[None]:
    """Filter problems met on this thread inside the block go to `report` (innermost wins)."""
    return _thread_setting("report", report)


def stream_seconds(seconds: float) -> ContextManager[None]:
    """The time one Brotli stream may take to decode on this thread inside the block."""
    return _thread_setting("seconds", seconds)


@contextmanager
def _thread_setting(name: str, value: Any) -> Iterator[None]:
    """`name` set to `value` for this thread inside the block, then what it was before."""
    previous = getattr(_state, name, None)
    setattr(_state, name, value)
    try:
        yield
    finally:
        setattr(_state, name, previous)


class StreamTimeLimit(LimitReachedError):
    """A stream took longer to decode than its time budget."""


def _report(message: str) -> None:
    report = getattr(_state, "report", None)
    if report is not None:
        report(message)


def _c_extension():
    """The `brotli` C extension when it imports and can bound its output (brotli ≥ 1.2), else None."""
    try:
        import brotli
    except ImportError:
        return None
    return brotli if hasattr(brotli, "Decompressor") and hasattr(brotli.Decompressor, "can_accept_more_data") else None


def brotli_decode(data: bytes, limit: int) -> bytes:
    """A whole `/BrotliDecode` stream, at most `limit` bytes (LimitReachedError beyond).

    A truncated or corrupt stream gives what was decoded before the break, with a report."""
    from . import brotli as pure

    extension = _c_extension()
    if extension is not None:
        try:
            decompressor = extension.Decompressor()
            out = decompressor.process(data, output_buffer_limit=limit + 1)
            if len(out) > limit:
                raise LimitReachedError(f"a /BrotliDecode stream decodes to more than {limit} bytes")
            if decompressor.is_finished():
                return bytes(out)
        except extension.error:
            pass   # trailing bytes after the stream or damage: the pure decoder tells them apart
    seconds = getattr(_state, "seconds", None) or DEFAULT_STREAM_SECONDS
    try:
        return pure.decompress(data, max_output=limit, deadline=time.monotonic() + seconds)
    except pure.BrotliTimeout as exc:
        raise StreamTimeLimit(f"a /BrotliDecode stream took more than {seconds} s to decode") from exc
    except pure.BrotliLimitError as exc:
        raise LimitReachedError(str(exc)) from exc
    except pure.BrotliError as exc:
        if not exc.partial:
            raise
        _report(warning("brotli-damaged", reason=str(exc), kept=len(exc.partial)))
        return exc.partial


def _filter_names(stream) -> list[str]:
    try:
        filters = stream.get("/Filter")
        filters = filters.get_object() if hasattr(filters, "get_object") else filters
        if filters is None:
            return []
        return [str(f) for f in (filters if isinstance(filters, list) else [filters])]
    except Exception:
        return []


def spell_out_filters(stream) -> None:
    """Replace abbreviated filter names in `stream`'s /Filter by the full ones, in place."""
    from pypdf.generic import ArrayObject, NameObject

    try:
        filters = stream.get("/Filter")
        filters = filters.get_object() if hasattr(filters, "get_object") else filters
        names = filters if isinstance(filters, list) else [filters]
        if not any(isinstance(name, str) and name in FILTER_ABBREVIATIONS for name in names):
            return
        full = [NameObject(FILTER_ABBREVIATIONS.get(name, name)) if isinstance(name, str) else name
                for name in names]
        stream[NameObject("/Filter")] = ArrayObject(full) if isinstance(filters, list) else full[0]
    except Exception:
        return   # a malformed /Filter is pypdf's to report


def _describe(stream) -> str:
    ref = getattr(stream, "indirect_reference", None)
    return f"stream {ref.idnum} {ref.generation} R" if ref is not None else "an inline stream"


# a failure this build can do nothing about (a decoder it lacks), as opposed to a damaged stream
_MISSING_DECODER = re.compile(r"DependencyError|NotImplementedError|cannot decode|is deprecated and has been removed")


def failure_message(stream, exc: BaseException) -> EngineWarning:
    """The warning naming the stream and the filter that failed."""
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, NotImplementedError) and "filter" in text.lower():
        return warning("filter-unsupported", stream=_describe(stream), filter=text.split()[-1])
    names = " ".join(_filter_names(stream)) or "its filter"
    reason = f"{type(exc).__name__}: {text}"
    kind = "decoder-missing" if _MISSING_DECODER.search(reason) else "stream-undecodable"
    return warning(kind, stream=_describe(stream), filter=names, reason=reason)


def install() -> None:
    """Hooks the Brotli decoder and the failure report into pypdf (once; pypdf is pinned)."""
    global _installed
    if _installed:
        return
    with _install_lock:
        if _installed:
            return
        import pypdf.filters as pypdf_filters
        from pypdf._configuration import get_configuration

        def decode(data: bytes, decode_parms=None, **kwargs) -> bytes:
            return brotli_decode(data, get_configuration().brotli_maximum_output_length)

        pypdf_filters.BrotliDecode.decode = staticmethod(decode)
        original = pypdf_filters.decode_stream_data

        def decode_stream_data(stream):
            try:
                spell_out_filters(stream)
                return original(stream)
            except LimitReachedError:
                raise   # a budget, reported by the document as one
            except Exception as exc:
                _report(failure_message(stream, exc))
                raise

        pypdf_filters.decode_stream_data = decode_stream_data
        _installed = True
