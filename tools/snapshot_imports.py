# Run inside Pyodide before a memory snapshot is taken (tools/pyodide_build.mjs in Node,
# tools/browser_snapshot.py in Chromium): imports app.py (which installs the AES shim first)
# and every module of the engine and of pypdf, so nothing is left to import lazily after a
# restore, when the wheels' files are not on the file system yet (nor data to read from them).
import importlib
import pkgutil
import sys

import glyphline_app  # noqa: F401
import glyphline
import pypdf

for package in (glyphline, pypdf):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if module.name.endswith("__main__"):
            continue  # importing it would run the command line
        try:
            importlib.import_module(module.name)
        except ImportError:
            pass  # optional extras (pypdf's image helpers want Pillow)

# package data read on first use goes into the heap too, so no conversion after a restore
# reads the wheels' files (the worker puts them back only once it is idle)
from glyphline import brotli  # noqa: E402

brotli.static_data()

if getattr(sys.modules.get("Crypto"), "__version__", None) != "0+aes-js-shim":
    raise RuntimeError("the AES shim is not active in the snapshot")
