"""pypdf's reading half, imported without running pypdf's package __init__ (the command line's process).

`import pypdf` runs pypdf/__init__.py, which imports the whole library: the writer, appearance
streams, page ranges, paper sizes and Pillow, none of which reading a PDF uses (~25 M
instructions, 4 % of a one-page file's process). `import_reading_half` makes the package module
from pypdf's own spec without running its __init__, imports the modules reading needs in the
order __init__ would, and leaves the package deferred: the first name asked of it that it lacks
(a later `pypdf.PdfWriter`, `from pypdf import PageObject`) runs the real __init__ in the same
module, so the package then is exactly what `import pypdf` makes. Only for a process glyphline
owns (glyphline.__main__); a library caller's pypdf is imported the ordinary way.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import types

# what glyphline reads with, in pypdf/__init__.py's order: its submodules import each other in a
# cycle (_utils ↔ generic) that resolves only when entered from _configuration and _doc_common
READING_MODULES = ("pypdf._configuration", "pypdf._crypt_providers", "pypdf._doc_common", "pypdf._reader")
# the one name pypdf's submodules take from the package itself (`from .. import get_configuration`)
PACKAGE_NAMES_USED_INSIDE = ("get_configuration",)


class _DeferredPackage(types.ModuleType):
    """pypdf's package module before its __init__ has run: a missing name runs it first."""

    _importing = False   # set while the reading modules import: a lookup then is a miss, not a reason to run __init__

    def __getattr__(self, name: str):
        if type(self)._importing:
            raise AttributeError(f"module 'pypdf' has no attribute {name!r} (yet)")
        complete(self)
        return getattr(self, name)


def complete(package: types.ModuleType) -> None:
    """Runs pypdf's __init__ in the deferred package (once): from then on it is the plain module."""
    if type(package) is _DeferredPackage:
        package.__class__ = types.ModuleType
        package.__spec__.loader.exec_module(package)


def import_reading_half() -> bool:
    """Imports pypdf's reading modules under a deferred package; False (nothing done) when pypdf is
    already imported or not installed. Pillow stays hidden meanwhile: pypdf._page imports PIL.Image
    for ImageFile.replace alone (~70 M instructions), which reading never calls."""
    if "pypdf" in sys.modules:
        return False
    spec = importlib.util.find_spec("pypdf")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return False
    package = importlib.util.module_from_spec(spec)
    package.__class__ = _DeferredPackage
    hide_pillow = "PIL" not in sys.modules
    sys.modules["pypdf"] = package
    if hide_pillow:
        sys.modules["PIL"] = None   # `import PIL` raises ImportError: pypdf reads as without Pillow
    before = set(sys.modules)
    _DeferredPackage._importing = True
    try:
        for name in READING_MODULES:
            importlib.import_module(name)
            if name == READING_MODULES[0]:
                for used in PACKAGE_NAMES_USED_INSIDE:
                    setattr(package, used, getattr(sys.modules[name], used))
    except BaseException:
        # leave no half-made package behind: a later `import pypdf` starts afresh
        for name in set(sys.modules) - before:
            del sys.modules[name]
        del sys.modules["pypdf"]
        raise
    finally:
        _DeferredPackage._importing = False
        if hide_pillow:
            del sys.modules["PIL"]
    return True
