"""The interpreter's fast paths (placement tables, show()'s level baselines, op_show_run for
Skia's "<hex> Tj dx 0 Td" runs) must give exactly what the general path gives: random pages
of Tj/TJ/'/" with kerning numbers, Tc/Tw/Tz/Ts/TL/Td/TD/Tm/T*, q/Q, cm, render modes, ActualText
spans and crop boxes, in a Type1 font with widths, a standard-14 font, a TrueType font, a Type0
Identity-H font (odd bytes too), an Identity-V font and a Type3 font, are read with
interpreter.FAST_PATHS on and off and compared glyph for glyph, bit for bit."""
from __future__ import annotations

import random

import pytest

import glyphline
from glyphline.content import interpreter
from pdfbuilder import PdfBuilder

PAGES = 300
LETTERS = b"AaBbcdefghijklmnopqrstuvwxyz0123456789.,;-()\\ "


def _fonts(b: PdfBuilder) -> dict:
    widths = [250 + (code * 37) % 500 for code in range(32, 127)]
    cid_map = {code: chr(0x4E00 + code) for code in range(1, 40)}
    cid_map.update({0x41 + k: chr(0x41 + k) for k in range(26)})
    return {
        "T1": b.font_type1("TestSerif", widths=widths, ascent=700, descent=-210),
        "H": b.font_type1("Helvetica"),
        "TT": b.font_truetype("TestSans", widths=widths),
        "CH": b.font_type0(cid_map, w=[1, [500, 600, 700], 0x41, 0x5A, 550], dw=1000),
        "CV": b.font_type0(cid_map, vertical=True, w=[1, [500, 600, 700]], w2=[1, [-900, 400, 880]]),
        "T3": b.font_type3({0x61: "a", 0x62: "b", 0x63: "c", 0x20: "space", 0x7A: "z"},
                           font_matrix=(0.01, 0, 0, 0.01, 0, 0), width=60),
    }


def _number(rng: random.Random, low: float, high: float) -> bytes:
    value = rng.choice([0, 0, rng.randint(int(low), int(high)), round(rng.uniform(low, high), 3)])
    return b"%g" % value


def _string(rng: random.Random, font: str) -> bytes:
    if font in ("CH", "CV"):
        codes = [rng.choice([1, 2, 3, 4, 0x41, 0x42, 0x5A, 0x20, 0x3000, 0x7777]) for _ in range(rng.randint(0, 6))]
        data = "".join("%04X" % code for code in codes)
        if rng.random() < 0.1:
            data += "4"                              # an odd byte: the general path decodes it
        return b"<" + data.encode() + b">"
    if font == "T3":
        data = bytes(rng.choice(b"abcz \x01") for _ in range(rng.randint(0, 6)))
    else:
        data = bytes(rng.choice(LETTERS + b"\x01\x80\xe9") for _ in range(rng.randint(0, 8)))
    if rng.random() < 0.3:
        return b"<" + data.hex().encode() + b">"
    return b"(" + data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _operation(rng: random.Random, fonts: list[str], state: dict) -> bytes:
    kind = rng.choices(["Tf", "Td", "TD", "Tm", "T*", "Tc", "Tw", "Tz", "Ts", "TL", "Tr", "Tj", "TJ", "'", '"',
                        "run", "q", "Q", "cm", "span"],
                       weights=[4, 4, 1, 3, 2, 2, 2, 1, 2, 1, 1, 10, 10, 2, 2, 6, 2, 2, 1, 1])[0]
    if kind == "Tf":
        state["font"] = rng.choice(fonts)
        return b"/%s %s Tf" % (state["font"].encode(), rng.choice([b"10", b"12", b"7.5", b"-9", b"24", b"0"]))
    if kind in ("Td", "TD"):
        return b"%s %s %s" % (_number(rng, -40, 200), _number(rng, -30, 30), kind.encode())
    if kind == "Tm":
        a, b, c, d = rng.choice([(1, 0, 0, 1), (1, 0, 0, 1), (2, 0, 0, 2), (0, 1, -1, 0), (1, 0.2, 0, 1),
                                 (0.7071, 0.7071, -0.7071, 0.7071), (1, 0, 0, -1), (-1, 0, 0, 1)])
        return b"%g %g %g %g %s %s Tm" % (a, b, c, d, _number(rng, -20, 620), _number(rng, -20, 800))
    if kind == "T*":
        return b"T*"
    if kind in ("Tc", "Tw", "Ts", "TL"):
        return b"%s %s" % (_number(rng, -3, 14), kind.encode())
    if kind == "Tz":
        return b"%s Tz" % rng.choice([b"100", b"50", b"150", b"-100", b"0"])
    if kind == "Tr":
        return b"%d Tr" % rng.choice([0, 0, 3, 7, 1])
    if kind == "Tj":
        return _string(rng, state["font"]) + b" Tj"
    if kind == "TJ":
        items = [_string(rng, state["font"]) if rng.random() < 0.6 else _number(rng, -500, 500)
                 for _ in range(rng.randint(0, 8))]
        return b"[" + b" ".join(items) + b"] TJ"
    if kind == "'":
        return _string(rng, state["font"]) + b" '"
    if kind == '"':
        return b"%s %s %s \"" % (_number(rng, 0, 5), _number(rng, -1, 3), _string(rng, state["font"]))
    if kind == "run":                                # Skia: one glyph per Tj, the pen moved by Td
        pairs = []
        for _ in range(rng.randint(1, 12)):
            string = _string(rng, state["font"])
            if rng.random() < 0.8 and state["font"] in ("CH", "CV"):
                string = b"<%04X>" % rng.choice([1, 2, 3, 0x41, 0x7777])
            elif rng.random() < 0.8:
                string = b"<%02X>" % rng.choice(LETTERS + b"\x01")
            pairs.append(b"%s Tj %s %s Td" % (string, _number(rng, -2, 12), _number(rng, -1, 1)))
        return b"\n".join(pairs)
    if kind == "q":
        state["depth"] += 1
        return b"q"
    if kind == "Q":
        state["depth"] = max(0, state["depth"] - 1)
        return b"Q"
    if kind == "cm":
        return rng.choice([b"1 0 0 1 5 -7 cm", b"0.5 0 0 0.5 0 0 cm", b"0 1 -1 0 600 0 cm", b"1 0 0 -1 0 792 cm"])
    return b"/Span <</ActualText (%s)>> BDC %s Tj EMC" % (rng.choice([b"AT", b"", b"x"]), _string(rng, state["font"]))


def random_page(seed: int) -> bytes:
    """A one-page PDF with a random content stream (see the module docstring)."""
    rng = random.Random(seed)
    b = PdfBuilder()
    fonts = _fonts(b)
    names = list(fonts)
    state = {"font": rng.choice(names), "depth": 0}
    parts = [b"BT /%s 11 Tf 72 700 Td" % state["font"].encode()]
    for _ in range(rng.randint(5, 60)):
        if rng.random() < 0.05:
            parts.append(b"ET BT")
        parts.append(_operation(rng, names, state))
    parts.append(b"ET")
    crop = rng.choice([None, None, (0, 0, 612, 792), (50, 100, 400, 700), (100, 650, 300, 720)])
    b.page(b"\n".join(parts), fonts=fonts, crop_box=crop)
    return b.build()


def _read(data: bytes, fast: bool, monkeypatch) -> tuple:
    monkeypatch.setattr(interpreter, "FAST_PATHS", fast)
    page = glyphline.open(data).page(0)
    return [tuple(g) for g in page.glyphs], page.warnings, page.unmapped_glyphs


@pytest.mark.parametrize("seed", range(PAGES))
def test_fast_paths_match_the_general_path(seed, monkeypatch):
    data = random_page(seed)
    assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch)   # bit for bit


def test_random_pages_show_text():
    counts = []
    for seed in range(0, PAGES, 10):
        counts.append(len(glyphline.open(random_page(seed)).page(0).glyphs))
    assert sum(counts) > 1000 and sum(1 for c in counts if c) > len(counts) * 0.6


def test_a_planted_bug_in_the_placement_tables_is_caught(monkeypatch):
    """The comparison sees the fast paths: a placement table one part in a million off fails it."""
    place = interpreter._Interpreter.place

    def slightly_off(state, char):
        text, width_x, width_y, move, move_x, move_y, advance = place(state, char)
        return text, width_x, width_y, move, move_x * (1 + 1e-6), move_y, advance

    monkeypatch.setattr(interpreter._PlacementTable, "__missing__",
                        lambda table, code: slightly_off(table.state, table.char_of(code)))
    differing = sum(_read(random_page(seed), True, monkeypatch) != _read(random_page(seed), False, monkeypatch)
                    for seed in range(20))
    assert differing >= 10


def test_a_font_that_decodes_otherwise_keeps_its_decode(monkeypatch):
    """A SimpleFont subclass with its own decode() (GbkSimpleFont: a GBK lead and trail byte are
    one character) has no code reader: the fast paths would read its codes one byte each."""
    from pdfbuilder import Raw

    b = PdfBuilder()
    font = b.add({"Type": "/Font", "Subtype": "/TrueType", "BaseFont": Raw("/宋体".encode("utf-8")),
                  "FirstChar": 32, "LastChar": 255, "Widths": [500] * 224})
    shown = "中文 ab".encode("gbk").hex().encode()
    b.page(b"BT /F1 12 Tf 72 700 Td <%s> Tj [<%s> -200 (x)] TJ ET" % (shown, shown), fonts={"F1": font})
    data = b.build()
    glyphs, _, _ = _read(data, True, monkeypatch)
    assert "".join(g[0] for g in glyphs) == "中文 ab中文 abx"
    assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch)


@pytest.mark.parametrize("char_spacing", [b"0", b"-7"])
def test_lines_across_the_crop_edges_are_clipped_glyph_by_glyph(char_spacing, monkeypatch):
    """show() keeps a level string whole when the bounds of its glyphs lie inside the clip (a
    placement table's least pen move and its advances, the pen before and after each string).
    Lines slid across each edge of the crop box, with pen moves forward, and backward (Tc < 0:
    no string is then kept whole), keep exactly the glyphs the general path keeps."""
    b = PdfBuilder()
    fonts = _fonts(b)
    lines = [b"BT /T1 11 Tf %s Tc" % char_spacing]
    for step in range(40):
        x = 40 + step * 9.5                          # the line starts left of, inside and right of the box
        lines.append(b"1 0 0 1 %g %d Tm [(Hello) -300 (world, a line) 120 (that runs on)] TJ (and on) Tj"
                     % (x, 150 + step * 12))
    lines.append(b"ET")
    b.page(b"\n".join(lines), fonts=fonts, crop_box=(100, 100, 330, 700))
    data = b.build()
    fast = _read(data, True, monkeypatch)
    assert fast == _read(data, False, monkeypatch)
    per_line = {}
    for glyph in fast[0]:
        per_line[glyph[2]] = per_line.get(glyph[2], 0) + 1
    assert len(set(per_line.values())) > 5          # lines cut at many places, and whole ones


ROWS = 24


@pytest.mark.parametrize("cm, tm", [(b"", b"1 0 0 1"), (b"2 0 0 2 0 0 cm", b"1 0 0 1"),
                                    (b"1 0 0 -1 0 792 cm", b"1 0 0 -1"), (b"0.24 0 0 -0.24 0 792 cm 3 Ts", b"1 0 0 -1"),
                                    (b"1 0 0.3 1 0 0 cm", b"1 0 0 1"), (b"", b"1 0.2 0 1"),
                                    (b"0 1 -1 0 600 0 cm", b"1 0 0 1")])
@pytest.mark.parametrize("crop", [None, (30, 100, 200, 780)])
def test_level_text_runs_match_the_general_path(cm, tm, crop, monkeypatch):
    """op_show_run's level lines (Skia: "<hex> Tj dx 0 Td", no shear) move only te per Td, keep
    one y and are clipped by their extremes: under mirrored, scaled, sheared and rotated matrices,
    with rise, in a simple and a two-byte font, with and without a Td along y, whole and cut by
    the crop box, the same glyphs bit for bit as show()."""
    b = PdfBuilder()
    fonts = _fonts(b)
    lines = [b"BT " + cm]
    for row in range(ROWS):
        font, code = (b"CH", b"<%04X>") if row % 2 else (b"T1", b"<%02X>")
        lines.append(b"/%s 11 Tf %s %g %d Tm" % (font, tm, 14 + row * 1.5, 360 - row * 12))   # sliding over x = 30, 200
        pairs = [b"%s Tj %g %s Td" % (code % (0x41 + k % 26), 5.5 + k * 0.37, b"0" if row % 3 else b"-0.0")
                 for k in range(20)]
        if row == 5:
            pairs[7] = pairs[7].replace(b" 0 Td", b" 0.5 Td")   # one Td along y: not a level run
        lines.append(b"\n".join(pairs))
    lines.append(b"ET")
    b.page(b"\n".join(lines), fonts=fonts, crop_box=crop)
    data = b.build()
    fast = _read(data, True, monkeypatch)
    assert len(fast[0]) == ROWS * 20 if crop is None else len(fast[0]) < ROWS * 20
    assert fast == _read(data, False, monkeypatch)


@pytest.mark.parametrize("limit", [interpreter.MAX_PLACED_CODES, 2])
def test_the_per_glyph_loops_read_the_tables_plain_dict(limit, monkeypatch):
    """The per-glyph loops subscript a placement table's `rows`, a plain dict (CPython
    specialises that subscript, not the subclass's): it holds exactly what the table placed,
    and a code missing from it (met first, or past a full table) is placed by the table; the
    glyphs are those of the general path, in a Tj, a TJ, a Skia run, one-byte and two-byte."""
    monkeypatch.setattr(interpreter, "MAX_PLACED_CODES", limit)
    b = PdfBuilder()
    fonts = _fonts(b)
    run = b"\n".join(b"<%02X> Tj 6.5 0 Td" % (0x61 + k % 5) for k in range(12))
    b.page(b"BT /T1 11 Tf 72 700 Td (Hello) Tj [(Wor) -200 (ld) 300 (Hello)] TJ 0 -14 Td " + run
           + b" ET BT /CH 11 Tf 72 600 Td <00410042> Tj [<0043> -50 <00410001>] TJ ET", fonts=fonts)
    data = b.build()
    document = glyphline.open(data)
    glyphs = document.page(0).glyphs
    assert "".join(g.text for g in glyphs).startswith("HelloWorldHelloabcdeabcdeab")
    tables = [table for _font, table in document._placements.values()]
    assert len(tables) == 2
    for table in tables:
        assert table.rows.__class__ is dict and table.rows == dict(table) and len(table.rows) <= limit
    assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch)


@pytest.mark.parametrize("array", [b"[(Wor) -200 (ld) 300.5 (He) 0 (llo)]", b"[(Hello)]", b"[-500 (Hello) 20 (x)]",
                                   b"[(Hello) 20 30 (x)]", b"[(Hello) 20 (x) 40]", b"[(He) true (llo) 2 (x)]",
                                   b"[(He) /N (llo)]", b"[(He) [1] (llo)]", b"[(Hel) (lo)]", b"[]"])
@pytest.mark.parametrize("font", [b"T1", b"CH"])
def test_tj_arrays_of_every_shape_match_the_general_path(array, font, monkeypatch):
    """show() reads a TJ of strings and numbers in turn (a Tj, pdfTeX, LibreOffice) in a loop of
    its own, the type of every item told up front; any other shape (a number first or last, two
    in a row, strings side by side, a boolean, a name or an array among them) in the general
    loop: the glyphs, pen and Tm after are the general path's, bit for bit."""
    if font == b"CH":
        array = array.replace(b"(Wor)", b"<00410042>").replace(b"(Hello)", b"<0043>").replace(b"(He)", b"<0041>")
        array = array.replace(b"(ld)", b"<00420041>").replace(b"(llo)", b"<0042>").replace(b"(x)", b"<0041>")
        array = array.replace(b"(Hel)", b"<0043>").replace(b"(lo)", b"<0041>")
    b = PdfBuilder()
    fonts = _fonts(b)
    b.page(b"BT /%s 11 Tf 72 700 Td %s TJ (z) Tj 2 Tc %s TJ <41> Tj ET" % (font, array, array), fonts=fonts)
    data = b.build()
    fast = _read(data, True, monkeypatch)
    assert (fast[0] or array == b"[]") and fast == _read(data, False, monkeypatch)


def test_a_text_state_met_again_reuses_its_setup(monkeypatch):
    """Each line in its own q BT … ET Q (LibreOffice, Chromium) drops show()'s TextSetup; a
    state met before on the page is looked up, not derived again, and a new size, Tc, Tm or
    CTM is a new state."""
    calls = []
    derive = interpreter._Interpreter.horizontal_setup
    monkeypatch.setattr(interpreter._Interpreter, "horizontal_setup",
                        lambda machine, font: calls.append(font) or derive(machine, font))
    b = PdfBuilder()
    fonts = _fonts(b)
    line = b"q BT /T1 11 Tf 72 %d Td (Hello) Tj ET Q"
    b.page(b"\n".join([line % 700, line % 680, line % 660, line.replace(b"11 Tf", b"12 Tf") % 640,
                       line.replace(b"BT", b"BT 1 Tc") % 620, line.replace(b"BT", b"BT 2 0 0 1 72 600 Tm") % 0,
                       line.replace(b"q", b"q 1 0 0 1 0 -5 cm") % 580, line.replace(b"q", b"q 2 0 0 2 0 0 cm") % 280]),
           fonts=fonts)
    glyphs = glyphline.open(b.build()).page(0).glyphs
    assert len(glyphs) == 8 * 5
    assert len(calls) == 5    # 11 pt (the first three lines and the one moved by cm), 12 pt, Tc, Tm, scaled CTM


@pytest.mark.parametrize("seed", range(0, PAGES, 7))
def test_remembered_setups_give_the_glyphs_of_setups_derived_anew(seed, monkeypatch):
    data = random_page(seed)
    remembered = _read(data, True, monkeypatch)

    def no_key(*_numbers):
        raise TypeError("derive every setup")

    monkeypatch.setattr(interpreter, "_SETUP_KEY", no_key)
    assert remembered == _read(data, True, monkeypatch)
