"""Synchronous GET of one of the site's own files from inside Pyodide (a Web Worker).

The engine is synchronous, so data it loads lazily in the browser (predefined CMaps, word lists)
is fetched with a synchronous XMLHttpRequest, which workers allow; the service worker caches
the file once fetched. Outside Pyodide there is no `js` module and every call gives None.
"""
from __future__ import annotations

from typing import Callable


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
