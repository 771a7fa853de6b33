"""Analysed pages packed as columns (glyphline.packed_pages) for the trip from the worker that
analysed them to the one that runs the document-wide passes: equal records come back."""
from __future__ import annotations

import dataclasses
import marshal
from decimal import Decimal

from test_parallel import long_document

from glyphline.document import open as open_document
from glyphline.extract import _analyse
from glyphline.layout.model import AnalysisNeeds, Block, Line, PageLayout, Word
from glyphline.content.ocr import OcrReport
from glyphline.packed_pages import _COLUMNS, _PICKLED, pack_pages, unpack_pages
from glyphline.structure import Tag


def _filled(cls, **given):
    """A record with every field set unlike its default, so a field the packing forgot shows."""
    names = cls._fields if hasattr(cls, "_fields") else [f.name for f in dataclasses.fields(cls)]
    types = cls.__annotations__
    values = {name: given.get(name, {"float": 1.5, "int": 3, "str": "x", "bool": True}.get(types.get(name), f"{name}!"))
              for name in names}
    return cls(**values)


def _word(text: str, x0: float) -> Word:
    return _filled(Word, text=text, x0=x0, y0=2.0, x1=x0 + 3.0, y1=4.0, size=9.0, font="F", flags=5)


def _page(number: int, tag: Tag | None = None) -> tuple[PageLayout, list[str], int]:
    line = _filled(Line, words=[_word("one", 1.0), _word("two", 5.0)], x0=1.0, y0=2.0, x1=8.0, y1=4.0, dx=0.0, dy=1.0)
    empty_line = _filled(Line, words=[], x0=1.0, y0=5.0, x1=1.0, y1=6.0, dx=1.0, dy=0.0)
    row = _filled(Block, lines=[line, empty_line], x0=1.0, y0=2.0, x1=8.0, y1=6.0, role="header", tag=tag,
                  tagged=0.5, tag_orders=(2, 4), table=1, cells=[[_word("a", 1.0)], [], [_word("b", 5.0), _word("c", 6.0)]],
                  level=2)
    bare = Block([], 0.0, 0.0, 0.0, 0.0)
    layout = _filled(PageLayout, number=number, width=612.0, height=792.0, blocks=[row, bare], warnings=["w"],
                     char_count=7, image_coverage=0.25, unmapped_glyphs=1, hidden_glyphs=2, order="tags",
                     figures=[], ocr=None, line_pitches={110: [13.5, 13.25]})
    return layout, ["page warning"], 90


def test_every_field_of_every_record_comes_back():
    pages = [_page(1), _page(2)]
    back = unpack_pages(pack_pages(pages))
    assert back == pages
    assert type(back[0][0].blocks[0].lines[0].words[0]) is Word


def test_structure_tags_and_ocr_reports_travel_inside_the_columns():
    tagged = _page(1, tag=Tag(order=3, role="P", path=("Document", "P")))
    tagged[0].figures = [Tag(order=5, role="Figure", alt="a chart")]
    tagged[0].ocr = OcrReport(boxes=[(1.0, 2.0, 3.0, 4.0, 90.0)], images=1)
    pages = [tagged, _page(2)]
    packed = pack_pages(pages)
    assert [kind for kind, _ in marshal.loads(packed)] == [_COLUMNS, _COLUMNS]   # neither page pickled whole
    assert unpack_pages(packed) == pages


def test_a_page_with_an_object_marshal_cannot_write_elsewhere_is_pickled_whole():
    layout, warnings, rotation = _page(1)
    line = layout.blocks[0].lines[0]
    odd = dataclasses.replace(line, words=[line.words[0]._replace(x0=Decimal("1.5"))])   # a word of numbers
    layout.blocks[0] = dataclasses.replace(layout.blocks[0], lines=[odd])
    packed = pack_pages([(layout, warnings, rotation)])
    assert [kind for kind, _ in marshal.loads(packed)] == [_PICKLED]
    assert unpack_pages(packed) == [(layout, warnings, rotation)]


class CodedWarning(str):
    """A warning that carries more than its sentence (as glyphline.notices' do)."""

    def __new__(cls, code: str, text: str):
        made = super().__new__(cls, text)
        made.code = code
        return made

    def __reduce__(self):
        return (CodedWarning, (self.code, str(self)))


def test_warnings_keep_their_type_and_what_they_carry():
    layout, _, rotation = _page(1)
    layout.warnings = [CodedWarning("layout-failed", "page 1 could not be laid out"), "plain"]
    packed = pack_pages([(layout, [CodedWarning("x", "page warning"), "w"], rotation)])
    assert [kind for kind, _ in marshal.loads(packed)] == [_COLUMNS]   # still as columns, not pickled whole
    (back, warnings, _), = unpack_pages(packed)
    assert back == layout and warnings == ["page warning", "w"]
    assert type(back.warnings[0]) is CodedWarning and back.warnings[0].code == "layout-failed"
    assert type(warnings[0]) is CodedWarning and warnings[0].code == "x"
    assert type(warnings[1]) is str


def test_no_pages_and_an_empty_page():
    empty = (PageLayout(number=4, width=10.0, height=10.0), [], 0)
    assert unpack_pages(pack_pages([])) == []
    assert unpack_pages(pack_pages([empty])) == [empty]


def test_real_pages_come_back_equal():
    document = open_document(long_document())
    pages = [_analyse(document, number, needs=AnalysisNeeds(styled=True, word_tags=True)) for number in range(1, document.page_count + 1)]
    assert unpack_pages(pack_pages(pages)) == pages
