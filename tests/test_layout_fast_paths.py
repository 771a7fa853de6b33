"""The layout's fast paths (glyphline/layout/_upright.py) must give exactly what the general
rules give: random upright pages with fake-bold copies, kerning, out-of-order pieces, gutters,
text drawn back over text, spaces, font changes, raised glyphs (by position and by text rise)
are laid out with the switch (_upright.FAST_PATHS) on and off, and the two results compared
field by field through the public calls: analyze_page, build_segments and build_words."""
from __future__ import annotations

import random
from contextlib import contextmanager

import pytest

from glyphline.glyph import TEXT_RISE, Glyph
from glyphline.layout import _upright, analyze_page
from glyphline.layout.scripts import SOFT_HYPHEN
from glyphline.layout.lines import build_segments
from glyphline.layout.words import build_words

SEEDS = range(300)


def _page(rng: random.Random, plain: bool = False, accents: bool = True) -> list[Glyph]:
    """A random upright page; `plain` pages have no fake-bold copies, no out-of-order pieces and
    keep one font per line (the lines whose segments carry their columns, Segment.upright);
    without `accents`, an apostrophe stands where a spacing accent would (a page with one is
    cut into segments by the general rules)."""
    fonts = [(8.0, 1.2, 0.25), (10.0, 1.1, 0.22), (12.0, 1.25, 0.3), (10.0, 0.3, 0.0), (0.0, 1.0, 0.2)]
    glyphs: list[Glyph] = []
    y = 50.0
    for _ in range(rng.randint(1, 12)):
        x = rng.uniform(10, 60)
        size, box, descent = rng.choice(fonts[:3])
        for _ in range(rng.randint(1, 40)):
            if rng.random() < 0.1 and not plain:
                size, box, descent = rng.choice(fonts)
            text = rng.choice(["a", "b", "l", "l", " ", "fi", "é", "-", SOFT_HYPHEN, "1", "\u00b4"])
            if text == "\u00b4" and not accents:
                text = "'"
            advance = rng.choice([0.0, 0.3, 0.5, 0.6]) * (size or 10.0)
            raised = rng.choice([0.0, 0.0, 0.0, -3.0, 2.0, 0.01])
            flags = rng.choice([0, 0, 0, 8])
            if rng.random() < 0.1:   # shown with a text rise (Ts), up to past a line pitch
                raised = rng.choice([-12.0, -9.0, 5.0, 14.0])
                flags |= TEXT_RISE
            g = Glyph(text, x, y + raised, x + advance, y + raised, advance, 1.0, 0.0,
                      box * (size or 10.0), descent * (size or 10.0), size, f"F{size}", flags)
            glyphs.append(g)
            if rng.random() < 0.05 and not plain:   # a fake-bold copy
                glyphs.append(g._replace(x=g.x + 0.3, end_x=g.end_x + 0.3))
            # kerning, word gaps, a gutter, a step back over the glyphs before (text drawn over text),
            # and a pen a hair off (within words.SPACE_PEN_EM: a space there still starts at the pen)
            x += advance + rng.choice([0.0, 0.0, -0.2, 0.5, 2.5, 4.0, 15.0, -7.0])
            if not plain and rng.random() < 0.05:
                x += rng.choice([0.004, -0.004])
        y += rng.choice([12.0, 14.0, 0.0, 3.0, 40.0])
    if rng.random() < 0.3 and not plain:   # a piece drawn out of order
        k = rng.randrange(len(glyphs))
        glyphs = glyphs[k:] + glyphs[:k]
    return glyphs


def _seed_page(seed: int) -> list[Glyph]:
    return _page(random.Random(seed), plain=seed % 3 == 0, accents=seed % 5 == 4)


def _line(seed: int) -> tuple[list[Glyph], list[float], list[float]]:
    """One random line, glyphs sorted along it; half of them in one font (the fast path's case)."""
    rng = random.Random(seed)
    glyphs = [g for g in _page(rng) if g.y == 50.0][:60]
    if rng.random() < 0.5:
        glyphs = [g._replace(height=12.0, descent=2.5, size=10.0) for g in glyphs]
    glyphs.sort(key=lambda g: g.x)
    return glyphs, [g.x for g in glyphs], [max(g.end_x, g.x) for g in glyphs]


@contextmanager
def _switch(on: bool):
    saved = _upright.FAST_PATHS
    _upright.FAST_PATHS = on
    try:
        yield
    finally:
        _upright.FAST_PATHS = saved


def _on_and_off(call, *args):
    """call(*args) with the fast paths, then by the general rules alone."""
    with _switch(True):
        fast = call(*args)
    with _switch(False):
        general = call(*args)
    return fast, general


def _layout(glyphs: list[Glyph]):
    return analyze_page(list(glyphs), 600.0, 800.0, 1)


def _assert_laid_out_alike(glyphs: list[Glyph]) -> None:
    """The glyphs' segments and their page's layout are the same with the fast paths on and off."""
    for call in (build_segments, _layout):
        fast, general = _on_and_off(call, glyphs)
        assert fast == general


def _differing(call, inputs) -> int:
    return sum(fast != general for fast, general in (_on_and_off(call, *args) for args in inputs))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_page_layout_is_the_same_with_the_fast_paths_on_and_off(seed):
    fast, general = _on_and_off(_layout, _seed_page(seed))
    assert fast == general


@pytest.mark.parametrize("seed", SEEDS)
def test_segments_are_the_same_with_the_fast_paths_on_and_off(seed):
    fast, general = _on_and_off(build_segments, _seed_page(seed))
    assert fast == general   # (Segment.upright, the fast path's columns, does not compare)
    assert all(s.upright is None for s in general)


@pytest.mark.parametrize("seed", SEEDS)
def test_words_are_the_same_with_the_fast_paths_on_and_off(seed):
    fast, general = _on_and_off(build_words, *_line(seed))
    assert fast == general


def test_the_fast_paths_are_taken_on_the_random_pages():
    # the comparisons above exercise the fast paths, not only the general one: every random
    # page is cut into segments column-wise, and most lines of plain pages carry their columns
    calls = {"segments": 0, "page lines": 0, "lines": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            out = function(*args, **kwargs)
            calls[name] += out is not None
            return out
        return wrapper

    saved = _upright.upright_segments, _upright.make_line, _upright.line_words
    _upright.upright_segments = counted("segments", saved[0])
    _upright.make_line = counted("page lines", saved[1])
    _upright.line_words = counted("lines", saved[2])
    try:
        for seed in SEEDS:
            _layout(_seed_page(seed))
            build_words(*_line(seed))
    finally:
        _upright.upright_segments, _upright.make_line, _upright.line_words = saved
    assert calls["segments"] >= len(SEEDS) * 3 // 4   # (not the pages with spacing accents)
    assert calls["page lines"] > 50    # lines of one segment that carries its columns
    assert calls["lines"] > 1000       # lines in one font, in order
    carried = sum(s.upright is not None for seed in SEEDS[::3] for s in build_segments(_seed_page(seed)))
    assert carried > 300


@pytest.mark.parametrize("planted", ["segments", "words"])
def test_a_difference_planted_in_a_fast_path_is_caught(planted, monkeypatch):
    # the comparison can fail: a fast path that cuts segments at a slightly smaller gutter,
    # or boxes words a hair wider, makes some random pages differ
    if planted == "segments":
        monkeypatch.setattr(_upright, "SEGMENT_GAP_EM", _upright.SEGMENT_GAP_EM * 0.9)
    else:
        uniform_words = _upright._uniform_words

        def wider(*args):
            return [w.__class__(w.text, w.x0, w.y0, w.x1 + 1e-9, w.y1, w.size, w.font, w.flags)
                    for w in uniform_words(*args)]
        monkeypatch.setattr(_upright, "_uniform_words", wider)
    assert _differing(_layout, [(_seed_page(seed),) for seed in SEEDS[:100]]) > 0
    monkeypatch.undo()
    assert _differing(_layout, [(_seed_page(seed),) for seed in SEEDS[:100]]) == 0


def test_a_rotated_glyph_takes_the_general_path():
    g = Glyph("a", 0.0, 0.0, 0.0, -5.0, 5.0, 0.0, -1.0, 10.0, 2.0, 10.0, "F")
    assert _upright.upright_segments([g]) is None
    fast, general = _on_and_off(_layout, [g])
    assert fast == general


def test_a_space_drawn_across_two_letters_is_dropped_with_the_fast_paths_on_and_off():
    # "an nuities": the space glyph overlaps both n's and every start and end still ascends,
    # so the segment carries its columns; the fast path must drop the space as build_words does
    def g(text, x, advance=5.0):
        return Glyph(text, x, 50.0, x + advance, 50.0, advance, 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    glyphs = [g("a", 0.0), g("n", 5.0), g(" ", 8.8, 2.5), g("n", 10.0), g("u", 15.0)]
    (segment,) = build_segments(glyphs)
    assert segment.upright is not None
    assert segment.upright.texts == ("a", "n", " ", "n", "u")
    fast, general = _on_and_off(_layout, glyphs)
    assert fast == general
    assert [w.text for b in fast.blocks for line in b.lines for w in line.words] == ["annu"]


def test_spaces_off_the_pen_or_in_a_row_are_laid_out_alike_with_the_fast_paths_on_and_off():
    # the fast path looks closer at a space only when it starts exactly at the pen (or reaches
    # in): one a hair off it, within SPACE_PEN_EM, or right after another space must still give
    # the general rules' words
    def g(text, x, advance=5.0):
        return Glyph(text, x, 50.0, x + advance, 50.0, advance, 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    lines = [
        [g("a", 0.0), g(" ", 5.004, 2.5), g(" ", 7.5, 2.5), g("b", 10.0)],
        [g("a", 0.0), g(" ", 4.996, 2.5), g(" ", 7.504, 2.5), g("b", 10.004)],
        [g("a", 0.0), g(" ", 4.2, 2.5), g(" ", 6.7, 2.5), g("b", 9.2)],
        [g("a", 0.0), g(" ", 5.0, 0.0), g(" ", 5.0, 2.5), g("b", 7.5)],
    ]
    for glyphs in lines:
        fast, general = _on_and_off(_layout, glyphs)
        assert fast == general
        assert [w.text for b in fast.blocks for line in b.lines for w in line.words] in (["a", "b"], ["ab"])
    # a space from another text that starts off the pen, between two letters the next one covers
    # ("pa|rt"): no word space, though the glyph before does not reach into it
    glyphs = [g("p", 0.0), g("a", 5.0), g(" ", 10.3, 2.5), g("r", 10.5), g("t", 15.5)]
    fast, general = _on_and_off(_layout, glyphs)
    assert fast == general
    assert [w.text for b in fast.blocks for line in b.lines for w in line.words] == ["part"]
    # ... and one that starts at the pen along the line but below the baseline ("con|server")
    below = Glyph(" ", 10.0, 53.0, 12.5, 53.0, 2.5, 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    for glyphs in ([g("p", 0.0), g("a", 5.0), below, g("r", 10.0), g("t", 15.0)],
                   [g("p", 0.0), g("a", 5.0), below._replace(x=9.99, end_x=12.49), g("r", 10.0), g("t", 15.0)]):
        fast, general = _on_and_off(_layout, glyphs)
        assert fast == general
        assert [w.text for b in fast.blocks for line in b.lines for w in line.words] == ["part"]


@pytest.mark.parametrize("second_size", [10.0, 14.0])
@pytest.mark.parametrize("step_em", [-0.3, -0.5, -0.6, -0.9, -1.0, -1.2, 0.8, 0.9])
def test_steps_back_at_and_between_the_overdraw_and_backtrack_limits_are_laid_out_alike(second_size, step_em):
    # upright_segments finds the glyphs that may start a run (a step past MAX_BACKTRACK_EM or
    # SEGMENT_GAP_EM) and those drawn back over the glyphs before them (OVERDRAW_EM) in one
    # pass: steps exactly at, between and past either limit, in one font and after a font change
    def g(text, x, size=10.0):
        return Glyph(text, x, 50.0, x + 0.5 * size, 50.0, 0.5 * size, 1.0, 0.0, 1.2 * size, 0.25 * size,
                     size, f"F{size}")
    glyphs = [g(t, 5.0 * k) for k, t in enumerate("words")]
    x = glyphs[-1].end_x + step_em * second_size
    glyphs += [g(t, x + 0.5 * second_size * k, second_size) for k, t in enumerate("again")]
    _assert_laid_out_alike(glyphs)


@pytest.mark.parametrize("sizes", [(10.0, 14.0, 8.0), (14.0, 8.0, 14.0), (10.0, 10.0, 12.0)])
@pytest.mark.parametrize("step_em", [-1.2, -0.6, 0.0, 0.9, 1.2])
@pytest.mark.parametrize("at", [0, 1, 3])
def test_steps_after_each_change_of_font_and_inside_its_run_are_laid_out_alike(sizes, step_em, at):
    # with font changes, upright_segments tests each run of one font with that font's limits and
    # the first glyph of a run against the font before it: a step past a limit (or off the
    # baseline, or a short one) at the first glyph after a change or further inside the run
    def g(text, x, size, y=50.0):
        return Glyph(text, x, y, x + 0.5 * size, y, 0.5 * size, 1.0, 0.0, 1.2 * size, 0.25 * size, size, f"F{size}")
    glyphs: list[Glyph] = []
    x = 10.0
    for run, size in enumerate(sizes):
        for k, t in enumerate("wordy"):
            y = 50.0 + (0.7 * size if run == 1 and k == at and step_em == 0.0 else 0.0)
            glyphs.append(g(t, x, size, y))
            x = glyphs[-1].end_x
            if k + 1 == at:
                x += step_em * size
        if at == 0:
            x += step_em * size
    _assert_laid_out_alike(glyphs)


@pytest.mark.parametrize("text", ["plain words", "~\x7f", "caf\u00e9", "a\u0301", "\u05e9\u05dc\u05d5\u05dd", "\u4e2d\u6587"])
def test_the_top_character_stands_for_max_against_every_script_limit(text):
    # an ASCII line's max is not read (ASCII_TOP stands for it): it must fall on the same side
    # of the combining-mark and right-to-left limits as the line's real greatest character
    from glyphline.layout.scripts import FIRST_COMBINING, FIRST_RTL
    for limit in (FIRST_COMBINING, FIRST_RTL):
        assert (_upright._top_char(text) >= limit) == (max(text) >= limit)


@pytest.mark.parametrize("ys", [(50.0,) * 5, (50.0, 50.0, 51.5, 50.0, 50.0), (50.0, 51.5, 51.5, 51.5, 51.5)])
def test_a_run_on_one_or_two_baselines_held_by_distinct_y_objects_is_laid_out_alike(ys):
    # upright_segments asks whether a run's baselines differ by counting its first y (identity
    # first) before reading min and max: equal values in distinct float objects are one baseline,
    # a glyph a little off it (within the line tolerance) gives the run its pieces
    def g(text, x, y):
        return Glyph(text, x, float(str(y)), x + 5.0, float(str(y)), 5.0, 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    glyphs = [g(t, 5.0 * k, y) for k, (t, y) in enumerate(zip("words", ys))]
    glyphs += [g(t, 200.0 + 5.0 * k, 50.0) for k, t in enumerate("apart")]
    _assert_laid_out_alike(glyphs)


def _close_repeat_everywhere(texts, xs, ys, ends, sizes) -> bool:
    """_close_repeat's question asked of every glyph (what it answered before it read the steps)."""
    from glyphline.layout.cleanup import duplicate_limit
    for i in range(1, len(texts)):
        for step in (1, 2):
            if i >= step and texts[i] == texts[i - step]:
                limit = duplicate_limit(sizes[i], ends[i - step] - xs[i - step])
                if abs(xs[i - step] - xs[i]) <= limit and abs(ys[i - step] - ys[i]) <= limit:
                    return True
    return False


@pytest.mark.parametrize("seed", range(20))
def test_close_repeats_are_found_from_the_short_steps_alone(seed):
    # _close_repeat looks only next to the glyphs that step at most REPEAT_STEP_EM of the page's
    # largest size from the glyph before them: on random lines (narrow, point and wide glyphs,
    # steps back, sizes of zero and below, copies one and two glyphs on) it answers as the
    # question asked of every glyph does
    rng = random.Random(seed)
    for _ in range(2000):
        n = rng.randint(1, 8)
        size = rng.choice([10.0, 1.0, 0.0, -3.0])
        sizes = [rng.choice([size, size, 5.0, 20.0]) for _ in range(n)]
        xs, x = [], 0.0
        for _ in range(n):
            x += rng.choice([0.0, 0.5, 1.0, 2.0, 3.0, 6.0, -1.0, -6.0, rng.uniform(-3.0, 8.0)])
            xs.append(x)
        ends = [u + rng.choice([0.0, 0.3, 1.0, 5.0, rng.uniform(0.0, 8.0)]) for u in xs]
        ys = [rng.choice([0.0, 0.0, 0.5, 3.0]) for _ in range(n)]
        texts = [rng.choice("ab") for _ in range(n)]
        largest = max(sizes)
        near = _upright.REPEAT_STEP_EM * largest if largest > 0 else 0.0
        steps = [i for i in range(1, n) if xs[i] - xs[i - 1] <= near]
        assert _upright._close_repeat(texts, xs, ys, ends, sizes, steps) == \
            _close_repeat_everywhere(texts, xs, ys, ends, sizes)


@pytest.mark.parametrize("copy_step", [0.3, 1.0, 1.9, 2.1])
@pytest.mark.parametrize("after", [1, 2])
def test_a_copy_drawn_one_or_two_glyphs_on_near_the_repeat_step_is_laid_out_alike(copy_step, after):
    # a narrow glyph ("i", 1 pt wide at 10 pt: duplicate_limit 0.5 pt) copied one or two glyphs
    # after it, a little right of it: the copy, or the glyph before it, steps less than
    # REPEAT_STEP_EM (2 pt) from the glyph before it, so upright_segments finds the repeat
    def g(text, x, width):
        return Glyph(text, x, 50.0, x + width, 50.0, width, 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    glyphs = [g("w", 0.0, 7.0), g("i", 7.0, 1.0)]
    if after == 2:
        glyphs.append(g("l", 8.0, 1.0))
    glyphs += [g("i", 7.0 + copy_step * 0.25, 1.0)] + [g(t, 20.0 + 5.0 * k, 5.0) for k, t in enumerate("nd")]
    _assert_laid_out_alike(glyphs)


@pytest.mark.parametrize("seed", SEEDS[::3])
def test_the_columns_a_segment_carries_are_what_the_word_stage_would_compute(seed):
    # upright_segments hands the words each line's gaps (cut from the page's) and whether its
    # advance ends ascend, and takes the line's origins to ascend when no glyph inside it may
    # start a run: each is what the word stage would find itself
    for seg in build_segments(_seed_page(seed)):
        if seg.upright is None:
            continue
        assert seg.upright.gaps == [s - e for s, e in zip(seg.starts[1:], seg.ends)]
        assert seg.starts == sorted(seg.starts)
        if seg.upright.ends_ascending:
            assert list(seg.upright.end_xs) == sorted(seg.upright.end_xs) and seg.ends == sorted(seg.ends)
        assert seg.u1 == max(seg.ends)


@pytest.mark.parametrize("advances", [(5.0, -2.0, 5.0, 5.0), (5.0, 0.0, -0.5, 5.0), (-1.0, 5.0, 5.0, 5.0)])
def test_a_line_with_advance_ends_before_their_origins_is_laid_out_alike(advances):
    # a glyph whose advance end lies before its origin is a point (its end is clamped): the line
    # no longer tells its end_xs in order from its clamped ends
    def g(text, x, advance):
        return Glyph(text, x, 50.0, x + advance, 50.0, abs(advance), 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    glyphs, x = [], 10.0
    for text, advance in zip("word", advances):
        glyphs.append(g(text, x, advance))
        x += abs(advance) + 0.5
    glyphs += [g(t, x + 4.0 + 5.0 * k, 5.0) for k, t in enumerate("next")]
    segments = build_segments(glyphs)
    assert any(s.upright is not None for s in segments)
    _assert_laid_out_alike(glyphs)


@pytest.mark.parametrize("seed", SEEDS[::10])
def test_segments_from_the_columns_handed_in_are_the_segments_from_the_glyphs(seed):
    # analyze_page transposes the glyphs once and hands the columns to build_segments; CJK
    # stacked top to bottom is restacked first (new glyphs), and the columns handed in are not read
    glyphs = _seed_page(seed)
    if seed % 20 == 0:
        glyphs = glyphs + [Glyph(ch, 300.0, 100.0 + 12.0 * k, 310.0, 100.0 + 12.0 * k, 10.0, 1.0, 0.0,
                                 11.0, 1.0, 10.0, "CJK") for k, ch in enumerate("縦書きの文")]
    text = "".join(g.text for g in glyphs)
    given = build_segments(glyphs, text, None, list(zip(*glyphs)))
    assert given == build_segments(glyphs, text)
    assert [s.upright for s in given] == [s.upright for s in build_segments(glyphs, text)]
    assert given == _on_and_off(build_segments, glyphs)[1]


def test_a_line_of_two_font_names_in_one_segment_keeps_both():
    # one segment of upright_segments may name two fonts of the same metrics (a bold copy
    # loaded as another font): make_line's font set counts the first name and falls back to
    # the set of all names when another one is there
    glyphs = [Glyph(ch, 10.0 + 6.0 * k, 100.0, 16.0 + 6.0 * k, 100.0, 10.0, 1.0, 0.0, 11.0, 0.2, 10.0,
                    "F2" if k == 3 else "F1") for k, ch in enumerate("abcdef")]
    glyphs += [Glyph(ch, 10.0 + 6.0 * k, 130.0, 16.0 + 6.0 * k, 130.0, 10.0, 1.0, 0.0, 11.0, 0.2, 10.0, "F1")
               for k, ch in enumerate("ghijk")]
    from glyphline.layout.blocks import reading_order
    segments = build_segments(glyphs)
    assert all(s.upright is not None for s in segments)

    def fonts(segments):
        return [line.fonts for flow in reading_order(segments) for line in flow.lines]
    assert _on_and_off(fonts, segments) == ([frozenset({"F1", "F2"}), frozenset({"F1"})],) * 2
    fast, general = _on_and_off(_layout, glyphs)
    assert fast == general
