"""Tagged reading order: the author's structure tree orders a page's blocks (option `order`).

    geometry  the blocks stay in the order the page's geometry gives (XY-cut, columns, sidebars last)
    tags      blocks are sorted by the structure tree; running headers stay first, footers last
    auto      the body blocks by the tree when it names their text (TAG_COVERAGE_MIN) and its order
              does not run back up a column more often than the geometry's does
              (MAX_EXTRA_UPWARD_MOVES); else geometry. Sidebars and rotated text stay after the
              body, unless geometry read one of the tree's asides as body (see MOVED_BY_AUTO).

Each block's tag is the element most of its characters belong to (glyph MCID → Tag) and it is
sorted by its first span in the tree's order; a block the tree does not name keeps its place
after the block it followed in the geometric order.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Mapping
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from ..glyph import Glyph
from .model import WORD_TEXT, Block, Word

if TYPE_CHECKING:
    from ..structure import Tag

ORDERS = ("auto", "geometry", "tags")
_MCID = itemgetter(Glyph._fields.index("mcid"))   # Glyph.mcid, read by index: once per glyph of a tagged page

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
# body, where geometry puts them: the tree has them where the source had them (an infobox
# before the article), which is no better for a reader and changes what geometry reads well.
# But when geometry read one of the tree's asides as body, it took the wrong column for the
# sidebar (main text narrowed by a float): then the tree orders the sidebars too, and its asides
# are read after the rest, as geometry reads a sidebar.
MOVED_BY_TAGS = frozenset({"body", "sidebar", "rotated"})
MOVED_BY_AUTO = frozenset({"body"})
MOVED_BY_AUTO_ASIDE_IN_BODY = frozenset({"body", "sidebar"})
ASIDE_ROLES = frozenset({"Aside"})


def block_tag(glyph_runs: list[list[Glyph]], tags: Mapping[int, Tag]) -> tuple[Tag | None, float, tuple[int, int]]:
    """The tag of the element most of a block's glyphs belong to, the share of its glyphs with a
    tag, and its first and last span in the tree's order."""
    spans: Counter[int] = Counter()
    for glyphs in glyph_runs:
        mcids = list(map(_MCID, glyphs))
        if mcids and mcids.count(mcids[0]) == len(mcids):
            spans[mcids[0]] += len(mcids)   # the usual line: one span (compared in C, not counted one by one)
        else:
            spans.update(mcids)   # counted in C: a block has thousands of glyphs, a few spans
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


def tag_words(words: list[Word], glyphs: list[Glyph], tags: Mapping[int, Tag]) -> list[Word]:
    """The words of one line, each with the tag most of the glyphs inside its box carry (Markdown
    builds list items and table cells from them: one line may hold several cells)."""
    named = [tags.get(mcid) for mcid in set(map(_MCID, glyphs))]
    if not any(named):
        return words
    if None not in named and len({tag.element for tag in named}) == 1:   # one element across the line (most lines)
        tag = min(named, key=attrgetter("order"))
        return [word._replace(tag=tag) for word in words]
    # glyph centres sorted along the line's longer axis: each word looks only at those in its span
    across = abs(glyphs[0].dy) > abs(glyphs[0].dx)
    centres = sorted((((g.y + g.end_y) / 2, (g.x + g.end_x) / 2) if across else ((g.x + g.end_x) / 2, (g.y + g.end_y) / 2),
                      g.mcid) for g in glyphs if g.mcid >= 0)
    keys = [c[0][0] for c in centres]
    out = []
    for word in words:
        low, high, side_low, side_high = (word.y0, word.y1, word.x0, word.x1) if across else \
            (word.x0, word.x1, word.y0, word.y1)
        votes: Counter[int] = Counter()
        for (_, side), mcid in centres[bisect_left(keys, low):bisect_right(keys, high)]:
            if side_low <= side <= side_high:
                votes[mcid] += 1
        tag = None
        for mcid, _ in votes.most_common():
            tag = tags.get(mcid)
            if tag is not None:
                break
        out.append(word._replace(tag=tag) if tag is not None else word)
    return out


def order_blocks(blocks: list[Block], order: str) -> tuple[list[Block], bool]:
    """The blocks in the requested order, and whether the structure tree decided it."""
    if order == "geometry" or not any(b.tag is not None for b in blocks):
        return blocks, False
    if order == "tags":
        roles = MOVED_BY_TAGS
    elif any(b.role == "body" and _in_aside(b) for b in blocks):
        roles = MOVED_BY_AUTO_ASIDE_IN_BODY
    else:
        roles = MOVED_BY_AUTO
    places = [i for i, b in enumerate(blocks) if b.role in roles]
    moving = [blocks[i] for i in places]
    by_tags = _sorted_by_tags(moving)
    if order == "auto":
        if interleaved(by_tags) > MAX_INTERLEAVED_SHARE * len(by_tags):
            return blocks, False
        # the tree's asides after the rest, as geometry reads sidebars
        by_tags = [b for b in by_tags if not _in_aside(b)] + [b for b in by_tags if _in_aside(b)]
        if not tags_fit(moving, by_tags):
            return blocks, False
    ordered = list(blocks)
    for i, block in zip(places, by_tags):
        ordered[i] = block
    return ordered, True


def _in_aside(block: Block) -> bool:
    return block.tag is not None and not ASIDE_ROLES.isdisjoint(block.tag.path)


def tags_fit(geometric: list[Block], by_tags: list[Block]) -> bool:
    """Rule `auto`: the tags cover the text and the tree's order does not contradict the geometry
    badly (see the constants; order_blocks checks first that the blocks are the tree's own)."""
    chars = [sum([sum(map(len, map(WORD_TEXT, line.words))) for line in b.lines]) for b in geometric]
    total = sum(chars)
    if not total or sum(n * b.tagged for n, b in zip(chars, geometric)) < TAG_COVERAGE_MIN * total:
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
