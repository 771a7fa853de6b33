"""`python -m glyphline`: the same command as `glyphline`."""
import sys

from .cli import main

sys.exit(main())
