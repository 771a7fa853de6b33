"""Engine data loaded on first use (predefined CMaps, word lists), and the browser's way to
fetch it: a synchronous GET of one of the site's own files from inside Pyodide (a Web Worker).

The engine is synchronous, so data it loads lazily in the browser is fetched with a synchronous
XMLHttpRequest, which workers allow; the service worker caches the file once fetched. Outside
Pyodide there is no `js` module and every GET gives None.
"""
from __future__ import annotations

from typing import Any, Callable

Loader = Callable[[str], "bytes | None"]


class LazyData:
    """name → parsed data, read through a replaceable loader on first use and kept (None too).

    A loader is outside code (file system, network): its failure reads as missing data."""

    def __init__(self, loader: Loader):
        self.loader = loader
        self.cache: dict[str, Any] = {}

    def set_loader(self, loader: Loader) -> None:
        self.loader = loader
        self.cache.clear()

    def __contains__(self, name: str) -> bool:
        return name in self.cache

    def get(self, name: str, parse: Callable[[bytes], Any]) -> Any:
        """The cached value of `name`, else parse(the loader's bytes), None when there are none."""
        if name in self.cache:
            return self.cache[name]
        try:
            data = self.loader(name)
        except Exception:   # a loader is outside code (network, file system): never fatal here
            data = None
        value = parse(data) if data else None
        self.cache[name] = value
        return value


def site_loader(base_url: str, suffix: str) -> Callable[[str], bytes | None]:
    """name → the bytes of `<base_url>/<name><suffix>` (None when unavailable): the browser's
    loader for lazily loaded engine data (CMaps, word lists)."""
    base = base_url.rstrip("/")

    def load(name: str) -> bytes | None:
        return get_bytes(f"{base}/{name}{suffix}")

    return load


def get_bytes(url: str) -> bytes | None:
    """The body of `url`, or None (not in Pyodide, a network error, or a status other than 200)."""
    try:
        import js  # Pyodide only
        from pyodide.ffi import JsException
    except ImportError:
        return None
    try:
        request = js.XMLHttpRequest.new()
        request.open("GET", url, False)
        try:
            request.responseType = "arraybuffer"   # allowed for synchronous requests in workers
            binary = True
        except JsException:
            # main thread: raw bytes through text, each char code one byte (x-user-defined)
            request.overrideMimeType("text/plain; charset=x-user-defined")
            binary = False
        request.send(None)
        if request.status != 200:
            return None
        if binary:
            return js.Uint8Array.new(request.response).to_bytes()
        return bytes(ord(c) & 0xFF for c in str(request.responseText))
    except JsException:
        return None
