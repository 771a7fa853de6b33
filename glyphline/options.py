"""What a caller can ask of an extraction, in one place: the output modes and the options.

The library (`extract_text`), the CLI and the web worker's Python side all read these; the
site build writes `describe()` into a JavaScript module, so the browser's mode list, option
names and defaults are never hand-kept copies.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from typing import Any, Union

PageSpec = Union[str, Iterable[int], None]

# How a page's blocks are ordered (glyphline.layout.tagged): by the page's geometry, by the
# author's structure tree (tagged PDF), or by the tree where it covers the page and agrees with it.
ORDERS = ("auto", "geometry", "tags")


class OutputMode(str, enum.Enum):
    """The renderings of a laid-out document (each registered in glyphline.output)."""

    REFLOW = "reflow"       # each paragraph on one line, dehyphenated; blocks separated by a blank line
    PRESERVE = "preserve"   # the page's own line breaks; blocks separated by a blank line
    LAYOUT = "layout"       # a character grid that keeps table columns and indents aligned
    JSON = "json"           # pages → blocks → lines → words with boxes (schema glyphline/1)
    MARKDOWN = "markdown"   # headings, lists, tables, emphasis and links; running headers left out

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ExtractOptions:
    """Everything that changes what an extraction returns. Unknown modes raise ValueError."""

    mode: OutputMode = OutputMode.REFLOW
    pages: PageSpec = None          # "1-3,7", an iterable of 1-based numbers, or None for all
    markers: bool = False           # '--- Page N ---' lines between pages (text modes)
    page_breaks: bool = True        # a form feed between pages; False: a blank line
    dehyphenate: bool = True        # join words hyphenated at a line end (reflow)
    password: str = ""              # user or owner password of an encrypted file
    bom: bool = False               # start the text with a UTF-8 byte order mark
    annotations: bool = True        # include what annotations draw (filled form fields, FreeText, stamps)
    order: str = "auto"             # reading order: "auto" | "geometry" | "tags" (the structure tree of a tagged PDF)
    ocr: str = ""                   # OCR languages for pages without a text layer ("eng", "eng+deu"); "" = no OCR
    inspect: bool = False           # json: each page also lists its columns and the glyphs left out (the layout inspector)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", parse_mode(self.mode))
        object.__setattr__(self, "ocr", parse_languages(self.ocr))
        if self.order not in ORDERS:
            raise ValueError(f"unknown order {self.order!r}; use one of {', '.join(ORDERS)}")
        if self.pages is not None and not isinstance(self.pages, str):
            object.__setattr__(self, "pages", tuple(self.pages))

    def replace(self, **changes: Any) -> "ExtractOptions":
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_message(cls, raw: Mapping[str, Any] | None) -> "ExtractOptions":
        """The web page's options (JavaScript names, see JS_NAMES), checked and converted."""
        raw = dict(raw or {})
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            name = JS_NAMES.get(field.name, field.name)
            if name not in raw or raw[name] is None:
                continue
            value = raw[name]
            if field.name == "pages":
                value = str(value).strip() or None
            elif field.name in ("password", "order", "ocr"):
                value = str(value)
            elif field.name != "mode":
                value = bool(value)
            values[field.name] = value
        return cls(**values)


# Python option names whose JavaScript spelling differs (the web API is camelCase).
JS_NAMES = {"page_breaks": "pageBreaks"}


def parse_mode(mode: Any) -> OutputMode:
    try:
        return OutputMode(str(mode.value if isinstance(mode, OutputMode) else mode))
    except ValueError:
        raise ValueError(f"unknown mode {mode!r}; use one of {', '.join(m.value for m in OutputMode)}") from None


def parse_languages(value: Any) -> str:
    """OCR languages as tesseract names them, joined by '+' ("eng+deu"); True means English."""
    if value is True:
        return "eng"
    if not value:
        return ""
    names = [name.strip() for name in str(value).replace(",", "+").split("+") if name.strip()]
    for name in names:
        if not name.replace("_", "").isalnum() or len(name) > 40:
            raise ValueError(f"invalid OCR language {name!r}; use tesseract's names such as eng or eng+deu")
    return "+".join(names)


def describe() -> dict[str, Any]:
    """Modes with their file extensions, option names with their defaults, and error kinds: what the
    site build hands to JavaScript."""
    from .errors import ERROR_KINDS
    from .output import RENDERERS

    defaults = ExtractOptions()
    options = {}
    for field in dataclasses.fields(ExtractOptions):
        value = getattr(defaults, field.name)
        options[JS_NAMES.get(field.name, field.name)] = value.value if isinstance(value, OutputMode) else value
    return {"modes": [m.value for m in OutputMode], "extensions": {m.value: RENDERERS[m].extension for m in OutputMode},
            "options": options, "errorKinds": list(ERROR_KINDS)}
