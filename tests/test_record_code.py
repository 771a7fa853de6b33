"""glyphline/_record_code.py: the methods dataclasses and NamedTuples write, compiled once and kept.

Each case runs in a fresh interpreter whose bytecode folder is under tmp_path (pycache_prefix),
so the checkout's __pycache__ is never read or written here.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CLASSES = """
    import dataclasses, typing, collections
    from glyphline._record_code import precompiled, cache_path
    with precompiled(write=True) as learnt:
        @dataclasses.dataclass(frozen=True)
        class Point:
            x: int
            y: int = 2
        class Pair(typing.NamedTuple):
            a: 'int'
            b: str = "b"
        Triple = collections.namedtuple("Triple", "p q r")
    seen = {"learnt": len(learnt), "point": repr(Point(1)), "equal": Point(1) == Point(1, 2),
            "hash": hash(Point(1)) == hash(Point(1, 2)), "init_annotations": str(Point.__init__.__annotations__),
            "pair": repr(Pair(1)), "pair_types": str(Pair.__annotations__), "triple": repr(Triple(1, 2, 3)),
            "table": cache_path()}
    try:
        Point(1).x = 3
    except dataclasses.FrozenInstanceError:
        seen["frozen"] = True
    # outside the block the callers use the builtins again
    seen["restored"] = [hasattr(dataclasses, "exec"), hasattr(collections, "eval"), hasattr(typing, "compile")]
"""


def fresh_process(script: str, prefix: Path) -> dict:
    code = f"import sys, json\nsys.path.insert(0, {str(REPO)!r})\n" + textwrap.dedent(script) + "\nprint(json.dumps(seen))\n"
    done = subprocess.run([sys.executable, "-X", f"pycache_prefix={prefix}", "-c", code],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_classes_made_from_the_table_are_the_classes_compiled_afresh(tmp_path):
    first = fresh_process(CLASSES, tmp_path)
    assert first["learnt"] > 0 and Path(first["table"]).is_file()
    assert str(tmp_path) in first["table"]
    second = fresh_process(CLASSES, tmp_path)
    assert second["learnt"] == 0          # every method's code came from the table
    for seen in (first, second):
        assert seen["point"] == "Point(x=1, y=2)"
        assert seen["equal"] is True and seen["hash"] is True and seen["frozen"] is True
        assert seen["pair"] == "Pair(a=1, b='b')" and seen["triple"] == "Triple(p=1, q=2, r=3)"
        assert seen["restored"] == [False, False, False]
    assert first["init_annotations"] == second["init_annotations"]
    assert "<class 'int'>" in first["init_annotations"]   # compiled with the callers' flags, not as strings
    assert first["pair_types"] == second["pair_types"]


def test_a_table_from_another_python_or_damaged_is_ignored_and_replaced(tmp_path):
    first = fresh_process(CLASSES, tmp_path)
    table = Path(first["table"])
    good = table.read_bytes()
    for bad in (b"\x00\x00\x00\x00" + good[4:], good[:len(good) // 2], good[:5] + b"garbage"):
        table.write_bytes(bad)
        again = fresh_process(CLASSES, tmp_path)
        assert again["learnt"] == first["learnt"]      # compiled afresh, classes as before
        assert again["point"] == "Point(x=1, y=2)"
        assert table.read_bytes().startswith(good[:5])  # and the table written anew


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path):
    script = textwrap.dedent(CLASSES.replace("precompiled(write=True)", "precompiled()"))
    seen = fresh_process("sys.dont_write_bytecode = True\n" + script, tmp_path)
    assert seen["learnt"] > 0
    assert not Path(seen["table"]).exists()
    seen = fresh_process("sys.dont_write_bytecode = False\n" + script, tmp_path)
    assert Path(seen["table"]).is_file()


REGEXES = """
    import re
    from re import _compiler
    from glyphline._record_code import precompiled
    real = _compiler.compile
    sources = [(r"(?P<word>[a-z]+)\\s+(?P<num>\\d+)", 0), (rb"/([^\\s/]+)\\s+Tf", 0),
               (r"bold|italic|-bd\\b", re.IGNORECASE), (r"(?x) a  b # spaced", 0)]
    with precompiled(write=True) as learnt:
        made = [_compiler.compile(pattern, int(flags)) for pattern, flags in sources]
    fresh = [real(pattern, int(flags)) for pattern, flags in sources]
    match = made[0].match("abc 12")
    seen = {"learnt": sum(1 for key in learnt if key[1] == "<regex>"),
            "equal": [a == b for a, b in zip(made, fresh)],
            "groups": [p.groupindex == q.groupindex and p.groups == q.groups and p.flags == q.flags
                       for p, q in zip(made, fresh)],
            "named": [match.group("word"), match.group("num")] if match else None,
            "bytes": made[1].search(b"BT /F1 Tf").group(1).decode(),
            "restored": _compiler.compile is real}
"""


def test_regexes_made_from_the_table_are_the_regexes_compiled_afresh(tmp_path):
    first = fresh_process(REGEXES, tmp_path)
    second = fresh_process(REGEXES, tmp_path)
    assert first["learnt"] >= 4 and second["learnt"] == 0   # (and the regexes of modules the block imports)
    for seen in (first, second):
        assert seen["equal"] == [True] * 4          # Pattern equality compares the compiled code
        assert seen["groups"] == [True] * 4
        assert seen["named"] == ["abc", "12"]
        assert seen["bytes"] == "F1"
        assert seen["restored"] is True
