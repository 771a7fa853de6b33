"""The author's structure for the structured outputs (Markdown): a tagged page's words regrouped
by the structure tree's elements, each group a block whose kind the tree's role gives.

Layout's blocks come from geometry: a block may hold two list items (no gap between them), a
table row may be cut into several blocks or one line may hold several cells. Here every word
carrying a tag (layout.tagged.tag_words) joins its element's group instead:

    H1–H6, Title     a heading of that level (Title and H: level 1)
    LI (Lbl, LBody)  one list item per LI; nesting = the L elements above it less one; the Lbl's
                     text is the marker (without one, layout.structure takes a bullet or number
                     opening the item's text, else "•": a bullet drawn as a picture)
    Table/TR/TH/TD   one table: a row per TR, a cell per TH/TD, the tree's order; a row of TH
                     cells is the header row
    anything else    a paragraph (P, Caption, Figure text …), which layout.structure may still
                     find a heading or list item in where the tree never uses those roles

A group stands where its first word stood. Words without a tag (artifacts: running headers,
page numbers), and words named by no block element (straight under a Sect or a Div), keep
their geometric blocks. A grid geometry found stays as it is when the document's tree never
uses Table (it did not tag its tables). A Figure with /Alt becomes a `figure` block (its alt in
`marker`) placed by the tree's order among the groups.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..structure import BLOCK_ROLES, Tag
from .model import Block, Line, Word, words_box

HEADING_ROLES = {"H1": 1, "H2": 2, "H3": 3, "H4": 4, "H5": 5, "H6": 6, "H": 1, "Title": 1}
LIST_ROLES = frozenset({"L", "LI", "Lbl", "LBody"})
CELL_ROLES = frozenset({"TH", "TD"})
DRAWN_BULLET = "•"   # the marker of a tagged list item whose Lbl has no text (a bullet drawn as a path)


@dataclass
class _Group:
    kind: str                     # paragraph | heading | list_item | table
    tag: Tag
    lines: dict[int, list[Word]] = field(default_factory=dict)   # line number on the page → its words here
    marker: list[Word] = field(default_factory=list)             # a list item's Lbl words
    marker_line: int = 0                                         # … and the line they stand on
    cells: dict[int, dict[int, list[Word]]] = field(default_factory=dict)   # table: row → cell → words
    header_rows: set[int] = field(default_factory=set)             # table: its TH cells
    first_order: int = 1 << 60


def tree_roles(blocks: list[Block]) -> set[str]:
    """The standard roles on the paths of the blocks' tagged words."""
    roles: set[str] = set()
    paths: set[tuple[str, ...]] = set()
    for block in blocks:
        for line in block.lines:
            for word in line.words:
                if word.tag is not None and word.tag.path not in paths:
                    paths.add(word.tag.path)
                    roles.update(word.tag.path)
    return roles


def has_tagged_words(blocks: list[Block]) -> bool:
    """Does the tree name a block for any word of the page (else there is nothing to regroup)?"""
    return any(_named(word) for block in blocks for line in block.lines for word in line.words)


def regroup_by_tags(blocks: list[Block], figures: list[Tag], tree_tables: bool = True) -> list[Block]:
    """The page's blocks with the tagged words regrouped by their elements (see the module doc).
    `tree_tables`: the document's tree uses Table; when it does not, the grids geometry found stay."""
    groups: dict[tuple, _Group] = {}
    out: list[Block | tuple] = []   # a geometric block, or the key of a group where it first appears
    line_boxes: dict[int, Line] = {}
    line_number = 0
    for block in blocks:
        if block.table >= 0 and block.cells and not tree_tables:
            out.append(block)   # a grid geometry found in a document whose tree never tags tables: kept
            line_number += len(block.lines)
            continue
        untagged: list[Line] = []
        whole = True   # no word of the block joined a group
        for line in block.lines:
            line_number += 1
            line_boxes[line_number] = line
            rest = [w for w in line.words if not _named(w)]
            whole = whole and len(rest) == len(line.words)
            if rest:
                untagged.append(replace(line, words=rest) if len(rest) < len(line.words) else line)
            for word in line.words:
                if not _named(word):
                    continue
                key, kind = _group_key(word.tag)
                group = groups.get(key)
                if group is None:
                    group = groups[key] = _Group(kind, word.tag)
                    out.append(key)
                group.first_order = min(group.first_order, word.tag.order)
                _add(group, word, line_number)
        if whole:
            out.append(block)
        elif untagged:   # what is left of it: a paragraph (its table cells, if any, are gone with the rest)
            out.append(replace(block, lines=untagged, cells=[], table=-1))
    next_table = 1 + max((b.table for b in blocks), default=0)
    made: list[tuple[int, Block]] = []   # (tree order or -1, block)
    for item in out:
        if isinstance(item, Block):
            made.append((-1, item))
            continue
        group = groups[item]
        if group.kind == "table":
            rows = _table_rows(group, next_table)
            next_table += 1
            made.extend((group.first_order, row) for row in rows)
        else:
            made.append((group.first_order, _group_block(group, line_boxes)))
    return _with_figures(made, figures)


def _named(word: Word) -> bool:
    """Does the tree name the block this word belongs to? (Text straight under a Sect, Div or the
    Document is not a block of the author's: a tree that tags a page as one Div leaves it to geometry.)"""
    return word.tag is not None and word.tag.role in BLOCK_ROLES


def _group_key(tag: Tag) -> tuple[tuple, str]:
    path = tag.path
    if any(role in CELL_ROLES for role in path) and "Table" in path:
        table = _last(path, "Table")
        return ("table", _element(tag, table)), "table"
    if "LI" in path:
        return ("item", _element(tag, _last(path, "LI"))), "list_item"
    if tag.role in HEADING_ROLES:
        return ("element", tag.element), "heading"
    return ("element", tag.element), "paragraph"


def _last(path: tuple[str, ...], role: str) -> int:
    return len(path) - 1 - path[::-1].index(role)


def _element(tag: Tag, index: int) -> int:
    """The number of the element at `index` on the tag's path (the named element's when unknown)."""
    return tag.lineage[index] if index < len(tag.lineage) else tag.element


def _add(group: _Group, word: Word, line_number: int) -> None:
    tag = word.tag
    if group.kind == "table":
        path = tag.path
        row = _element(tag, _last(path, "TR")) if "TR" in path else 0
        cell_index = max(i for i, role in enumerate(path) if role in CELL_ROLES)
        group.cells.setdefault(row, {}).setdefault(_element(tag, cell_index), []).append(word)
        if path[cell_index] == "TH":
            group.header_rows.add(_element(tag, cell_index))
        return
    if group.kind == "list_item" and tag.role == "Lbl":
        group.marker.append(word)
        group.marker_line = group.marker_line or line_number
        return
    group.lines.setdefault(line_number, []).append(word)


def _group_block(group: _Group, line_boxes: dict[int, Line]) -> Block:
    lines = [_line(line_boxes[number], words) for number, words in group.lines.items()]
    if not lines:   # a list item that is only its label
        lines = [_line(line_boxes[group.marker_line], group.marker)] if group.marker else []
        group.marker = []
    x0 = min((line.x0 for line in lines), default=0.0)
    y0 = min((line.y0 for line in lines), default=0.0)
    x1 = max((line.x1 for line in lines), default=0.0)
    y1 = max((line.y1 for line in lines), default=0.0)
    block = Block(lines=lines, x0=x0, y0=y0, x1=x1, y1=y1, tag=group.tag, tagged=1.0,
                  tag_orders=(group.first_order, group.first_order))
    if group.kind == "heading":
        return replace(block, kind="heading", level=HEADING_ROLES[group.tag.role])
    if group.kind == "list_item":
        path = group.tag.path
        depth = path[:_last(path, "LI")].count("L")
        marker = "".join(w.text for w in group.marker)   # none: layout.structure looks for one in the text
        return replace(block, kind="list_item", level=max(0, depth - 1), marker=marker)
    return block


def _line(box: Line, words: list[Word]) -> Line:
    x0, y0, x1, y1 = words_box(words)
    return replace(box, words=words, x0=x0, y0=y0, x1=x1, y1=y1)


def _table_rows(group: _Group, table: int) -> list[Block]:
    rows = []
    for cells in sorted(group.cells.values(), key=lambda row: min(_first_order(cell) for cell in row.values())):
        cells = dict(sorted(cells.items(), key=lambda item: _first_order(item[1])))
        words = [w for cell in cells.values() for w in cell]
        line = Line.of_words(words)
        header = all(key in group.header_rows for key in cells)
        kind = "table_header" if header and not rows else "table_row"
        rows.append(Block(lines=[line], x0=line.x0, y0=line.y0, x1=line.x1, y1=line.y1, tag=group.tag, tagged=1.0,
                          tag_orders=(group.first_order, group.first_order), table=table,
                          cells=list(cells.values()), kind=kind))
    return rows


def _first_order(words: list[Word]) -> int:
    return min(w.tag.order for w in words)


def _with_figures(made: list[tuple[int, Block]], figures: list[Tag]) -> list[Block]:
    """The blocks with a `figure` block for each figure with alt text, before the first group
    that comes after it in the tree's order (at the end when none does)."""
    blocks = [block for _, block in made]
    for figure in sorted(figures, key=lambda tag: tag.order, reverse=True):
        at = next((i for i, (order, _) in enumerate(made) if order >= figure.order), len(made))
        blocks.insert(at, Block(lines=[], x0=0.0, y0=0.0, x1=0.0, y1=0.0, tag=figure, kind="figure",
                                marker=figure.alt))
    return blocks
