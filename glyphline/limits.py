"""Budgets that bound every loop over file data, so hostile input never hangs or eats memory."""
from __future__ import annotations

import time
from dataclasses import dataclass

from .errors import BudgetExceeded

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Generous defaults: a 1,000-page textbook stays far below every one of them."""

    stream_bytes: int = 64 * MiB        # decompressed size of one stream (a bomb stops here)
    document_bytes: int = 1024 * MiB    # decompressed bytes over the whole document
    operators_per_page: int = 2_000_000  # content-stream operators interpreted on one page
    glyphs_per_page: int = 500_000      # glyphs emitted on one page
    form_depth: int = 12                # nesting of Form XObjects (cycles are cut separately)
    page_tree_depth: int = 64           # depth of the /Pages tree
    seconds_per_page: float = 30.0      # wall-clock time to interpret one page
    tounicode_entries: int = 200_000    # entries read from one CMap
    annotations_per_page: int = 10_000  # /Annots entries read on one page (a dense form has a few hundred)
    dropped_glyphs_listed: int = 2_000  # left-out glyphs a page lists for the inspector; the rest are counted
    drawn_items_per_page: int = 20_000  # rules and marks a page keeps from its paths (Markdown); a map draws more
    path_points: int = 100_000          # points one path keeps before it is painted


class PageBudgetExceeded(Exception):
    """Internal: ends the current page early; the page keeps what it decoded and gets a warning."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


class DocumentBudget:
    """Counts decompressed bytes across the document; raises BudgetExceeded past the limit."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.bytes_used = 0

    def charge_bytes(self, n: int) -> None:
        self.bytes_used += n
        if self.bytes_used > self.limits.document_bytes:
            raise BudgetExceeded(
                "document_bytes",
                f"more than {self.limits.document_bytes} decompressed bytes in this document",
            )


# the clock is read only every this many operators: time.monotonic() is not free
CLOCK_EVERY_OPERATORS = 4096


class PageBudget:
    """Per-page counters for operators, glyphs and time; checked inside the interpreter loop."""

    __slots__ = ("limits", "operators", "glyphs", "deadline", "clock_at")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.operators = 0
        self.glyphs = 0
        self.deadline = time.monotonic() + limits.seconds_per_page
        self.clock_at = CLOCK_EVERY_OPERATORS

    def charge_operators(self, n: int = 1) -> None:
        self.operators += n
        if self.operators > self.limits.operators_per_page:
            raise PageBudgetExceeded("operators_per_page", f"more than {self.limits.operators_per_page} operators")
        if self.operators >= self.clock_at:
            self.clock_at = self.operators + CLOCK_EVERY_OPERATORS
            self.check_time()

    def charge_glyphs(self, n: int = 1) -> None:
        self.glyphs += n
        if self.glyphs > self.limits.glyphs_per_page:
            raise PageBudgetExceeded("glyphs_per_page", f"more than {self.limits.glyphs_per_page} glyphs")

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise PageBudgetExceeded("seconds_per_page", f"page took more than {self.limits.seconds_per_page} s")
