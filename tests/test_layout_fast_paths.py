"""The column-wise fast paths of the layout (lines._upright_segments, words._uniform_breaks,
words._uniform_words and the lines built from Segment.upright columns) must give exactly what
the glyph-by-glyph rules give: random upright
pages with fake-bold copies, kerning, out-of-order pieces, gutters, spaces, font changes,
raised glyphs (by position and by text rise), compared field by field with the general path."""
from __future__ import annotations

import dataclasses
import random

import pytest

from glyphline.glyph import TEXT_RISE, Glyph
from glyphline.layout import blocks, lines, words
from glyphline.layout.cleanup import SOFT_HYPHEN


def _page(rng: random.Random, plain: bool = False) -> list[Glyph]:
    """A random upright page; `plain` pages have no fake-bold copies, no out-of-order pieces and
    keep one font per line (the lines the column path of Segment.upright takes)."""
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
            x += advance + rng.choice([0.0, 0.0, -0.2, 0.5, 2.5, 4.0, 15.0])
        y += rng.choice([12.0, 14.0, 0.0, 3.0, 40.0])
    if rng.random() < 0.3 and not plain:   # a piece drawn out of order
        k = rng.randrange(len(glyphs))
        glyphs = glyphs[k:] + glyphs[:k]
    return glyphs


def _general_segments(glyphs: list[Glyph]) -> list[lines.Segment]:
    out: list[lines.Segment] = []
    by_key: dict[int, list] = {}
    for run in lines._stream_runs(glyphs):
        by_key.setdefault(run.key, []).append(run)
    for key, group in by_key.items():
        for merged in lines._merge_runs(group):
            out.extend(lines._finish(key, merged, False))
    return out


def _general_words(glyphs, starts, ends) -> list[words.Word]:
    glyphs, starts, ends = words.without_covered_spaces(glyphs, starts, ends)
    breaks = words.word_breaks(glyphs, starts, ends)
    out = [words._word(group) for group in words.split_at_breaks(glyphs, breaks)]
    words._soft_hyphens(out)
    return [w for w in out if w.text]


@pytest.mark.parametrize("seed", range(300))
def test_upright_segments_match_the_general_path(seed):
    glyphs = _page(random.Random(seed))
    fast = lines._upright_segments(glyphs)
    assert fast is not None
    assert fast == _general_segments(glyphs)


@pytest.mark.parametrize("seed", range(300))
def test_uniform_words_match_the_general_path(seed):
    rng = random.Random(seed)
    glyphs = [g for g in _page(rng) if g.y == 50.0][:60]
    if rng.random() < 0.5:   # one font, the fast path's case
        glyphs = [g._replace(height=12.0, descent=2.5, size=10.0) for g in glyphs]
    glyphs.sort(key=lambda g: g.x)
    starts = [g.x for g in glyphs]
    ends = [max(g.end_x, g.x) for g in glyphs]
    assert words.build_words(glyphs, starts, ends) == _general_words(glyphs, starts, ends)


@pytest.mark.parametrize("seed", range(300))
def test_lines_from_upright_columns_match_lines_from_glyphs(seed):
    segments = lines._upright_segments(_page(random.Random(seed), plain=seed % 2 == 0))
    for rtl in (False, True):
        fast = blocks._leaf_lines(segments, rtl)
        general = blocks._leaf_lines([dataclasses.replace(s, upright=None) for s in segments], rtl)
        assert [(t.words, t.size, t.fonts, t.footnote_start, t.glyphs, t.starts, t.ends)
                for t in fast] == [(t.words, t.size, t.fonts, t.footnote_start, t.glyphs, t.starts, t.ends)
                                   for t in general]
        assert fast == general


def test_upright_columns_are_carried_by_many_random_lines():
    carried = sum(s.upright is not None for seed in range(0, 300, 2)
                  for s in lines._upright_segments(_page(random.Random(seed), plain=True)))
    assert carried > 300   # the comparison above exercises the column path, not only the general one


def test_a_rotated_glyph_takes_the_general_path():
    g = Glyph("a", 0.0, 0.0, 0.0, -5.0, 5.0, 0.0, -1.0, 10.0, 2.0, 10.0, "F")
    assert lines._upright_segments([g]) is None


def test_a_space_drawn_across_two_letters_is_found_on_the_upright_path():
    # "an nuities": the space glyph overlaps both n's and every start and end still ascends,
    # so the segment carries its columns; the column path must drop the space as build_words does
    def g(text, x, advance=5.0):
        return Glyph(text, x, 50.0, x + advance, 50.0, advance, 1.0, 0.0, 12.0, 2.5, 10.0, "F")
    glyphs = [g("a", 0.0), g("n", 5.0), g(" ", 8.8, 2.5), g("n", 10.0), g("u", 15.0)]
    (segment,) = lines._upright_segments(glyphs)
    assert segment.upright is not None
    fast = words.upright_words(segment.glyphs, segment.starts, segment.ends, segment.upright)
    assert [w.text for w in fast] == ["annu"]
    assert fast == _general_words(segment.glyphs, segment.starts, segment.ends)
