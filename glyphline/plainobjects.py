"""Plain objects read straight from the file's bytes: a dictionary of names, integers (reals when
asked), references and arrays of these, at the offset the cross-reference table gives. pypdf's
general parser costs ~0.25 ms an object; this reads the same values in a few µs, and keeps
nothing in pypdf's cache. The structure tree's elements (glyphline.structure) and the page
tree's nodes (glyphline.document's walk) are read so. Its own module: the page-tree walk of an
untagged document needs these few patterns, not the structure reader's module.
"""
from __future__ import annotations

import re
from typing import Any

from pypdf.generic import IndirectObject

from .pdfobjects import resolve

MAX_PLAIN_ELEMENT_BYTES = 4096   # a structure element longer than this is left to pypdf (real ones are ~100 bytes)

# PDF name characters other than the delimiters and '#' (an escape: such names are left to pypdf)
_NAME_CHARS = re.escape(bytes(c for c in range(0x21, 0x7F) if c not in b"()<>[]{}/%#"))
_SPACE = b" \t\n\r\x0c"   # white space every pypdf reader skips alike (NUL and VT are left to pypdf)
_S = rb"[" + _SPACE + rb"]"
_DELIMITED = rb"(?=[" + _SPACE + rb"()<>\[\]{}/%]|\Z)"
# one token of a plain element, after optional white space: a reference, an integer, a name, [ or ],
# else the byte there (something else: the element is not plain)
_PLAIN_TOKEN_PATTERN = (_S + rb"*(?:(\d+)" + _S + rb"+(\d+)" + _S + rb"+R" + _DELIMITED + rb"|(-?\d+)" + _DELIMITED
                        + rb"|(/[" + _NAME_CHARS + rb"]+)|(\[)|(\])|([^" + _SPACE + rb"]))")
# the same with real numbers too (-1.5, .5, 2.): the page tree's boxes (glyphline.document._plain_node)
_PLAIN_TOKEN_REALS_PATTERN = _PLAIN_TOKEN_PATTERN.replace(rb"|(-?\d+)", rb"|(-?(?:\d+(?:\.\d*)?|\.\d+))", 1)
# each compiled on first use (~0.4 ms of compiling each, ~0.3 % of a 100-page document's work):
# an untagged document's page-tree walk needs only the one with reals, a structure tree the other
_tokens: dict[bool, re.Pattern] = {}


def _plain_tokens(reals: bool) -> re.Pattern:
    pattern = _tokens.get(reals)
    if pattern is None:
        pattern = _tokens[reals] = re.compile(_PLAIN_TOKEN_REALS_PATTERN if reals else _PLAIN_TOKEN_PATTERN)
    return pattern


# an object whose dictionary holds a '>' (a hex string, a nested dictionary) is never plain: its
# body ends at the first '>', read in one step
_PLAIN_OBJECT = re.compile(_S + rb"*(\d+)" + _S + rb"+(\d+)" + _S + rb"+obj" + _S + rb"*<<([^>]*+)>>" + _S + rb"*endobj")


class PlainObjects:
    """Objects read straight from the file when they are plain (structure elements, page-tree
    nodes): a dictionary of names, integers, references and arrays of these, at the offset the
    cross-reference table gives.
    pypdf's general parser costs ~0.25 ms an element (a quarter second for a 1,000-element
    tree, most of reading it); this reads the same values in a few µs. Everything else (strings,
    streams, object streams, encrypted files, a wrong offset, an object pypdf already holds) is
    resolved by pypdf, so both give equal values."""

    def __init__(self, pdf: Any):
        self.pdf = pdf
        self.data = None   # the file's stream, read at each object's offset (never held whole)
        try:
            if pdf is not None and not pdf.is_encrypted:
                stream = pdf.stream
                if callable(getattr(stream, "seek", None)) and callable(getattr(stream, "read", None)):
                    self.data = stream
        except Exception:   # no byte stream to read from: pypdf reads every object
            self.data = None

    def resolve(self, obj: Any) -> Any:
        if self.data is not None and type(obj) is IndirectObject:
            plain = self.plain(obj.idnum, obj.generation)
            if plain is not None:
                return plain
        return resolve(obj)

    def plain(self, number: int, generation: int, reals: bool = False) -> _PlainDictionary | None:
        pdf = self.pdf
        try:
            if (generation, number) in pdf.resolved_objects or (generation == 0 and number in pdf.xref_objStm):
                return None
            offset = pdf.xref.get(generation, {}).get(number)
            if type(offset) is not int or pdf.xref_free_entry.get(generation, {}).get(number, False):
                return None
        except Exception:
            return None
        chunk = _read_at(self.data, offset)
        if chunk is None:
            return None
        found = _PLAIN_OBJECT.match(chunk)
        if found is None or int(found[1]) != number or int(found[2]) != generation:
            return None
        plain = _plain_dictionary(found[3], pdf, reals)
        if plain is not None:
            plain.indirect_reference = IndirectObject(number, generation, pdf)   # its key, as pypdf's objects carry
        return plain


def _read_at(stream: Any, offset: int) -> bytes | None:
    """At most MAX_PLAIN_ELEMENT_BYTES of the file from `offset`, the stream's position kept
    (pypdf seeks before each of its reads, but a caller may be between two of them); None when the
    stream cannot be read there (closed, shrunk: pypdf then reads the object, or says why not)."""
    try:
        position = stream.tell()
        stream.seek(offset)
        chunk = stream.read(MAX_PLAIN_ELEMENT_BYTES)
        stream.seek(position)
    except (OSError, ValueError):
        return None
    return chunk if type(chunk) is bytes else None


class _PlainDictionary(dict):
    __slots__ = ("indirect_reference",)


def _plain_dictionary(body: bytes, pdf: Any, reals: bool = False) -> _PlainDictionary | None:
    """The entries of a plain dictionary's body, as pypdf reads them (the first of a repeated key
    wins), or None when anything in it is not plain. With `reals`, real numbers are plain too (as
    floats: pypdf's FloatObject has the same value)."""
    values: list = []
    stack: list[list] = []
    for reference, generation, number, name, opening, closing, _ in _plain_tokens(reals).findall(body):
        if reference:
            value: Any = IndirectObject(int(reference), int(generation), pdf)
        elif number:
            value = float(number) if b"." in number else int(number)
        elif name:
            value = name.decode("ascii")
        elif opening:
            stack.append(values)
            values = []
            continue
        elif closing:
            if not stack:
                return None
            value, values = values, stack.pop()
        else:   # something between the tokens: not plain
            return None
        values.append(value)
    if stack or len(values) % 2:
        return None
    entries = _PlainDictionary()
    for key, value in zip(values[::2], values[1::2]):
        if type(key) is not str:
            return None
        entries.setdefault(key, value)
    return entries
