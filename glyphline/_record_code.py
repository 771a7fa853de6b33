"""The code of the methods dataclasses and NamedTuples write at import, compiled once and kept
beside the package's bytecode, as Python keeps a module's.

On CPython 3.11 each @dataclass writes its __init__, __repr__ and __eq__ (a frozen one also
__setattr__, __delattr__, __hash__) as source text and compiles each with exec; namedtuple
compiles its __new__, and typing.NamedTuple each string annotation. The command line's start
and first page compile ~200 such texts (for glyphline's, pypdf's, the standard library's classes): ~115 M
instructions of parsing and compiling, a fifth of a one-page file's process, the same text every time.

`precompiled()` (around the command line's imports, glyphline.__main__) hands those three
callers a compile that looks the source up in a table of code objects read from
__pycache__/records.<cache tag>.marshal, compiles a miss as the caller would have, and writes
the table back when it learnt something, under Python's own rules for bytecode (not with
PYTHONDONTWRITEBYTECODE, into sys.pycache_prefix when set). A code object is the one
compile() makes of the same text, so the classes are the same; a table from another Python
(magic number) or another -O level is ignored. `python -m glyphline._record_code` writes the
table without waiting for a first run (`make bytecode`, bench/smallfiles.py).
"""
# no `from __future__ import annotations` here: compile() below must see the flags its callers
# (dataclasses, collections, typing) compile with, and none of them has a future import

import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from types import CodeType

# (module, the builtin it calls with source text), in import order: importing dataclasses makes
# inspect's namedtuples, so collections is served first; a module is left alone when it
# already has its own global of that name
CALLERS = (("collections", "eval"), ("typing", "compile"), ("dataclasses", "exec"))
CACHE_NAME = "records"
MAX_ENTRIES = 20_000   # far more than the command line makes (~200): a table grown past it by old entries starts afresh


def cache_path():
    """The folder Python keeps this package's bytecode in, with the table's own name; None when
    this interpreter keeps no bytecode (no cache tag)."""
    try:
        folder = os.path.dirname(importlib.util.cache_from_source(__file__))
    except NotImplementedError:
        return None
    return os.path.join(folder, f"{CACHE_NAME}.{sys.implementation.cache_tag}.marshal")


def _header() -> bytes:
    """The interpreter's bytecode magic number and -O level: code objects are per version, asserts per level."""
    return importlib.util.MAGIC_NUMBER + bytes([sys.flags.optimize])


def _read(path) -> dict:
    if path is None:
        return {}
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return {}
    header = _header()
    if not data.startswith(header):
        return {}
    try:
        table = marshal.loads(data[len(header):])
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(table, dict) or len(table) > MAX_ENTRIES:
        return {}
    if not all(type(key) is tuple and type(code) is CodeType for key, code in table.items()):
        return {}   # not a table this module wrote: only code objects are ever run from it
    return table


def _write(path: str, table: dict) -> None:
    """Atomically, like a .pyc: a reader sees the old table or the new one, never half of one."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as f:
            f.write(_header() + marshal.dumps(table))
        os.replace(temporary, path)
    except OSError:   # a read-only install: every process compiles, as before
        try:
            os.remove(temporary)
        except OSError:
            pass


@contextmanager
def precompiled(write: bool | None = None):
    """Within: classes made by dataclasses, namedtuple and typing.NamedTuple take their methods'
    code from the table. `write`: keep what was learnt (default: as Python would a .pyc).
    Yields the entries compiled meanwhile (source text, file name, mode) → code."""
    path = cache_path()
    table = _read(path)
    learnt = {}
    real = {"exec": exec, "eval": eval, "compile": compile}

    def code_of(source, filename, mode):
        key = (source, filename, mode)
        code = table.get(key)
        if code is None:
            code = real["compile"](source, filename, mode, dont_inherit=True)
            learnt[key] = code
        return code

    def cached_exec(source, *args, **kwargs):
        if type(source) is str:
            source = code_of(source, "<string>", "exec")
        return real["exec"](source, *args, **kwargs)

    def cached_eval(source, *args, **kwargs):
        if type(source) is str:
            source = code_of(source, "<string>", "eval")
        return real["eval"](source, *args, **kwargs)

    def cached_compile(source, filename, mode, *args, **kwargs):
        if type(source) is str and not args and not kwargs:
            return code_of(source, filename, mode)
        return real["compile"](source, filename, mode, *args, **kwargs)

    replacements = {"exec": cached_exec, "eval": cached_eval, "compile": cached_compile}
    installed = []
    for module_name, builtin in CALLERS:
        module = sys.modules.get(module_name) or __import__(module_name)
        if builtin not in vars(module):
            setattr(module, builtin, replacements[builtin])
            installed.append((module, builtin))
    try:
        yield learnt
    finally:
        for module, builtin in installed:
            delattr(module, builtin)
        if write is None:
            write = not sys.dont_write_bytecode
        if learnt and write and path is not None:
            table.update(learnt)
            _write(path, table)


# one page of text with a Type1 font: what a plain extraction imports on its first page
ONE_PAGE = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
            b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
            b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R"
            b"/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>endobj\n"
            b"4 0 obj<</Length 33>>stream\nBT /F1 12 Tf 10 50 Td (ok) Tj ET\nendstream endobj\n"
            b"trailer<</Root 1 0 R>>\n%%EOF\n")


def main() -> int:
    """Writes the table of what the command line's start and a first page compile (run in a
    fresh process: a class made before the table was in use is not in it)."""
    with precompiled(write=True):
        from . import __main__ as command

        command.import_start_up()
        from . import extract_text

        extract_text(ONE_PAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
