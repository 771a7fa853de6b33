"""The engine's warnings as records: a stable code, its parameters, and the English sentence.

Every warning the engine gives is made here, by `warning(kind, **params)`, from the one table of
sentences below. The result is an `EngineWarning`: a `str` (the English sentence, so the CLI, the
JSON output and existing callers print and compare it as before) that also carries `code` and
`params`. `notice()` turns it into a `Notice` for an interface that words it in its reader's
language. A plain string (from code that does not use `warning()`) is code "other": it is never
lost, only worded generically, with its text shown.
"""
from __future__ import annotations

from dataclasses import dataclass, field

OTHER = "other"  # a warning made without a code: the interface shows a generic line and the text

# kind → (code, English sentence). The code is what interfaces word; several kinds may share one
# code where they mean the same to a reader (a stream whose decoder this build lacks).
SENTENCES: dict[str, tuple[str, str]] = {
    "pages-beyond-end": ("pages-beyond-end",
                         "the document has {count} page(s); pages from {first} on were asked for and skipped"),
    "unmapped-glyphs": ("unmapped-glyphs",
                        "{count} glyph(s) on page {page} have no Unicode mapping and were left out"),
    "repaired": ("repaired", "repaired: {detail}"),
    "filter-unsupported": ("filter-unsupported",
                           "{stream} uses the filter {filter}, which Glyphline cannot decode; its content is missing"),
    "decoder-missing": ("filter-unsupported",   # not damage: this build lacks the decoder
                        "{stream} could not be decoded with {filter} ({reason}); its content is missing"),
    "stream-undecodable": ("stream-undecodable",
                           "{stream} could not be decoded with {filter} ({reason}); its content is missing"),
    "brotli-damaged": ("stream-undecodable",
                       "a /BrotliDecode stream is damaged ({reason}); the {kept} bytes before the damage are used"),
    "content-stream-skipped": ("content-stream-skipped",
                               "content stream {index} could not be decoded ({reason}); it was skipped"),
    "annotations-stopped": ("annotations-stopped",
                            "page {page}: annotations stopped early: {reason}; the text before that point is kept"),
    "annotations-failed": ("annotations-failed", "page {page}: the annotations could not be read ({reason})"),
    "page-stopped-early": ("page-stopped-early",
                           "page {page} stopped early: {reason}; the text before that point is kept"),
    "page-failed-midway": ("page-failed-midway",
                           "page {page} failed midway ({reason}); the text decoded before that point is kept"),
    "page-nested-too-deep": ("page-nested-too-deep",
                             "page {page} is nested too deeply; the text decoded before that point is kept"),
    "ocr-stopped": ("ocr-stopped",
                    "page {page}: OCR stopped early: {reason}; the words read before that point are kept"),
    "ocr-failed": ("ocr-failed", "page {page}: OCR failed ({reason}); the page has no text layer"),
    "layout-failed": ("layout-failed",
                      "page {page} could not be laid out ({reason}); its text is given in drawing order"),
    "render-failed": ("render-failed", "page {page} could not be rendered ({reason}); it is left empty"),
    "annotations-capped": ("annotations-capped",
                           "the page has {count} annotations; only the first {limit} were read"),
    "annotations-skipped": ("annotations-skipped", "{count} annotation(s) skipped: {detail}"),
    "font-not-in-resources": ("font-not-in-resources", "font /{font} is not in the page resources"),
    "font-unloadable": ("font-unloadable", "font /{font} could not be loaded; its text is skipped"),
    "text-without-font": ("text-without-font", "text shown without a usable font is skipped"),
    "malformed-operators": ("malformed-operators", "malformed content operators skipped (first: {operator})"),
    "form-cycle": ("form-cycle", "Form XObject /{name} draws itself; the repeat is skipped"),
    "form-too-deep": ("form-too-deep", "Form XObjects nested deeper than {limit}; deeper ones skipped"),
    "form-unreadable": ("form-unreadable", "Form XObject /{name} could not be read"),
    "xfa-form": ("xfa-form", "this file is an XFA form: its field contents are not in the PDF pages "
                             "(only an XFA-capable viewer such as Adobe Reader shows them)"),
    "hidden-layers": ("hidden-layers", "{count} glyph(s) on page {page} are in optional content "
                                       "(layers) hidden when the document opens and were left out"),
    "ocr-unsure": ("ocr-unsure", "page {page}: OCR is unsure of this page (mean word confidence {confidence} "
                                 "of 100); check its text against the scan"),
    "ocr-skipped": ("ocr-skipped", "page {page}: OCR skipped {detail}; no page renderer is available"),
    "structure-unused": ("structure-unused",
                         "the structure tree was not used ({reason}); reading order comes from the page layout"),
    "structure-unreadable": ("structure-unused",
                             "the structure tree could not be read ({reason}); reading order comes from the page layout"),
    "structure-unreadable-short": ("structure-unused", "the structure tree could not be read ({reason})"),
    "not-tagged": ("not-tagged",
                   "the document is not tagged (no structure tree): the page layout gives its reading order"),
    "structure-failed": ("structure-failed", "page {page}: its structure could not be found ({reason}); "
                         "its blocks are given as paragraphs"),
    "headings-unranked": ("headings-unranked", "the document's headings could not be ranked ({reason})"),
}


class EngineWarning(str):
    """One warning: the English sentence itself, carrying its stable `code` and its `params`."""

    def __new__(cls, kind: str, params: dict, text: str | None = None):
        code, sentence = SENTENCES[kind]
        made = super().__new__(cls, sentence.format(**params) if text is None else text)
        made.kind, made.code, made.params = kind, code, params
        return made

    def __reduce__(self):   # crosses process boundaries (glyphline.parallel) with its code
        return (EngineWarning, (self.kind, dict(self.params), str(self)))


def warning(kind: str, **params: str | int) -> EngineWarning:
    """The warning of this kind (a key of SENTENCES) with its parameters filled in."""
    return EngineWarning(kind, params)


def on_page(text: str, number: int) -> str:
    """The warning as a document-wide list shows it: "page N: " first unless it names its page."""
    prefix = f"page {number}"
    if text.startswith((prefix + " ", prefix + ":")):
        return text
    if not isinstance(text, EngineWarning):
        return f"{prefix}: {text}"
    return EngineWarning(text.kind, {**text.params, "page": number}, f"{prefix}: {text}")


@dataclass(frozen=True)
class Notice:
    code: str                                   # stable name, e.g. "unmapped-glyphs"
    params: dict[str, str | int] = field(default_factory=dict)  # the sentence's variable parts
    page: int | None = None                     # 1-based page, None for the whole document
    text: str = ""                              # the engine's English sentence (CLI, details)

    def as_message(self) -> dict:
        """The plain dict the web worker posts (JSON-friendly)."""
        return {"code": self.code, "params": dict(self.params), "page": self.page, "text": self.text}


def notice(text: str, page: int | None = None) -> Notice:
    """The Notice for one warning (`page`: the page it was found on, unless the warning names one)."""
    if not isinstance(text, EngineWarning):
        return Notice(OTHER, {}, page, str(text))
    params = dict(text.params)
    named_page = params.pop("page", None)   # a warning that names its page is about that page
    return Notice(text.code, params, page if page is not None else named_page, str(text))


def notices(document_warnings: list[str], pages: list[tuple[int, list[str]]]) -> list[Notice]:
    """The Notices of a result: the document's warnings, then each (page number, warnings)."""
    found = [notice(text) for text in document_warnings]
    for number, warnings in pages:
        found.extend(notice(text, number) for text in warnings)
    return found


NOTICE_CODES = tuple(dict.fromkeys(code for code, _ in SENTENCES.values())) + (OTHER,)
