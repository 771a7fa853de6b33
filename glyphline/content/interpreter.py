"""Content interpreter: one page's content bytes → positioned glyphs.

Runs the graphics/text state machine of ISO 32000-1 §8–9 over the lexer's operations: q/Q save
the whole state (CTM and text state), text positioning and showing operators move the pen,
Form XObjects run nested (their /Matrix × CTM, own or inherited /Resources, bounded depth,
cycles cut), marked content tracks /MCID and replaces /ActualText spans by their text.
Geometry (§9.4.4): Trm = [Tfs×Th 0 0 Tfs 0 Trise] × Tm × CTM; the given CTM already maps user
space to viewer space, so every Glyph coordinate is a viewer-space point.
Nothing here raises on bad content: unknown or malformed operators are skipped (one warning
per page); only the page budgets' PageBudgetExceeded and the document's BudgetExceeded
propagate, and the glyphs emitted so far stay in `out`.
"""
from __future__ import annotations

import math
import struct
from operator import itemgetter
from typing import NamedTuple

from ..errors import BudgetExceeded
from ..fonts.base import Font
from ..glyph import (ACTUAL_TEXT, FALLBACK_DESCENT_SHARE, HIDDEN_LAYER, IN_FORM, INVISIBLE, OUTSIDE_CROP, TEXT_RISE,
                     VERTICAL, Glyph)
from ..limits import PageBudgetExceeded
from ..notices import warning
from ..pdfobjects import rectangle, resolve
from .env import PageEnv
from .lexer import TEXT_RUN, iter_operations

MAX_SAVE_DEPTH = 1024           # q nesting; real files stay below ~30, deeper saves are ignored (with their Q)
MAX_MARKED_DEPTH = 256          # BMC/BDC nesting, bounded like q
MAX_WARNINGS = 64               # distinct warnings per page; a hostile page could name endless missing fonts
MAX_RECORDED_IMAGES = 64        # image XObjects a page remembers for OCR (a scan has one, or a few strips)
THOUSANDTH = 0.001              # TJ numbers are thousandths of text space, whatever the font matrix
# A glyph is kept when its box centre lies inside the visible box grown by this many ems: the
# box (advance × ascent–descent) is wider than the ink, and a glyph the edge cuts near its
# middle still shows most of its ink (viewers, poppler and MuPDF keep it).
CLIP_MARGIN_EM = 0.1
SIDEWAYS_RUN_RATIO = 2.0        # a vertical-font run stepping this much more across than down is a line
_HUGE = 1e300                   # beyond this a coordinate is garbage (and inf/nan fail the test too)
_EVERYWHERE = (-math.inf, -math.inf, math.inf, math.inf)   # the clip window of a page shown unclipped
MAX_PLACED_CODES = 65_536       # codes whose placement a page remembers per font and text state
MAX_PLACEMENT_STATES = 4096     # text states remembered per page; a page of ever-new sizes starts over
MAX_REMEMBERED_SETUPS = 1024    # show()'s derived text states a page keeps (q BT … ET Q per line recomputes one)
# The fast paths (placement tables, show()'s level baselines, op_show_run) on; False sends every
# string through its font's decode() and place() char by char in show(), the reference they must
# equal glyph for glyph (tests/test_interpreter_fast_paths.py). Read as text is shown.
FAST_PATHS = True

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_INVISIBLE_MODES = (3, 7)       # text render modes that paint nothing (OCR layers)
_BUDGET_ERRORS = (PageBudgetExceeded, BudgetExceeded)
_new_glyph = tuple.__new__      # Glyph(...) without the Python-level __new__: one call less per glyph
_PLACEMENT_KEY = struct.Struct("9d").pack   # exact floats: 0.0 and -0.0 are different text states
_SETUP_KEY = struct.Struct("13d").pack      # the same for TextSetup's numbers: Tm, CTM (linear parts), text state


class TextSetup(NamedTuple):
    """What showing horizontal text derives from the text state, the font and the linear part of
    Tm × CTM (_Interpreter.horizontal_setup); kept until one of its inputs changes."""

    a: float                # M = Tm × CTM (text space → viewer space): where text-space x goes
    b: float
    scale: float            # Tfs × Th: a TJ number's thousandths → text space
    rise_x: float           # Ts in viewer space
    rise_y: float
    dx: float               # the glyphs' writing direction, box, size, font, flags, mcid (Glyph)
    dy: float
    height: float
    descent: float
    em: float
    centre_x: float         # box centre minus baseline point, in viewer space (the clip test)
    centre_y: float
    name: str
    flags: int
    mcid: int
    state: tuple            # the placement state: what place() needs besides the char
    decode: object          # the font's decode()
    placements: object      # code → placement (_PlacementTable), or None: no code reader, or FAST_PATHS off
    code_bytes: int         # bytes per code of the placement table


_GLYPH = slice(5, 15)   # TextSetup[_GLYPH]: dx, dy, height, descent, em, centre_x, centre_y, name, flags, mcid


class _PlacementTable(dict):
    """code → placement (see _Interpreter.place) under one font and text state, filled on
    first use: table[code] is one dict lookup for a code seen before.

    It also keeps the range of what it has handed out: the least pen move along x and the
    least and greatest font advance along x. With no move backwards, a string's glyph origins
    lie between the pen before and after it, and emit() can clip the string as a whole.

    `rows` holds the same placements in a plain dict, for the per-glyph loops: CPython
    specialises a subscript of an exact dict only (~200 instructions a glyph less than this
    subclass's); they fall back on table[code] for a code not placed yet."""

    __slots__ = ("state", "char_of", "rows", "least_move_x", "least_width_x", "greatest_width_x")

    def __init__(self, state: tuple, char_of):
        super().__init__()
        self.state = state
        self.rows: dict = {}
        self.char_of = char_of
        self.least_move_x = self.least_width_x = math.inf
        self.greatest_width_x = -math.inf

    def __missing__(self, code: int) -> tuple:
        placed = _Interpreter.place(self.state, self.char_of(code))
        width_x, move_x = placed[1], placed[4]
        if not (-_HUGE < width_x < _HUGE and -_HUGE < move_x < _HUGE):
            self.least_move_x = math.nan   # unbounded (or NaN): this table's strings are clipped glyph by glyph
        elif move_x < self.least_move_x:
            self.least_move_x = move_x
        if width_x < self.least_width_x:
            self.least_width_x = width_x
        if width_x > self.greatest_width_x:
            self.greatest_width_x = width_x
        if len(self) < MAX_PLACED_CODES:
            self[code] = self.rows[code] = placed
        return placed
_unpack = struct.unpack
_second = itemgetter(1)
_BYTES_TYPE = frozenset((bytes,))
_NUMBER_TYPES = frozenset((int, float))   # a TJ number (a bool is not one: show() skips it)


def _run_line_origin(move, te: float, tf: float, tm, ctm, rise_x: float, rise_y: float):
    """A Td inside a lexer text run (show()): the line matrix's translation (te, tf) moved by
    `move` in text space, and the pen there in viewer space, raised by Ts."""
    ta, tb, tc, td = tm[:4]
    ca, cb, cc, cd, ce, cf = ctm
    move_x, move_y = move
    te, tf = move_x * ta + move_y * tc + te, move_x * tb + move_y * td + tf
    return te, tf, te * ca + tf * cc + ce + rise_x, te * cb + tf * cd + cf + rise_y


def _codes(string: bytes, code_bytes: int):
    """The codes of a string in a font with a placement table: a byte each, or two (big-endian)."""
    if code_bytes == 1:
        return string
    if len(string) == 2:
        return (string[0] << 8 | string[1],)
    return _unpack(">%dH" % (len(string) >> 1), string)


def interpret(content: bytes, resources, ctm: tuple, env: PageEnv, *, in_form: bool = False,
              out: list[Glyph] | None = None, flags: int = 0, form_key=None) -> list[Glyph]:
    """Interpret `content` and append its glyphs to `out` (returned).

    `out` is filled as glyphs are found, so a caller catching PageBudgetExceeded still has
    the glyphs emitted before the budget ran out. `flags` are set on every glyph (the glyph
    source, e.g. ANNOTATION); `form_key` names the Form XObject whose content this is, so a
    form that draws itself is cut at its first repeat."""
    if out is None:
        out = []
    try:
        ctm = tuple(float(v) for v in ctm)
        if len(ctm) != 6:
            raise ValueError
    except (TypeError, ValueError):
        ctm = IDENTITY
    machine = _Interpreter(env, out, ctm, in_form, flags)
    if form_key is not None:
        machine.forms.append(form_key)
    first = len(out)
    try:
        machine.run(content, resources)
        machine.close_marked_content(0)
    finally:
        # the handler table's bound methods make the machine a reference cycle: break it, so
        # the page's glyphs are freed as soon as the caller drops them, not at the next GC pass
        machine.handlers = machine.paths = None
    if machine.twins:
        straighten_vertical_runs(out, first, machine.twins)
    return out


def straighten_vertical_runs(out: list, first: int, twins: dict) -> None:
    """Read runs of vertical-font glyphs that the content placed side by side as horizontal text.

    Some producers (PDFBOX-3127) show each glyph of an Identity-V font with its own Td along
    the line: the page shows a horizontal line of upright glyphs, not a column. A run of such
    glyphs whose origins step across the column far more than down it becomes its twins."""
    index = first
    end = len(out)
    while index < end:
        if id(out[index]) not in twins:
            index += 1
            continue
        stop = index + 1
        while stop < end and id(out[stop]) in twins and out[stop].font == out[index].font:
            stop += 1
        if stop - index >= 2:
            along = across = 0.0
            for previous, glyph in zip(out[index:stop - 1], out[index + 1:stop]):
                step_x = glyph.x - previous.x
                step_y = glyph.y - previous.y
                along += abs(step_x * glyph.dx + step_y * glyph.dy)
                across += abs(step_x * glyph.dy - step_y * glyph.dx)
            if across > SIDEWAYS_RUN_RATIO * along:
                out[index:stop] = [twins[id(glyph)] for glyph in out[index:stop]]
        index = stop


def _matrix(value) -> tuple | None:
    value = resolve(value)
    if not isinstance(value, (list, tuple)) or len(value) != 6:
        return None
    try:
        result = tuple(float(resolve(v)) for v in value)
    except (TypeError, ValueError):
        return None
    return result if all(math.isfinite(v) for v in result) else None


def _multiply(m: tuple, n: tuple) -> tuple:
    """m × n for PDF matrices (a b c d e f): apply m first, then n."""
    a, b, c, d, e, f = m
    na, nb, nc, nd, ne, nf = n
    return (a * na + b * nc, a * nb + b * nd,
            c * na + d * nc, c * nb + d * nd,
            e * na + f * nc + ne, e * nb + f * nd + nf)


def decode_text_string(raw: bytes) -> str:
    """A PDF text string (§7.9.2.2): UTF-16BE or UTF-8 with BOM, else PDFDocEncoding."""
    if raw[:2] == b"\xfe\xff":
        return raw[2:].decode("utf-16-be", "ignore")
    if raw[:2] == b"\xff\xfe":                      # seen in the wild, not in the spec
        return raw[2:].decode("utf-16-le", "ignore")
    if raw[:3] == b"\xef\xbb\xbf":
        return raw[3:].decode("utf-8", "ignore")
    from pypdf._codecs import _pdfdoc_encoding  # pinned pypdf; imported late: rarely needed
    return "".join(_pdfdoc_encoding[b] for b in raw).replace("\x00", "")


class _Span:
    """An open /ActualText span: its text and where the codes it covers were painted."""

    __slots__ = ("text", "mcid", "first", "end_x", "end_y", "pen_x", "pen_y")

    def __init__(self, text: str, mcid: int):
        self.text = text
        self.mcid = mcid
        # the first code's (x, y, its glyph fields as emit() takes them: dx … centre_y, font, flags, mcid)
        self.first = None
        self.end_x = self.end_y = self.pen_x = self.pen_y = 0.0


class _Interpreter:
    def __init__(self, env: PageEnv, out: list, ctm: tuple, in_form: bool, source_flags: int = 0):
        self.env = env
        self.out = out
        self.budget = env.budget
        clip = env.clip
        # a degenerate box means "not set", not "nothing is visible"
        if env.keep_outside or not clip or clip[2] <= clip[0] or clip[3] <= clip[1]:
            self.clip = None
        else:
            self.clip = tuple(float(v) for v in clip)
        # graphics state saved by q
        self.ctm = ctm
        self.font: Font | None = None
        self.font_size = 0.0
        self.char_spacing = 0.0
        self.word_spacing = 0.0
        self.h_scale = 1.0
        self.leading = 0.0
        self.render_mode = 0
        self.rise = 0.0
        # text object state (not saved by q)
        self.tm = IDENTITY
        self.tlm = IDENTITY
        self.setup: TextSetup | None = None   # show()'s derived values; None whenever an input changes
        self.setups: dict = {}            # every input of a TextSetup → it, for a state met again (_horizontal_setup)
        self.saved: list[tuple] = []
        self.ignored_saves = 0
        self.marked: list[tuple] = []     # (mcid before, span started here or None, page's out if hidden)
        self.ignored_marks = 0
        self.mcid = -1
        self.span: _Span | None = None
        self.source_flags = source_flags  # where the content comes from: on every glyph, in forms too
        self.form_flag = (IN_FORM if in_form else 0) | source_flags
        self.forms: list = []             # keys of the Form XObjects being run (cycle check)
        self.form_contents: dict = {}     # key → decoded content of the forms met on this page
        self.twins: dict = {}             # id(vertical glyph) → the same glyph read horizontally
        self.resources = None
        self.font_cache: dict = {}
        self.placements: dict = env.placements   # (font, text state) → code → placement (see placement_table)
        self.warned: set = set()
        self.handlers = {
            b"Tj": (self.op_show, 1),
            b"TJ": (self.op_show_array, 1),
            TEXT_RUN: (self.op_show_run, 1),         # [string, (tx, ty), …]: Tj and Td in turn
            b"Td": (self.op_move, 2),
            b"Tf": (self.op_font, 2),
            b"Tm": (self.op_text_matrix, 6),
            b"BT": (self.op_begin_text, 0),
            b"ET": (self.op_end_text, 0),
            b"q": (self.op_save, 0),
            b"Q": (self.op_restore, 0),
            b"cm": (self.op_concat, 6),
            b"TD": (self.op_move_set_leading, 2),
            b"T*": (self.op_next_line, 0),
            b"'": (self.op_next_line_show, 1),
            b'"': (self.op_spacing_next_line_show, 3),
            b"Tc": (self.op_char_spacing, 1),
            b"Tw": (self.op_word_spacing, 1),
            b"Tz": (self.op_h_scale, 1),
            b"TL": (self.op_leading, 1),
            b"Tr": (self.op_render_mode, 1),
            b"Ts": (self.op_rise, 1),
            b"Do": (self.op_xobject, 1),
            b"BI": (self.op_inline_image, 1),
            b"gs": (self.op_graphics_state, 1),
            b"BMC": (self.op_begin_marked, 1),
            b"BDC": (self.op_begin_marked_properties, 2),
            b"EMC": (self.op_end_marked, 0),
        }
        self.paths = None                 # the path operators' recorder, when the caller asks for the drawing
        if env.drawing is not None:
            from .paths import PathRecorder   # structured outputs only: a plain run never imports it

            self.paths = PathRecorder(self, env.drawing, env.limits.path_points)
            self.handlers.update(self.paths.handlers())

    # ---- driver -------------------------------------------------------------------------

    def run(self, content: bytes, resources) -> None:
        self.resources = resources
        handlers = self.handlers
        charge = self.budget.charge_operators
        for operands, operator in iter_operations(content, for_text=True, with_paths=self.paths is not None):
            charge()
            entry = handlers.get(operator)
            if entry is None:
                continue
            method, arity = entry
            count = len(operands)
            if count != arity and arity >= 0:   # arity -1: the handler takes what it is given (sc, scn)
                if count < arity:
                    self.malformed(operator)
                    continue
                operands = operands[count - arity:]   # extra operands: the last ones count
            try:
                method(operands)
            except _BUDGET_ERRORS:
                raise
            except Exception:   # wrong operand types, or a font that fails on odd bytes
                self.malformed(operator)

    def malformed(self, operator: bytes) -> None:
        self.warn("malformed", warning("malformed-operators", operator=operator.decode('latin-1')))

    def warn(self, key, message: str) -> None:
        if key not in self.warned and len(self.warned) < MAX_WARNINGS:
            self.warned.add(key)
            self.env.warnings.append(message)

    # ---- graphics state -----------------------------------------------------------------

    def state(self) -> tuple:
        """Everything q saves: the CTM and the text state."""
        return (self.ctm, self.font, self.font_size, self.char_spacing, self.word_spacing,
                self.h_scale, self.leading, self.render_mode, self.rise)

    def set_state(self, state: tuple) -> None:
        self.setup = None
        (self.ctm, self.font, self.font_size, self.char_spacing, self.word_spacing,
         self.h_scale, self.leading, self.render_mode, self.rise) = state

    def op_save(self, _operands) -> None:
        if len(self.saved) >= MAX_SAVE_DEPTH:
            self.ignored_saves += 1
            return
        self.saved.append(self.state())

    def op_restore(self, _operands) -> None:
        if self.ignored_saves:
            self.ignored_saves -= 1
            return
        if self.saved:          # an unbalanced Q is ignored
            self.set_state(self.saved.pop())

    def op_concat(self, operands) -> None:
        a, b, c, d, e, f = operands
        m = (a + 0.0, b + 0.0, c + 0.0, d + 0.0, e + 0.0, f + 0.0)
        self.ctm = _multiply(m, self.ctm)
        self.setup = None

    # ---- text state ---------------------------------------------------------------------

    def op_char_spacing(self, operands) -> None:
        self.char_spacing = operands[0] + 0.0
        self.setup = None

    def op_word_spacing(self, operands) -> None:
        self.word_spacing = operands[0] + 0.0
        self.setup = None

    def op_h_scale(self, operands) -> None:
        self.h_scale = (operands[0] + 0.0) / 100.0
        self.setup = None

    def op_leading(self, operands) -> None:
        self.leading = operands[0] + 0.0

    def op_render_mode(self, operands) -> None:
        self.render_mode = int(operands[0])
        self.setup = None

    def op_rise(self, operands) -> None:
        self.rise = operands[0] + 0.0
        self.setup = None

    def op_font(self, operands) -> None:
        name, size = operands
        size = size + 0.0
        if not isinstance(name, str):
            raise TypeError("font name")
        self.font_size = size
        self.setup = None
        key = (id(self.resources), name)
        cached = self.font_cache.get(key)
        if cached is not None and cached[0] is self.resources:
            self.font = cached[1]
            return
        font = self.load_font(name)
        self.font_cache[key] = (self.resources, font)
        self.font = font

    def op_graphics_state(self, operands) -> None:
        """gs: only an ExtGState /Font entry ([font size], §8.4.5) matters for text."""
        name = operands[0]
        if not isinstance(name, str):
            raise TypeError("ExtGState name")
        key = (id(self.resources), "gs", name)
        cached = self.font_cache.get(key)
        if cached is None or cached[0] is not self.resources:
            cached = (self.resources, self.graphics_state_font(name))
            self.font_cache[key] = cached
        if cached[1] is not None:
            self.font, self.font_size = cached[1]
            self.setup = None

    def graphics_state_font(self, name: str) -> tuple | None:
        state = self.lookup("/ExtGState", name)
        if not isinstance(state, dict):
            return None
        entry = resolve(state.get("/Font"))
        if not isinstance(entry, list) or len(entry) != 2:
            return None
        size = resolve(entry[1])
        if not isinstance(size, (int, float)) or isinstance(size, bool) or not math.isfinite(size):
            return None
        try:
            font = self.env.load_font(resolve(entry[0]), name)
        except _BUDGET_ERRORS:
            raise
        except Exception:
            return None
        return (font, float(size)) if isinstance(font, Font) else None

    def load_font(self, name: str) -> Font | None:
        font_dict = self.lookup("/Font", name)
        if font_dict is None:
            self.warn(("font", name), warning("font-not-in-resources", font=name))
        try:
            font = self.env.load_font(font_dict, name)
        except _BUDGET_ERRORS:
            raise
        except Exception:
            font = None
        if not isinstance(font, Font):
            self.warn(("font", name), warning("font-unloadable", font=name))
            return None
        return font

    def lookup(self, category: str, name: str):
        """resources[category][/name], resolved; None when any part is missing or of the wrong type."""
        resources = resolve(self.resources)
        if not isinstance(resources, dict):
            return None
        group = resolve(resources.get(category))
        if not isinstance(group, dict):
            return None
        return resolve(group.get("/" + name))

    # ---- text positioning ---------------------------------------------------------------

    def op_begin_text(self, _operands) -> None:
        self.tm = self.tlm = IDENTITY
        self.setup = None

    def op_end_text(self, _operands) -> None:
        pass

    def op_move(self, operands) -> None:
        tx, ty = operands
        a, b, c, d, e, f = self.tlm
        self.tm = self.tlm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)

    def op_move_set_leading(self, operands) -> None:
        self.leading = -(operands[1] + 0.0)
        self.op_move(operands)

    def op_next_line(self, _operands) -> None:
        self.op_move((0.0, -self.leading))

    def op_text_matrix(self, operands) -> None:
        a, b, c, d, e, f = operands
        self.tm = self.tlm = (a + 0.0, b + 0.0, c + 0.0, d + 0.0, e + 0.0, f + 0.0)
        self.setup = None

    # ---- text showing -------------------------------------------------------------------

    def op_show(self, operands) -> None:
        if operands[0].__class__ is not bytes:
            raise TypeError("string")
        self.show(operands)

    def op_show_array(self, operands) -> None:
        items = operands[0]
        if items.__class__ is not list:
            raise TypeError("array")
        self.show(items)

    def op_show_run(self, operands) -> None:
        """A lexer TEXT_RUN, "string Tj tx ty Td" repeated. Skia draws every glyph so, one code per
        string: such a run in a font with a placement table is shown here, glyph by glyph with
        the per-item tests, budget charges and pen moves of show() taken out of the loop (every
        Td starts the next glyph afresh; the run is charged whole, up front). Any other run
        goes through show()."""
        items = operands[0]
        if items.__class__ is not list:
            raise TypeError("array")
        setup = self._horizontal_setup()
        if setup is None or self.span is not None or len(items) & 1:
            self.show(items)
            return
        placements, code_bytes, rise_x, rise_y = setup.placements, setup.code_bytes, setup.rise_x, setup.rise_y
        dx, dy, height, descent, em, _, _, name, flags, mcid = fields = setup[_GLYPH]
        strings = items[::2]
        if placements is None or set(map(len, strings)) != {code_bytes}:
            self.show(items)
            return
        ta, tb, tc, td, _, _ = self.tm
        ca, cb, cc, cd, ce, cf = self.ctm
        x, y = self._pen_origin(rise_x, rise_y)
        budget = self.budget
        budget.charge_operators(len(items))          # a Tj and a Td per pair
        budget.charge_glyphs(len(strings))
        # the glyphs shown, for emit(); placed.append(...) is called as a method, not through a
        # bound-method variable: CPython 3.12+ specialises the method call, while calling the bound
        # builtin goes through Pyodide's C-call trampoline (85 against 156 ns there; equal on 3.11)
        placed = []
        new = _new_glyph
        undecodable = 0
        te, tf = self.tlm[4:]                        # the line origin each Td moves
        joined = b"".join(strings)
        codes = joined if code_bytes == 1 else _unpack(">%dH" % len(strings), joined)
        moves = items[1::2]
        # a level line (Skia's usual run): no shear in Tm or the CTM and every Td along x alone, so
        # the pen's y never changes and each Td only moves te (the terms dropped below are zeros)
        level = tb == 0.0 and cb == 0.0 and cc == 0.0 and y != 0.0 and not any(map(_second, moves))
        try:
            rows = placements.rows
            if level:
                for code, (move_x, _) in zip(codes, moves):
                    try:
                        text, width_x, _, _, _, _, advance = rows[code]
                    except KeyError:                 # a code met first: placed by the table
                        text, width_x, _, _, _, _, advance = placements[code]
                    if text:
                        placed.append(new(Glyph, (text, x, y, x + width_x, y, advance,
                                                  dx, dy, height, descent, em, name, flags, mcid)))
                    elif text is None:
                        undecodable += 1
                    te = move_x * ta + te
                    x = te * ca + ce + rise_x
                moves = ()                               # all shown
            for code, (move_x, move_y) in zip(codes, moves):
                try:
                    text, width_x, width_y, _, _, _, advance = rows[code]
                except KeyError:
                    text, width_x, width_y, _, _, _, advance = placements[code]
                if text:
                    placed.append(new(Glyph, (text, x, y, x + width_x, y + width_y, advance,
                                              dx, dy, height, descent, em, name, flags, mcid)))
                elif text is None:   # "" is a glyph without text of its own: not undecodable
                    undecodable += 1
                te, tf = move_x * ta + move_y * tc + te, move_x * tb + move_y * td + tf
                x = te * ca + tf * cc + ce + rise_x
                y = te * cb + tf * cd + cf + rise_y
        finally:
            if level:   # clipped as show() clips a level string: y once, x by the run's extremes
                extent = None
                if placed and placements.least_move_x >= 0.0:   # (NaN: some advance is unbounded)
                    extent = (min(map(_second, placed)), max(map(_second, placed)),   # the glyphs' x
                              placements.least_width_x, placements.greatest_width_x)
                self.emit(placed, fields, True, extent)
            else:
                self.emit(placed, fields)
        self.tm = (ta, tb, tc, td, te + 0.0 * ta, tf + 0.0 * tb)   # as show() leaves it after a Td
        self.tlm = (ta, tb, tc, td, te, tf)
        if undecodable:
            self.env.undecodable += undecodable

    def op_next_line_show(self, operands) -> None:
        self.op_next_line(())
        self.op_show(operands)

    def op_spacing_next_line_show(self, operands) -> None:
        word_spacing, char_spacing, string = operands
        self.word_spacing = word_spacing + 0.0
        self.char_spacing = char_spacing + 0.0
        self.setup = None
        self.op_next_line(())
        self.op_show((string,))

    def _horizontal_setup(self) -> TextSetup | None:
        """show()'s derived text state, or None when there is no font or it writes vertically.
        A state met before on the page (each line in its own q BT … ET Q) is looked up, not
        derived again: the key holds every input of horizontal_setup (the font by id: the setup
        keeps its decode(), so the font lives as long as the entry)."""
        setup = self.setup
        if setup is None:
            font = self.font
            if font is None or font.vertical:
                return None
            try:
                key = (id(font), _SETUP_KEY(*self.tm[:4], *self.ctm[:4], self.font_size, self.h_scale,
                                            self.char_spacing, self.word_spacing, self.rise),
                       self.render_mode, self.mcid, self.form_flag)
            except (struct.error, TypeError):   # not plain numbers: derived every time, as before
                setup = self.setup = self.horizontal_setup(font)
                return setup
            setup = self.setups.get(key)
            if setup is None:
                setup = self.horizontal_setup(font)
                if len(self.setups) >= MAX_REMEMBERED_SETUPS:
                    self.setups.clear()
                self.setups[key] = setup
            self.setup = setup
        return setup

    def _pen_origin(self, rise_x: float, rise_y: float) -> tuple[float, float]:
        """Where the pen starts in viewer space: the origin of text space, raised by Ts."""
        te, tf = self.tm[4:]
        ca, cb, cc, cd, ce, cf = self.ctm
        e = te * ca + tf * cc + ce
        f = te * cb + tf * cd + cf
        if not (-_HUGE < e < _HUGE and -_HUGE < f < _HUGE):
            raise ValueError("text position out of range")
        return e + rise_x, f + rise_y

    def show(self, items) -> None:
        """Show the strings of a Tj, a TJ array or a lexer text run: a number between strings
        moves the pen (TJ), a (tx, ty) pair starts a new line (the Td of a text run).

        A string is read through the font's placement table when it has one (FAST_PATHS), else
        decoded and placed char by char; the glyphs shown go to emit(). On a level baseline
        (Tm × CTM has no shear b, no Td) the pen's y never changes, and text wholly read through
        the table is charged up front; any other text string by string, so the glyphs of the
        strings before a budget runs out stay."""
        setup = self._horizontal_setup()
        if setup is None:
            font = self.font
            if font is None:
                self.warn("no font", warning("text-without-font"))
            else:
                self.show_vertical(font, items)
            return
        a, b, scale, rise_x, rise_y = setup[:_GLYPH.start]
        dx, dy, height, descent, em, _, _, name, flags, mcid = fields = setup[_GLYPH]
        state, decode, placements, code_bytes = setup[_GLYPH.stop:]
        ta, tb, tc, td, te, tf = self.tm
        ca, cb, cc, cd, ce, cf = self.ctm
        x, y = self._pen_origin(rise_x, rise_y)      # the pen in viewer space, moved incrementally
        span = self.span
        budget = self.budget
        # a level baseline: y + 0.0 could flip the sign of a zero y, and a Td moves the line
        level = FAST_PATHS and b == 0.0 and y != 0.0 and not (len(items) > 1 and items[1].__class__ is tuple)
        charged = False                              # the whole text charged up front
        alternating = False                          # a string, then a number and a string in turn
        if level and placements is not None and span is None:
            # a Tj, and the TJ arrays of pdfTeX and LibreOffice: told by the items' types in C,
            # so neither the charge nor the loop below asks each item what it is
            strings = items[::2]
            numbers = items[1::2]
            alternating = (len(items) & 1 == 1 and _BYTES_TYPE >= set(map(type, strings))
                           and _NUMBER_TYPES >= set(map(type, numbers)))
            if not alternating:
                strings = [item for item in items if item.__class__ is bytes]
            charged = code_bytes == 1 or not any([len(string) & 1 for string in strings])
            if charged:
                budget.charge_glyphs(sum(map(len, strings)) >> (code_bytes != 1))
        placed = []                                  # the glyphs shown, for emit() (placed.append: see op_show_run)
        charge_glyphs = budget.charge_glyphs
        charge_operators = budget.charge_operators
        place = self.place
        new = _new_glyph
        undecodable = 0
        pen = 0.0                                    # the same pen along text-space x, for Tm
        line = None                                  # set once a Td of a text run moved the line
        # on a level baseline, strings read through the table are clipped whole when they can be
        # (emit's extent): the pen's lowest x before a string and highest after one
        whole = level and placements is not None and span is None
        pen_low = pen_high = x
        try:
            if alternating and charged:
                # the usual text (level baseline, read through the table, charged whole, no
                # /ActualText, strings and numbers in turn): the loop below without its per-item,
                # per-string and per-glyph tests
                one_byte = code_bytes == 1
                rows = placements.rows
                for number, item in zip([None, *numbers], strings):   # the number before each string
                    if number is not None:
                        shift = -number * THOUSANDTH * scale
                        pen += shift
                        x += shift * a
                    if x < pen_low:
                        pen_low = x
                    for code in (item if one_byte else _codes(item, 2)):
                        try:
                            text, width_x, _, move, move_x, _, advance = rows[code]
                        except KeyError:             # a code met first: placed by the table
                            text, width_x, _, move, move_x, _, advance = placements[code]
                        if text:
                            placed.append(new(Glyph, (text, x, y, x + width_x, y, advance,
                                                      dx, dy, height, descent, em, name, flags, mcid)))
                        elif text is None:
                            undecodable += 1
                        pen += move
                        x += move_x
                    if x > pen_high:
                        pen_high = x
                items = ()                           # all shown
            for item in items:
                if item.__class__ is not bytes:
                    if item.__class__ is int or item.__class__ is float:
                        shift = -item * THOUSANDTH * scale
                        pen += shift
                        x += shift * a
                        if not level:
                            y += shift * b
                    elif item.__class__ is tuple:    # Td inside a text run: a new line origin
                        if not charged:
                            charge_operators(2)      # the run's Tj and Td count as operators
                        if line is None:
                            te, tf = self.tlm[4:]
                        te, tf, x, y = _run_line_origin(item, te, tf, self.tm, self.ctm, rise_x, rise_y)
                        line = True
                        pen = 0.0
                    continue
                if placements is not None and (code_bytes == 1 or not len(item) & 1):
                    # a simple font or a two-byte CID font: codes straight from the bytes, no decode()
                    table = placements
                    codes = item if code_bytes == 1 else _codes(item, 2)
                else:
                    table = [place(state, char) for char in decode(item)]
                    codes = range(len(table))
                    whole = False
                if not charged:
                    charge_glyphs(len(codes))
                if x < pen_low:
                    pen_low = x
                for code in codes:
                    text, width_x, width_y, move, move_x, move_y, advance = table[code]
                    if span is not None:             # inside /ActualText: only where the span lies
                        if span.first is None:
                            span.first = (x, y, fields)
                        span.end_x = x + width_x
                        span.end_y = y + width_y
                        span.pen_x = x + move_x
                        span.pen_y = y + move_y
                    elif text:
                        placed.append(new(Glyph, (text, x, y, x + width_x, y if level else y + width_y, advance,
                                                  dx, dy, height, descent, em, name, flags, mcid)))
                    elif text is None:   # "" is a glyph without text of its own: not undecodable
                        undecodable += 1
                    pen += move
                    x += move_x
                    if not level:
                        y += move_y
                if x > pen_high:
                    pen_high = x
        finally:
            extent = None
            if whole and placements.least_move_x >= 0.0:   # no glyph moves the pen back inside a string
                extent = (pen_low, max(pen_high, x), placements.least_width_x, placements.greatest_width_x)
            self.emit(placed, fields, level, extent)
        self.tm = (ta, tb, tc, td, te + pen * ta, tf + pen * tb)
        if line is not None:
            self.tlm = (ta, tb, tc, td, te, tf)
        if undecodable:
            self.env.undecodable += undecodable

    @staticmethod
    def place(state: tuple, char) -> tuple:
        """Where a char puts its glyph and the pen, relative to the pen, under one text state
        (placement_state): (text, font advance x/y, pen move in text space, pen move x/y,
        signed advance length)."""
        a, b, h_scale, size_x, char_spacing, space_spacing, advance_x, advance_y, advance_unit = state
        width = char.width
        if char.is_space:
            move = (width * size_x + space_spacing) * h_scale
        else:
            move = (width * size_x + char_spacing) * h_scale
        return (char.text, width * advance_x, width * advance_y, move, move * a, move * b,
                move * advance_unit)

    def next_line(self, line: tuple | None, move: tuple) -> tuple:
        """The text line origin after one Td of a text run (Tlm = [1 0 0 1 tx ty] × Tlm)."""
        self.budget.charge_operators(2)              # the run's Tj and Td count as operators
        tx, ty = move
        ta, tb, tc, td, te, tf = self.tlm
        if line is not None:
            te, tf = line
        return tx * ta + ty * tc + te, tx * tb + ty * td + tf

    def horizontal_setup(self, font: Font) -> TextSetup:
        """What show() derives from the text state and the linear part of Tm × CTM.

        Kept in self.setup until one of its inputs changes: text positioning (Td, T*, showing)
        only translates Tm, so a run of lines in one font reuses it."""
        ta, tb, tc, td = self.tm[:4]
        ca, cb, cc, cd = self.ctm[:4]
        a = ta * ca + tb * cc                        # M = Tm × CTM: text space → viewer space
        b = ta * cb + tb * cd
        c = tc * ca + td * cc
        d = tc * cb + td * cd
        size = self.font_size
        h_scale = self.h_scale
        char_spacing = self.char_spacing
        word_spacing = self.word_spacing
        rise = self.rise
        if not math.isfinite(a + b + c + d + size * h_scale + char_spacing + word_spacing + rise):
            raise ValueError("text state out of range")
        scale = size * h_scale                       # glyph advance (text space x) per em
        x_unit = math.hypot(a, b)                    # viewer length of one text-space unit along x
        y_unit = math.hypot(c, d)
        sign = -1.0 if scale < 0 else 1.0
        if x_unit > 0.0:
            dx = a / x_unit * sign + 0.0             # + 0.0: no negative zeros in the records
            dy = b / x_unit * sign + 0.0
        else:
            dx, dy = 1.0, 0.0
        em = abs(size) * y_unit
        fm = font.font_matrix
        fm_x = fm[0]
        fm_y = abs(fm[3])
        extent = font.ascent - font.descent
        if extent > 0.0:
            height = extent * fm_y * em
            descent = max(-font.descent, 0.0) * fm_y * em
        else:
            height = em                              # font gives no ascent/descent: a 1 em box
            descent = FALLBACK_DESCENT_SHARE * em
        if y_unit > 0.0:
            lift = (height * 0.5 - descent) / y_unit * (-1.0 if size < 0 else 1.0)  # box centre above baseline
            centre_x = c * lift
            centre_y = d * lift
        else:
            centre_x = centre_y = 0.0
        em *= font.em_scale                          # the glyphs' size: a Type3 font's em may differ
        flags = (self.form_flag | (INVISIBLE if self.render_mode in _INVISIBLE_MODES else 0)
                 | (TEXT_RISE if rise != 0.0 else 0))
        size_x = size * fm_x                         # glyph units → text-space advance, before Th
        space_spacing = char_spacing + word_spacing
        advance_x = scale * fm_x * a                 # glyph units → viewer-space font advance
        advance_y = scale * fm_x * b
        advance_unit = x_unit * sign                 # pen move (text space) → signed viewer length
        state = (a, b, h_scale, size_x, char_spacing, space_spacing, advance_x, advance_y, advance_unit)
        placements, code_bytes = self.placement_table(font, state)
        return TextSetup(a, b, scale, rise * c, rise * d, dx, dy, height, descent, em, centre_x, centre_y,
                         font.name, flags, self.mcid, state, font.decode, placements, code_bytes)

    def placement_table(self, font: Font, state: tuple) -> tuple:
        """(code → placement dict, bytes per code) under a text state, or (None, 0).

        A placement depends only on the font, the code and these values, so every line set in the
        same font and size (Td and Tm translations included) shares one table: show() then does
        one lookup per glyph. Only fonts whose codes are read straight from the bytes qualify
        (Font.code_reader: simple fonts, CID fonts with the two-byte Identity codespace), and
        none when FAST_PATHS is off."""
        reader = font.code_reader() if FAST_PATHS else None
        if reader is None:
            return None, 0
        char_of, code_bytes = reader
        key = (id(font), _PLACEMENT_KEY(*state))
        entry = self.placements.get(key)
        if entry is None or entry[0] is not font:   # the font is kept in the entry: its id is not reused
            if len(self.placements) >= MAX_PLACEMENT_STATES:
                self.placements.clear()
            entry = self.placements[key] = (font, _PlacementTable(state, char_of))
        return entry[1], code_bytes

    def show_vertical(self, font: Font, items) -> None:
        """Vertical writing (WMode 1): the pen moves down by w1; glyphs stand on a vertical centre line."""
        ta, tb, tc, td, te, tf = self.tm
        ca, cb, cc, cd, ce, cf = self.ctm
        a = ta * ca + tb * cc
        b = ta * cb + tb * cd
        c = tc * ca + td * cc
        d = tc * cb + td * cd
        e = te * ca + tf * cc + ce
        f = te * cb + tf * cd + cf
        size = self.font_size
        char_spacing = self.char_spacing
        word_spacing = self.word_spacing
        rise = self.rise
        if not math.isfinite(a + b + c + d + e + f + size * self.h_scale + char_spacing + word_spacing + rise):
            raise ValueError("text state out of range")
        x_unit = math.hypot(a, b)
        y_unit = math.hypot(c, d)
        sign = -1.0 if size < 0 else 1.0
        if y_unit > 0.0:
            dx = -c / y_unit * sign + 0.0            # writing runs along −y of text space
            dy = -d / y_unit * sign + 0.0
        else:
            dx, dy = 0.0, 1.0
        advance_unit = -y_unit * sign
        em = abs(size) * y_unit
        height = abs(size * self.h_scale) * x_unit   # the box across the column: 1 em wide
        across_sign = -1.0 if size * self.h_scale < 0 else 1.0
        if x_unit > 0.0:                             # unit vector across the column (text-space x)
            across_x = a / x_unit * across_sign
            across_y = b / x_unit * across_sign
        else:
            across_x, across_y = 1.0, 0.0
        fm = font.font_matrix
        fm_x = abs(fm[0])
        fm_y = fm[3]
        across_scale = size * self.h_scale
        extent = font.ascent - font.descent
        if extent > 0.0:                             # box of the horizontal twin
            flat_height = extent * abs(fm_y) * em
            flat_descent = max(-font.descent, 0.0) * abs(fm_y) * em
        else:
            flat_height = em
            flat_descent = FALLBACK_DESCENT_SHARE * em
        flags = (self.form_flag | VERTICAL | (INVISIBLE if self.render_mode in _INVISIBLE_MODES else 0)
                 | (TEXT_RISE if rise != 0.0 else 0))
        name = font.name
        mcid = self.mcid
        span = self.span
        charge_glyphs = self.budget.charge_glyphs
        undecodable = 0
        pen = 0.0                                    # pen position along text-space y
        line = None
        for item in items:
            if item.__class__ is not bytes:
                if item.__class__ is int or item.__class__ is float:
                    pen -= item * THOUSANDTH * size
                elif item.__class__ is tuple:        # Td inside a text run
                    line = self.next_line(line, item)
                    te, tf = line
                    e = te * ca + tf * cc + ce
                    f = te * cb + tf * cd + cf
                    pen = 0.0
                continue
            chars = font.decode(item)
            charge_glyphs(len(chars))
            for char in chars:
                font_advance = char.vertical_advance * fm_y * size
                move = font_advance + char_spacing   # ISO 32000-1 §9.4.4: ty = w1×Tfs + Tc + Tw
                if char.is_space:
                    move += word_spacing
                text = char.text
                if not text and span is None:
                    if text is None:
                        undecodable += 1
                    pen += move
                    continue
                x = e + pen * c + rise * c
                y = f + pen * d + rise * d
                end_x = x + font_advance * c
                end_y = y + font_advance * d
                # the position vector v puts the glyph's left edge v.x left of the centre line
                shift = char.position_x * fm_x * abs(size) * x_unit
                descent = shift if shift > 0.0 else height * 0.5
                lift = height * 0.5 - descent
                fields = (dx, dy, height, descent, em, across_x * lift, across_y * lift, name, flags, mcid)
                if span is not None:
                    if span.first is None:
                        span.first = (x, y, fields)
                    span.end_x = end_x
                    span.end_y = end_y
                    span.pen_x = x + move * c
                    span.pen_y = y + move * d
                    pen += move
                    continue
                pen += move
                glyph = Glyph(text, x, y, end_x, end_y, move * advance_unit, dx, dy, height, descent, em, name,
                              flags, mcid)
                if not self.emit([glyph], fields):
                    continue
                # the same glyph read as horizontal text, for producers that place vertical-font
                # glyphs one by one along a line (see straighten_vertical_runs)
                width = char.width * fm_x * across_scale
                left = -char.position_x * fm_x * across_scale
                drop = pen - move + rise - char.position_y * fm_y * size
                twin_x = e + left * a + drop * c
                twin_y = f + left * b + drop * d
                self.twins[id(glyph)] = Glyph(
                    text, twin_x, twin_y, twin_x + width * a, twin_y + width * b, abs(width) * x_unit,
                    across_x, across_y, flat_height, flat_descent, em, name, flags & ~VERTICAL, mcid)
        self.tm = (ta, tb, tc, td, te + pen * tc, tf + pen * td)
        if line is not None:
            self.tlm = (ta, tb, tc, td, te, tf)
        if undecodable:
            self.env.undecodable += undecodable

    # ---- marked content -----------------------------------------------------------------

    def op_begin_marked(self, _operands) -> None:
        self.begin_marked(None, None)

    def op_begin_marked_properties(self, operands) -> None:
        properties = operands[1]
        if isinstance(properties, str):
            properties = self.lookup("/Properties", properties)
        actual_text = mcid = None
        hidden = False
        if isinstance(properties, dict):
            if operands[0] == "OC":
                hidden = self.hidden_layer(properties)
            else:
                actual_text = _text_property(_property(properties, "ActualText"))
                value = _property(properties, "MCID")
                if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                    mcid = int(value)
        self.begin_marked(actual_text, mcid, hidden)

    def hidden_layer(self, group) -> bool:
        """Is content marked with this OCG or OCMD hidden when the document opens?"""
        optional = self.env.optional_content
        return optional is not None and optional.hidden(group)

    def begin_marked(self, actual_text: str | None, mcid: int | None, hidden: bool = False) -> None:
        if len(self.marked) >= MAX_MARKED_DEPTH:
            self.ignored_marks += 1
            return
        if self.forms:
            mcid = None   # an MCID in a form XObject numbers the form's own content, not the page's: keep the page's
        self.setup = None
        span = None
        if actual_text is not None and self.span is None:   # nested ActualText is ignored
            span = self.span = _Span(actual_text, mcid if mcid is not None else self.mcid)
        # a hidden layer draws into a list nobody reads, until its EMC gives the page's back
        self.marked.append((self.mcid, span, self.out if hidden else None))
        if hidden:
            self.out = []
        if mcid is not None:
            self.mcid = mcid

    def op_end_marked(self, _operands) -> None:
        if self.ignored_marks:
            self.ignored_marks -= 1
            return
        if self.marked:
            self.end_marked()

    def end_marked(self) -> None:
        self.mcid, span, shown_out = self.marked.pop()
        self.setup = None
        if shown_out is not None:
            self.env.hidden_glyphs += len(self.out)
            if self.env.dropped is not None:
                self.env.dropped.add(self.out, HIDDEN_LAYER)
            self.out = shown_out
        if span is not None:
            self.span = None
            self.emit_span(span)

    def close_marked_content(self, depth: int) -> None:
        """End the marked-content sequences left open above `depth` (content that forgot EMC)."""
        while len(self.marked) > depth:
            self.end_marked()

    def emit_span(self, span: _Span) -> None:
        """One glyph for an ActualText span, from its first code's origin to its last code's end."""
        if span.first is None or not span.text:
            return
        x, y, fields = span.first
        dx, dy = fields[:2]
        advance = (span.pen_x - x) * dx + (span.pen_y - y) * dy
        self.budget.charge_glyphs(1)    # like any shown glyph: charged whether the clip keeps it or not
        dx, dy, height, descent, em, _, _, name, flags, _ = fields
        self.emit([Glyph(span.text, x, y, span.end_x, span.end_y, advance, dx, dy, height, descent, em, name,
                         flags | ACTUAL_TEXT, span.mcid)], fields)

    def emit(self, glyphs: list, fields: tuple, level: bool = False, extent: tuple | None = None) -> int:
        """Where every glyph is clipped, however its text was shown: each Glyph of `glyphs`, made
        with the fields its string shares (TextSetup[_GLYPH]: dx … em, then the box centre minus
        the baseline point centre_x, centre_y), is kept when its box centre lies inside the clip
        grown by CLIP_MARGIN_EM. `level`: every glyph has y == end_y == the first's, so y is
        tested once. `extent` (level only): (lowest and highest x of the glyph origins, least and
        greatest end_x - x), bounds that let the whole text be kept at once when they lie inside.
        Returns how many were kept."""
        if not glyphs:
            return 0
        centre_x, centre_y = fields[5:7]
        x0, y0, x1, y1 = _EVERYWHERE if self.clip is None else _grown(self.clip, CLIP_MARGIN_EM * fields[4])
        if level:
            if not y0 <= glyphs[0][2] + centre_y <= y1:
                kept = []
            else:
                if extent is not None:
                    low, high, least_width, greatest_width = extent
                    # the centre test is monotonic in x and in the advance (so is float rounding):
                    # the extremes bound every glyph's centre, and a text inside needs no test per glyph
                    if (x0 <= (low + (low + least_width)) * 0.5 + centre_x
                            and (high + (high + greatest_width)) * 0.5 + centre_x <= x1):
                        self.out.extend(glyphs)
                        return len(glyphs)
                kept = [g for g in glyphs if x0 <= (g[1] + g[3]) * 0.5 + centre_x <= x1]
        else:
            kept = [g for g in glyphs
                    if x0 <= (g[1] + g[3]) * 0.5 + centre_x <= x1 and y0 <= (g[2] + g[4]) * 0.5 + centre_y <= y1]
        if len(kept) != len(glyphs) and self.env.dropped is not None:
            kept_ids = set(map(id, kept))
            self.env.dropped.add([g for g in glyphs if id(g) not in kept_ids], OUTSIDE_CROP)
        self.out.extend(kept)
        return len(kept)

    # ---- XObjects -----------------------------------------------------------------------

    def op_xobject(self, operands) -> None:
        name = operands[0]
        if not isinstance(name, str):
            raise TypeError("XObject name")
        xobject = self.lookup("/XObject", name)
        if xobject is None or not hasattr(xobject, "get"):
            return
        try:
            subtype = xobject.get("/Subtype")
        except _BUDGET_ERRORS:
            raise
        except Exception:
            return
        if subtype not in ("/Image", "/Form"):  # anything else carries no text
            return
        layer = xobject.get("/OC")
        if layer is not None and self.hidden_layer(resolve(layer)):
            return                          # in a layer hidden when the document opens
        if subtype == "/Image":
            self.paint_image()
            if len(self.env.images) < MAX_RECORDED_IMAGES:
                self.env.images.append((xobject, self.ctm))   # where it lands: what OCR reads
            return
        reference = getattr(xobject, "indirect_reference", None)
        key = (reference.idnum, reference.generation) if reference is not None else id(xobject)
        if key in self.forms:
            self.warn(("form cycle", key), warning("form-cycle", name=name))
            return
        if len(self.forms) >= self.env.limits.form_depth:
            self.warn("form depth", warning("form-too-deep", limit=self.env.limits.form_depth))
            return
        content = self.form_contents.get(key)
        if content is None:
            try:
                content = self.env.read_stream(xobject)
            except _BUDGET_ERRORS:
                raise
            except Exception:
                self.warn(("form unreadable", name), warning("form-unreadable", name=name))
                return
            if not isinstance(content, bytes):
                return
            self.form_contents[key] = content   # a form drawn again on the page is decoded once
        if not content:
            return
        form_resources = resolve(xobject.get("/Resources"))
        matrix = _matrix(xobject.get("/Matrix")) or IDENTITY
        self.run_form(key, content, form_resources if isinstance(form_resources, dict) else self.resources,
                      matrix, _form_bbox(xobject.get("/BBox")))

    def op_inline_image(self, operands) -> None:
        self.paint_image()

    def paint_image(self) -> None:
        """An image fills the unit square of the CTM; its area tells a scanned page from a blank one."""
        a, b, c, d = self.ctm[:4]
        self.env.image_area += abs(a * d - b * c)
        if self.paths is not None:
            self.paths.image(self.ctm)   # a small image at a line's start may be its bullet

    def run_form(self, key, content: bytes, resources, matrix: tuple, bbox: tuple | None = None) -> None:
        """Run a form's content as if inside q … Q with its matrix; the caller's text object survives it.
        `bbox`: the form's /BBox, which clips what it draws (ISO 32000-1 §8.10.1): glyphs outside it
        are not on the page (the clip window becomes its intersection with the box, in viewer space)."""
        caller = (self.state(), self.resources, self.tm, self.tlm, self.form_flag,
                  len(self.saved), self.ignored_saves, self.clip)
        marked_depth = len(self.marked)
        drawn_state = self.paths.graphics_state() if self.paths is not None else None
        self.ctm = _multiply(matrix, self.ctm)
        if bbox is not None and self.clip is not None:
            self.clip = _clipped_to(self.clip, bbox, self.ctm)
        self.form_flag = IN_FORM | self.source_flags
        self.setup = None
        self.forms.append(key)
        try:
            self.run(content, resources)
        finally:
            self.forms.pop()
            self.close_marked_content(marked_depth)
            (state, self.resources, self.tm, self.tlm, self.form_flag, save_depth, self.ignored_saves,
             self.clip) = caller
            del self.saved[save_depth:]     # q without Q inside the form
            self.set_state(state)
            if drawn_state is not None:
                self.paths.set_graphics_state(drawn_state, save_depth)


def _form_bbox(value) -> tuple | None:
    """A form's /BBox, or None (no clip) when it is missing, not four numbers, or flat: a
    degenerate box is taken as "not set", as the page's visible box is."""
    box = rectangle(value)
    if box is None:
        return None
    return None if box[2] <= box[0] or box[3] <= box[1] else box


def _clipped_to(clip: tuple, bbox: tuple, ctm: tuple) -> tuple:
    """The clip window `clip` (viewer space) cut to the bounding box of `bbox` under `ctm`. A box
    turned by other than a right angle is cut to its bounding box, which keeps a little more than
    it shows. A box wholly outside the window leaves an empty window (x1 < x0): nothing is kept."""
    box = transformed_bounds(bbox, ctm)
    if not all(map(math.isfinite, box)):
        return clip
    return (max(clip[0], box[0]), max(clip[1], box[1]), min(clip[2], box[2]), min(clip[3], box[3]))


def transformed_bounds(box: tuple, m: tuple) -> tuple:
    """The axis-aligned bounds of `box` after the matrix `m`."""
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def _grown(clip: tuple, margin: float) -> tuple:
    """The clip box grown by `margin` on every side (the glyph-size tolerance of CLIP_MARGIN_EM)."""
    return clip[0] - margin, clip[1] - margin, clip[2] + margin, clip[3] + margin


def _property(properties: dict, key: str):
    """A marked-content property from an inline dict (keys without '/') or a pypdf one."""
    value = properties.get(key)
    if value is None:
        value = properties.get("/" + key)
    return resolve(value)


def _text_property(value) -> str | None:
    if isinstance(value, str):          # pypdf already decoded the text string
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return decode_text_string(bytes(value))
    return None
