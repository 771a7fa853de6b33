"""Property tests: random bytes and random operator soup never break the lexer or the interpreter.

The only exception allowed out of `interpret` is PageBudgetExceeded, and every run must end
quickly under small Limits.
"""
from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf.generic import DictionaryObject, NameObject

from glyphline.content.interpreter import interpret
from glyphline.content.lexer import iter_operations
from glyphline.limits import Limits, PageBudgetExceeded
from test_interpreter import form, make_env, pdf, resources

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = Limits(operators_per_page=2_000, glyphs_per_page=2_000, form_depth=4, seconds_per_page=5.0)
RUN_SECONDS = 5.0       # far above what any example needs; a hang would blow through it

OPERATORS = [b"BT", b"ET", b"q", b"Q", b"cm", b"Tc", b"Tw", b"Tz", b"TL", b"Tf", b"Tr", b"Ts", b"Td", b"TD",
             b"Tm", b"T*", b"Tj", b"TJ", b"'", b'"', b"Do", b"BMC", b"BDC", b"EMC", b"BI", b"ID", b"EI",
             b"re", b"f", b"m", b"l", b"g", b"rg", b"gs", b"d0", b"d1", b"sh", b"XX"]
NAMES = [b"/F1", b"/F2", b"/V", b"/T3", b"/Nope", b"/Fm", b"/Loop", b"/Span", b"/P1", b"/ActualText", b"/MCID"]
ATOMS = st.one_of(
    st.integers(-10**6, 10**6).map(lambda n: str(n).encode()),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: repr(x).encode().replace(b"e", b"")),
    st.sampled_from([b"--5", b"1.2.3", b".", b"-", b"1e999", b"9" * 400, b"true", b"null"]),
    st.sampled_from(NAMES),
    st.binary(max_size=12).map(lambda b: b"(" + b.replace(b"\\", b"") + b")"),
    st.binary(max_size=8).map(lambda b: b"<" + b.hex().encode() + b">"),
    st.sampled_from([b"[", b"]", b"<<", b">>", b"(", b")", b"<", b">", b"{", b"}", b"%", b"\\", b"\x00",
                     b"<</ActualText (x) /MCID 2>>", b"[(a) -100 (b)]", b"ID \x00\xffEI ",
                     b"<0041> Tj 5 0 Td (b) Tj -1 2 Td", b"(a) Tj 1e5 0 Td"]),
)
SOUP = st.lists(st.one_of(ATOMS, st.sampled_from(OPERATORS)), max_size=80).map(b" ".join)
NUMBER = st.one_of(st.integers(-2000, 2000), st.floats(-1e4, 1e4, allow_nan=False)).map(
    lambda n: ("%.3f" % n).encode())
STRING = st.binary(max_size=6).map(lambda b: b"(" + b.replace(b"\\", b"").replace(b"(", b"").replace(b")", b"") + b")")
# operations of the right shape with random values, so that text is actually shown
WELL_FORMED = st.one_of(
    st.tuples(NUMBER, NUMBER).map(lambda t: t[0] + b" " + t[1] + b" Td"),
    st.tuples(NUMBER, NUMBER).map(lambda t: t[0] + b" " + t[1] + b" TD"),
    STRING.map(lambda s: s + b" Tj"),
    STRING.map(lambda s: s + b" '"),
    st.tuples(NUMBER, NUMBER, STRING).map(lambda t: b" ".join(t) + b' "'),
    st.lists(st.one_of(STRING, NUMBER), max_size=6).map(lambda items: b"[" + b" ".join(items) + b"] TJ"),
    st.tuples(STRING, NUMBER, NUMBER).map(lambda t: t[0] + b" Tj " + t[1] + b" " + t[2] + b" Td"),
    st.lists(NUMBER, min_size=6, max_size=6).map(lambda m: b" ".join(m) + b" Tm"),
    st.lists(NUMBER, min_size=6, max_size=6).map(lambda m: b" ".join(m) + b" cm"),
    st.sampled_from([b"BT", b"ET", b"q", b"Q", b"/F1 12 Tf", b"/V 9 Tf", b"/T3 5 Tf", b"/F2 -8 Tf", b"/Fm Do",
                     b"/Loop Do", b"/P /P1 BDC", b"/Span <</ActualText (z) /MCID 1>> BDC", b"/X BMC", b"EMC",
                     b"3 Tr", b"0 Tr", b"T*", b"-50 Tz", b"150 Tz", b"2 Tc", b"3 Tw", b"12 TL", b"4 Ts"]),
)
TEXT_SOUP = st.lists(st.one_of(WELL_FORMED, WELL_FORMED, ATOMS), max_size=60).map(
    lambda ops: b"BT /F1 10 Tf " + b" ".join(ops))


def soup_resources():
    loop = form(b"BT /F1 10 Tf (loop) Tj ET /Loop Do /Fm Do")
    res = resources(XObject=pdf({"/Fm": form(b"BT /F1 9 Tf (f) Tj ET /Fm Do", matrix=(2, 0, 0, 2, 1, 1))}),
                    Properties=pdf({"/P1": {"/ActualText": "act", "/MCID": 4}}))
    loop[NameObject("/Resources")] = res
    res["/XObject"][NameObject("/Loop")] = loop
    return res


RESOURCES = soup_resources()


def run_interpreter(content: bytes, keep_outside: bool = False) -> None:
    env = make_env(SMALL, keep_outside=keep_outside)
    out: list = []
    start = time.perf_counter()
    try:
        interpret(content, RESOURCES, (1, 0, 0, -1, 0, 792), env, out=out)
    except PageBudgetExceeded:
        pass
    assert time.perf_counter() - start < RUN_SECONDS
    assert len(out) <= SMALL.glyphs_per_page + 100
    for glyph in out:
        assert isinstance(glyph.text, str) and glyph.text
        assert all(v == v and abs(v) != float("inf") for v in (glyph.x, glyph.y, glyph.end_x, glyph.end_y))


@FUZZ
@given(st.binary(max_size=2000))
def test_lexer_random_bytes(data):
    start = time.perf_counter()
    for operands, operator in iter_operations(data):
        assert isinstance(operands, list) and isinstance(operator, bytes) and operator
    list(iter_operations(data, for_text=True))
    assert time.perf_counter() - start < RUN_SECONDS


@FUZZ
@given(SOUP)
def test_lexer_operator_soup(data):
    for operands, operator in iter_operations(data):
        assert isinstance(operands, list) and isinstance(operator, bytes)


@FUZZ
@given(st.binary(max_size=2000))
def test_interpreter_random_bytes(data):
    run_interpreter(data)


@FUZZ
@given(SOUP)
def test_interpreter_operator_soup(data):
    run_interpreter(data)


@FUZZ
@given(TEXT_SOUP, st.booleans())
def test_interpreter_well_formed_soup(data, keep_outside):
    run_interpreter(data, keep_outside)


@FUZZ
@given(st.lists(st.sampled_from([b"q", b"Q", b"BT", b"ET", b"/Fm Do", b"/Loop Do", b"/P /P1 BDC", b"EMC",
                                 b"/F1 10 Tf", b"(ab) Tj", b"2 0 0 2 0 0 cm"]), max_size=200).map(b" ".join))
def test_interpreter_state_soup(data):
    run_interpreter(data)


def test_resources_that_are_not_dictionaries():
    for res in (DictionaryObject(), pdf({"/XObject": {"/Fm": 5}}), pdf({"/Properties": [1]})):
        env = make_env(SMALL)
        assert interpret(b"/Fm Do /P /P1 BDC EMC", res, (1, 0, 0, 1, 0, 0), env) == []
