"""tools/compact_bytecode.py: the site's bytecode is smaller and behaves the same."""
from __future__ import annotations

import marshal
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import compact_bytecode  # noqa: E402

BIG = compact_bytecode.BIG_CONSTANT_DICT


def run(code) -> dict:
    namespace: dict = {}
    exec(code, namespace)
    namespace.pop("__builtins__", None)
    return namespace


def table_source(entries: int, extra: str = "") -> str:
    pairs = ", ".join(f'"/g{i}": "\\u{0x2200 + i:04x}"' for i in range(entries))
    return f'{extra}TABLE = {{{pairs}, "/g0": "last wins"}}\n'


def test_a_big_constant_dict_is_equal_and_marshals_smaller():
    source = table_source(BIG * 4)
    plain = compile(source, "table.py", "exec")
    compact = compact_bytecode.compile_compact(source, "table.py")
    assert run(compact) == run(plain)
    assert list(run(compact)["TABLE"]) == list(run(plain)["TABLE"])  # same order, the duplicate key's last value
    assert len(marshal.dumps(compact)) < 0.8 * len(marshal.dumps(plain))


def test_a_small_dict_or_one_with_a_computed_value_is_left_alone():
    for source in (table_source(BIG - 2), table_source(BIG * 2).replace('"/g1": "\\u2201"', '"/g1": chr(1)')):
        compact = compact_bytecode.compile_compact(source, "table.py")
        assert marshal.dumps(compact) == marshal.dumps(compile(source, "table.py", "exec", dont_inherit=True))


def test_a_module_that_rebinds_dict_or_zip_keeps_its_display():
    for rebinding in ("dict = list\n", "def zip(*a):\n    return []\n", "from itertools import zip_longest as zip\n"):
        source = table_source(BIG * 2, rebinding)
        assert run(compact_bytecode.compile_compact(source, "table.py"))["TABLE"] == run(compile(source, "t.py", "exec"))["TABLE"]
        assert marshal.dumps(compact_bytecode.compile_compact(source, "table.py")) == marshal.dumps(
            compile(source, "table.py", "exec", dont_inherit=True))


def test_module_and_function_docstrings_go_class_docstrings_stay():
    source = textwrap.dedent('''
        """Module doc."""
        def f():
            """Function doc."""
        async def g():
            """Async doc."""
            return 1
        class C:
            """Class doc."""
            def method(self):
                """Method doc."""
                return 2
    ''')
    namespace = run(compact_bytecode.compile_compact(source, "docs.py"))
    assert namespace.get("__doc__") is None and namespace["f"].__doc__ is None and namespace["g"].__doc__ is None
    assert namespace["C"].__doc__ == "Class doc." and namespace["C"].method.__doc__ is None
    assert namespace["f"]() is None and namespace["C"]().method() == 2
    kept = run(compact_bytecode.compile_compact(source, "docs.py", strip_docstrings=False))
    assert kept["__doc__"] == "Module doc." and kept["f"].__doc__ == "Function doc."


def test_line_numbers_survive():
    source = 'def f():\n    """Doc."""\n\n    raise ValueError\n'
    with pytest.raises(ValueError) as raised:
        run(compact_bytecode.compile_compact(source, "lines.py"))["f"]()
    assert raised.traceback[-1].lineno + 1 == 4  # pytest counts from 0
