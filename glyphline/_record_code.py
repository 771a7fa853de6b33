"""The code of the methods dataclasses and NamedTuples write at import, and of the regexes
modules compile at import, made once and kept beside the package's bytecode, as Python keeps a
module's.

On CPython 3.11 each @dataclass writes its __init__, __repr__ and __eq__ (a frozen one also
__setattr__, __delattr__, __hash__) as source text and compiles each with exec; namedtuple
compiles its __new__, and typing.NamedTuple each string annotation; and re parses and compiles
every pattern in Python code. The command line's start and first page compile ~210 such texts
and ~80 regexes (glyphline's, pypdf's, the standard library's): ~170 M instructions, a third of
a one-page file's process, the same work every time.

`precompiled()` (around the command line, glyphline.__main__) hands those callers a compile
that looks the text up in a table read from __pycache__/records.<cache tag>.marshal, compiles
a miss as the caller would have, and writes the table back when it learnt something, under
Python's own rules for bytecode (not with PYTHONDONTWRITEBYTECODE, into sys.pycache_prefix when
set). A code object is the one compile() makes of the same text, so the classes are the same; a
regex is kept as the arguments re hands _sre.compile, and only after the pattern re-made from
them compared equal (compiled code included) to re's own. A table from another Python (magic
number) or another -O level is ignored. `python -m glyphline._record_code` writes the table
without waiting for a first run (`make bytecode`, bench/smallfiles.py).
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
# the table's file name for a regex key (pattern, REGEX, flags): no real file is called that
REGEX = "<regex>"
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
    for key, value in table.items():
        if type(key) is not tuple or len(key) != 3:
            return {}
        if key[1] == REGEX and not (type(value) is tuple and len(value) == 5):
            return {}
        if key[1] != REGEX and type(value) is not CodeType:
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
    except (OSError, ValueError):   # a read-only install (or a value marshal refuses): every process compiles, as before
        try:
            os.remove(temporary)
        except OSError:
            pass


def _regex_parts(pattern, flags):
    """re._compiler.compile's work up to _sre.compile: the arguments the table keeps of a regex."""
    from re import _compiler, _parser

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # plain ints: the code holds re's named opcode constants, an int subclass marshal refuses
    return (int(flags | parsed.state.flags), [int(word) for word in code], parsed.state.groups - 1,
            groupindex, tuple(indexgroup))


def _regex_compiler():
    """re's module that compiles a pattern (re._compiler on 3.11+), or None where it differs."""
    try:
        from re import _compiler
        import _sre
    except ImportError:
        return None
    if not all(hasattr(_compiler, name) for name in ("compile", "_code", "isstring")) or not hasattr(_sre, "compile"):
        return None
    return _compiler


@contextmanager
def precompiled(write: bool | None = None):
    """Within: classes made by dataclasses, namedtuple and typing.NamedTuple take their methods'
    code from the table. `write`: keep what was learnt (default: as Python would a .pyc).
    Yields the entries compiled meanwhile (source text, file name, mode) → code."""
    path = cache_path()
    if write is None:
        write = not sys.dont_write_bytecode
    write = write and path is not None
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

    regex_compiler = _regex_compiler()
    real_regex = regex_compiler.compile if regex_compiler is not None else None

    def cached_regex(pattern, flags=0):
        """re._compiler.compile: a regex re-made from the kept arguments, which were checked
        (Pattern equality compares the compiled code) against the real compile when first kept."""
        if type(pattern) not in (str, bytes) or type(flags) is not int or flags & re_debug:
            return real_regex(pattern, flags)
        key = (pattern, REGEX, flags)
        parts = table.get(key)
        if parts is not None:
            try:
                return sre_compile(pattern, *parts)
            except (TypeError, ValueError, RuntimeError):   # _sre checks the code it is given
                pass
        compiled = real_regex(pattern, flags)
        if write:   # checking what would be kept compiles twice: only when the table is written
            try:
                parts = _regex_parts(pattern, flags)
                if sre_compile(pattern, *parts) == compiled:
                    learnt[key] = parts
            except Exception:   # re's internals changed: this regex is compiled every time, as before
                pass
        return compiled

    replacements = {"exec": cached_exec, "eval": cached_eval, "compile": cached_compile}
    installed = []
    if regex_compiler is not None:
        import _sre
        import re

        sre_compile, re_debug = _sre.compile, re.DEBUG
        regex_compiler.compile = cached_regex
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
        if regex_compiler is not None:
            regex_compiler.compile = real_regex
        if learnt and write:
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
    """Writes the table of what the command line compiles on a one-page file (run in a fresh
    process: a class made before the table was in use is not in it)."""
    with precompiled(write=True):
        import tempfile   # here: its imports (shutil's namedtuple) are the command's too

        from . import __main__ as command

        with tempfile.TemporaryDirectory() as folder:
            pdf = os.path.join(folder, "one-page.pdf")
            with open(pdf, "wb") as f:
                f.write(ONE_PAGE)
            code = command.import_start_up()([pdf, "-o", os.devnull, "--quiet"])
    return code


if __name__ == "__main__":
    sys.exit(main())
