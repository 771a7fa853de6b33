"""Tagged reading order: the author's structure tree orders a page's blocks (option `order`).

    geometry  the blocks stay in the order the page's geometry gives (XY-cut, columns, sidebars last)
    tags      blocks are sorted by the structure tree; running headers stay first, footers last
    auto      the body blocks by the tree when it names their text (TAG_COVERAGE_MIN) and its order
              does not run back up a column more often than the geometry's does
              (MAX_EXTRA_UPWARD_MOVES); else geometry. Sidebars and rotated text stay after the body.

Each block's tag is the element most of its characters belong to (glyph MCID → Tag) and it is
sorted by its first span in the tree's order; a block the tree does not name keeps its place
after the block it followed in the geometric order.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from operator import attrgetter

from typing import TYPE_CHECKING

from ..glyph import Glyph
from .model import Block

if TYPE_CHECKING:
    from ..structure import Tag

ORDERS = ("auto", "geometry", "tags")
_MCID = attrgetter("mcid")

# auto: the tags must name at least this share of the page's text (running headers and
# footers aside: producers mark them as artifacts) — a partly tagged page is ordered by geometry.
TAG_COVERAGE_MIN = 0.9

# auto: a reading order may jump back up the page, other than to the top of a column further
# right, only this many more times than the geometric order does: a float or a figure read
# where the tree puts it costs one; a tree in drawing order or upside down costs many.
MAX_EXTRA_UPWARD_MOVES = 1
# a block starting less than this many of its font sizes left of the previous block's right
# edge is not "further right" (gutters are wider; overhanging glyphs and indents are not)
COLUMN_GAP_EM = 0.5

# auto: at most this share of the blocks may interleave with others in the tree's order (a
# block holding spans from before and after another block's): more means the page's blocks
# cut across the tree's elements, and sorting whole blocks by the tree would scramble them.
MAX_INTERLEAVED_SHARE = 0.1

# Blocks the tags may move. Running headers lead and footers close the page whatever the tree
# says (producers mark them as artifacts). `auto` leaves sidebars and rotated text after the
# body, where geometry puts them: the tree has them where the source had them (an aside before
# the article), which is no better for a reader and changes what geometry already reads well.
MOVED_BY_TAGS = frozenset({"body", "sidebar", "rotated"})
MOVED_BY_AUTO = frozenset({"body"})


def block_tag(glyph_runs: list[list[Glyph]], tags: Mapping[int, Tag]) -> tuple[Tag | None, float, tuple[int, int]]:
    """The tag of the element most of a block's glyphs belong to, the share of its glyphs with a
    tag, and its first and last span in the tree's order."""
    spans: Counter[int] = Counter()
    for glyphs in glyph_runs:
        spans.update(map(_MCID, glyphs))   # counted in C: a block has thousands of glyphs, a few spans
    weights: dict[int, int] = {}
    named: dict[int, Tag] = {}
    tagged = 0
    first, last = -1, -1
    for mcid, n in spans.items():
        tag = tags.get(mcid) if mcid >= 0 else None
        if tag is None:
            continue
        tagged += n
        weights[tag.element] = weights.get(tag.element, 0) + n
        if tag.element not in named or tag.order < named[tag.element].order:
            named[tag.element] = tag
        first = tag.order if first < 0 else min(first, tag.order)
        last = max(last, tag.order)
    if not weights:
        return None, 0.0, (-1, -1)
    element = max(weights, key=lambda e: (weights[e], -named[e].order))
    return named[element], tagged / max(1, sum(spans.values())), (first, last)


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
    """Rule `auto`: the tags cover the text, the blocks are the tree's own, and the tree's order
    does not contradict the geometry badly (see the constants)."""
    chars = [sum(len(w.text) for line in b.lines for w in line.words) for b in geometric]
    total = sum(chars)
    if not total or sum(n * b.tagged for n, b in zip(chars, geometric)) < TAG_COVERAGE_MIN * total:
        return False
    if interleaved(by_tags) > MAX_INTERLEAVED_SHARE * len(by_tags):
        return False
    return upward_moves(by_tags) <= upward_moves(geometric) + MAX_EXTRA_UPWARD_MOVES


def interleaved(by_tags: list[Block]) -> int:
    """Blocks whose spans start before an earlier block's spans end: the page's blocks cut across
    the tree's elements (lines joined across two columns), so sorting them cannot give its order."""
    count = 0
    reach = -1
    for block in by_tags:
        first, last = block.tag_orders
        if first < 0:
            continue
        if first < reach:
            count += 1
        reach = max(reach, last)
    return count


def upward_moves(blocks: list[Block]) -> int:
    """Steps back up the page: to a block wholly above that is not wholly to the right (the top of
    the next column is). Reading goes down a column, then up to the next column on the right."""
    moves = 0
    for before, after in zip(blocks, blocks[1:]):
        if after.y1 <= before.y0 and after.x0 < before.x1 - COLUMN_GAP_EM * _size(before):
            moves += 1
    return moves


def _size(block: Block) -> float:
    words = block.lines[0].words if block.lines else []
    return words[0].size if words else 0.0


def _sorted_by_tags(blocks: list[Block]) -> list[Block]:
    """Stable sort by the tree's order; an untagged block follows the block it came after."""
    keys = []
    previous = -1.0
    for block in blocks:
        key = float(block.tag_orders[0]) if block.tag is not None else previous
        keys.append(key)
        previous = key
    positions = sorted(range(len(blocks)), key=lambda i: keys[i])
    return [blocks[i] for i in positions]
