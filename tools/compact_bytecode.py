"""Source → a smaller code object with the same behaviour, for the bytecode the site ships
(tools/pyodide_build.mjs runs this inside Pyodide before it compiles the wheels and the
standard library), so that .pyc files fit the first visit's byte budget:
  - big dict displays of constants become two constant tuples zipped at import;
  - modules' and functions' docstrings go, as under python -OO.
"""
from __future__ import annotations

import ast

BIG_CONSTANT_DICT = 64  # entries: each compiles to two LOAD_CONSTs; two constant tuples marshal to a fraction


class _ConstantDictsAsTuples(ast.NodeTransformer):
    # {k1: v1, ...} of constants → dict(zip((k1, ...), (v1, ...))): equal dict, same order, a
    # later duplicate key still wins; left alone where the module rebinds dict or zip
    def __init__(self, tree):
        bound = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)}
        bound |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
        bound |= {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        bound |= {(alias.asname or alias.name).split(".")[0] for node in ast.walk(tree)
                  if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
        self.builtins_free = not bound & {"dict", "zip"}

    def visit_Dict(self, node):
        self.generic_visit(node)
        if not (self.builtins_free and len(node.keys) >= BIG_CONSTANT_DICT
                and all(isinstance(item, ast.Constant) for item in (*node.keys, *node.values))):
            return node
        pairs = ast.Call(ast.Name("zip", ast.Load()), [ast.Tuple(node.keys, ast.Load()), ast.Tuple(node.values, ast.Load())], [])
        return ast.copy_location(ast.Call(ast.Name("dict", ast.Load()), [pairs], []), node)


def _strip_docstrings(tree):
    # modules' and functions' docstrings, as python -OO drops them (the stdlib and pypdf run
    # under -OO); classes keep theirs: @dataclass writes one from inspect.signature when missing
    for node in ast.walk(tree):
        if (isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
                and isinstance(node.body[0].value.value, str)):
            node.body = node.body[1:] or [ast.copy_location(ast.Pass(), node.body[0])]


def compile_compact(source, filename, strip_docstrings=True):
    tree = ast.parse(source, filename)
    if strip_docstrings:
        _strip_docstrings(tree)
    tree = ast.fix_missing_locations(_ConstantDictsAsTuples(tree).visit(tree))
    return compile(tree, filename, "exec", dont_inherit=True, optimize=0)
