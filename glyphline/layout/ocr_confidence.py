"""OCR words' confidence on the laid-out page: the layout's words that came from OCR glyphs
(flag OCR) take the confidence the engine gave the words it read inside their boxes.

The OCR glyph source (glyphline.content.ocr) keeps the engine's boxes aside in its OcrReport;
this layout step reads them, so data flows one way, content → layout.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from ..glyph import OCR
from .model import PageLayout, Word, with_words


def attach_confidence(layout: PageLayout, boxes: list[tuple[float, float, float, float, float]]) -> None:
    """Each OCR word of the layout gets the lowest confidence of the recognised `boxes` (viewer
    box + confidence) whose centre lies inside its box."""
    boxes = sorted(boxes, key=lambda box: (box[0] + box[2]) / 2)
    centres = [(box[0] + box[2]) / 2 for box in boxes]

    def with_confidence(word: Word) -> Word:
        if not word.flags & OCR:
            return word
        found = [box[4] for box in boxes[bisect_left(centres, word.x0):bisect_right(centres, word.x1)]
                 if word.y0 <= (box[1] + box[3]) / 2 <= word.y1]
        return word._replace(confidence=min(found)) if found else word

    layout.blocks = with_words(layout.blocks, with_confidence)
