"""Annotation glyph source: the text a viewer draws on a page for its annotations (ISO 32000-1 §12.5).

Filled form fields (Widget annotations), FreeText boxes, stamps and signature appearances are
not page content: each annotation carries its own appearance stream (/AP /N, a Form XObject),
which a viewer paints into the annotation's /Rect. This module runs those streams through the
same content interpreter as the page, so they yield the same Glyph records, flagged ANNOTATION.

Geometry (§12.5.5): the form's /BBox is transformed by its /Matrix, the bounding box of the
result is fitted to /Rect by a scale and a translation A, and the content runs with
Matrix × A × (user space → viewer space). Which annotations are shown follows the peers'
(pdftotext, MuPDF) *viewing* rules, not printing: Hidden and NoView are skipped, the Print
flag is not required; an annotation in a layer hidden at opening (/OC) is skipped too.
A text or choice field with a value but no appearance is drawn from its /V with the /DA font
size, as viewers generate it (a FreeText without one, from /Contents); a list box drawn anew
shows its options (/Opt from /TI on), as many as fit its height.
A broken annotation costs only itself: one warning, the page's other text stays.
"""
from __future__ import annotations

import math
import re
import unicodedata

from ..errors import BudgetExceeded
from ..fonts.standard14 import metrics, standard_name
from ..glyph import ANNOTATION, Glyph
from ..limits import PageBudgetExceeded
from ..notices import warning
from ..pdfobjects import flag, rectangle, resolve
from .env import PageEnv
from .interpreter import IDENTITY, _matrix, _multiply, decode_text_string, interpret, transformed_bounds

# annotation flags (ISO 32000-1 Table 165)
FLAG_INVISIBLE = 1      # an unknown annotation type without a handler is not shown
FLAG_HIDDEN = 2         # never shown or printed
FLAG_NO_VIEW = 32       # printed but not shown on screen: the peers extract what the screen shows
# field flags (Tables 221, 228, 230)
FIELD_MULTILINE = 1 << 12
FIELD_PASSWORD = 1 << 13
FIELD_COMBO = 1 << 17   # a choice field that is a combo box (shows its value); without it, a list box

SKIPPED_SUBTYPES = ("/Popup", "/Link")   # a popup repeats its parent's /Contents; a link paints no text
STANDARD_SUBTYPES = frozenset((
    "/Text", "/Link", "/FreeText", "/Line", "/Square", "/Circle", "/Polygon", "/PolyLine", "/Highlight",
    "/Underline", "/Squiggly", "/StrikeOut", "/Stamp", "/Caret", "/Ink", "/Popup", "/FileAttachment",
    "/Sound", "/Movie", "/Widget", "/Screen", "/PrinterMark", "/TrapNet", "/Watermark", "/3D", "/Redact",
))
VALUE_FIELD_TYPES = ("/Tx", "/Ch")      # fields whose value is text a viewer draws when there is no appearance
MAX_FIELD_DEPTH = 32                    # /Parent chain of a field; real forms nest a few levels
MAX_LIST_BOX_OPTIONS = 1000            # options read from one list box; only those that fit its height are drawn
MAX_PROBLEMS_LISTED = 1                 # a page of broken annotations gives one warning naming the first
# drawing a value without an appearance, the way viewers generate one
VALUE_PADDING = 2.0                     # pt between the field's edge and its text (Acrobat's, pdf.js's and poppler's)
VALUE_LINE_PITCH_EM = 1.15              # baseline to baseline in a multi-line field, in font sizes
AUTO_SIZE_MAX = 12.0                    # /DA font size 0 means "fit the field"; viewers stop growing at 12 pt
DEFAULT_FONT = "Helvetica"              # what viewers use when /DA names no font they know
_DA_FONT = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s+([-+]?(?:\d+\.?\d*|\.\d+))\s+Tf")
_BUDGET_ERRORS = (PageBudgetExceeded, BudgetExceeded)
_RTL_CLASSES = ("R", "AL", "AN")


def annotation_glyphs(page_obj, acroform, page_matrix: tuple, env: PageEnv, out: list[Glyph]) -> None:
    """Append the glyphs of the page's visible annotations to `out`.

    `page_matrix` maps the page's user space to viewer space; `acroform` is the catalog's
    /AcroForm (default resources and appearance string for fields), or None."""
    annots = resolve(page_obj.get("/Annots")) if hasattr(page_obj, "get") else None
    if not isinstance(annots, list):
        return
    limit = env.limits.annotations_per_page
    if len(annots) > limit:
        env.warnings.append(warning("annotations-capped", count=len(annots), limit=limit))
        annots = annots[:limit]
    form = _FormDefaults(acroform)
    problems: list[str] = []
    known = len(env.warnings)
    for number, ref in enumerate(annots, 1):
        try:
            problem = _draw_annotation(ref, form, page_matrix, env, out)
        except _BUDGET_ERRORS:
            raise
        except RecursionError:
            problem = "is nested too deeply"
        except Exception as exc:   # a hostile annotation costs only itself
            problem = f"could not be read ({type(exc).__name__})"
        if problem:
            problems.append(f"annotation {number} {problem}")
    # each appearance runs in its own interpreter: a font missing from 300 fields is one warning, not 300
    env.warnings[known:] = list(dict.fromkeys(w for w in env.warnings[known:] if w not in env.warnings[:known]))
    if problems:
        listed = "; ".join(problems[:MAX_PROBLEMS_LISTED])
        more = f" (+{len(problems) - MAX_PROBLEMS_LISTED} more)" if len(problems) > MAX_PROBLEMS_LISTED else ""
        env.warnings.append(warning("annotations-skipped", count=len(problems), detail=listed + more))


def xfa_warning(catalog) -> str | None:
    """A warning for an XFA form whose field contents only an XFA renderer draws, or None."""
    catalog = resolve(catalog)
    if not hasattr(catalog, "get"):
        return None
    acroform = resolve(catalog.get("/AcroForm"))
    xfa = resolve(acroform.get("/XFA")) if hasattr(acroform, "get") else None
    needs_rendering = flag(catalog, "/NeedsRendering")
    if xfa is None and not needs_rendering:
        return None
    fields = resolve(acroform.get("/Fields")) if hasattr(acroform, "get") else None
    if needs_rendering or not fields:
        return warning("xfa-form")
    return None


class _FormDefaults:
    """What the document's /AcroForm gives every field: resources, appearance string, alignment."""

    def __init__(self, acroform):
        acroform = resolve(acroform)
        if not hasattr(acroform, "get"):
            acroform = {}
        resources = resolve(acroform.get("/DR"))
        self.resources = resources if hasattr(resources, "get") else None
        fonts = resolve(self.resources.get("/Font")) if self.resources is not None else None
        self.fonts = fonts if hasattr(fonts, "items") and fonts else None
        self.appearance = acroform.get("/DA")
        self.quadding = acroform.get("/Q")
        self.need_appearances = flag(acroform, "/NeedAppearances")


def _draw_annotation(ref, form: _FormDefaults, page_matrix: tuple, env: PageEnv, out: list) -> str | None:
    """Draw one annotation; a short reason when it is broken, None when drawn or rightly skipped."""
    annot = resolve(ref)
    if not hasattr(annot, "get"):
        return "is not a dictionary"
    subtype = resolve(annot.get("/Subtype"))
    if subtype in SKIPPED_SUBTYPES:
        return None
    flags = _integer(annot.get("/F"))
    if flags & (FLAG_HIDDEN | FLAG_NO_VIEW):
        return None
    layer = annot.get("/OC")
    if layer is not None and env.optional_content is not None and env.optional_content.hidden(resolve(layer)):
        return None                           # in a layer hidden when the document opens
    if flags & FLAG_INVISIBLE and subtype not in STANDARD_SUBTYPES:
        return None
    rect = rectangle(annot.get("/Rect"))
    if rect is None:
        return "has no usable /Rect"
    if rect[2] - rect[0] <= 0.0 or rect[3] - rect[1] <= 0.0:
        return None                       # a zero-area annotation shows nothing (unsigned signature fields)
    appearance, problem = _normal_appearance(annot)
    value = _value(annot, subtype)
    # a form with /NeedAppearances asks viewers to draw field values anew: its appearances may be stale
    if appearance is not None and not (value is not None and subtype == "/Widget" and form.need_appearances):
        _run_appearance(appearance, rect, form, page_matrix, env, out)
    elif value is not None:
        _draw_value(value, rect, form, page_matrix, env, out)
    return problem


def _normal_appearance(annot) -> tuple:
    """(the /AP /N stream to draw or None, a problem or None); /AS chooses a state of a checkbox or radio button."""
    appearances = resolve(annot.get("/AP"))
    if appearances is None:
        return None, None
    if not hasattr(appearances, "get"):
        return None, "has a broken appearance (/AP is not a dictionary)"
    normal = resolve(appearances.get("/N"))
    if normal is None:
        return None, None
    if _is_stream(normal):
        return normal, None
    if not hasattr(normal, "get"):
        return None, "has a broken appearance (/N is neither a stream nor a dictionary)"
    state = resolve(annot.get("/AS"))
    if not isinstance(state, str):
        return None, None                 # states without /AS: the spec leaves it unshown
    chosen = resolve(normal.get(state))
    if chosen is None:
        return None, None                 # e.g. /AS /Off with no Off appearance: nothing drawn
    if not _is_stream(chosen):
        return None, f"has a broken appearance (state {state} is not a stream)"
    return chosen, None


def _run_appearance(stream, rect: tuple, form: _FormDefaults, page_matrix: tuple, env: PageEnv, out: list) -> None:
    """The form fitted to /Rect by the algorithm of §12.5.5, run in viewer space."""
    matrix = _matrix(stream.get("/Matrix")) or IDENTITY
    bbox = rectangle(stream.get("/BBox"))
    if bbox is None:                      # no /BBox: take the Rect's own size at the origin
        bbox = (0.0, 0.0, rect[2] - rect[0], rect[3] - rect[1])
    x0, y0, x1, y1 = transformed_bounds(bbox, matrix)
    if x1 - x0 <= 0.0 or y1 - y0 <= 0.0:
        fit = (1.0, 0.0, 0.0, 1.0, rect[0], rect[1])   # a flat BBox: only move it to the Rect (as pdf.js does)
    else:
        sx = (rect[2] - rect[0]) / (x1 - x0)
        sy = (rect[3] - rect[1]) / (y1 - y0)
        fit = (sx, 0.0, 0.0, sy, rect[0] - x0 * sx, rect[1] - y0 * sy)
    ctm = _multiply(_multiply(matrix, fit), page_matrix)
    content = env.read_stream(stream)
    if not content:
        return
    resources = _with_form_fonts(resolve(stream.get("/Resources")), form)
    reference = getattr(stream, "indirect_reference", None)
    key = (reference.idnum, reference.generation) if reference is not None else id(stream)
    interpret(content, resources, ctm, env, in_form=True, out=out, flags=ANNOTATION, form_key=key)


def _with_form_fonts(resources, form: _FormDefaults):
    """The appearance's resources, with the form's default fonts (/DR) for the names they lack, as viewers do."""
    if not hasattr(resources, "get"):
        return form.resources
    if form.fonts is None:
        return resources
    own = resolve(resources.get("/Font"))
    own = own if hasattr(own, "items") else {}
    if all(name in own for name in form.fonts):
        return resources
    merged = dict(resources)
    merged["/Font"] = {**form.fonts, **own}
    return merged


# ---------------------------------------------------------------- values without an appearance

def _value(annot, subtype) -> tuple | None:
    """(text, multi-line, /DA, /Q, list box) a viewer draws for a field or FreeText without an
    appearance, or None."""
    list_box = False
    if subtype == "/Widget":
        field_type = resolve(_inherited(annot, "/FT"))
        field_flags = _integer(_inherited(annot, "/Ff"))
        if field_type not in VALUE_FIELD_TYPES or field_flags & FIELD_PASSWORD:
            return None                   # buttons draw states, not values; a password shows only dots
        raw = resolve(_inherited(annot, "/V"))
        text = _value_text(raw)
        multiline = bool(field_flags & FIELD_MULTILINE) or isinstance(raw, list)
        if field_type == "/Ch" and not field_flags & FIELD_COMBO:
            options = _list_box_options(annot)
            if options:                   # a list box shows its options, the chosen ones highlighted
                text, multiline, list_box = "\n".join(options), True, True
        appearance, quadding = _inherited(annot, "/DA"), _inherited(annot, "/Q")
    elif subtype == "/FreeText":
        text = _value_text(annot.get("/Contents"))
        multiline = True
        appearance, quadding = annot.get("/DA"), annot.get("/Q")
    else:
        return None
    if not text or not text.strip():
        return None
    return text, multiline, appearance, quadding, list_box


def _list_box_options(annot) -> list[str]:
    """The options a list box shows from its top index (/TI) on: /Opt items are text strings or
    [export value, display text] pairs (§12.7.4.4)."""
    options = resolve(_inherited(annot, "/Opt"))
    if not isinstance(options, list):
        return []
    shown = []
    for item in options[max(_integer(annot.get("/TI")), 0):][:MAX_LIST_BOX_OPTIONS]:
        item = resolve(item)
        if isinstance(item, list):
            item = resolve(item[-1]) if item else ""
        shown.append(" ".join(_value_text(item).split()))
    return shown


def _draw_value(value: tuple, rect: tuple, form: _FormDefaults, page_matrix: tuple, env: PageEnv, out: list) -> None:
    text, multiline, appearance, quadding, list_box = value
    resource_name, size = _appearance_font(appearance if appearance is not None else form.appearance)
    if quadding is None:
        quadding = form.quadding
    lines = text.splitlines() if multiline else [" ".join(text.splitlines())]
    _place_lines(lines, rect, _standard_font(resource_name, form), size, _integer(quadding),
                 multiline, page_matrix, env, out, fit=list_box)


def _place_lines(lines: list[str], rect: tuple, font_name: str, size: float, quadding: int, multiline: bool,
                 page_matrix: tuple, env: PageEnv, out: list, fit: bool = False) -> None:
    """Glyphs for `lines` set in `font_name` inside `rect` (user space), left/centred/right by /Q;
    with `fit` (a list box, which scrolls) only the lines whose descent stays inside `rect`."""
    font = metrics(font_name) or metrics(DEFAULT_FONT)
    widths = font.character_widths
    default_width = widths.get("default", 500)
    ascent = font.font_descriptor.ascent / 1000.0
    descent = -font.font_descriptor.descent / 1000.0
    extent = ascent + descent if ascent + descent > 0.0 else 1.0
    x0, y0, x1, y1 = rect
    inner_height = max(y1 - y0 - 2.0 * VALUE_PADDING, 0.0)
    if size <= 0.0:
        size = AUTO_SIZE_MAX if multiline else min(AUTO_SIZE_MAX, inner_height / extent)
    if size <= 0.0:
        return
    if multiline:
        baseline = y1 - VALUE_PADDING - ascent * size
    else:                                 # one line, centred vertically like viewers do
        baseline = y0 + (y1 - y0 - extent * size) / 2.0 + descent * size
    a, b, c, d, e, f = page_matrix
    unit = math.hypot(a, b) or 1.0
    dx, dy = a / unit, b / unit
    height = extent * size * unit
    below = descent * size * unit
    em = size * unit
    up_x, up_y = c / unit, d / unit
    lift = height * 0.5 - below
    clip = None if env.keep_outside else env.clip
    if clip is not None and (clip[2] <= clip[0] or clip[3] <= clip[1]):
        clip = None
    for line in lines:
        if fit and baseline - descent * size < y0:
            break
        if any(unicodedata.bidirectional(char) in _RTL_CLASSES for char in line):
            from ..bidi import logical_to_visual   # late: glyphline.open() alone stays light

            line = logical_to_visual(list(line))          # a viewer paints right-to-left text in visual order
        advances = [widths.get(char, default_width) * size / 1000.0 for char in line]
        width = sum(advances)
        if quadding == 1:
            x = x0 + (x1 - x0 - width) / 2.0
        elif quadding == 2:
            x = x1 - VALUE_PADDING - width
        else:
            x = x0 + VALUE_PADDING
        env.budget.charge_glyphs(len(line))
        for char, advance in zip(line, advances):
            vx, vy = a * x + c * baseline + e, b * x + d * baseline + f
            end_x, end_y = vx + advance * a, vy + advance * b
            x += advance
            # the box centre, as the interpreter tests it: up from the baseline along user-space y
            centre_x = (vx + end_x) * 0.5 + up_x * lift
            centre_y = (vy + end_y) * 0.5 + up_y * lift
            if clip is not None and not (clip[0] <= centre_x <= clip[2] and clip[1] <= centre_y <= clip[3]):
                continue
            out.append(Glyph(char, vx, vy, end_x, end_y, advance * unit, dx, dy, height, below, em,
                             font_name, ANNOTATION))
        baseline -= VALUE_LINE_PITCH_EM * size


def _appearance_font(appearance) -> tuple:
    """(font resource name or None, size) from a default appearance string such as '/Helv 0 Tf 0 g'."""
    appearance = resolve(appearance)
    if isinstance(appearance, str):
        raw = appearance.encode("latin-1", "replace")
    elif isinstance(appearance, (bytes, bytearray)):
        raw = bytes(appearance)
    else:
        return None, 0.0
    found = None
    for found in _DA_FONT.finditer(raw[:4096]):   # the last Tf counts; a /DA is a few dozen bytes
        pass
    if found is None:
        return None, 0.0
    size = float(found.group(2))
    return found.group(1).decode("latin-1"), abs(size) if math.isfinite(size) else 0.0


def _standard_font(resource_name: str | None, form: _FormDefaults) -> str:
    """The standard-14 font whose widths set the value: the /DR font's, else Helvetica."""
    if resource_name is None or form.resources is None:
        return DEFAULT_FONT
    fonts = resolve(form.resources.get("/Font"))
    font = resolve(fonts.get("/" + resource_name)) if hasattr(fonts, "get") else None
    base = resolve(font.get("/BaseFont")) if hasattr(font, "get") else None
    if not isinstance(base, str):
        return DEFAULT_FONT
    return standard_name(base.lstrip("/").split("+")[-1]) or DEFAULT_FONT


def _inherited(annot, key: str):
    """A field attribute from the widget or the nearest /Parent field that has it (§12.7.3.1)."""
    node = annot
    seen = set()
    for _ in range(MAX_FIELD_DEPTH):
        if not hasattr(node, "get") or id(node) in seen:
            return None
        seen.add(id(node))
        value = node.get(key)
        if value is not None:
            return value
        node = resolve(node.get("/Parent"))
    return None


def _value_text(value) -> str:
    """A field value as text: a text string, or the choices of a list joined by line breaks."""
    value = resolve(value)
    if isinstance(value, list):
        return "\n".join(_value_text(item) for item in value[:MAX_FIELD_DEPTH])
    if isinstance(value, str) and type(value).__name__ != "NameObject":   # a name is a button state
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return decode_text_string(bytes(value))
    return ""


# ---------------------------------------------------------------- small readers

def _is_stream(obj) -> bool:
    return hasattr(obj, "get_data") and hasattr(obj, "get")


def _integer(value) -> int:
    value = resolve(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0
    return int(value)
