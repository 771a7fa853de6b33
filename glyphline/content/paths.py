"""Ruling lines and drawn marks from a page's paths (ISO 32000-1 §8.5), for the structured outputs.

Only when the caller asks (PageEnv.drawing is a PageDrawing): the interpreter then lexes the
path operators too and hands them to a PathRecorder, whose handlers sit in its operator table
beside the text ones. Plain text never builds a recorder, so it pays nothing.

A path is kept in viewer space as it is built (the CTM of each point), and judged when it is
painted, one subpath at a time:
- stroked straight segments that run along an axis → Ruling (width: the line width in viewer space);
- filled axis-aligned rectangles much longer than thick → Ruling (Chromium draws borders so);
- closed filled or stroked shapes about as wide as high (discs, squares, circles) and images
  painted about square → DrawnMark, with their bounding box.
What a rule or a mark means (a rule under a table's header row, a bullet before a list item) is
layout's decision (glyphline.layout.structure); nothing here knows the text. Clipping paths
(W n) paint nothing.

Colours (§8.6): the stroking and non-stroking colours follow g/G, rg/RG, k/K, cs/CS and
sc/scn/SC/SCN (and q/Q), here only, so plain text pays nothing. Paint in white (every RGB
component at least WHITE_MIN) is taken as invisible on the page and kept neither as a rule nor
as a mark (a white rule over a dark band is lost with it: rare, and a rule there is a cell's
edge, not a header's). A mark keeps its colour as RGB, None where it is not known (a pattern, an
indexed or separation colour, an image).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..pdfobjects import resolve

# A segment runs along an axis when it drifts across by at most this share of its length (rounding in producers).
AXIS_TOLERANCE = 0.01
# A filled rectangle at least this many times longer than thick is a rule (Chromium fills its table borders).
RULE_MIN_ASPECT = 4.0
# A closed shape whose sides differ by at most this ratio may be a mark (bullet discs, squares, small images).
MARK_MAX_ASPECT = 2.0
# Paint whose every RGB component is at least this is white: invisible on the page (producers round 255/255 and 254/255).
WHITE_MIN = 0.99

BLACK = (0.0, 0.0, 0.0)
# colour spaces by their components: gray, RGB, CMYK (§8.6.4); any other space's colour is not known here
_DEVICE_SPACES = {"DeviceGray": 1, "CalGray": 1, "G": 1, "DeviceRGB": 3, "CalRGB": 3, "RGB": 3,
                  "DeviceCMYK": 4, "CMYK": 4}


@dataclass(frozen=True, slots=True)
class Ruling:
    """An axis-aligned line painted on the page: its centre line in viewer space (x0 ≤ x1, y0 ≤ y1)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float         # thickness across the line, in viewer space (0: the thinnest line a device draws)
    horizontal: bool


@dataclass(frozen=True, slots=True)
class DrawnMark:
    """A small closed shape or image, as its bounding box in viewer space."""

    x0: float
    y0: float
    x1: float
    y1: float
    kind: str            # "fill" | "stroke" | "image"
    colour: tuple[float, float, float] | None = None   # RGB 0–1 it is painted in; None when not known (an image)


@dataclass(slots=True)
class PageDrawing:
    """What the page's paths drew that layout can read: rules and marks, in painting order."""

    limit: int = 0                   # rulings + marks kept at most (Limits.drawn_items_per_page)
    rulings: list[Ruling] = field(default_factory=list)
    marks: list[DrawnMark] = field(default_factory=list)
    truncated: bool = False          # the page drew more than `limit`: the rest was not kept

    def room(self) -> bool:
        if len(self.rulings) + len(self.marks) < self.limit:
            return True
        self.truncated = True
        return False


class PathRecorder:
    """The path operators' state machine for one interpreter run (see the module doc)."""

    __slots__ = ("machine", "drawing", "visible_out", "point_limit", "subpaths", "points", "closed",
                 "path_points", "line_width", "fill", "stroke", "fill_components", "stroke_components", "saved")

    def __init__(self, machine, drawing: PageDrawing, point_limit: int):
        self.machine = machine                  # the interpreter: its CTM, save stack and output list
        self.drawing = drawing
        self.visible_out = machine.out          # a hidden layer swaps the machine's list: nothing shows there
        self.point_limit = point_limit          # points one path keeps (Limits.path_points)
        self.subpaths: list[tuple[list, bool]] = []   # finished subpaths: (points, closed)
        self.points: list | None = None         # the open subpath: (x, y, straight from the previous point)
        self.closed = False
        self.path_points = 0                    # points of the path being built (all its subpaths)
        self.line_width = 1.0                   # user space, as set by w (saved by q)
        self.fill: tuple | None = BLACK         # the non-stroking and stroking colours as RGB (None: not known)
        self.stroke: tuple | None = BLACK
        self.fill_components = 1                # components of their colour spaces' colours (0: not a device space)
        self.stroke_components = 1
        self.saved: list[tuple] = []            # the state above, saved by q

    def handlers(self) -> dict:
        """operator → (method, arity), merged into the interpreter's table; q and Q run the
        interpreter's own first. The path operators never warn: a bad one costs only the drawing."""
        table = {
            b"m": (self.op_move, 2), b"l": (self.op_line, 2), b"c": (self.op_curve, 6),
            b"v": (self.op_curve_short, 4), b"y": (self.op_curve_short, 4), b"h": (self.op_close, 0),
            b"re": (self.op_rectangle, 4), b"w": (self.op_line_width, 1),
            b"S": (self.op_stroke, 0), b"s": (self.op_close_stroke, 0),
            b"f": (self.op_fill, 0), b"F": (self.op_fill, 0), b"f*": (self.op_fill, 0),
            b"B": (self.op_fill_stroke, 0), b"B*": (self.op_fill_stroke, 0),
            b"b": (self.op_close_fill_stroke, 0), b"b*": (self.op_close_fill_stroke, 0),
            b"n": (self.op_end_path, 0),      # W and W* change nothing here: a clipping path ends with n
            b"g": (self.op_fill_device, 1), b"G": (self.op_stroke_device, 1),
            b"rg": (self.op_fill_device, 3), b"RG": (self.op_stroke_device, 3),
            b"k": (self.op_fill_device, 4), b"K": (self.op_stroke_device, 4),
            b"cs": (self.op_fill_space, 1), b"CS": (self.op_stroke_space, 1),
            b"sc": (self.op_fill_colour, -1), b"scn": (self.op_fill_colour, -1),   # -1: as many operands as given
            b"SC": (self.op_stroke_colour, -1), b"SCN": (self.op_stroke_colour, -1),
        }
        table = {operator: (_quiet(method), arity) for operator, (method, arity) in table.items()}
        table.update({b"q": (self.op_save, 0), b"Q": (self.op_restore, 0)})
        return table

    # ---- graphics state: the line width and colours follow q/Q as the interpreter's own state does

    def graphics_state(self) -> tuple:
        return self.line_width, self.fill, self.stroke, self.fill_components, self.stroke_components

    def set_graphics_state(self, state: tuple, save_depth: int) -> None:
        """The state as it was before a form ran, its unmatched saves dropped."""
        self.line_width, self.fill, self.stroke, self.fill_components, self.stroke_components = state
        del self.saved[save_depth:]

    def op_save(self, operands) -> None:
        depth = len(self.machine.saved)
        self.machine.op_save(operands)
        if len(self.machine.saved) > depth:
            self.saved.append(self.graphics_state())

    def op_restore(self, operands) -> None:
        depth = len(self.machine.saved)
        self.machine.op_restore(operands)
        if len(self.machine.saved) < depth and self.saved:
            self.set_graphics_state(self.saved.pop(), len(self.saved))

    def op_line_width(self, operands) -> None:
        width = operands[0] + 0.0
        if math.isfinite(width):
            self.line_width = abs(width)

    # ---- colours (§8.6.8): as RGB, enough to tell white paint

    def op_fill_device(self, operands) -> None:
        """g, rg, k: the device space of as many components as operands, and its colour."""
        self.fill, self.fill_components = _rgb(operands), len(operands)

    def op_stroke_device(self, operands) -> None:
        self.stroke, self.stroke_components = _rgb(operands), len(operands)

    def op_fill_space(self, operands) -> None:
        self.fill_components = self.space_components(operands[0])
        self.fill = BLACK if self.fill_components else None   # a device space starts at black (§8.6.8)

    def op_stroke_space(self, operands) -> None:
        self.stroke_components = self.space_components(operands[0])
        self.stroke = BLACK if self.stroke_components else None

    def op_fill_colour(self, operands) -> None:
        self.fill = _rgb(operands) if len(operands) == self.fill_components else None

    def op_stroke_colour(self, operands) -> None:
        self.stroke = _rgb(operands) if len(operands) == self.stroke_components else None

    def space_components(self, name) -> int:
        """How many components a colour space's colours have when it is a device-like space
        (gray, RGB, CMYK, or ICC-based with 1, 3 or 4); 0 for any other (pattern, indexed, separation)."""
        if not isinstance(name, str):
            return 0
        if name in _DEVICE_SPACES:
            return _DEVICE_SPACES[name]
        space = self.machine.lookup("/ColorSpace", name)
        if isinstance(space, list) and len(space) == 2 and space[0] == "/ICCBased":
            stream = resolve(space[1])
            count = stream.get("/N") if hasattr(stream, "get") else None
            return count if count in (1, 3, 4) else 0
        if isinstance(space, list) and space and isinstance(space[0], str):
            return _DEVICE_SPACES.get(space[0].lstrip("/"), 0)   # [/CalRGB <<…>>]
        return _DEVICE_SPACES.get(space.lstrip("/"), 0) if isinstance(space, str) else 0

    # ---- construction (§8.5.2): points go to viewer space as they come

    def point(self, x, y) -> tuple[float, float]:
        a, b, c, d, e, f = self.machine.ctm
        x, y = x + 0.0, y + 0.0
        return x * a + y * c + e, x * b + y * d + f

    def op_move(self, operands) -> None:
        self.end_subpath()
        x, y = self.point(*operands)
        self.points = [(x, y, False)]
        self.closed = False
        self.path_points += 1

    def add(self, x: float, y: float, straight: bool) -> None:
        if self.points is None or self.closed:    # no current point, or a closed subpath: start from its start
            start = self.points[0] if self.points else (x, y, False)
            self.end_subpath()
            self.points = [(start[0], start[1], False)]
            self.closed = False
        if self.path_points < self.point_limit:   # a hostile path stops growing; what it drew so far counts
            self.points.append((x, y, straight))
            self.path_points += 1

    def op_line(self, operands) -> None:
        x, y = self.point(*operands)
        self.add(x, y, True)

    def op_curve(self, operands) -> None:
        # a Bézier curve lies inside its control points' hull: their box bounds it
        for i in (0, 2, 4):
            x, y = self.point(operands[i], operands[i + 1])
            self.add(x, y, False)

    def op_curve_short(self, operands) -> None:
        for i in (0, 2):
            x, y = self.point(operands[i], operands[i + 1])
            self.add(x, y, False)

    def op_close(self, _operands) -> None:
        if self.points:
            self.closed = True

    def op_rectangle(self, operands) -> None:
        x, y, w, h = (v + 0.0 for v in operands)
        self.end_subpath()
        corners = [self.point(x, y), self.point(x + w, y), self.point(x + w, y + h), self.point(x, y + h)]
        self.points = [(corners[0][0], corners[0][1], False)] + [(px, py, True) for px, py in corners[1:]]
        self.closed = True
        self.path_points += 4

    def end_subpath(self) -> None:
        if self.points and self.path_points <= self.point_limit:
            self.subpaths.append((self.points, self.closed))
        self.points = None
        self.closed = False

    def clear(self) -> None:
        self.path_points = 0
        self.subpaths = []
        self.points = None
        self.closed = False

    # ---- painting (§8.5.3): the even-odd rule and the winding rule bound the same box

    def op_stroke(self, _operands) -> None:
        self.paint(fill=False, stroke=True, close=False)

    def op_close_stroke(self, _operands) -> None:
        self.paint(fill=False, stroke=True, close=True)

    def op_fill(self, _operands) -> None:
        self.paint(fill=True, stroke=False, close=True)

    def op_fill_stroke(self, _operands) -> None:
        self.paint(fill=True, stroke=True, close=False)

    def op_close_fill_stroke(self, _operands) -> None:
        self.paint(fill=True, stroke=True, close=True)

    def op_end_path(self, _operands) -> None:
        self.clear()

    def paint(self, fill: bool, stroke: bool, close: bool) -> None:
        if close and self.points:
            self.closed = True
        self.end_subpath()
        subpaths = self.subpaths
        self.clear()
        if self.machine.out is not self.visible_out:
            return                              # in an optional content layer hidden when the document opens
        fill = fill and not _white(self.fill)      # white paint is invisible on the page
        stroke = stroke and not _white(self.stroke)
        drawing = self.drawing
        a, b, c, d = self.machine.ctm[:4]
        width = self.line_width * math.sqrt(abs(a * d - b * c))
        for points, closed in subpaths:
            if len(points) < 2 or not drawing.room():
                continue
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
                continue
            curved = not all(p[2] for p in points[1:])
            if fill:
                if not curved and _is_box(points) and self.filled_box(x0, y0, x1, y1):
                    continue                    # a band or square; a larger box's stroked sides are still rules
                if _mark_shaped(x0, y0, x1, y1):   # a disc, a diamond, a triangle
                    drawing.marks.append(DrawnMark(x0, y0, x1, y1, "fill", self.fill))
                    continue
            if not stroke:
                continue
            if curved:
                if (closed or _same_point(points[0], points[-1])) and _mark_shaped(x0, y0, x1, y1):
                    drawing.marks.append(DrawnMark(x0, y0, x1, y1, "stroke", self.stroke))
                continue
            segments = list(zip(points, points[1:]))
            if closed:
                segments.append((points[-1], points[0]))
            for start, end in segments:
                ruling = _axis_ruling(start, end, width)
                if ruling is not None and drawing.room():
                    drawing.rulings.append(ruling)

    def filled_box(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """A filled axis-aligned rectangle as a rule or a mark; False when it is neither."""
        w, h = x1 - x0, y1 - y0
        if w <= 0.0 or h <= 0.0:
            return False                        # a fill without area paints nothing
        if w >= RULE_MIN_ASPECT * h:
            self.drawing.rulings.append(Ruling(x0, (y0 + y1) * 0.5, x1, (y0 + y1) * 0.5, h, True))
        elif h >= RULE_MIN_ASPECT * w:
            self.drawing.rulings.append(Ruling((x0 + x1) * 0.5, y0, (x0 + x1) * 0.5, y1, w, False))
        elif _mark_shaped(x0, y0, x1, y1):
            self.drawing.marks.append(DrawnMark(x0, y0, x1, y1, "fill", self.fill))
        else:
            return False
        return True

    def image(self, ctm: tuple) -> None:
        """An image fills the CTM's unit square: an about-square one may be a bullet."""
        if self.machine.out is not self.visible_out or not self.drawing.room():
            return
        a, b, c, d, e, f = ctm
        xs = (e, e + a, e + c, e + a + c)
        ys = (f, f + b, f + d, f + b + d)
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        if all(math.isfinite(v) for v in (x0, y0, x1, y1)) and _mark_shaped(x0, y0, x1, y1):
            self.drawing.marks.append(DrawnMark(x0, y0, x1, y1, "image"))


def _quiet(method):
    """The handler with its failures (wrong operand types) ignored, so the page's warnings stay
    those of its text, whether the drawing is asked for or not."""
    def handler(operands) -> None:
        try:
            method(operands)
        except (TypeError, ValueError, ArithmeticError):
            pass
    return handler


def _rgb(components) -> tuple[float, float, float]:
    """A gray, RGB or CMYK colour's RGB (§10.4.2's naive conversion), each component within 0–1."""
    values = [min(1.0, max(0.0, value + 0.0)) for value in components]
    if len(values) == 1:
        return values[0], values[0], values[0]
    if len(values) == 3:
        return values[0], values[1], values[2]
    if len(values) == 4:
        c, m, y, k = values
        return (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
    raise ValueError("colour components")


def _white(colour: tuple | None) -> bool:
    return colour is not None and min(colour) >= WHITE_MIN


def _is_box(points: list) -> bool:
    """Is this subpath an axis-aligned rectangle (four corners, perhaps the first again at the end)?"""
    if len(points) == 5 and _same_point(points[0], points[4]):
        points = points[:4]
    if len(points) != 4:
        return False
    xs = {round(p[0], 3) for p in points}
    ys = {round(p[1], 3) for p in points}
    return len(xs) <= 2 and len(ys) <= 2 and all(
        (round(p[0], 3) == round(q[0], 3)) != (round(p[1], 3) == round(q[1], 3))
        for p, q in zip(points, points[1:] + points[:1]))


def _same_point(p: tuple, q: tuple) -> bool:
    return abs(p[0] - q[0]) < 1e-3 and abs(p[1] - q[1]) < 1e-3


def _mark_shaped(x0: float, y0: float, x1: float, y1: float) -> bool:
    w, h = x1 - x0, y1 - y0
    return w > 0.0 and h > 0.0 and max(w, h) <= MARK_MAX_ASPECT * min(w, h)


def _axis_ruling(start: tuple, end: tuple, width: float) -> Ruling | None:
    """A stroked straight segment as a Ruling when it runs along an axis."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    if dx == 0.0 and dy == 0.0:
        return None
    if abs(dy) <= AXIS_TOLERANCE * abs(dx):
        y = (start[1] + end[1]) * 0.5
        return Ruling(min(start[0], end[0]), y, max(start[0], end[0]), y, width, True)
    if abs(dx) <= AXIS_TOLERANCE * abs(dy):
        x = (start[0] + end[0]) * 0.5
        return Ruling(x, min(start[1], end[1]), x, max(start[1], end[1]), width, False)
    return None
