"""Data flows one way through the pipeline: document → content interpreter and fonts → layout →
output → driver (extract, cli, app). A stage never imports a later one, not even lazily inside a
function, so a rule can be read in its own stage without the ones after it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "glyphline"

# for each stage (a subpackage), the modules of later stages it must not import
LATER_STAGES = {
    "content": ("layout", "output", "extract", "cli", "batch", "parallel", "split"),
    "fonts": ("content", "layout", "output", "extract", "cli", "batch", "parallel", "split"),
    "layout": ("output", "extract", "cli", "batch", "parallel", "split"),
    "output": ("extract", "cli", "batch", "parallel", "split"),
}


def imported_modules(path: Path) -> list[str]:
    """Every glyphline module the file imports (relative imports resolved), anywhere in it."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(parts[:-node.level])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append(module)
            found.extend(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name == "glyphline" or name.startswith("glyphline.")]


@pytest.mark.parametrize("stage", sorted(LATER_STAGES))
def test_a_stage_never_imports_a_later_one(stage):
    later = {f"glyphline.{name}" for name in LATER_STAGES[stage]}
    offences = []
    for path in sorted((PACKAGE / stage).glob("*.py")):
        for module in imported_modules(path):
            if any(module == name or module.startswith(name + ".") for name in later):
                offences.append(f"{path.relative_to(PACKAGE.parent)} imports {module}")
    assert not offences, "\n".join(offences)


def test_the_import_reader_resolves_relative_imports():
    modules = imported_modules(PACKAGE / "layout" / "words.py")
    assert "glyphline.bidi.logical_words" in modules   # `from ..bidi import logical_words`, inside a function
