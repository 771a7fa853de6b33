"""Content-stream lexer: page content bytes → (operands, operator) pairs.

One compiled regex with an alternation finds the next token; Python code runs once per token
(most often once per operation: the common operations have fast-path alternatives that take
the operands and the operator in one match), never once per byte. Operand types:
  numbers → int / float, literal and hex strings → bytes, names → str (without the slash,
  #xx escapes decoded), arrays → list, dictionaries → dict (name keys), true/false/null →
  True/False/None.
An inline image (BI … ID <binary> EI) comes out as one ([dict], b"BI") operation, its data
skipped. Malformed input never raises: stray delimiters and junk bytes are skipped, an
unterminated string or inline image ends the stream, nesting of arrays/dicts is bounded.
The interpreter's mode (for_text=True) also drops path and colour operators inside the regex
and merges runs of "string Tj tx ty Td" into one TEXT_RUN operation.
"""
from __future__ import annotations

import re
from binascii import unhexlify
from typing import Iterator

MAX_NESTING = 64            # arrays/dicts deeper than any real content stream; deeper opens are ignored
INLINE_IMAGE_PROBE = 10     # bytes after a candidate EI that must look like content text, not image data
MAX_FAST_OPERANDS = 16      # operands matched with their operator in one step (cm and Tm have 6); bounds rescans
MAX_REMEMBERED_NUMBERS = 1024   # number words kept read, TJ kerns and text-run Td moves apart (few values repeat)

_WS = rb"\x00\t\n\x0c\r "
_DELIM = rb"()<>\[\]{}/%"
_REGULAR = rb"[^" + _WS + _DELIM + rb"]"
_NOT_REGULAR = rb"(?!" + _REGULAR + rb")"
_SPLIT_WS = rb"[\t\n\x0c\r ]"   # the whitespace bytes.split() knows (not NUL)
# at most 30 digits a side, so a fast-path float is always finite; longer ones take the slow path.
# The fraction is an alternative with an empty one, not an optional group: sre allocates a repeat
# record for every (...)? it enters, and a Skia page enters two a glyph. Its parts are possessive
# (as are the white space runs of the fast paths): wherever a number is read, what follows it
# (white space, the end) cannot start with the digit or sign a shorter reading would leave, and
# sre matches a greedy repeat's tail one nesting deeper, for the backtracking never needed here.
_PLAIN_NUMBER = rb"[+\-]?+(?:\d{1,30}+(?:\.\d{0,30}+|)|\.\d{1,30}+)"
_PLAIN_NAME = rb"/[^\x00-\x20\x7f-\xff()<>\[\]{}/%#]+"
_KEYWORD_RE = rb"[^" + _WS + _DELIM + rb"+\-.0-9]" + _REGULAR + rb"*"
# a literal string without nested parentheses, unrolled (plain bytes, then escape + plain bytes):
# one scan for a string without escapes, where an atomic alternation re-enters once a run of bytes
_STRING_BODY = rb"[^()\\]*+(?:\\.[^()\\]*+)*+"
_ESCAPED_STRING = rb"\((" + _STRING_BODY + rb")\)"
# A TJ array's inside as the show_array fast path takes it: literal strings (escapes, no bare
# parenthesis) and hex strings, with gaps of number bytes and white space between them. Each
# part is one possessive scan: the regex only bounds the shape, and _tj_items reads the gaps as
# the general lexer would, or declines the array (then it is lexed token by token, from "[").
_TJ_GAP = rb"[0-9.+\-" + _WS + rb"]*+"
_TJ_STRING = rb"(?:\(" + _STRING_BODY + rb"\)|<[0-9A-Fa-f" + _WS + rb"]*+>)"
_TJ_INNER = _TJ_GAP + rb"(?:" + _TJ_STRING + _TJ_GAP + rb")*+"

# Operators that only draw or colour paths: text extraction skips whole runs of them inside
# the regex when asked to, which is most of the bytes of a page with drawings. Both runs repeat
# possessively (++): nothing follows them to backtrack for, and a greedy + keeps every repetition's
# state on sre's stack, regrown and copied at each match (a fifth of a Skia page's lexing).
_GRAPHICS_OPERATOR = rb"(?:re|[mlcvyh]|[fFbB]\*?|[sSn]|W\*?|[gGkKw]|rg|RG|sc|scn|SC|SCN|[jJMi])"
_GRAPHICS_RUN = (rb"(?:(?:(?>" + _PLAIN_NUMBER + rb")[" + _WS + rb"]++){0,6}+" + _GRAPHICS_OPERATOR
                 + _NOT_REGULAR + rb"[" + _WS + rb"]*+)++")
# "string Tj tx ty Td" repeated: how Chrome/Skia and others place text glyph by glyph. When
# asked, the lexer hands a whole run over as one TEXT_RUN operation.
_RUN_STRING = rb"(?:<[0-9A-Fa-f]*+>|\(" + _STRING_BODY + rb"\))"
_RUN_PAIR = (_RUN_STRING + rb"[" + _WS + rb"]*+Tj[" + _WS + rb"]++(?>" + _PLAIN_NUMBER + rb")[" + _WS
             + rb"]++(?>" + _PLAIN_NUMBER + rb")[" + _WS + rb"]++Td" + _NOT_REGULAR + rb"[" + _WS + rb"]*+")
_TEXT_RUN = rb"(?:" + _RUN_PAIR + rb")++"
TEXT_RUN = b"Tj/Td"   # operands: [[string, (tx, ty), string, (tx, ty), …]], one pair per Tj + Td
_NEVER = rb"(?!)"
GRAPHICS_OPERATORS = frozenset(
    b"re m l c v y h f F f* b b* B B* s S n W W* g G k K w rg RG sc scn SC SCN j J M i".split())

# One regex finds the next token. The alternatives up to show_array are fast paths that take a
# whole common operation in one step (graphics runs and text runs in the text mode only,
# numbers/names + operator, "(…) Tj", "<…> Tj", "[…] TJ"); the rest are single tokens.
# Alternatives are ordered by how common they are. The white space before a token is taken
# possessively: giving a byte of it back could only let the junk alternative take it at the very
# end of the data, which yields nothing either. The operands before an operator repeat
# possessively: giving one back leaves a number or a name where the operator would have to start.
_TOKEN_PATTERN = (
    rb"[" + _WS + rb"]*+(?:"
    rb"(?P<graphics>GRAPHICS)"
    rb"|(?P<text_run>TEXTRUN)"
    rb"|(?P<operation>((?:(?:" + _PLAIN_NUMBER + rb"|" + _PLAIN_NAME + rb")" + _SPLIT_WS + rb"+){0,"
    + str(MAX_FAST_OPERANDS).encode() + rb"}+)(" + _KEYWORD_RE + rb"))"
    rb"|(?P<show>" + _ESCAPED_STRING + rb"[" + _WS + rb"]*Tj" + _NOT_REGULAR + rb")"
    rb"|(?P<show_hex><([0-9A-Fa-f]*)>[" + _WS + rb"]*Tj" + _NOT_REGULAR + rb")"
    rb"|(?P<show_array>\[(" + _TJ_INNER + rb")\][" + _WS + rb"]*TJ" + _NOT_REGULAR + rb")"
    rb"|(?P<number>[+\-.0-9]+)"
    rb"|(?P<string>" + _ESCAPED_STRING + rb")"
    rb"|(?P<name>/(" + _REGULAR + rb"*))"
    rb"|(?P<array_open>\[)"
    rb"|(?P<array_close>\])"
    rb"|(?P<hex><([0-9A-Fa-f" + _WS + rb"]*)>)"
    rb"|(?P<dict_open><<)"
    rb"|(?P<dict_close>>>)"
    rb"|(?P<nested_string>\()"
    rb"|(?P<comment>%[^\r\n]*)"
    rb"|(?P<junk>.)"            # a stray ) > { } < or binary junk
    rb")"
)
# the text interpreter's regex: graphics runs skipped and text runs merged
_TOKEN_FOR_TEXT = re.compile(
    _TOKEN_PATTERN.replace(b"GRAPHICS", _GRAPHICS_RUN, 1).replace(b"TEXTRUN", _TEXT_RUN, 1), re.DOTALL)
# the same groups, every operation on its own: compiled when first needed (inline images, the general
# mode), since compiling it costs every process ~5 ms that a text extraction mostly does not need
_TOKEN_PLAIN_PATTERN = _TOKEN_PATTERN.replace(b"GRAPHICS", _NEVER, 1).replace(b"TEXTRUN", _NEVER, 1)
# text runs merged, graphics kept: the interpreter when it also records paths (content.paths);
# compiled on first use, so a plain run never pays for it
_TOKEN_WITH_PATHS_PATTERN = _TOKEN_PATTERN.replace(b"GRAPHICS", _NEVER, 1).replace(b"TEXTRUN", _TEXT_RUN, 1)
_G = _TOKEN_FOR_TEXT.groupindex   # (the runs' alternatives capture nothing: all three regexes number groups alike)
(_GRAPHICS, _TEXT_RUN_KIND, _OPERATION, _SHOW, _SHOW_HEX, _SHOW_ARRAY, _NUM, _STRING, _NAME,
 _ARRAY_OPEN, _ARRAY_CLOSE, _HEX, _DICT_OPEN, _DICT_CLOSE, _NESTED_STRING) = (
    _G[k] for k in ("graphics", "text_run", "operation", "show", "show_hex", "show_array", "number",
                    "string", "name", "array_open", "array_close", "hex", "dict_open", "dict_close",
                    "nested_string"))
_OPERANDS_GROUP, _KEYWORD_GROUP = _OPERATION + 1, _OPERATION + 2
_SHOW_STRING_GROUP, _SHOW_HEX_GROUP, _SHOW_ARRAY_GROUP = _SHOW + 1, _SHOW_HEX + 1, _SHOW_ARRAY + 1
_STRING_GROUP = _STRING + 1
_NAME_GROUP, _HEX_GROUP = _NAME + 1, _HEX + 1

_RUN_ITEM = re.compile(
    rb"(?:<([0-9A-Fa-f]*)>|\((" + _STRING_BODY + rb")\))[" + _WS + rb"]*Tj[" + _WS + rb"]+(" + _PLAIN_NUMBER
    + rb")[" + _WS + rb"]+(" + _PLAIN_NUMBER + rb")", re.DOTALL)
# the parts of a TJ array's inside that _TJ_INNER matched: a literal string, a hex string, a gap
# (compiled on first use, with _PLAIN_NUMBER alone: most documents never need them)
_TJ_PART = rb"\((" + _STRING_BODY + rb")\)|<([^>]*+)>|([^(<]++)"
_NUL_TO_SPACE = bytes.maketrans(b"\x00", b" ")     # NUL separates PDF tokens; bytes.split() keeps it
_ESCAPE = re.compile(rb"\\(?:([nrtbf()\\])|([0-7]{1,3})|(\r\n?|\n)|(.))", re.DOTALL)
_CONSTANTS = {b"true": True, b"false": False, b"null": None}
_STRING_SPECIAL = re.compile(rb"[()\\]")
_NUMBER_SALVAGE = re.compile(rb"\d*\.?\d+|\d+")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_HEX_JUNK = re.compile(rb"[" + _WS + rb"]+")
_NAME_CHARSETS = ("utf-8", "gbk", "latin-1")  # the order pypdf uses, so resource keys match
_SIMPLE_ESCAPES = {
    ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
    ord("("): b"(", ord(")"): b")", ord("\\"): b"\\",
}
_WHITESPACE = b"\x00\t\n\x0c\r "
_INLINE_IMAGE_END = re.compile(rb"[" + _WS + rb"]EI(?=[" + _WS + rb"]|$)")
_INLINE_IMAGE_END_AT = re.compile(rb"[" + _WS + rb"]*EI(?=[" + _WS + rb"]|$)")
_CONTENT_TEXT = re.compile(rb"[\x09\x0a\x0d\x20-\x7e]*")
_INLINE_LENGTH_KEYS = ("L", "Length")
_TJ = b"TJ"
_TJ_SINGLE = b"Tj"


def iter_operations(data: bytes, *, for_text: bool = False, with_paths: bool = False) -> Iterator[tuple[list, bytes]]:
    """Yield (operands, operator) for every operator in `data`; never raises on bad input.

    for_text: the text interpreter's mode. The path, painting and colour operators with
    numeric operands (GRAPHICS_OPERATORS), which text extraction ignores, are skipped at
    regex speed, and runs of "string Tj tx ty Td" come as one TEXT_RUN operation.
    with_paths (with for_text): text runs merged as in for_text, the graphics operators kept."""
    if with_paths and for_text:
        return _lex(data, 0, False, _compiled_token("paths", _TOKEN_WITH_PATHS_PATTERN))
    return _lex(data, 0, False, _TOKEN_FOR_TEXT if for_text else None)


_compiled: dict[str, re.Pattern] = {}


def _compiled_token(name: str, pattern: bytes) -> re.Pattern:
    """A regex a text extraction rarely needs (the general mode, with paths, TJ arrays part by part),
    compiled once, on first use."""
    token = _compiled.get(name)
    if token is None:
        token = _compiled[name] = re.compile(pattern, re.DOTALL)
    return token


def _lex(data: bytes, pos: int, image_dictionary: bool, token: re.Pattern | None = None):
    """The lexer loop over `token` (default: the general mode's regex). In image-dictionary mode
    (after BI) it yields nothing and returns (operands, operator, position after it) at the
    first operator, or None at the end."""
    # a group is read as m[i], not m.group(i): a subscript is a slot call, while group() (METH_VARARGS)
    # goes through Pyodide's call trampoline (~2x the subscript there; ~1.9x on CPython 3.11 too)
    match = (token or _compiled_token("plain", _TOKEN_PLAIN_PATTERN)).match
    end = len(data)
    operands: list = []
    containers: list = []        # open arrays (list) and dicts (list of key, value, ...)
    container_is_dict: list = []
    ignored_opens = 0            # opens past MAX_NESTING: their closes are swallowed too
    while pos < end:
        m = match(data, pos)
        if m is None:           # only trailing whitespace is left
            break
        pos = m.end()
        kind = m.lastindex
        if kind == _GRAPHICS:
            continue
        if kind == _TEXT_RUN_KIND:
            if containers:      # an operator inside an open array/dict: close them all
                _close_all(containers, container_is_dict)
                ignored_opens = 0
            yield [_text_run_items(m[_TEXT_RUN_KIND])], TEXT_RUN
            operands = []       # stray operands before the run belong to no operator
            continue
        if kind == _OPERATION:
            run = m[_OPERANDS_GROUP]
            if run and not containers and 47 not in run:    # numbers only: the common case
                operands += [float(t) if 46 in t else int(t) for t in run.split()]
            elif run:
                for token in run.split():
                    if token[0] == 0x2F:    # /name, plain ASCII
                        value = token[1:].decode("ascii")
                    elif b"." in token:
                        value = float(token)
                    else:
                        value = int(token)
                    if containers:
                        containers[-1].append(value)
                    else:
                        operands.append(value)
            word = m[_KEYWORD_GROUP]
            if word in _CONSTANTS:
                value = _CONSTANTS[word]
            else:
                if containers:  # an operator inside an open array/dict: close them all
                    operands.append(_close_all(containers, container_is_dict))
                    ignored_opens = 0
                if image_dictionary:
                    return operands, word, pos
                if word == b"BI":
                    image, pos = _inline_image(data, pos)
                    yield [image], word
                else:
                    yield operands, word
                operands = []
                continue
        elif kind == _SHOW or kind == _SHOW_HEX:
            if kind == _SHOW:
                value = m[_SHOW_STRING_GROUP]
                if 0x5C in value or 0x0D in value:
                    value = _unescape(value)
            else:
                value = _hex(m[_SHOW_HEX_GROUP])
            if containers:
                operands.append(_close_all(containers, container_is_dict))
                ignored_opens = 0
            operands.append(value)
            if image_dictionary:
                return operands, _TJ_SINGLE, pos
            yield operands, _TJ_SINGLE
            operands = []
            continue
        elif kind == _SHOW_ARRAY:
            # inside an open array/dict only an array the old item-by-item regex took is taken
            # whole (closing what is open); any other array is read from its "[" token by token
            items = _tj_items(m[_SHOW_ARRAY_GROUP]) if not containers else _tj_items_exactly(m[_SHOW_ARRAY_GROUP])
            if items is None:
                pos = m.start(_SHOW_ARRAY) + 1
                if len(containers) >= MAX_NESTING:
                    ignored_opens += 1
                else:
                    containers.append([])
                    container_is_dict.append(False)
                continue
            if containers:
                operands.append(_close_all(containers, container_is_dict))
                ignored_opens = 0
            operands.append(items)
            if image_dictionary:
                return operands, _TJ, pos
            yield operands, _TJ
            operands = []
            continue
        elif kind == _NUM:
            value = _number(m[_NUM])
        elif kind == _STRING:
            value = m[_STRING_GROUP]
            if b"\\" in value or b"\r" in value:
                value = _unescape(value)
        elif kind == _NAME:
            value = _name(m[_NAME_GROUP])
        elif kind == _ARRAY_OPEN or kind == _DICT_OPEN:
            if len(containers) >= MAX_NESTING:
                ignored_opens += 1
            else:
                containers.append([])
                container_is_dict.append(kind == _DICT_OPEN)
            continue
        elif kind == _ARRAY_CLOSE or kind == _DICT_CLOSE:
            if ignored_opens:
                ignored_opens -= 1
                continue
            if not containers:  # stray close: skip
                continue
            items = containers.pop()
            value = _make_dict(items) if container_is_dict.pop() else items
        elif kind == _HEX:
            value = _hex(m[_HEX_GROUP])
        elif kind == _NESTED_STRING:
            value, pos = _literal_string(data, pos)
        else:                   # comment or junk byte
            continue
        if containers:
            containers[-1].append(value)
        else:
            operands.append(value)
    return None


_BRACKETS_TO_SPACE = bytes.maketrans(b"<>", b"  ")   # "<0041>Tj" → " 0041 Tj": the hex digits become a word


class _NumberWords(dict):
    """A number word → its value, each word read once by `read`: content streams repeat a few
    numbers thousands of times, and a lookup is ~5x cheaper than float() or int(). A word `read`
    fails raises as `read` does and is not kept. Starts over past MAX_REMEMBERED_NUMBERS."""

    __slots__ = ("read",)

    def __init__(self, read):
        super().__init__()
        self.read = read

    def __missing__(self, word: bytes):
        value = self.read(word)
        if len(self) >= MAX_REMEMBERED_NUMBERS:
            self.clear()
        self[word] = value
        return value


# Skia's text runs move the pen by each glyph's advance ("9.3247528 0 Td"): a few values a page
_run_number = _NumberWords(float).__getitem__
# pdfTeX and LibreOffice kern TJ arrays with a few values ("-333", "27") over and over (_alternating)
_kern_number = _NumberWords(int).__getitem__


def _text_run_items(run: bytes) -> list:
    """[string, (tx, ty), string, (tx, ty), …] for a matched run of "string Tj tx ty Td"."""
    if 0x28 not in run:     # hex strings only (Skia): "<hex> Tj tx ty Td" is five words a pair
        words = run.translate(_BRACKETS_TO_SPACE).split()
        pairs = len(words) // 5
        if (len(words) == 5 * pairs and words[1::5].count(b"Tj") == pairs
                and words[4::5].count(b"Td") == pairs):
            try:
                items: list = [None] * (2 * pairs)
                items[::2] = map(unhexlify, words[::5])
                items[1::2] = zip(map(_run_number, words[2::5]), map(_run_number, words[3::5]))
                return items
            except ValueError:  # a hex string with an odd digit count
                pass
    items = []
    for hex_digits, literal, tx, ty in _RUN_ITEM.findall(run):
        if literal or not hex_digits:
            items.append(_unescape(literal) if 0x5C in literal or 0x0D in literal else literal)
        else:
            items.append(_hex(hex_digits))
        items.append((float(tx), float(ty)))
    return items


def _tj_items(inner: bytes) -> list | None:
    """The elements of a TJ array the fast path matched (_TJ_INNER): strings, hex strings and
    numbers, as the general lexer reads them token by token; None when it would read them as
    anything but one array of such items (a gap that is not numbers)."""
    # the usual arrays alternate a string and a number: split at the string delimiters
    if 0x28 not in inner:       # hex strings only (LibreOffice: "<01>2<0203>-4<05>")
        items = _alternating(inner.replace(b">", b"<").split(b"<"), unhexlify)
    elif 0x5C not in inner and 0x0D not in inner:   # literal strings, no escape or CR: strings are their bytes
        # (pdfTeX: "(W)83(ord)-333(T)"; a hex string fails the numbers)
        items = _alternating(inner.replace(b")", b"(").split(b"("), None)
    elif b"\\(" not in inner and b"\\)" not in inner:
        # escapes, but none before a parenthesis: each one still delimits a string (pdfTeX's
        # ligatures, "(\\034rst)"), and each string is unescaped
        items = _alternating(inner.replace(b")", b"(").split(b"("), _unescape)
    else:
        items = None
    if items is not None:
        return items
    return _tj_items_exactly(inner)


def _tj_items_exactly(inner: bytes) -> list | None:
    """_tj_items part by part: each gap's words must be plain numbers (_PLAIN_NUMBER, as the old
    item-by-item array regex read them, so an array inside an open one is taken as before)."""
    items: list = []
    plain_number = _compiled_token("plain number", _PLAIN_NUMBER).fullmatch
    for m in _compiled_token("tj part", _TJ_PART).finditer(inner):
        kind = m.lastindex
        if kind == 1:
            string = m[1]
            items.append(_unescape(string) if 0x5C in string or 0x0D in string else string)
        elif kind == 2:
            items.append(_hex(m[2]))
        else:
            for word in m[3].translate(_NUL_TO_SPACE).split():
                if plain_number(word) is None:
                    return None     # "1-2", "--5", ".", 31 digits: the general lexer reads it another way
                items.append(float(word) if 0x2E in word else int(word))
    return items


def _alternating(parts: list[bytes], convert) -> list | None:
    """[string, number, string, …, string] from a TJ array's inside split at its string delimiters
    ([before, string, between, string, …, after]: `convert` reads a string's bytes), or None for
    any other shape (a number first or last, strings side by side, two numbers in a row, junk)."""
    numbers = parts[2:-1:2]
    if len(parts) < 3 or parts[0] or parts[-1] or b"" in numbers:
        return None
    items: list = [None] * (len(parts) - 2)
    try:
        items[::2] = parts[1::2] if convert is None else map(convert, parts[1::2])
        try:
            # int() reads one number with white space around it, no more; a gap holds number bytes and
            # PDF white space only (_TJ_GAP), so int()'s extras ("_", \v) never reach it and NUL fails it
            items[1::2] = map(_kern_number, numbers)
        except ValueError:  # a number with a decimal point (or no number)
            values = [float(number) if 0x2E in number else int(number) for number in numbers]
            if any([value - value for value in values]):   # inf (hundreds of digits): _number reads 0.0
                return None
            items[1::2] = values
    except ValueError:      # not one number between two strings, or a hex string with white space or an odd digit count
        return None
    return items


def _unescape(raw: bytes) -> bytes:
    """Decode a literal string body: unescaped ends of line read as \\n, then the escapes."""
    if b"\r" in raw:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if b"\\" in raw:
        raw = _ESCAPE.sub(_escape_replacement, raw)
    return raw


def _escape_replacement(m: re.Match) -> bytes:
    simple, octal, _newline, other = m.groups()
    if simple is not None:
        return _SIMPLE_ESCAPES[simple[0]]
    if octal is not None:
        return bytes((int(octal, 8) & 0xFF,))
    if other is not None:
        return other           # unknown escape: the backslash is ignored
    return b""                 # backslash + end of line: a line continuation


def _number(token: bytes) -> int | float:
    try:
        if b"." in token:
            value = float(token)
            return value if value - value == 0.0 else 0.0   # overflowed to inf: not a number
        return int(token)
    except ValueError:
        return _salvage_number(token)


def _salvage_number(token: bytes) -> int | float:
    """`--5` → -5, `1.2.3` → 1.2, `-` → 0: what other readers make of malformed numbers."""
    digits = _NUMBER_SALVAGE.search(token)
    if digits is None:
        return 0
    negative = b"-" in token[: digits.start()]
    text = digits.group()
    try:
        value: int | float = float(text) if b"." in text else int(text)
    except ValueError:      # more digits than int() reads (sys.get_int_max_str_digits): not a number either
        return 0
    if value - value != 0.0:
        value = 0.0
    return -value if negative else value


def _name(raw: bytes) -> str:
    if b"#" in raw:
        raw = _NAME_ESCAPE.sub(lambda m: bytes((int(m.group(1), 16),)), raw)
    for charset in _NAME_CHARSETS:
        try:
            return raw.decode(charset)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")  # pragma: no cover - latin-1 decodes every byte


def _hex(digits: bytes) -> bytes:
    try:
        return unhexlify(digits)    # the common case: even length, no gaps
    except ValueError:
        pass
    digits = _HEX_JUNK.sub(b"", digits)
    if len(digits) & 1:
        digits += b"0"
    return bytes.fromhex(digits.decode("ascii"))


def _literal_string(data: bytes, pos: int) -> tuple[bytes, int]:
    """Read a string whose "(" ends just before `pos`: balanced parentheses, escapes, line continuations."""
    parts = []
    depth = 1
    search = _STRING_SPECIAL.search
    end = len(data)
    while True:
        m = search(data, pos)
        if m is None:           # unterminated: the string runs to the end of the stream
            parts.append(_unescape(data[pos:]))
            pos = end
            break
        at = m.start()
        char = data[at]
        if char == 0x5C:        # backslash
            parts.append(_unescape(data[pos:at]))
            escape, pos = _escape(data, at + 1)
            parts.append(escape)
        elif char == 0x28:      # (
            depth += 1
            parts.append(_unescape(data[pos:at + 1]))
            pos = at + 1
        else:                   # )
            depth -= 1
            if depth == 0:
                parts.append(_unescape(data[pos:at]))
                pos = at + 1
                break
            parts.append(_unescape(data[pos:at + 1]))
            pos = at + 1
    return b"".join(parts), pos


def _escape(data: bytes, pos: int) -> tuple[bytes, int]:
    """Decode the escape whose backslash ends just before `pos`."""
    if pos >= len(data):
        return b"", pos
    char = data[pos]
    simple = _SIMPLE_ESCAPES.get(char)
    if simple is not None:
        return simple, pos + 1
    if 0x30 <= char <= 0x37:    # \ddd: up to three octal digits
        stop = pos + 1
        while stop < pos + 3 and stop < len(data) and 0x30 <= data[stop] <= 0x37:
            stop += 1
        return bytes((int(data[pos:stop], 8) & 0xFF,)), stop
    if char == 0x0D:            # line continuation: backslash + end of line is nothing
        if data[pos + 1:pos + 2] == b"\n":
            return b"", pos + 2
        return b"", pos + 1
    if char == 0x0A:
        return b"", pos + 1
    return bytes((char,)), pos + 1  # unknown escape: the backslash is ignored


def _make_dict(items: list) -> dict:
    result = {}
    for i in range(0, len(items) - 1, 2):
        key = items[i]
        if isinstance(key, str):
            result[key] = items[i + 1]
    return result


def _close_all(containers: list, container_is_dict: list):
    value = None
    while containers:
        items = containers.pop()
        value = _make_dict(items) if container_is_dict.pop() else items
        if containers:
            containers[-1].append(value)
    return value


def _inline_image(data: bytes, pos: int) -> tuple[dict, int]:
    """Read an inline image's dictionary after BI and skip its data up to and including EI."""
    dictionary = _lex(data, pos, True)
    try:
        next(dictionary)
        found = None    # pragma: no cover - the image-dictionary mode never yields
    except StopIteration as stop:
        found = stop.value
    if found is None:           # no operator at all: the rest of the stream is the broken image
        return {}, len(data)
    items, word, pos = found
    image = _make_dict(items)
    if word != b"ID":           # EI (or junk) before any ID: no image data to skip
        return image, pos
    if pos < len(data) and data[pos] in _WHITESPACE:
        pos += 1                # ID is followed by exactly one whitespace byte, then the data
    for key in _INLINE_LENGTH_KEYS:
        length = image.get(key)
        if isinstance(length, int) and not isinstance(length, bool) and 0 <= length <= len(data):
            m = _INLINE_IMAGE_END_AT.match(data, pos + length)
            if m is not None:
                return image, m.end()
            break
    return image, _find_image_end(data, pos)


def _find_image_end(data: bytes, start: int) -> int:
    """Position after the EI that ends image data at `start`: whitespace-delimited and followed by content text."""
    search = _INLINE_IMAGE_END.search
    pos = max(start - 1, 0)     # the EI may follow the single whitespace after ID directly
    while True:
        m = search(data, pos)
        if m is None:           # no EI: the image swallows the rest of the stream
            return len(data)
        after = m.end()
        if _CONTENT_TEXT.fullmatch(data, after, after + INLINE_IMAGE_PROBE):
            return after
        pos = m.start() + 1


