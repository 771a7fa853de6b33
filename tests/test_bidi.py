"""UAX #9 for PDF lines: visual order (glyphs by x) back to logical order."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphline import bidi

# (logical text, right-to-left paragraph)
LINES = [
    ("שלום world 123 עולם", True),
    ("مرحبا بالعالم 2024", True),
    ("السعر 12.50 دولار", True),
    ("The word שלום means peace", False),
    ("אני אוהב Python and Rust מאוד", True),
    ("הנחה של 50% היום", True),
    ("טמפרטורה -5 מעלות", True),
    ("תאריך 12/05/2024 היום", True),
    ("שלום (עולם) טוב", True),
    ("قال: \"نعم\" (2) مرة.", True),
    ("Hello שלום עולם!", False),
    ("ספר בשם \"Harry Potter\" נקרא.", True),
    ("עלות: $100 לשנה", True),
    ("שנת 2024, חודש 5.", True),
    ("ابحث في Google عن ١٢٣ نتيجة", True),
    ("הגרסה 3.11 של Python יצאה", True),
    ("Version 2 of תוכנה חדשה", False),
]


def painted(text: str, rtl: bool) -> list[str]:
    """Glyph texts by increasing x, as a PDF producer that shapes with UAX #9 paints them."""
    return bidi.logical_to_visual(list(text), rtl)


def test_forward_reordering_matches_what_viewers_paint():
    assert "".join(painted("שלום world 123 עולם", True)) == "םלוע world 123 םולש"
    assert "".join(painted("مرحبا بالعالم 2024", True)) == "2024 ملاعلاب ابحرم"
    assert "".join(painted("The word שלום means peace", False)) == "The word םולש means peace"
    assert "".join(painted("שלום (עולם) טוב", True)) == "בוט (םלוע) םולש"   # brackets mirrored
    assert "".join(painted("abc 123", False)) == "abc 123"


@pytest.mark.parametrize("text, rtl", LINES)
def test_visual_line_back_to_logical_with_known_direction(text, rtl):
    assert bidi.logical_line(painted(text, rtl), rtl) == text


@pytest.mark.parametrize("text, rtl", LINES)
def test_visual_line_back_to_logical_detecting_direction(text, rtl):
    glyphs = painted(text, rtl)
    assert bidi.line_base_direction(glyphs) == ("rtl" if rtl else "ltr")
    assert bidi.logical_line(glyphs) == text


def test_direction_of_logical_text_is_first_strong_character():
    assert bidi.line_base_direction(["123 ", "שלום", " abc"], visual=False) == "rtl"
    assert bidi.line_base_direction(["(abc) שלום"], visual=False) == "ltr"
    assert bidi.line_base_direction(["123"], visual=False) == "ltr"
    assert bidi.paragraph_level(["...", "عربي"]) == 1


def test_visual_to_logical_gives_index_order():
    # RTL line painted "םולש ab": read from the right, "ab" comes first
    glyphs = list("םולש ab")
    assert bidi.visual_to_logical(glyphs, base_rtl=True) == [5, 6, 4, 3, 2, 1, 0]
    assert bidi.visual_to_logical(glyphs, base_rtl=False) == [3, 2, 1, 0, 4, 5, 6]


def test_multi_character_units_keep_their_inner_order():
    # a lam-alef ligature glyph, a Latin "fi" ligature and an ActualText word move as units
    assert bidi.logical_line(["Hello", " ", "لا", " ", "ب", "ت", "ك"], True) == "كتب لا Hello"
    assert bidi.logical_line(["fi", "le", " ", "ם", "ו", "ל", "ש"], True) == "שלום file"


def test_a_unit_mixing_directions_stays_in_the_run_it_is_painted_in():
    # MIXED_UNIT: Skia maps the glyph "h" to the cluster text "حَبيبي h"; it starts the painted
    # Latin word, which must come out whole, in an LTR line and inside an RTL one
    ltr = ["حَبيبي h", "a", "b", "i", "b", "i", " ", "حَبيبي "]
    assert bidi.logical_line(ltr) == "حَبيبي habibi حَبيبي "
    rtl = ["שלום h", "a", "b", "i", "b", "i", " ", "ם", "ל", "ו", "ע"]
    assert bidi.logical_line(rtl, True) == "עולם שלום habibi"
    words = bidi.logical_words(rtl, [False] * 6 + [True] + [False] * 4, True)
    assert words == [([10, 9, 8, 7], "עולם"), ([0, 1, 2, 3, 4, 5], "שלום habibi")]
    # a unit at the end of a run takes the run before it; one alone on a line is a neutral
    assert bidi.unit_classes(["a", "b", "h שלום"]) == ["L", "L", "L"]
    assert bidi.unit_classes(["h שלום"]) == ["ON"]
    # and it does not vote for the line's direction
    assert bidi.line_base_direction(["שלום abc", "d", "e"]) == "ltr"


def test_mirrored_brackets_recorded_as_logical_characters_are_kept():
    # some producers map the mirrored glyph to the character the author typed
    glyphs = list("בוט )םלוע( םולש")
    assert bidi.logical_line(glyphs, True) == "שלום (עולם) טוב"


def test_ltr_lines_pass_through_untouched():
    glyphs = list("Plain (Latin) text, 42.")
    assert bidi.logical_line(glyphs) == "Plain (Latin) text, 42."
    assert bidi.logical_line([]) == ""


def test_explicit_controls_are_ignored():
    glyphs = ["\u202b"] + painted("שלום world", True) + ["\u202c"]
    assert bidi.logical_line(glyphs, True).replace("\u202b", "").replace("\u202c", "") == "שלום world"


@pytest.mark.parametrize("text, rtl", LINES)
def test_stream_order_either_way_gives_logical_text(text, rtl):
    visual = painted(text, rtl)
    xs = [10.0 * i for i in range(len(visual))]
    # producer A paints by increasing x (visual order in the content stream)
    assert not bidi.painted_in_logical_order(visual, xs)
    assert bidi.line_text(visual, xs, rtl) == text
    # producer B paints in reading order: logical characters, x decreasing through RTL runs
    x_of_logical = {}
    order = bidi.visual_to_logical(visual, rtl)
    for visual_index in order:
        x_of_logical[len(x_of_logical)] = xs[visual_index]
    logical_glyphs = [visual[i] for i in order]
    stream_xs = [x_of_logical[k] for k in range(len(order))]
    if sum(1 for c in text if bidi.unicodedata.bidirectional(c) in ("R", "AL")) >= 3:
        assert bidi.painted_in_logical_order(logical_glyphs, stream_xs)
    assert bidi.line_text(logical_glyphs, stream_xs, rtl) == text


HEBREW_WORDS = st.text(alphabet="אבגדהוזחטיכלמנסעפצקרשת", min_size=1, max_size=6)
LATIN_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(HEBREW_WORDS, LATIN_WORDS), min_size=1, max_size=8), st.booleans())
def test_words_of_both_directions_round_trip(words, rtl):
    text = " ".join(words)
    assert bidi.logical_line(painted(text, rtl), rtl) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=3), max_size=30), st.sampled_from([None, True, False]))
def test_any_units_give_a_permutation(units, rtl):
    order = bidi.visual_to_logical(units, rtl)
    assert sorted(order) == list(range(len(units)))
    out = bidi.logical_line(units, rtl)
    # each bracket may or may not be mirrored (it depends on its resolved level): compare up to mirroring
    def canonical(text):
        return sorted(min(c, bidi.mirrored(c)) if c in bidi.MIRROR else c for c in text)
    assert canonical(out) == canonical("".join(units))


def test_logical_words_for_the_word_stage():
    # "שלום world 123 עולם" painted: glyphs by x, word starts where the word stage saw gaps
    glyphs = list("םלוע" + "world" + "123" + "םולש")
    starts = [False] * len(glyphs)
    for i in (4, 9, 12):
        starts[i] = True
    words = bidi.logical_words(glyphs, starts, base_rtl=True)
    assert [text for _, text in words] == ["שלום", "world", "123", "עולם"]
    assert ["".join(glyphs[i] for i in indices) for indices, _ in words] == ["שלום", "world", "123", "עולם"]
    # whitespace glyphs separate words too, and a Latin line keeps its order
    assert bidi.logical_words(list("ab cd"), [False] * 5) == [([0, 1], "ab"), ([3, 4], "cd")]
    assert bidi.logical_words([], []) == []


@pytest.mark.parametrize("text, rtl", LINES)
def test_logical_words_rebuild_every_line(text, rtl):
    glyphs = painted(text, rtl)
    assert " ".join(word for _, word in bidi.logical_words(glyphs, [False] * len(glyphs))) == text
