"""What the page's drawing says about its structure: rules under table rows, bullets drawn as shapes.

The content interpreter hands over the page's rules and small marks (glyphline.content.paths.
PageDrawing) for the structured outputs; layout.structure asks here, and every rule is relative
to the size of the text it stands by.

Drawn bullets. Browsers draw list discs, circles and squares as paths (and list-style images as
small images): the text has no marker. A line has a drawn bullet when a mark between
BULLET_MIN_EM and BULLET_MAX_EM across stands left of its first word, at most BULLET_GAP_EM
away, its centre within the line's height, and the mark belongs to a list: a like mark (size
within BULLET_LIKE_SHARE) stands before another line at the same x (BULLET_ALIGN_EM), or the
line lies between two such, further in (a lone sub-item). A figure's points beside their labels
stand alone. A block whose lines carry such bullets is split before each of them (layout sees
one paragraph where the bullets sit outside the text).

Header rules. A table's first row is its header when a horizontal rule (at most RULE_MAX_EM
thick, spanning RULE_MIN_SPAN of the table's width) lies between it and the second row, and
every rule between later rows is lighter (thinner, or a single line under a double one) or
absent. A table ruled on every row alike has no header by its rules, nor one whose rows layout
joined from several ruled tables.

Ruled extent. Layout finds tables by their columns, and may take a caption, a heading or a list
set on the same columns for more rows. When a table is ruled from its top down (a border above
its first row, within RULE_REACH_EM) on every row boundary for at least two rows, and then no
more, the rows below its last rule are not part of it. A table without a top border keeps its
rows (rules only between the rows leave the last one without a rule under it).

Column rules. Layout splits a row into cells by the gaps between its words, which a right-aligned
number under a left-aligned heading can mislead. When vertical rules cross every row of a table,
its cells are the spans between them: each word goes to the column its centre lies in.

Ruled grids. A table whose columns no gap runs through (a header centred in its cells, a short
table of two rows) is not found by its columns, but its rules draw it: horizontal and vertical
rules that meet (within EDGE_SAME_X_EM ems) make a grid, which is a table when it has at least
two rows (three horizontal lines) and two columns (a vertical rule inside its width), every
line of text in it lies wholly inside, and no cell holds more than GRID_CELL_MAX_LINES lines.
Its rows are the bands between the horizontal rules that hold text; each word goes to the
column (between the vertical rules crossing its row) its centre lies in.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .model import Block, Line

# A drawn bullet is this many ems across at most (Chromium's disc is 0.3 em; a larger mark is an icon or a figure).
BULLET_MAX_EM = 0.8
# ... and at least this many (a smaller dot is a period, a leader dot or a plot's point drawn as a shape).
BULLET_MIN_EM = 0.2
# Bullets of one list level stand at one x within this many ems (they are drawn at the level's indent).
BULLET_ALIGN_EM = 0.25
# ... and are drawn alike: sizes within this share of each other (a plot's points come in many sizes).
BULLET_LIKE_SHARE = 0.2
# More bullet candidates than this on one page are a chart's points beside its labels, not a list.
BULLET_MAX_CANDIDATES = 400
# Its right edge stands at most this many ems left of the line's first word (Chromium: about 0.5 em).
BULLET_GAP_EM = 2.0
# A rule is at most this many ems thick (a cell's background band is a whole line high).
RULE_MAX_EM = 0.3
# Its rules together span at least this share of the table's width (one cell's underline is emphasis).
RULE_MIN_SPAN = 0.6
# Rules at heights closer than this many ems are one line of the table (its cells' borders meet there).
RULE_SAME_Y_EM = 0.05
# A table's top or bottom border stands at most this many ems beyond its first or last row's text (cell padding).
RULE_REACH_EM = 1.0
# Vertical rules closer than this many ems are one column edge (the two sides of a double line, rounding).
EDGE_SAME_X_EM = 0.3
# A ruled grid's cell holds at most this many lines (a boxed column of prose is no table a pipe table holds).
GRID_CELL_MAX_LINES = 6
# Grids are looked for among at most this many pairs of merged rules (a map or a chart draws more: none is looked for).
GRID_MAX_RULE_PAIRS = 250_000
# A rule merges with the last few lines found at its height only (a dashed line; keeps merging linear).
GRID_MERGE_LOOKBACK = 8


def line_bullet(line: Line, marks: list):
    """The drawn mark that stands before this line as its bullet candidate (see the module doc), or None."""
    if not line.words or line.dy != 0.0:
        return None
    em = line.words[0].size
    if em <= 0.0:
        return None
    for mark in marks:
        size = max(mark.x1 - mark.x0, mark.y1 - mark.y0)
        if not BULLET_MIN_EM * em <= size <= BULLET_MAX_EM * em:
            continue
        gap = line.x0 - mark.x1
        if not 0.0 <= gap <= BULLET_GAP_EM * em:
            continue
        if line.y0 <= (mark.y0 + mark.y1) * 0.5 <= line.y1:
            return mark
    return None


def split_at_drawn_bullets(blocks: list[Block], drawing) -> tuple[list[Block], list[bool]]:
    """The blocks with each untagged paragraph cut before every line that has a drawn bullet,
    and for each block whether it opens with one."""
    if drawing is None or not drawing.marks:
        return blocks, [False] * len(blocks)
    candidates: list[tuple[int, int, object, float]] = []   # (block, line, mark, em)
    for b, block in enumerate(blocks):
        if block.kind != "paragraph" or block.table >= 0 or block.role == "rotated" or not block.lines:
            continue
        marks = [m for m in drawing.marks if m.y1 >= block.y0 and m.y0 <= block.y1 and m.x1 <= block.x1]
        for i, line in enumerate(block.lines):
            mark = line_bullet(line, marks)
            if mark is not None:
                candidates.append((b, i, mark, line.words[0].size))
    kept = _listed(candidates)
    out: list[Block] = []
    bulleted: list[bool] = []
    for b, block in enumerate(blocks):
        starts = [i for i in range(len(block.lines)) if (b, i) in kept]
        if not starts:
            out.append(block)
            bulleted.append(False)
            continue
        cuts = ([0] if starts[0] != 0 else []) + starts + [len(block.lines)]
        for begin, end in zip(cuts, cuts[1:]):
            out.append(_part(block, block.lines[begin:end]) if (begin, end) != (0, len(block.lines)) else block)
            bulleted.append(begin in starts)
    return out, bulleted


def _listed(candidates: list) -> set[tuple[int, int]]:
    """The candidates that are a list's bullets: those with a like mark (its size within
    BULLET_LIKE_SHARE) at the same x (within BULLET_ALIGN_EM) on another line, and those
    nested between two such (a lone sub-item); a lone dot beside a label is a plotted point."""
    if len(candidates) > BULLET_MAX_CANDIDATES:
        return set()   # a page of thousands of dotted lines is a chart, not a list (and keeps this quadratic check small)
    sizes = [max(m.x1 - m.x0, m.y1 - m.y0) for _, _, m, _ in candidates]
    levels: list[tuple[float, float, float]] = []   # (x, top, bottom) of each pair of aligned bullets
    kept: set[tuple[int, int]] = set()
    for k, (b, i, mark, em) in enumerate(candidates):
        for j, (b2, i2, other, _) in enumerate(candidates):
            if j != k and abs(other.x0 - mark.x0) <= BULLET_ALIGN_EM * em \
                    and abs(sizes[j] - sizes[k]) <= BULLET_LIKE_SHARE * max(sizes[j], sizes[k]) \
                    and (other.y1 <= mark.y0 or other.y0 >= mark.y1):
                kept.add((b, i))
                levels.append((mark.x0, min(mark.y0, other.y0), max(mark.y1, other.y1)))
                break
    for b, i, mark, em in candidates:
        if (b, i) not in kept and any(x < mark.x0 and top < mark.y0 and mark.y1 < bottom for x, top, bottom in levels):
            kept.add((b, i))
    return kept


def _part(block: Block, lines: list[Line]) -> Block:
    return replace(block, lines=lines, x0=min(line.x0 for line in lines), y0=min(line.y0 for line in lines),
                   x1=max(line.x1 for line in lines), y1=max(line.y1 for line in lines))


def ruled_header(rows: list[Block], drawing) -> bool:
    """Is the first of a table's rows (top to bottom) its header by the rules drawn between them?"""
    weights = _boundary_weights(rows, drawing)
    if weights is None:
        return False
    gaps = weights[1:-1]
    return gaps[0] > 0.0 and all(weight < gaps[0] for weight in gaps[1:])


def ruled_end(rows: list[Block], drawing) -> int:
    """How many of a table's rows (top to bottom) lie within its rules (see the module doc):
    all of them unless the rules stop above the last."""
    weights = _boundary_weights(rows, drawing)
    if weights is None:
        return len(rows)
    ruled = [i for i, weight in enumerate(weights) if weight > 0.0]   # boundary i lies above row i
    if not ruled or ruled[0] != 0 or ruled[-1] < 2 or ruled[-1] + 1 != len(ruled):
        return len(rows)   # not boxed and ruled from the top down on every boundary
    return ruled[-1]


def cells_by_column_rules(rows: list[Block], drawing) -> list[list[list]] | None:
    """Each row's words regrouped into the columns the vertical rules draw (see the module doc);
    None when the rules do not cross every row."""
    if drawing is None or not rows or not drawing.rulings:
        return None
    sizes = sorted(w.size for row in rows for cell in row.cells for w in cell)
    if not sizes or sizes[len(sizes) // 2] <= 0.0:
        return None
    em = sizes[len(sizes) // 2]
    left = min(row.x0 for row in rows) - RULE_REACH_EM * em
    right = max(row.x1 for row in rows) + RULE_REACH_EM * em
    verticals = [r for r in drawing.rulings if not r.horizontal and r.width <= RULE_MAX_EM * em
                 and left <= r.x0 <= right]
    edges: list[float] = []
    for row in rows:
        middle = (row.y0 + row.y1) * 0.5
        crossing = [r.x0 for r in verticals if r.y0 <= middle <= r.y1]
        if not any(row.x0 < x < row.x1 for x in crossing):
            return None                    # a row no rule divides: the rules do not make this table's columns
        edges.extend(crossing)
    columns = []                           # one x per edge, the rules within EDGE_SAME_X_EM ems of it merged
    for x in sorted(edges):
        if not columns or x - columns[-1] > EDGE_SAME_X_EM * em:
            columns.append(x)
    out = []
    for row in rows:
        cells: list[list] = [[] for _ in range(len(columns) + 1)]
        for cell in row.cells:
            for word in cell:
                centre = (word.x0 + word.x1) * 0.5
                cells[sum(1 for x in columns if x < centre)].append(word)
        out.append(cells)
    return out


def _boundary_weights(rows: list[Block], drawing) -> list[float] | None:
    """How heavily each boundary of the rows is ruled: above the first, between each two, below
    the last; None when there is nothing to weigh."""
    if drawing is None or len(rows) < 2 or not drawing.rulings:
        return None
    sizes = sorted(w.size for row in rows for cell in row.cells for w in cell)
    if not sizes or sizes[len(sizes) // 2] <= 0.0:
        return None
    em = sizes[len(sizes) // 2]
    left = min(row.x0 for row in rows)
    right = max(row.x1 for row in rows)
    rules = [r for r in drawing.rulings if r.horizontal and r.width <= RULE_MAX_EM * em
             and r.x1 > left and r.x0 < right]
    middles = [(row.y0 + row.y1) * 0.5 for row in rows]   # a rule between two rows' middles separates them
    bounds = [rows[0].y0 - RULE_REACH_EM * em] + middles + [rows[-1].y1 + RULE_REACH_EM * em]
    return [_gap_weight(rules, top, bottom, left, right, em) for top, bottom in zip(bounds, bounds[1:])]


def _gap_weight(rules: list, top: float, bottom: float, left: float, right: float, em: float) -> float:
    """How heavily the band between two heights is ruled: the summed thickness of its distinct
    rule lines (0 when none spans the table)."""
    lines: list[list] = []                 # rules grouped by height: [y, thickness, covered spans]
    for rule in rules:
        if not top < rule.y0 < bottom:
            continue
        for line in lines:
            if abs(line[0] - rule.y0) <= RULE_SAME_Y_EM * em:
                line[1] = max(line[1], rule.width)
                line[2].append((max(rule.x0, left), min(rule.x1, right)))
                break
        else:
            lines.append([rule.y0, rule.width, [(max(rule.x0, left), min(rule.x1, right))]])
    weight = 0.0
    for _, thickness, spans in lines:
        if _covered(spans) >= RULE_MIN_SPAN * (right - left):
            weight += max(thickness, em * 0.01)   # a zero-width line (the device's thinnest) still counts
    return weight


def _covered(spans: list[tuple[float, float]]) -> float:
    """The length of the union of the spans."""
    total = 0.0
    end = -float("inf")
    for x0, x1 in sorted(spans):
        if x1 <= end:
            continue
        total += x1 - max(x0, end)
        end = x1
    return total


@dataclass(frozen=True, slots=True)
class RuledGrid:
    """A table drawn as a grid of rules (see the module doc), in viewer space."""

    x0: float
    y0: float
    x1: float
    y1: float
    rows: tuple[float, ...]                         # the heights of its horizontal rules, top to bottom
    columns: tuple[tuple[float, float, float], ...]  # its inner vertical rules: (x, top, bottom)

    def edges_across(self, y: float, em: float) -> list[float]:
        """The x of the inner vertical rules that cross height y, left to right, merged within EDGE_SAME_X_EM."""
        edges: list[float] = []
        for x, top, bottom in self.columns:
            if top <= y <= bottom and (not edges or x - edges[-1] > EDGE_SAME_X_EM * em):
                edges.append(x)
        return edges


def ruled_grids(drawing, em: float) -> list[RuledGrid]:
    """The grids the page's rules draw (see the module doc), for text of size em."""
    if drawing is None or em <= 0.0 or not drawing.rulings:
        return []
    near = EDGE_SAME_X_EM * em
    thin = RULE_MAX_EM * em
    horizontals = _merged([(r.y0, r.x0, r.x1) for r in drawing.rulings if r.horizontal and r.width <= thin], near)
    verticals = _merged([(r.x0, r.y0, r.y1) for r in drawing.rulings if not r.horizontal and r.width <= thin], near)
    if len(horizontals) < 3 or not verticals or len(horizontals) * len(verticals) > GRID_MAX_RULE_PAIRS:
        return []
    parent = list(range(len(horizontals) + len(verticals)))   # union-find over the rules that meet

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for h, (y, left, right) in enumerate(horizontals):
        for v, (x, top, bottom) in enumerate(verticals):
            if left - near <= x <= right + near and top - near <= y <= bottom + near:
                parent[root(len(horizontals) + v)] = root(h)
    groups: dict[int, tuple[list, list]] = {}
    for h, line in enumerate(horizontals):
        groups.setdefault(root(h), ([], []))[0].append(line)
    for v, line in enumerate(verticals):
        groups.setdefault(root(len(horizontals) + v), ([], []))[1].append(line)
    grids = []
    for rows, columns in groups.values():
        if len(rows) < 3 or not columns:
            continue
        x0 = min(min(left for _, left, _ in rows), min(x for x, _, _ in columns))
        x1 = max(max(right for _, _, right in rows), max(x for x, _, _ in columns))
        y0 = min(min(y for y, _, _ in rows), min(top for _, top, _ in columns))
        y1 = max(max(y for y, _, _ in rows), max(bottom for _, _, bottom in columns))
        inner = tuple(sorted(c for c in columns if x0 + near < c[0] < x1 - near))
        if inner:
            grids.append(RuledGrid(x0, y0, x1, y1, tuple(sorted(y for y, _, _ in rows)), inner))
    return grids


def _merged(lines: list[tuple[float, float, float]], near: float) -> list[tuple[float, float, float]]:
    """Rules along one axis as (position, start, end), those within `near` of each other across
    and meeting along it merged into one line (the two sides of a double border, a border drawn
    cell by cell)."""
    out: list[list[float]] = []
    for position, start, end in sorted(lines):
        for line in reversed(out[-GRID_MERGE_LOOKBACK:]):
            if position - line[0] <= near and start <= line[2] + near and end >= line[1] - near:
                line[1], line[2] = min(line[1], start), max(line[2], end)
                break
        else:
            out.append([position, start, end])
    return [(position, start, end) for position, start, end in out]
