"""Tagged reading order: the author's structure tree orders a page's blocks (option `order`).

    geometry  the blocks stay in the order the page's geometry gives (XY-cut, columns, sidebars last)
    tags      blocks are sorted by the structure tree; running headers stay first, footers last
    auto      the body blocks by the tree when it names their text (TAG_COVERAGE_MIN) and its order
              does not run back up a column more often than the geometry's does
              (MAX_EXTRA_UPWARD_MOVES); else geometry. Sidebars and rotated text stay after the body.

Each block's tag is the element most of its characters belong to (glyph MCID → Tag); a block
the tree does not name keeps its place after the block it followed in the geometric order.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..glyph import Glyph
from ..structure import Tag
from .model import Block

ORDERS = ("auto", "geometry", "tags")

# auto: the tags must name at least this share of the page's characters (running headers and
# footers aside: producers mark them as artifacts) — a partly tagged page is ordered by geometry.
TAG_COVERAGE_MIN = 0.9

# auto: a reading order may jump back up the page to a block in the same column (overlapping
# it horizontally by COLUMN_OVERLAP of the narrower one) only this many more times than the
# geometric order does: a float or sidebar read in place costs one or two; a tree in drawing
# order or upside down costs many.
MAX_EXTRA_UPWARD_MOVES = 1
COLUMN_OVERLAP = 0.5

# Blocks the tags may move. Running headers lead and footers close the page whatever the tree
# says (producers mark them as artifacts). `auto` leaves sidebars and rotated text after the
# body, where geometry puts them: the tree has them where the source had them (an aside before
# the article), which is no better for a reader and changes what geometry already reads well.
MOVED_BY_TAGS = frozenset({"body", "sidebar", "rotated"})
MOVED_BY_AUTO = frozenset({"body"})


def block_tag(glyph_runs: list[list[Glyph]], tags: Mapping[int, Tag]) -> tuple[Tag | None, float]:
    """The tag most of a block's characters carry, and the share of its characters with a tag."""
    weights: dict[Tag, int] = {}
    total = tagged = 0
    for glyphs in glyph_runs:
        for g in glyphs:
            n = len(g.text)
            total += n
            tag = tags.get(g.mcid) if g.mcid >= 0 else None
            if tag is not None:
                tagged += n
                weights[tag] = weights.get(tag, 0) + n
    if not weights:
        return None, 0.0
    return max(weights, key=lambda t: (weights[t], -t.order)), tagged / max(1, total)


def order_blocks(blocks: list[Block], order: str) -> tuple[list[Block], bool]:
    """The blocks in the requested order, and whether the structure tree decided it."""
    if order == "geometry" or not any(b.tag is not None for b in blocks):
        return blocks, False
    roles = MOVED_BY_TAGS if order == "tags" else MOVED_BY_AUTO
    places = [i for i, b in enumerate(blocks) if b.role in roles]
    moving = [blocks[i] for i in places]
    by_tags = _sorted_by_tags(moving)
    if order == "auto" and not tags_fit(moving, by_tags):
        return blocks, False
    ordered = list(blocks)
    for i, block in zip(places, by_tags):
        ordered[i] = block
    return ordered, True


def tags_fit(geometric: list[Block], by_tags: list[Block]) -> bool:
    """Rule `auto`: the tags cover the text and do not contradict the geometry badly (see the constants)."""
    chars = [sum(len(w.text) for line in b.lines for w in line.words) for b in geometric]
    total = sum(chars)
    if not total or sum(n * b.tagged for n, b in zip(chars, geometric)) < TAG_COVERAGE_MIN * total:
        return False
    return upward_moves(by_tags) <= upward_moves(geometric) + MAX_EXTRA_UPWARD_MOVES


def upward_moves(blocks: list[Block]) -> int:
    """Steps from a block to one wholly above it in the same column (a reader going back up)."""
    moves = 0
    for before, after in zip(blocks, blocks[1:]):
        if after.y1 > before.y0:
            continue
        overlap = min(before.x1, after.x1) - max(before.x0, after.x0)
        narrower = min(before.x1 - before.x0, after.x1 - after.x0)
        if narrower > 0 and overlap >= COLUMN_OVERLAP * narrower:
            moves += 1
    return moves


def _sorted_by_tags(blocks: list[Block]) -> list[Block]:
    """Stable sort by the tree's order; an untagged block follows the block it came after."""
    keys = []
    previous = -1.0
    for block in blocks:
        key = float(block.tag.order) if block.tag is not None else previous
        keys.append(key)
        previous = key
    positions = sorted(range(len(blocks)), key=lambda i: keys[i])
    return [blocks[i] for i in positions]
