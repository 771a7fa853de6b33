"""The author's structure (tagged PDF): reading the tree, its budgets, and ordering by it."""
from __future__ import annotations

import random

import pytest
from pypdf.generic import DictionaryObject, IndirectObject

from glyphline import extract_text
from glyphline.document import open as open_document
from glyphline.extract import _analyse, analysis_needs
from glyphline.layout.tagged import MAX_EXTRA_UPWARD_MOVES
from glyphline.layout.model import AnalysisNeeds
from glyphline.options import ExtractOptions
from glyphline.plainobjects import PlainObjects
from glyphline.structure import MAX_STRUCT_DEPTH, read_structure
from tests.pdfbuilder import PdfBuilder, Raw, Ref, marked


def show(x: float, y: float, text: str) -> bytes:
    return b"BT /F1 12 Tf %g %g Td (%s) Tj ET\n" % (x, y, text.encode())


def column(x: float, name: str) -> bytes:
    """Enough lines, ragged, ending a sentence, to read as a column of its own."""
    lines = [f"{name} column line {i} of the text" + " more" * (i % 3) for i in range(7)] + ["The end."]
    return b"".join(show(x, 700 - 14 * i, line) for i, line in enumerate(lines))


def two_columns() -> bytes:
    """Two side-by-side columns (MCIDs 0 and 1); the tree reads the right one first."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 0, column(72, "Left")) + marked("P", 1, column(330, "Right")), fonts={"F1": font})
    return b.build(catalog=b.struct_tree(page, [("P", [1]), ("P", [0])]))


def stacked(order: list[int], tagged: list[int] | None = None) -> bytes:
    """Three paragraphs down one column; the tree lists them in `order` (indexes top to bottom)."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    words = ["Alpha paragraph at the top", "Beta paragraph in the middle", "Gamma paragraph at the bottom"]
    tagged = list(range(3)) if tagged is None else tagged
    content = b"".join(marked("P", i, show(72, 700 - 80 * i, text)) if i in tagged else show(72, 700 - 80 * i, text)
                       for i, text in enumerate(words))
    page = b.page(content, fonts={"F1": font})
    return b.build(catalog=b.struct_tree(page, [("P", [i]) for i in order if i in tagged]))


def first_words(text: str) -> list[str]:
    return [block.split()[0] for block in text.split("\n\n") if block.strip()]


# ----------------------------------------------------------------------------- ordering

def test_tags_order_columns_as_the_tree_says():
    data = two_columns()
    assert first_words(extract_text(data, order="geometry").text) == ["Left", "Right"]
    assert first_words(extract_text(data, order="tags").text) == ["Right", "Left"]


def test_auto_follows_a_tree_that_covers_the_page_and_reads_down_the_columns():
    assert first_words(extract_text(two_columns()).text) == ["Right", "Left"]   # auto is the default


def test_auto_refuses_a_tree_that_reads_a_column_bottom_up():
    data = stacked([2, 1, 0])   # two steps back up the same column: more than MAX_EXTRA_UPWARD_MOVES
    assert MAX_EXTRA_UPWARD_MOVES < 2
    assert first_words(extract_text(data, order="auto").text) == ["Alpha", "Beta", "Gamma"]
    assert first_words(extract_text(data, order="tags").text) == ["Gamma", "Beta", "Alpha"]


def test_auto_allows_one_float_read_out_of_place():
    data = stacked([0, 2, 1])   # one step back up: a float or a figure caption read where the tree puts it
    assert first_words(extract_text(data, order="auto").text) == ["Alpha", "Gamma", "Beta"]


def test_auto_uses_geometry_when_the_blocks_cut_across_the_trees_elements():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    lines = [(700, "Alpha one of the first paragraph"), (686, "alpha two ends it."),
             (620, "Beta one of the second paragraph"), (606, "beta two ends it.")]
    page = b.page(b"".join(marked("P", i, show(72, y, text)) for i, (y, text) in enumerate(lines)), fonts={"F1": font})
    # the tree alternates between the page's two paragraphs: neither block is one run of the tree
    data = b.build(catalog=b.struct_tree(page, [("P", [2]), ("P", [0]), ("P", [3]), ("P", [1])]))
    assert first_words(extract_text(data, order="tags").text) == ["Beta", "Alpha"]
    assert first_words(extract_text(data, order="auto").text) == ["Alpha", "Beta"]


def test_auto_uses_geometry_when_the_tags_cover_too_little_text():
    data = stacked([2, 0], tagged=[0, 2])   # the middle paragraph has no MCID: a third of the text untagged
    assert first_words(extract_text(data, order="auto").text) == ["Alpha", "Beta", "Gamma"]
    tags = first_words(extract_text(data, order="tags").text)
    assert tags[0] == "Gamma" and sorted(tags) == ["Alpha", "Beta", "Gamma"]


def test_untagged_block_keeps_its_place_after_the_block_it_followed():
    data = stacked([2, 0], tagged=[0, 2])
    assert first_words(extract_text(data, order="tags").text) == ["Gamma", "Alpha", "Beta"]


def test_geometry_order_ignores_the_tree_and_does_not_read_it():
    document = open_document(two_columns())
    result = extract_text(two_columns(), order="geometry")
    assert first_words(result.text) == ["Left", "Right"]
    assert document._structure is None   # nothing asked for it


def test_tags_order_on_an_untagged_file_warns_and_reads_geometry():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(show(72, 700, "Only line") , fonts={"F1": font})
    result = extract_text(b.build(), order="tags")
    assert result.text.strip() == "Only line"
    assert any("not tagged" in w for w in result.warnings)


def test_unknown_order_is_refused():
    with pytest.raises(ValueError, match="unknown order"):
        ExtractOptions(order="random")


def test_web_options_carry_the_order():
    assert ExtractOptions.from_message({"order": "tags"}).order == "tags"


# ----------------------------------------------------------------------------- roles on the layout

def layout_of(data: bytes, order: str = "auto"):
    return _analyse(open_document(data), 1, needs=AnalysisNeeds(order=order))[0]


def test_blocks_carry_their_role_path_and_language():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    content = (marked("H1", 0, show(72, 700, "Title of the notes"))
               + marked("LBody", 1, show(72, 640, "First item of the list")))
    page = b.page(content, fonts={"F1": font})
    tree = [("H1", [0], {"Lang": "de-DE"}), ("L", [("LI", [("LBody", [1])])])]
    layout = layout_of(b.build(catalog=b.struct_tree(page, tree)))
    heading, item = layout.blocks
    assert (heading.tag.role, heading.tag.lang) == ("H1", "de-DE")
    assert item.tag.role == "LBody" and item.tag.path[-3:] == ("L", "LI", "LBody")
    assert heading.tagged == 1.0 and layout.order == "tags"


def test_role_map_names_custom_roles_by_their_standard_role():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("Heading1", 0, show(72, 700, "Custom heading")), fonts={"F1": font})
    data = b.build(catalog=b.struct_tree(page, [("Heading1", [0])], role_map={"Heading1": "H1"}))
    assert layout_of(data).blocks[0].tag.role == "H1"


def test_figures_with_alt_text_are_listed_on_the_page():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 0, show(72, 700, "A caption")), fonts={"F1": font})
    tree = [("Figure", [], {"Alt": "A lighthouse at dusk"}), ("P", [0])]
    layout = layout_of(b.build(catalog=b.struct_tree(page, tree)))
    assert [f.alt for f in layout.figures] == ["A lighthouse at dusk"]
    assert layout.figures[0].role == "Figure"


def test_elements_without_a_page_are_placed_by_the_parent_tree():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 0, column(72, "Left")) + marked("P", 1, column(330, "Right")), fonts={"F1": font})
    left, right = ("P", [0]), ("P", [1])
    data = b.build(catalog=b.struct_tree(None, [right, left], parent_tree={page: [left, right]}))
    assert first_words(extract_text(data, order="tags").text) == ["Right", "Left"]


# ----------------------------------------------------------------------------- hostile trees

def test_a_cycle_in_the_tree_falls_back_to_geometry_with_a_warning():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 0, show(72, 700, "Looping text")), fonts={"F1": font})
    catalog = b.struct_tree(page, [("P", [0])])
    tree = b.objects[catalog["StructTreeRoot"].num]
    document_element = tree["K"][0]
    paragraph = b.objects[document_element.num]["K"][0]
    b.objects[paragraph.num]["K"].append(document_element)   # the paragraph holds its own parent
    result = extract_text(b.build(catalog=catalog), order="tags")
    assert result.text.strip() == "Looping text"
    assert any("cycle" in w for w in result.warnings)


def test_a_tree_deeper_than_the_budget_falls_back_with_a_warning():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 0, show(72, 700, "Deep text")), fonts={"F1": font})
    spec: tuple = ("P", [0])
    for _ in range(MAX_STRUCT_DEPTH + 5):
        spec = ("Div", [spec])
    result = extract_text(b.build(catalog=b.struct_tree(page, [spec])), order="tags")
    assert result.text.strip() == "Deep text"
    assert any("deeper than" in w for w in result.warnings)


def test_junk_in_the_tree_is_skipped():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 0, show(72, 700, "Survives junk")), fonts={"F1": font})
    catalog = b.struct_tree(page, [("P", [0])])
    tree = b.objects[catalog["StructTreeRoot"].num]
    tree["K"] = tree["K"] + [None, "/Name", 3.5, Ref(999)]
    result = extract_text(b.build(catalog=catalog), order="tags")
    assert result.text.strip() == "Survives junk"


def test_mcids_missing_from_the_tree_leave_the_block_untagged():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("P", 7, show(72, 700, "Orphan span")), fonts={"F1": font})
    layout = layout_of(b.build(catalog=b.struct_tree(page, [("P", [0])])))
    assert layout.blocks[0].tag is None and layout.order == "geometry"


def test_json_output_names_the_tagged_role_and_figures():
    import json

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    page = b.page(marked("H2", 0, show(72, 700, "Section heading")), fonts={"F1": font})
    tree = [("H2", [0], {"Lang": "en"}), ("Figure", [], {"Alt": "Chart of tides"})]
    document = json.loads(extract_text(b.build(catalog=b.struct_tree(page, tree)), mode="json").text)
    page_object = document["pages"][0]
    assert page_object["blocks"][0]["tag"] == {"role": "H2", "lang": "en"}
    assert page_object["figures"] == [{"alt": "Chart of tides"}]


def test_an_mcid_inside_a_form_does_not_take_the_place_of_the_pages():
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    form = b.form(marked("P", 0, show(0, 0, "Drawn by the form")), fonts={"F1": font})
    page = b.page(marked("P", 5, b"q 1 0 0 1 72 700 cm /Fm1 Do Q\n"), xobjects={"Fm1": form})
    document = open_document(b.build(catalog=b.struct_tree(page, [("P", [5])])))
    assert {g.mcid for g in document.page(0).glyphs} == {5}   # the form's MCID 0 is its own, not page MCID 0


def test_the_command_line_takes_the_order(tmp_path, capsysbinary):
    from glyphline.cli import main

    path = tmp_path / "columns.pdf"
    path.write_bytes(two_columns())
    assert main(["--order", "geometry", str(path)]) == 0
    geometry = capsysbinary.readouterr().out.decode()
    assert main([str(path)]) == 0
    default = capsysbinary.readouterr().out.decode()
    assert first_words(geometry) == ["Left", "Right"] and first_words(default) == ["Right", "Left"]
    assert main(["--order", "sideways", str(path)]) == 2


# ----------------------------------------------------------------------------- plain elements read from the file

# Entry values for random elements: the plain kinds (names, integers, references, arrays)
# and the kinds the plain reader must leave to pypdf (strings, reals, escaped names, comments,
# nested dictionaries, booleans, null).
_ODD_VALUES = [Raw(b"1.5"), Raw(b"/A#20B"), Raw(b"(text)"), Raw(b"<FEFF0041>"), Raw(b"% note\n/N"),
               Raw(b"<< /MCID 3 >>"), Raw(b"true"), Raw(b"null"), Raw(b"[1 [2 /X] 3]"), Raw(b"-7"),
               Raw(b"/Odd+Name.1"), Raw(b"[ ]"), Raw(b"+4"), Raw(b"007"), Raw(b"\x0b5"), Raw(b"\x000")]


def _random_tagged_document(rng: random.Random, object_streams: bool) -> bytes:
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    mcids = list(range(rng.randint(1, 12)))
    page = b.page(b"".join(marked("P", i, show(72, 700 - 20 * i, f"Line {i}")) for i in mcids), fonts={"F1": font})
    free = list(mcids)
    rng.shuffle(free)

    def element(depth: int):
        kids = []
        for _ in range(rng.randint(0, 3)):
            if free and rng.random() < 0.6:
                kids.append(free.pop())
            elif depth < 4:
                kids.append(element(depth + 1))
        extra = {}
        if rng.random() < 0.4:
            extra["Alt"] = rng.choice(["a chart", "Figure 1"])
        if rng.random() < 0.3:
            extra["Lang"] = rng.choice(["en", "de-DE"])
        if rng.random() < 0.5:
            extra["X" + str(rng.randint(0, 2))] = rng.choice(_ODD_VALUES)
        return (rng.choice(["P", "H1", "Figure", "Span", "L", "LI", "LBody", "Aside", "Custom", "Artifact"]), kids, extra)

    elements = [element(0) for _ in range(rng.randint(1, 4))]
    return b.build(catalog=b.struct_tree(page, elements, role_map={"Custom": "H2"}), object_streams=object_streams)


@pytest.mark.parametrize("seed", range(300))
def test_plain_elements_read_from_the_file_equal_pypdfs(seed):
    """The structure read with plain elements taken straight from the file equals the one pypdf
    reads element by element, on random trees holding every kind of entry value."""
    rng = random.Random(seed)
    data = _random_tagged_document(rng, object_streams=seed % 5 == 0)
    document = open_document(data)
    reader = document._reader
    root = reader.trailer["/Root"].get_object()
    pages = [record.obj for record in document._records]
    from_file = read_structure(root, pages, reader)
    by_pypdf = read_structure(root, pages)
    assert from_file == by_pypdf


def test_plain_element_values_equal_pypdfs():
    b = PdfBuilder()
    bodies = [b"<< /Type /StructElem /S /P /K [1 2 0 R [3 /N]] /Pg 4 0 R /A -2 /A 9 >>",
              b"<</K 0>>", b"<< /K 12 0 R/S/H1>>", b"<< /K [] >>"]
    refs = [b.add(Raw(body)) for body in bodies]
    reader = open_document(b.build())._reader
    plain = PlainObjects(reader)
    for ref in refs:
        read = plain.resolve(IndirectObject(ref.num, 0, reader))
        assert type(read) is not DictionaryObject   # read from the file, not by pypdf
        assert read == reader.get_object(ref.num) and read.indirect_reference.idnum == ref.num


def test_plain_elements_are_read_through_a_file_stream_not_its_bytes(tmp_path):
    """PlainObjects seeks and reads at each object's offset (at most MAX_PLAIN_ELEMENT_BYTES), so a
    reader over an open file (no getbuffer(), nothing held whole) reads plain elements too, leaves
    the stream where it was, and a file that shrank under us leaves the element to pypdf."""
    from pypdf import PdfReader

    b = PdfBuilder()
    refs = [b.add(Raw(body)) for body in (b"<< /S /P /K [1 2 0 R] >>", b"<</K 0>>")]
    path = tmp_path / "plain.pdf"
    path.write_bytes(b.build())
    with path.open("rb") as file:
        reader = PdfReader(file, strict=False)
        assert not hasattr(file, "getbuffer")
        plain = PlainObjects(reader)
        file.seek(7)
        reads = [plain.plain(ref.num, 0) for ref in refs]
        assert file.tell() == 7
        for ref, read in zip(refs, reads):
            assert type(read) is not DictionaryObject and read == reader.get_object(ref.num)
        offset = reader.xref[0][refs[1].num]
        with path.open("r+b") as writer:
            writer.truncate(offset + 3)   # the file shrinks under the reader
        assert PlainObjects(reader).plain(refs[1].num, 0) is None
    assert plain.plain(refs[0].num, 0) is None   # the stream closed: left to pypdf (which says why)


def test_elements_that_are_not_plain_are_left_to_pypdf():
    b = PdfBuilder()
    refs = [b.add(Raw(body)) for body in (b"<< /Alt (a) >>", b"<< /K 1.5 >>", b"<< /S /A#20B >>",
                                          b"<< /K [1 >>", b"<< /K ] >>", b"<< /K >>", b"<< /A << /B 1 >> >>",
                                          b"<< /K\x0b0 >>", b"<< /K +1 0 R >>", b"<< /K 1 0 R5 >>", b"<< /K 1 0 RG >>",
                                          b"<< /K 1 \x00>>", b"<< /K 5 R >>", b"<< /K 1 x >>", b"<< x /K 1 >>",
                                          b"<< /Alt <41> >>", b"<< /K 1 /A <<>> >>")]
    reader = open_document(b.build())._reader
    plain = PlainObjects(reader)
    for ref in refs:
        assert plain.plain(ref.num, 0) is None


def test_words_name_their_element_only_when_the_output_reads_them():
    """Blocks always take their element (it orders them); words only for Markdown and kept
    layouts (extract.analysis_needs), so plain text skips the per-word work."""
    def words(needs):
        layout = _analyse(open_document(stacked([0, 1, 2])), 1, needs=needs)[0]
        assert all(block.tag is not None for block in layout.blocks)
        return [word for block in layout.blocks for line in block.lines for word in line.words]

    assert all(word.tag is None for word in words(analysis_needs(ExtractOptions())))
    assert all(word.tag is not None for word in words(analysis_needs(ExtractOptions(mode="markdown"))))
    assert all(word.tag is not None for word in words(analysis_needs(ExtractOptions(), keep_layouts=True)))
    assert analysis_needs(ExtractOptions(order="tags")).order == "tags"
