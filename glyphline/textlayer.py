"""When does a page have no text layer? One rule, read by the scan report and by OCR.

A page is a scan when it has too few characters and images cover much of it, unless its
characters are missing because its fonts have no character mapping (rule UNMAPPED_PAGE) or
because its text is in optional content layers hidden when the document opens.
"""
from __future__ import annotations

MIN_CHARS_PER_PAGE = 12   # the rule: fewer characters per page on average means no text layer
SCAN_IMAGE_COVERAGE = 0.25  # a page without text is a scan when images cover this much of it (else it is blank)
# rule UNMAPPED_PAGE: a page with too few characters whose fonts dropped more glyphs than they gave
# is not a scan: its text is there but has no character mapping. Over an image covering the page
# (a scan with a few stamped glyphs) it takes this many dropped glyphs to say so.
UNMAPPED_OVER_IMAGE_MIN = MIN_CHARS_PER_PAGE


def lacks_text_layer(char_count: int, image_coverage: float, unmapped_glyphs: int, hidden_glyphs: int = 0) -> bool:
    """A scan: too few characters, images over the page, not an UNMAPPED_PAGE, and no text in
    hidden layers (a page whose text is hidden has a text layer)."""
    return (char_count < MIN_CHARS_PER_PAGE and image_coverage >= SCAN_IMAGE_COVERAGE and not hidden_glyphs
            and not lacks_mapping(char_count, image_coverage, unmapped_glyphs))


def lacks_mapping(char_count: int, image_coverage: float, unmapped_glyphs: int) -> bool:
    """Rule UNMAPPED_PAGE (see the constant)."""
    return (char_count < MIN_CHARS_PER_PAGE and unmapped_glyphs > char_count
            and (unmapped_glyphs >= UNMAPPED_OVER_IMAGE_MIN or image_coverage < SCAN_IMAGE_COVERAGE))
