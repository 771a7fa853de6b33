"""The content-stream lexer: exact operands for every token kind, and no exception on junk."""
from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphline.content import lexer
from glyphline.content.lexer import GRAPHICS_OPERATORS, MAX_NESTING, iter_operations


def ops(data: bytes, **kwargs) -> list:
    return list(iter_operations(data, **kwargs))


def test_text_object_tokens():
    assert ops(b"BT /F1 12 Tf 72 700.5 Td (Hello) Tj ET") == [
        ([], b"BT"), (["F1", 12], b"Tf"), ([72, 700.5], b"Td"), ([b"Hello"], b"Tj"), ([], b"ET")]


def test_operators_without_whitespace_between_tokens():
    assert ops(b"/F1 9 Tf(a)Tj[(b)-5(c)]TJ 0 0 1 rg T*") == [
        (["F1", 9], b"Tf"), ([b"a"], b"Tj"), ([[b"b", -5, b"c"]], b"TJ"), ([0, 0, 1], b"rg"), ([], b"T*")]


@pytest.mark.parametrize("token, value", [
    (b"5", 5), (b"-5", -5), (b"+3", 3), (b"5.", 5.0), (b".5", 0.5), (b"-.5", -0.5),
    (b"--5", -5), (b"1.2.3", 1.2), (b"-", 0), (b"+-2", -2), (b"007", 7),
])
def test_numbers_best_effort(token, value):
    [(operands, operator)] = ops(token + b" x")
    assert operator == b"x"
    assert operands == [value] and type(operands[0]) is type(value)


def test_overlong_numbers_stay_finite():
    [(operands, _)] = ops(b"1" * 400 + b".5 " + b"2" * 40 + b" x")
    assert operands == [0.0, int(b"2" * 40)]


def test_numbers_past_int_digit_limit_read_as_zero():
    # int() refuses more than sys.get_int_max_str_digits() digits (4300): the lexer raised that
    # ValueError out of the page (its text lost); such a number reads as 0, as an overflowing float does
    huge = b"7" * 5000
    for stream in (huge + b" 5 x", b"-" + huge + b" x", b"[(a)" + huge + b"(b)]TJ", b"(a) Tj " + huge + b" 0 Td"):
        ops(stream)                 # no exception, in either mode
        ops(stream, for_text=True)
    assert ops(huge + b" 5 x") == [([0, 5], b"x")]
    assert ops(b"[(a)" + huge + b"(b)]TJ") == [([[b"a", 0, b"b"]], b"TJ")]


@pytest.mark.parametrize("source, value", [
    (rb"(a\nb\rc\td\be\ff)", b"a\nb\rc\td\be\ff"),
    (rb"(\(\)\\)", b"()\\"),
    (rb"(\101\60\0063)", b"A0\x063"),          # octal: up to three digits
    (rb"(\1012)", b"A2"),
    (rb"(\777)", b"\xff"),                      # high-order overflow ignored
    (b"(line\\\ncontinued)", b"linecontinued"),
    (b"(line\\\r\ncontinued)", b"linecontinued"),
    (b"(a\r\nb\rc)", b"a\nb\nc"),               # unescaped ends of line read as \n
    (rb"(a (nested (twice)) b)", b"a (nested (twice)) b"),
    (rb"(a (nested \) b) c)", b"a (nested ) b) c"),
    (rb"(\q)", b"q"),                          # unknown escape: backslash ignored
    (b"()", b""),
])
def test_literal_strings(source, value):
    assert ops(source + b" Tj") == [([value], b"Tj")]


@pytest.mark.parametrize("source, value", [
    (b"<48656C6C6F>", b"Hello"), (b"<48 65\n6c 6C6f>", b"Hello"), (b"<486>", b"H`"), (b"<>", b""),
])
def test_hex_strings(source, value):
    assert ops(source + b" Tj") == [([value], b"Tj")]


def test_tj_arrays_with_hex_and_empty_strings():
    assert ops(b"[<01>2<0203 04>4<5>-1()<>(a)]TJ [<0A>1.5<0b>(\\101)]TJ") == [
        ([[b"\x01", 2, b"\x02\x03\x04", 4, b"P", -1, b"", b"", b"a"]], b"TJ"),
        ([[b"\n", 1.5, b"\x0b", b"A"]], b"TJ")]


def test_names_decode_escapes_and_keep_non_ascii():
    assert ops(b"/A#20B /C#23 /D\xc3\xa9 / x") == [(["A B", "C#", "Dé", ""], b"x")]


def test_arrays_dicts_and_constants():
    assert ops(b"/Span <</ActualText (x) /MCID 3 /K [1 [2 true] null] /D <</E false>>>> BDC") == [
        (["Span", {"ActualText": b"x", "MCID": 3, "K": [1, [2, True], None], "D": {"E": False}}], b"BDC")]


def test_comments_are_skipped():
    assert ops(b"% a comment (with a paren\n1 2 Td %another\r(%not a comment) Tj") == [
        ([1, 2], b"Td"), ([b"%not a comment"], b"Tj")]


def test_stray_closers_and_junk_are_skipped():
    assert ops(b") > } { 1 2 Td ]") == [([1, 2], b"Td")]
    # bytes outside ASCII are regular characters: a junk operator, which callers ignore
    assert ops(b"\x80\xff 1 2 Td") == [([], b"\x80\xff"), ([1, 2], b"Td")]
    assert ops(b">> 3 Tc") == [([3], b"Tc")]


def test_unbalanced_array_closes_at_the_operator():
    assert ops(b"[(a) 5 (b) TJ (c) Tj") == [([[b"a", 5, b"b"]], b"TJ"), ([b"c"], b"Tj")]


def test_unterminated_string_ends_the_stream():
    assert ops(b"1 0 Td (never closed Tj ET") == [([1, 0], b"Td")]


def test_nesting_is_bounded():
    depth = MAX_NESTING + 40
    data = b"[" * depth + b"1" + b"]" * depth + b" x"
    [(operands, operator)] = ops(data)
    assert operator == b"x"
    value, levels = operands[0], 1
    while isinstance(value, list) and value and isinstance(value[0], list):
        value, levels = value[0], levels + 1
    assert levels == MAX_NESTING and value == [1]


def test_tokens_split_across_content_segments():
    # the document stage joins /Contents segments with a newline: a token cut there still reads right
    segments = [b"BT /F1 12 Tf 72 700 Td (Hel", b"lo) Tj [(wor", b"ld) -250 (!)] TJ ET"]
    assert ops(b"\n".join(segments)) == [
        ([], b"BT"), (["F1", 12], b"Tf"), ([72, 700], b"Td"), ([b"Hel\nlo"], b"Tj"),
        ([[b"wor\nld", -250, b"!"]], b"TJ"), ([], b"ET")]
    # an operator's operands in one segment and the operator in the next
    assert ops(b"\n".join([b"72 700", b"Td 1 0 0 1 5", b"6 cm"])) == [([72, 700], b"Td"), ([1, 0, 0, 1, 5, 6], b"cm")]


def test_inline_image_with_ei_inside_its_data():
    data = bytes(range(256)) + b" EI \x00\xff\x81 EI\x02"   # fake "EI" followed by binary bytes
    stream = b"q BI /W 8 /H 8 /BPC 8 /CS /G ID " + data + b" EI Q (after) Tj"
    assert ops(stream) == [([], b"q"), ([{"W": 8, "H": 8, "BPC": 8, "CS": "G"}], b"BI"), ([], b"Q"),
                           ([b"after"], b"Tj")]


def test_inline_image_with_length():
    data = b"xx EI yy"                          # an EI with whitespace on both sides inside the data
    stream = b"BI /W 1 /H 1 /L 8 ID " + data + b"\nEI (after) Tj"
    assert ops(stream) == [([{"W": 1, "H": 1, "L": 8}], b"BI"), ([b"after"], b"Tj")]


def test_inline_image_without_ei_ends_the_stream():
    assert ops(b"(a) Tj BI /W 1 ID \x00\x01\x02 no end") == [([b"a"], b"Tj"), ([{"W": 1}], b"BI")]
    assert ops(b"BI /W 1 /H") == [([{}], b"BI")]


def test_inline_image_at_the_very_end():
    assert ops(b"BI /W 1 ID \x00\x01 EI") == [([{"W": 1}], b"BI")]


def test_text_mode_drops_path_and_colour_operators_only():
    stream = (b"q 0 0 1 rg 10 10 m 20 20 l 1 2 3 4 5 6 c h S 0.5 w 1 0 0 1 0 0 cm "
              b"BT /F1 12 Tf (a) Tj ET 0 g 1 1 10 10 re f* Q")
    assert ops(stream, for_text=True) == [
        ([], b"q"), ([1, 0, 0, 1, 0, 0], b"cm"), ([], b"BT"), (["F1", 12], b"Tf"), ([b"a"], b"Tj"),
        ([], b"ET"), ([], b"Q")]
    assert [operator for _, operator in ops(stream)][:6] == [b"q", b"rg", b"m", b"l", b"c", b"h"]


def test_text_mode_skips_exactly_the_graphics_operators():
    for operator in sorted(GRAPHICS_OPERATORS):
        assert ops(b"1 2 3 " + operator + b" 5 Tc", for_text=True) == [([5], b"Tc")], operator
    for operator in (b"cs", b"d", b"gs", b"sh", b"Do", b"cm", b"ri", b"d0", b"re2", b"ff"):
        assert [op for _, op in ops(b"1 2 3 " + operator + b" 5 Tc", for_text=True)] == [operator, b"Tc"]


def test_text_mode_merges_tj_td_runs():
    stream = b"BT <0041> Tj 5.5 0 Td (b\\)) Tj\n-1 .5 Td <0043>Tj 2 0 Td 1 0 0 1 0 0 Tm ET"
    assert ops(stream, for_text=True) == [
        ([], b"BT"), ([[b"\x00A", (5.5, 0.0), b"b)", (-1.0, 0.5), b"\x00C", (2.0, 0.0)]], b"Tj/Td"),
        ([1, 0, 0, 1, 0, 0], b"Tm"), ([], b"ET")]
    assert [operator for _, operator in ops(stream)] == [b"BT", b"Tj", b"Td", b"Tj", b"Td", b"Tj", b"Td", b"Tm", b"ET"]


def test_hex_text_runs_read_word_by_word_as_the_regex_reads_them():
    # Skia's runs ("<hex> Tj tx ty Td", hex only) take a split() fast path; any other spacing
    # (no space before Tj, a NUL separator, an odd hex string) falls back to the regex reader
    variants = [
        b"BT <0041> Tj 5.5 0 Td <0042> Tj -1 .5 Td <0043> Tj 2. -0 Td ET",
        b"BT <0041>Tj 5.5 0 Td <0042> Tj -1 .5 Td ET",
        b"BT <0041> Tj\x005.5 0 Td <0042> Tj 1 0 Td ET",
        b"BT <041> Tj 5.5 0 Td <0042> Tj 1 0 Td ET",
        b"BT <> Tj 5.5 0 Td <0042> Tj +1 0 Td ET",
    ]
    expected = [
        [b"\x00A", (5.5, 0.0), b"\x00B", (-1.0, 0.5), b"\x00C", (2.0, 0.0)],
        [b"\x00A", (5.5, 0.0), b"\x00B", (-1.0, 0.5)],
        [b"\x00A", (5.5, 0.0), b"\x00B", (1.0, 0.0)],
        [b"\x04\x10", (5.5, 0.0), b"\x00B", (1.0, 0.0)],
        [b"", (5.5, 0.0), b"\x00B", (1.0, 0.0)],
    ]
    for stream, items in zip(variants, expected):
        assert ops(stream, for_text=True)[1] == ([items], b"Tj/Td"), stream


@pytest.mark.parametrize("bound", [lexer.MAX_REMEMBERED_NUMBERS, 2])
def test_text_run_numbers_are_read_once_each(bound, monkeypatch):
    """Skia's runs move the pen by each glyph's advance, a few values over and over: a number word
    met before is looked up, not read by float() again; the values are float()'s (signed zeros
    too), and past MAX_REMEMBERED_NUMBERS the memory starts over."""
    reads = []
    monkeypatch.setattr(lexer, "MAX_REMEMBERED_NUMBERS", bound)
    numbers = lexer._NumberWords(lambda word: reads.append(word) or float(word))
    monkeypatch.setattr(lexer, "_run_number", numbers.__getitem__)
    moves = [((b"9.3247528", b"4.6587982", b"-0")[k % 3], (b"0", b"-0")[k % 2]) for k in range(60)]
    pairs = b"\n".join(b"<00%02X> Tj %s %s Td" % (0x41 + k % 3, tx, ty) for k, (tx, ty) in enumerate(moves))
    (items,), operator = ops(b"BT " + pairs + b" ET", for_text=True)[1]
    assert operator == b"Tj/Td" and items[::2] == [b"\x00" + bytes((0x41 + k % 3,)) for k in range(60)]
    expected = [(float(tx), float(ty)) for tx, ty in moves]
    assert [tuple(map(repr, move)) for move in items[1::2]] == [tuple(map(repr, move)) for move in expected]
    assert len(numbers) <= bound
    if bound > 4:
        assert sorted(reads) == [b"-0", b"0", b"4.6587982", b"9.3247528"]   # each word once


@pytest.mark.parametrize("bound", [lexer.MAX_REMEMBERED_NUMBERS, 2])
def test_tj_array_kerns_are_read_once_each(bound, monkeypatch):
    """pdfTeX and LibreOffice kern with a few values over and over: a TJ number word met before is
    looked up, not read by int() again; the items are those of the general lexer (a decimal
    number, white space around a kern, a sign), and past MAX_REMEMBERED_NUMBERS the memory
    starts over."""
    reads = []
    monkeypatch.setattr(lexer, "MAX_REMEMBERED_NUMBERS", bound)
    numbers = lexer._NumberWords(lambda word: reads.append(word) or int(word))
    monkeypatch.setattr(lexer, "_kern_number", numbers.__getitem__)
    kerns = [b"-333", b"27", b" 27 ", b"+27", b"-333", b"27"]
    arrays = [b"[(W)%s(ord)%s(s)]TJ" % (kerns[k % 6], kerns[(k + 1) % 6]) for k in range(12)]
    arrays += [b"[<01>%s<0203>%s<05>]TJ" % (kerns[k % 6], kerns[(k + 3) % 6]) for k in range(12)]
    arrays.append(b"[(a)-333(b)1.5(c)27(d)]TJ")        # a decimal: the whole array read as floats and ints
    stream = b"BT " + b" ".join(arrays) + b" ET"
    remembered = ops(stream, for_text=True)
    first_reads = list(reads)
    monkeypatch.setattr(lexer, "_kern_number", int)
    assert remembered == ops(stream, for_text=True)    # int() each time: the same items
    assert remembered[1] == ([[b"W", -333, b"ord", 27, b"s"]], b"TJ") and remembered[-2][0][0][3] == 1.5
    assert len(numbers) <= bound
    if bound > 4:
        assert sorted(numbers) == sorted({b"-333", b"27", b" 27 ", b"+27"})
        assert first_reads.count(b"-333") == first_reads.count(b"27") == 1   # each word read once, then looked up


def test_tj_arrays_read_by_split_as_the_regex_reads_them():
    # arrays alternating strings and numbers ("<hex>n<hex>n…<hex>", LibreOffice; "(a)n(b)…(c)",
    # pdfTeX) take a split() fast path; any other shape (a leading or trailing number, strings side
    # by side, whitespace alone, two numbers in a row, an odd or spaced hex string, both kinds of
    # string, an escape) falls back to the regex reader, with the same items
    variants = {
        b"[(W)83(ord)-333.5(T)]TJ": [b"W", 83, b"ord", -333.5, b"T"],
        b"[(a<b>)1(c)]TJ": [b"a<b>", 1, b"c"],
        b"[(a) -2 (b)]TJ": [b"a", -2, b"b"],
        b"[(a)(b)]TJ": [b"a", b"b"],
        b"[(a) (b)]TJ": [b"a", b"b"],
        b"[(a)<62>(c)]TJ": [b"a", b"b", b"c"],
        b"[(a)1<62>2(c)]TJ": [b"a", 1, b"b", 2, b"c"],
        b"[(a\\\\)1(b\\))]TJ": [b"a\\", 1, b"b)"],
        b"[(\\034rst)-370(o\\036ce)]TJ": [b"\x1crst", -370, b"o\x1ece"],
        b"[(a\rb)1(c\\nd)]TJ": [b"a\nb", 1, b"c\nd"],
        b"[(a)1 2(b)]TJ": [b"a", 1, 2, b"b"],
        b"[()5()]TJ": [b"", 5, b""],
        b"[<01>2<0203>-4<05>]TJ": [b"\x01", 2, b"\x02\x03", -4, b"\x05"],
        b"[<0a>1.5<0B>-.5<0c>+3<0D>007<>]TJ": [b"\n", 1.5, b"\x0b", -0.5, b"\x0c", 3, b"\r", 7, b""],
        b"[<01>]TJ": [b"\x01"],
        b"[<01> 2 <02>]TJ": [b"\x01", 2, b"\x02"],
        b"[<01><02>]TJ": [b"\x01", b"\x02"],
        b"[ <01>2<02>]TJ": [b"\x01", 2, b"\x02"],
        b"[5<01>2<02>]TJ": [5, b"\x01", 2, b"\x02"],
        b"[<01>2<02>-3]TJ": [b"\x01", 2, b"\x02", -3],
        b"[<01>2 3<02>]TJ": [b"\x01", 2, 3, b"\x02"],
        b"[<01>2<0 2>]TJ": [b"\x01", 2, b"\x02"],
        b"[<01>2<023>]TJ": [b"\x01", 2, b"\x020"],
        b"[<01>2.<02>]TJ": [b"\x01", 2.0, b"\x02"],
        b"[]TJ": [],
    }
    for stream, items in variants.items():
        [(operands, operator)] = ops(stream, for_text=True)
        assert (operands, operator) == ([items], b"TJ"), stream
        assert [item.__class__ for item in operands[0]] == [item.__class__ for item in items], stream


def test_binary_junk_ends_quickly():
    junk = bytes((i * 131 + 7) % 256 for i in range(200_000)) + b"(" * 5000 + b"<" * 5000 + b"[" * 5000
    start = time.perf_counter()
    ops(junk)
    ops(junk, for_text=True)
    assert time.perf_counter() - start < 5.0


def test_many_operands_without_operator():
    data = b"1 " * 100_000 + b"Td"   # (speed belongs in bench/, never in a unit test)
    [(operands, operator)] = ops(data)
    assert operator == b"Td" and len(operands) == 100_000


def test_long_text_and_graphics_runs_come_whole():
    # the runs repeat possessively (no backtracking state kept per pair): a run of thousands of
    # pairs is still one TEXT_RUN, thousands of path operators still vanish, and a pair broken
    # at the end leaves the run before it whole
    pairs = 5000
    stream = (b"BT " + b"0 0 m 1 1 l S 2 w " * pairs + b"<0041> Tj 5.5 0 Td " * pairs
              + b"<0042> Tj 1 Td ET")
    [begin, run, show, move, end] = ops(stream, for_text=True)
    assert begin == ([], b"BT") and end == ([], b"ET")
    assert run == ([[b"\x00A", (5.5, 0.0)] * pairs], b"Tj/Td")
    assert show == ([b"\x00B"], b"Tj") and move == ([1], b"Td")


# the general lexer: the text mode's regex without its TJ-array fast path, so every array is read
# token by token ("[", strings, numbers, "]", then the TJ keyword)
_GENERAL = re.compile(lexer._TOKEN_PATTERN.replace(b"GRAPHICS", b"(?!)", 1).replace(b"TEXTRUN", b"(?!)", 1)
                      .replace(b"(?P<show_array>", b"(?P<show_array>(?!)", 1), re.DOTALL)


# every operation token by token: no operands taken with their operator either
_FAST_OPERANDS = b"{0,%d}+" % lexer.MAX_FAST_OPERANDS
assert lexer._TOKEN_PATTERN.count(_FAST_OPERANDS) == 1
_SINGLE_TOKENS = re.compile(lexer._TOKEN_PATTERN.replace(b"GRAPHICS", b"(?!)", 1).replace(b"TEXTRUN", b"(?!)", 1)
                            .replace(_FAST_OPERANDS, b"{0}", 1), re.DOTALL)


def general_ops(data: bytes) -> list:
    return list(lexer._lex(data, 0, False, _GENERAL))


def typed(operations: list) -> list:
    """The operations with every operand's type, so 5 and 5.0 (and True and 1) differ."""
    def mark(value):
        if isinstance(value, list):
            return [mark(item) for item in value]
        return (value.__class__.__name__, value)
    return [(mark(operands), operator) for operands, operator in operations]


TJ_ITEMS = [b"(a)", b"()", b"(a\\)b)", b"(a\\\\)", b"(x\ry)", b"(a<b>)", b"(\\101)", b"(])", b"<01>", b"<>",
            b"<0 1>", b"<123>", b"<0a0B>", b"5", b"-5", b"+5", b"5.", b".5", b"-.5", b"+.5", b"007", b"-0", b"-0.0",
            b"1" * 30, b"1" * 31, b"1." + b"2" * 30, b"1." + b"2" * 31, b"1" * 400 + b".5", b"1-2", b"--5", b".",
            b"-", b"+", b"1.2.3", b"5+", b"1_0", b"1e5", b"x", b"/n"]
TJ_SEPARATORS = [b"", b"", b" ", b"\n", b"\x00", b"\t ", b"\r\n", b"\x0c", b"\x0b"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TJ_SEPARATORS), st.sampled_from(TJ_ITEMS)), max_size=8),
       st.sampled_from(TJ_SEPARATORS), st.sampled_from([b"", b"1 2 ", b"/a "]),
       st.sampled_from([b"]TJ", b"] TJ", b"]\x00TJ(x)Tj", b"]TJx", b"]Tj", b"] 5 Td"]))
def test_tj_array_fast_path_reads_as_the_general_lexer(items, last, before, after):
    # the fast path takes an array whole when its gaps look like numbers, then reads the gaps with
    # int()/float(), which accept what the lexer does not ("1_0", "\v5", hundreds of digits): each
    # array must come out exactly as the general lexer reads it, or be left to it
    stream = before + b"[" + b"".join(separator + item for separator, item in items) + last + after
    assert typed(ops(stream, for_text=True)) == typed(general_ops(stream)), stream
    assert typed(ops(stream)) == typed(general_ops(stream)), stream


@pytest.mark.parametrize("gap, numbers", [
    (b"1_0", None), (b"\x0b5", None), (b"1-2", None), (b"--5", None), (b".", None), (b"1.2.3", None), (b"1e5", None),
    (b" 5\x006 ", [5, 6]), (b"1" * 31, [int(b"1" * 31)]), (b"9" * 400 + b".5", None),
])
def test_tj_array_gaps_the_fast_path_declines_or_reads_exactly(gap, numbers):
    stream = b"[(a)" + gap + b"(b)]TJ"
    assert typed(ops(stream, for_text=True)) == typed(general_ops(stream))
    if numbers is not None:
        assert ops(stream, for_text=True) == [([[b"a", *numbers, b"b"]], b"TJ")]


def test_tj_array_inside_an_open_array_is_taken_as_before():
    # an operator closes open arrays: a well-formed TJ array after a stray "[" is its own operand,
    # as the fast path always took it; one with a gap the old item-by-item regex refused (31 digits)
    # is read token by token, inside the stray array
    assert ops(b"[ [(a)1(b)] TJ", for_text=True) == [([[], [b"a", 1, b"b"]], b"TJ")]
    assert ops(b"[ [(a)" + b"1" * 31 + b"(b)] TJ", for_text=True) == [([[[b"a", int(b"1" * 31), b"b"]]], b"TJ")]


@pytest.mark.parametrize("operands", [
    b"1 " * 16, b"1 " * 17, b"1. .5 -0.25 +7 /F1 ", b"1" * 30 + b" " + b"2." + b"3" * 30 + b" ",
    b"1" * 31 + b" ", b"1." + b"2" * 31 + b" ", b"1.2.3 ", b"--5 ", b"5\x00/F1\x00", b"/F#201 5  \r\n",
])
def test_operands_before_an_operator_read_as_the_general_lexer(operands):
    # up to MAX_FAST_OPERANDS plain numbers and names come with their operator in one match (the
    # repetition possessive, the fraction an alternative): the operands must be the ones the
    # token-by-token reading gives, whichever way the stream is read
    for stream in (operands + b"Td", operands + b"re f", b"[" + operands + b"] TJ"):
        assert typed(ops(stream)) == typed(list(lexer._lex(stream, 0, False, _SINGLE_TOKENS))), stream
        if b" f" not in stream:     # (the text mode drops path operators)
            assert typed(ops(stream, for_text=True)) == typed(general_ops(stream)), stream
