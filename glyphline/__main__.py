"""`python -m glyphline`, and the `glyphline` command: start-up and exit tuned for a short process."""
import gc
import os
import sys


def run() -> None:
    """The command line (glyphline.cli.main) in a process of its own: exits with its code."""
    # start-up allocates ~10⁵ objects that all live as long as the process: collecting them is
    # wasted work, and frozen they are never scanned again by the collections during extraction
    gc.disable()
    from ._record_code import precompiled

    # the methods dataclasses and NamedTuples write and the regexes, compiled once (~170 M instructions a start)
    with precompiled():
        main = import_start_up()
        gc.freeze()
        gc.enable()
        code = main()
    # everything is written: skip the interpreter's teardown (freeing every module and object
    # one by one, ~15 ms of a small file's run); open files are closed, the standard streams flushed
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def import_start_up():
    """What every run of the command line imports; its main()."""
    _import_pypdf_reading_half()
    from .cli import main

    return main


def _import_pypdf_reading_half() -> None:
    """pypdf's reading modules without its package __init__ (writer, Pillow: glyphline._pypdf_reading)."""
    from ._pypdf_reading import import_reading_half

    try:
        import_reading_half()
    except ImportError:
        pass        # glyphline.document reports a missing pypdf as it always does


if __name__ == "__main__":
    run()
