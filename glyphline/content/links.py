"""Link areas of a page: the /Rect of each Link annotation whose action opens a URI (ISO 32000-1
§12.5.6.5, §12.6.4.7), in viewer space. Layout attaches the URI to the words under the area;
links to places inside the document (/Dest, /GoTo) have no address a text output could keep.
"""
from __future__ import annotations

from typing import NamedTuple

from ..pdfobjects import rectangle, resolve
from .interpreter import transformed_bounds

MAX_URI_LENGTH = 2048   # longer "addresses" are data, not links a reader could follow


class LinkArea(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float
    uri: str


def link_areas(page_obj, page_matrix: tuple, limit: int) -> list[LinkArea]:
    """The page's URI links (at most `limit` annotations read); a broken annotation is skipped."""
    annots = resolve(page_obj.get("/Annots")) if hasattr(page_obj, "get") else None
    if not isinstance(annots, list):
        return []
    areas = []
    for ref in annots[:limit]:
        try:
            area = _link_area(resolve(ref), page_matrix)
        except Exception:   # a hostile annotation costs only its own link
            area = None
        if area is not None:
            areas.append(area)
    return areas


def _link_area(annot, page_matrix: tuple) -> LinkArea | None:
    if not hasattr(annot, "get") or resolve(annot.get("/Subtype")) != "/Link":
        return None
    action = resolve(annot.get("/A"))
    if not hasattr(action, "get") or resolve(action.get("/S")) != "/URI":
        return None
    uri = resolve(action.get("/URI"))
    if isinstance(uri, bytes):   # a URI is 7-bit ASCII (§12.6.4.7); pypdf gives undecodable strings as bytes
        uri = uri.decode("latin-1")
    elif not isinstance(uri, str):
        return None
    uri = str(uri).strip()
    rect = rectangle(annot.get("/Rect"))
    if not uri or len(uri) > MAX_URI_LENGTH or rect is None:
        return None
    return LinkArea(*transformed_bounds(rect, page_matrix), uri)
