"""Stable codes for the engine's warnings, so an interface can word them in its reader's language.

The engine writes each warning as one English sentence (the CLI prints it as is). `notice()`
reads such a sentence back into a Notice: a stable `code`, the sentence's variable parts as
`params`, the page it concerns, and the sentence itself for a "details" view. The patterns
below are the one place that knows the engine's sentences; a sentence none of them knows is
code "other" (its text still shown), so a new warning is never lost, only worded generically.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

OTHER = "other"  # a sentence no pattern knows: the interface shows a generic line and the text


@dataclass(frozen=True)
class Notice:
    code: str                                   # stable name, e.g. "unmapped-glyphs"
    params: dict[str, str | int] = field(default_factory=dict)  # the sentence's variable parts
    page: int | None = None                     # 1-based page, None for the whole document
    text: str = ""                              # the engine's English sentence (CLI, details)

    def as_message(self) -> dict:
        """The plain dict the web worker posts (JSON-friendly)."""
        return {"code": self.code, "params": dict(self.params), "page": self.page, "text": self.text}


# a failure reason the browser build cannot do anything about (a decoder it does not have)
_MISSING_DECODER = re.compile(r"DependencyError|NotImplementedError|cannot decode|is deprecated and has been removed")

# (code, pattern): the first match wins; named groups become params (digits as ints)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((code, re.compile(pattern)) for code, pattern in (
    ("pages-beyond-end", r"^the document has (?P<count>\d+) page\(s\); pages from (?P<first>\d+) on were asked for and skipped$"),
    ("unmapped-glyphs", r"^(?P<count>\d+) glyph\(s\) on page (?P<page>\d+) have no Unicode mapping and were left out$"),
    ("repaired", r"^repaired: (?P<detail>.*)$"),
    ("filter-unsupported", r"^(?:stream \d+ \d+ R|an inline stream) uses the filter (?P<filter>\S+), which Glyphline cannot decode"),
    ("stream-undecodable", r"^(?:stream \d+ \d+ R|an inline stream) could not be decoded with (?P<filter>.+?) \((?P<reason>.*)\); its content is missing$"),
    ("content-stream-skipped", r"^content stream (?P<index>\d+) could not be decoded \((?P<reason>.*)\); it was skipped$"),
    ("annotations-stopped", r"^page (?P<page>\d+): annotations stopped early: (?P<reason>.*); the text before that point is kept$"),
    ("annotations-failed", r"^page (?P<page>\d+): the annotations could not be read \((?P<reason>.*)\)$"),
    ("page-stopped-early", r"^page (?P<page>\d+) stopped early: (?P<reason>.*); the text before that point is kept$"),
    ("page-failed-midway", r"^page (?P<page>\d+) failed midway \((?P<reason>.*)\); the text decoded before that point is kept$"),
    ("page-nested-too-deep", r"^page (?P<page>\d+) is nested too deeply; the text decoded before that point is kept$"),
    ("layout-failed", r"^page (?P<page>\d+) could not be laid out \((?P<reason>.*)\); its text is given in drawing order$"),
    ("render-failed", r"^page (?P<page>\d+) could not be rendered \((?P<reason>.*)\); it is left empty$"),
    ("annotations-capped", r"^the page has (?P<count>\d+) annotations; only the first (?P<limit>\d+) were read$"),
    ("annotations-skipped", r"^(?P<count>\d+) annotation\(s\) skipped: (?P<detail>.*)$"),
    ("font-not-in-resources", r"^font /(?P<font>\S+) is not in the page resources$"),
    ("font-unloadable", r"^font /(?P<font>\S+) could not be loaded; its text is skipped$"),
    ("text-without-font", r"^text shown without a usable font is skipped$"),
    ("malformed-operators", r"^malformed content operators skipped \(first: (?P<operator>.*)\)$"),
    ("form-cycle", r"^Form XObject /(?P<name>\S+) draws itself; the repeat is skipped$"),
    ("form-too-deep", r"^Form XObjects nested deeper than (?P<limit>\d+); deeper ones skipped$"),
    ("form-unreadable", r"^Form XObject /(?P<name>\S+) could not be read$"),
    ("xfa-form", r"^this file is an XFA form"),
))
_PAGE_PREFIX = re.compile(r"^page (?P<page>\d+): (?=.)")


def notice(text: str, page: int | None = None) -> Notice:
    """The Notice for one of the engine's warning sentences (`page`: the page it was found on)."""
    text = str(text)
    found = _match(text)
    prefixed = _PAGE_PREFIX.match(text)
    if found is None and prefixed:   # Result.warnings puts "page N: " before a page's own sentence
        found = _match(text[prefixed.end():])
        page = page if page is not None else int(prefixed.group("page"))
    if found is None:
        return Notice(OTHER, {}, page, text)
    code, params = found
    named_page = params.pop("page", None)   # a sentence that names its page is about that page
    return Notice(code, params, page if page is not None else named_page, text)


def _match(body: str) -> tuple[str, dict[str, str | int]] | None:
    for code, pattern in _PATTERNS:
        found = pattern.match(body)
        if found:
            if code == "stream-undecodable" and _MISSING_DECODER.search(found.group("reason")):
                code = "filter-unsupported"   # not damage: this build lacks the decoder
            return code, {name: int(value) if value.isdigit() else value for name, value in found.groupdict().items()}
    return None


def notices(document_warnings: list[str], pages: list[tuple[int, list[str]]]) -> list[Notice]:
    """The Notices of a result: the document's warnings, then each (page number, warnings)."""
    found = [notice(text) for text in document_warnings]
    for number, warnings in pages:
        found.extend(notice(text, number) for text in warnings)
    return found


NOTICE_CODES = tuple(code for code, _ in _PATTERNS) + (OTHER,)
