"""JSON output: pages → blocks → lines → words, with boxes, font sizes and flags.

Schema "glyphline/1" (a field is only ever added within one version; renaming or removing a
field makes a new version):

    {"schema": "glyphline/1", "version": 1,
     "page_count": int,                  # pages in the document (not only the extracted ones)
     "metadata": {str: str},             # the Info dictionary, keys without the leading slash
     "scan": null | {"whole_document": bool, "pages": [int], "message": str},
     "unmapped": null | {"whole_document": bool, "pages": [int], "message": str},
                                         # pages whose fonts have no character mapping (not scans)
     "warnings": [str],                  # document-level warnings
     "pages": [page, ...]}               # the extracted pages, in order

    page  = {"number": int (1-based), "width": float, "height": float, "rotation": int,
             "char_count": int, "scan": bool, "unmapped": bool, "warnings": [str], "blocks": [block]}
             "figures": [{"alt": str}]   # only on pages of a tagged PDF with figures that have /Alt text
    block = {"role": "body"|"header"|"footer"|"sidebar"|"rotated", "bbox": box, "lines": [line],
             "tag": {"role": str, "lang": str}}  # only in tagged PDFs: the structure element (H1, P, LI, TD …)
    line  = {"text": str, "bbox": box, "direction": [dx, dy], "words": [word]}
    word  = {"text": str, "bbox": box, "font": str, "size": float, "flags": [flag]}
            + {"confidence": float}      # OCR words only: the engine's confidence, 0–100
    page  + {"ocr": {"words": int, "low_confidence": int, "mean_confidence": float, "rendered": bool}}
                                         # pages recognised by OCR only (low_confidence: words below 60)
    page  + {"columns": [{"bbox": box, "role": "body"|"sidebar"|"table"|"rotated"}],   # the flows in reading order
             "dropped": [{"text": str, "bbox": box, "reason": "outside_crop"|"duplicate"|"hidden_layer"}],
             "dropped_omitted": int,     # with the inspect option only: what the layout inspector draws;
                                         # a page lists at most Limits.dropped_glyphs_listed, the rest are counted
             "rules": [{"bbox": box, "width": float}],   # the rules its paths drew (centre line; width across it)
             "marks": [{"bbox": box, "kind": "fill"|"stroke"|"image", "colour": "#rrggbb"|null}]}
                                         # and the small shapes (bullets?), as layout reads them (content.paths)
    box   = [x0, y0, x1, y1] in points, origin at the top-left of the visible page, y down
    flag  = "invisible" | "vertical" | "actual_text" | "in_form"
          | "annotation"                 # drawn by an annotation (form field, FreeText, stamp), not the page
          | "ocr"                        # read by OCR off a scanned image (font "OCR", size from the scan)

Numbers are rounded to 0.01 pt so the output is stable across platforms.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..glyph import ACTUAL_TEXT, ANNOTATION, IN_FORM, INVISIBLE, OCR, VERTICAL, glyph_box
from ..layout.model import Block, Line, PageLayout, Word

if TYPE_CHECKING:
    from . import DocumentContext, PageContext, RenderedPage

SCHEMA = "glyphline/1"
VERSION = 1
ROUND_DIGITS = 2  # 0.01 pt: far below any visible distance, and stable across float formatting
FLAG_NAMES = ((INVISIBLE, "invisible"), (VERTICAL, "vertical"), (ACTUAL_TEXT, "actual_text"), (IN_FORM, "in_form"),
              (ANNOTATION, "annotation"), (OCR, "ocr"))


def json_page(layout: PageLayout, context: "PageContext") -> str:
    """The json mode's page renderer: the page object on one line."""
    return dumps(page_object(layout, rotation=context.rotation, scan=context.scan, warnings=context.warnings,
                             unmapped=context.unmapped))


def json_document(pages: "list[RenderedPage]", context: "DocumentContext") -> str:
    """The json mode's document: the rendered page objects spliced into the document object
    (its "pages" member comes last), so no page is serialised twice."""
    empty = dumps(document_object([], page_count=context.page_count, metadata=context.metadata,
                                  scan=context.scan, warnings=context.warnings, unmapped=context.unmapped))
    return empty[:-2] + ",".join(page.text for page in pages) + "]}\n"


def page_object(layout: PageLayout, *, rotation: int = 0, scan: bool = False,
                warnings: list[str] | None = None, unmapped: bool = False) -> dict[str, Any]:
    page = {
        "number": layout.number,
        "width": _r(layout.width),
        "height": _r(layout.height),
        "rotation": rotation,
        "char_count": layout.char_count,
        "scan": scan,          # fewer than 12 characters: no text layer
        "unmapped": unmapped,  # fewer than 12 characters because the fonts have no character mapping
        "warnings": list(layout.warnings if warnings is None else warnings),
        "blocks": [_block(b) for b in layout.blocks],
    }
    if layout.figures:
        page["figures"] = [{"alt": figure.alt} for figure in layout.figures]
    if layout.ocr is not None:
        page["ocr"] = layout.ocr.as_dict()
    if layout.dropped is not None:
        page["columns"] = [{"bbox": _box(column), "role": column.role} for column in layout.columns]
        page["dropped"] = [{"text": item.glyph.text, "bbox": [_r(v) for v in glyph_box(item.glyph)], "reason": item.reason}
                           for item in layout.dropped.glyphs]
        page["dropped_omitted"] = layout.dropped.omitted
        drawing = layout.drawing
        page["rules"] = [{"bbox": _box(r), "width": _r(r.width)}
                         for r in (drawing.rulings if drawing is not None else ())]
        page["marks"] = [{"bbox": _box(m), "kind": m.kind, "colour": _hex(m.colour)}
                         for m in (drawing.marks if drawing is not None else ())]
    return page


def document_object(pages: list[dict[str, Any]], *, page_count: int, metadata: dict[str, str] | None,
                    scan: dict[str, Any] | None, warnings: list[str],
                    unmapped: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "page_count": page_count,
        "metadata": {str(k): str(v) for k, v in (metadata or {}).items()},
        "scan": scan,
        "unmapped": unmapped,
        "warnings": list(warnings),
        "pages": pages,
    }


def _hex(colour: tuple[float, float, float] | None) -> str | None:
    return None if colour is None else "#" + "".join(f"{round(255 * c):02x}" for c in colour)


def dumps(obj: dict[str, Any]) -> str:
    """One line of JSON (several documents written one after another form JSON Lines)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _block(block: Block) -> dict[str, Any]:
    out = {"role": block.role, "bbox": _box(block), "lines": [_line(line) for line in block.lines]}
    if block.tag is not None:
        out["tag"] = {"role": block.tag.role, "lang": block.tag.lang}
    return out


def _line(line: Line) -> dict[str, Any]:
    return {
        "text": line.text,
        "bbox": _box(line),
        "direction": [_r(line.dx), _r(line.dy)],
        "words": [_word(w) for w in line.words],
    }


def _word(word: Word) -> dict[str, Any]:
    out = {
        "text": word.text,
        "bbox": _box(word),
        "font": word.font,
        "size": _r(word.size),
        "flags": [name for bit, name in FLAG_NAMES if word.flags & bit],
    }
    if word.flags & OCR:
        out["confidence"] = round(float(word.confidence), 1)
    return out


def _box(item) -> list[float]:
    return [_r(item.x0), _r(item.y0), _r(item.x1), _r(item.y1)]


def _r(value: float) -> float:
    return round(float(value), ROUND_DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0
