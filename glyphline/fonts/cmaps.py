"""Predefined CMaps and CID → Unicode tables of the Adobe character collections, loaded lazily.

The data is Adobe's CMap resources as packed binary CMaps (.bcmap) from npm's pdfjs-dist
(`make cmaps` copies them to the top-level `cmaps/` folder). Where the bytes come from is
pluggable (`set_cmap_loader`), so the browser fetches a file only when a font names it: a
Latin-only document never touches this data. Each name is read and decoded once, then cached.

composite.py calls the two seam functions, `predefined_cmap` (codespace + code → CID of
90ms-RKSJ-H, GBK-EUC-H, KSCms-UHC-H, ETen-B5-H, Uni…-H/V …) and `cid_to_unicode` (Adobe-GB1,
-CNS1, -Japan1, -Korea1). Unknown names, missing files and corrupt data give None.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Optional

from ..sitefetch import LazyData, site_loader
from .bcmap import MAX_USECMAP_DEPTH, BcmapError, CMap, parse_bcmap

CMapLoader = Callable[[str], Optional[bytes]]

# names are file names; anything else (slashes, dots) could walk out of the data folder
CMAP_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]{0,63}")
# orderings whose CID → Unicode table Adobe publishes (pdfjs-dist ships it as Adobe-<O>-UCS2)
UNICODE_TABLE_ORDERINGS = frozenset({"Japan1", "GB1", "CNS1", "Korea1"})
# Identity CMaps are arithmetic, not data: the composite font handles them itself
IDENTITY_CMAPS = frozenset({"Identity-H", "Identity-V"})
PACKAGE_DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "cmaps"
REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SEARCH_DIRS = (PACKAGE_DATA_DIR, REPO_ROOT / "cmaps",
               REPO_ROOT / "node_modules" / "pdfjs-dist" / "cmaps")


def file_loader(name: str) -> bytes | None:
    """Default loader on CPython: installed package data, then the built `cmaps/`, then npm's copy."""
    for folder in SEARCH_DIRS:
        try:
            return (folder / f"{name}.bcmap").read_bytes()
        except OSError:
            continue
    return None


def browser_loader(base_url: str) -> CMapLoader:
    """A loader for Pyodide in a Web Worker: synchronous GET of `<base_url>/<name>.bcmap`.

    Synchronous XMLHttpRequest is allowed in workers and the interpreter is synchronous, so
    the font that needs a CMap waits for it (the service worker caches the file once fetched).
    """
    return site_loader(base_url, ".bcmap")


_cmaps = LazyData(file_loader)


def set_cmap_loader(loader: CMapLoader) -> None:
    """Install where .bcmap bytes come from (the web worker installs `browser_loader`)."""
    _cmaps.set_loader(loader)


def predefined_cmap(name: str) -> CMap | None:
    """The predefined CMap `name` (codespace ranges + code → CID, `usecmap` parent resolved), or None.

    The result is a `bcmap.CMap`: `.codespace` (ranges with `length`, `low`, `high` bytes),
    `.lookup_cid(code)`, `.vertical`, `.split(data)`.
    """
    if not isinstance(name, str) or name in IDENTITY_CMAPS or not CMAP_NAME.fullmatch(name):
        return None
    return _load(name, ())


def _load(name: str, chain: tuple[str, ...]) -> CMap | None:
    unreadable = name in chain or len(chain) > MAX_USECMAP_DEPTH or not CMAP_NAME.fullmatch(name)
    if unreadable and name not in _cmaps:
        return None
    return _cmaps.get(name, lambda data: _parsed(data, name, chain))


def _parsed(data: bytes, name: str, chain: tuple[str, ...]) -> CMap | None:
    try:
        cmap = parse_bcmap(data, name)
    except BcmapError:
        return None
    if cmap.parent_name:
        cmap.parent = _load(cmap.parent_name, chain + (name,))
        if cmap.parent is None:
            return None     # half a CMap would decode silently wrong: treat it as missing
    return cmap


def unicode_table(registry: str, ordering: str) -> CMap | None:
    """The CID → Unicode table of an Adobe character collection, or None."""
    if registry != "Adobe" or ordering not in UNICODE_TABLE_ORDERINGS:
        return None
    return predefined_cmap(f"{registry}-{ordering}-UCS2")


def cid_to_unicode(registry: str, ordering: str, cid: int) -> str | None:
    """Unicode text of `cid` in the collection registry-ordering (as Acrobat and pdf.js map it), or None."""
    table = unicode_table(registry, ordering)
    if table is None or not isinstance(cid, int) or cid <= 0:
        return None
    return table.lookup_unicode(cid)
