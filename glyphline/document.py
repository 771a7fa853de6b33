"""Document stage: PDF bytes → pages (visible box, rotation, resources) via pypdf's object layer.

Knows nothing about text: it opens and decrypts the file, walks the page tree with its own
cycle and depth checks, resolves inherited attributes, reads streams within the budgets and
hands each page's content to the content interpreter.
"""
from __future__ import annotations

import builtins
import gc
import io
import logging
import re
import threading
import weakref
from array import array
from collections.abc import MutableMapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from . import filters
from .content.env import PageEnv
from .content.sources import PageInput
from .content.sources import sources as glyph_sources
from .errors import BudgetExceeded, DamagedPDF, NotAPDF, PasswordRequired
from .fonts.style import FontStyle
from .glyph import DropLog, Glyph
from .limits import DocumentBudget, Limits, PageBudget, PageBudgetExceeded
from .notices import warning
from .pdfobjects import resolve

if TYPE_CHECKING:
    from .content.links import LinkArea

DEFAULT_MEDIA_BOX = (0.0, 0.0, 612.0, 792.0)  # US Letter: what viewers assume when /MediaBox is missing
HEADER_SEARCH_BYTES = 1024                      # viewers accept junk before %PDF- within the first KiB
HEADLESS_OBJECT_BYTES = 65536                   # a file without a header must show an object this early to be repaired
FILE_SCAN_BYTES = 1 << 20                       # a headless file's scan for objects reads it a MiB at a time, not whole
MAX_PAGE_WARNINGS = 50                          # a hostile page cannot flood the warnings list
COMPACT_XREF_MIN_OBJECTS = 256                  # below this pypdf's dict costs little (its numbers are Python's shared small ints)
COMPACT_XREF_SPARSENESS = 4                     # a table whose numbers spread over more than 4x its entries stays a dict
MARKED_OBJECT_NUMBERS = 1 << 20                 # charged streams of numbers below this are bits (128 KiB at most), others a set
INHERITABLE = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
# the page-tree walk reads plain page dictionaries from the file's bytes (not pypdf's cache) from this
# many pages declared: below it the dictionaries held (~2 KB a page) matter less than loading the reader
PLAIN_WALK_MIN_PAGES = 64
# allocations between young-generation collections while a page is interpreted: a page makes
# ~10⁵ acyclic glyph records, and the default (700) rescans them (and every older object) for nothing
GC_GEN0_THRESHOLD = 50_000
# young collections between full ones while pages are worked on: page work leaves no cyclic garbage,
# so a full pass would only rescan the layouts kept for the document (0.3 s of 4 s on 800 pages)
GC_FULL_THRESHOLD = 1_000

_pypdf_logger = logging.getLogger("pypdf")


class _WarningCollector(logging.Handler):
    """Turns pypdf's repair messages into document warnings instead of stderr noise."""

    def __init__(self, sink: list[str], cap: int):
        super().__init__(logging.WARNING)
        self.sink = sink
        self.cap = cap

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.sink) < self.cap:
            self.sink.append(warning("repaired", detail=_OBJECT_ADDRESS.sub(r"\1)", record.getMessage())[:200]))


# pypdf's messages print IndirectObject(num, gen, id(pdf)): the address changes from run to run
_OBJECT_ADDRESS = re.compile(r"(IndirectObject\(\d+, \d+), \d+\)")


_gc_lock = threading.Lock()
_gc_state = {"users": 0, "saved": None}   # pages being interpreted now (threads), the threshold to restore


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect less often while any page (or a whole extraction) is worked on; the last one out restores it."""
    with _gc_lock:
        if _gc_state["users"] == 0:
            old = gc.get_threshold()
            _gc_state["saved"] = old
            if old[0] and old[0] < GC_GEN0_THRESHOLD:    # 0: the caller turned automatic collection off
                gc.set_threshold(GC_GEN0_THRESHOLD, old[1], max(old[2], GC_FULL_THRESHOLD))
        _gc_state["users"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_state["users"] -= 1
            if _gc_state["users"] == 0:
                gc.set_threshold(*_gc_state["saved"])


def _forget_content_stream(reader, segment) -> None:
    """Let pypdf's object cache go of a page's content stream once it is read: a page is
    interpreted once, and a long document would otherwise keep every page's stream, raw and
    decoded. A stream named by reference is read from the file again if asked for again; a
    direct one only drops its decoded copy (what pypdf itself does for xref streams)."""
    if type(segment).__name__ == "IndirectObject":
        cache = getattr(reader, "resolved_objects", None)
        if isinstance(cache, dict):
            cache.pop((segment.generation, segment.idnum), None)
        return
    if getattr(segment, "decoded_self", None) is not None:
        segment.decoded_self = None


@contextmanager
def _collect_pypdf_warnings(sink: list[str], cap: int = MAX_PAGE_WARNINGS) -> Iterator[None]:
    handler = _WarningCollector(sink, cap)
    old_propagate = _pypdf_logger.propagate
    _pypdf_logger.addHandler(handler)
    _pypdf_logger.propagate = False
    try:
        yield
    finally:
        _pypdf_logger.removeHandler(handler)
        _pypdf_logger.propagate = old_propagate


def _pypdf_limits(limits: Limits, remaining: int | None = None):
    """pypdf's own decoders stop at these sizes without allocating more (decompression bombs)."""
    from pypdf._configuration import apply_configuration

    n = limits.stream_bytes if remaining is None else max(1, min(limits.stream_bytes, remaining))
    return apply_configuration(
        zlib_maximum_output_length=n, lzw_maximum_output_length=n, run_length_maximum_output_length=n,
        brotli_maximum_output_length=n, array_based_stream_maximum_output_length=n,
        jbig2_maximum_output_length=n, stream_decoding_work_maximum_length=max(n, 4 * n),
        page_tree_maximum_depth=limits.page_tree_depth,
    )


def _number(obj: Any, default: float) -> float:
    obj = resolve(obj)
    try:
        value = float(obj)
    except (TypeError, ValueError):
        return default
    return value if value == value and abs(value) < 1e7 else default  # NaN and absurd sizes


def _rectangle(obj: Any) -> tuple[float, float, float, float] | None:
    obj = resolve(obj)
    if not isinstance(obj, (list, tuple)) or len(obj) != 4:
        return None
    values = [_number(v, float("nan")) for v in obj]
    if any(v != v for v in values):
        return None
    x0, y0, x1, y1 = values
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    return (x0, y0, x1, y1)


def _intersect(a, b):
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x1 - x0 >= 1 and y1 - y0 >= 1 else None


def _page_drawing(limits: Limits):
    from .content.paths import PageDrawing   # structured outputs only: a plain run never imports it

    return PageDrawing(limits.drawn_items_per_page)


def viewer_matrix(box, rotation: int) -> tuple:
    """User space → viewer space: origin top-left of the visible box, y down, /Rotate applied clockwise."""
    x0, y0, x1, y1 = box
    if rotation == 90:
        return (0.0, 1.0, 1.0, 0.0, -y0, -x0)
    if rotation == 180:
        return (-1.0, 0.0, 0.0, 1.0, x1, -y0)
    if rotation == 270:
        return (0.0, -1.0, -1.0, 0.0, y1, x1)
    return (1.0, 0.0, 0.0, -1.0, -x0, y1)


class _PageRecord:
    """A leaf of the page tree with its inherited attributes already resolved. One is kept for
    every page of the document, so it holds the page's reference (the one its /Kids entry names)
    rather than its dictionary, and boxes as tuples of floats shared by the pages with the same one.
    A reference of generation 0 (the page's, its /Resources') is kept as its object number, an int,
    and made again when asked for: a pypdf IndirectObject costs ~100 B more, ~200 B a page."""

    __slots__ = ("_obj", "_resources", "_pdf", "_numbers", "media_box", "crop_box", "rotate")   # no dictionary a page

    def __init__(self, obj, attrs: dict):
        self._pdf = None
        self._numbers = 0   # bits: _OBJ_NUMBER, _RESOURCES_NUMBER (which of the two is an object number)
        self._obj = self._kept(obj, _OBJ_NUMBER)
        self._resources = self._kept(attrs.get("/Resources"), _RESOURCES_NUMBER)
        self.media_box, self.crop_box, self.rotate = map(attrs.get, INHERITABLE[1:])

    def _kept(self, value, bit: int):
        """`value` as the record keeps it: a reference of generation 0 to this record's reader as
        its object number (its bit set in _numbers), anything else as it is."""
        if (type(value).__name__ == "IndirectObject" and value.generation == 0 and type(value.idnum) is int
                and value.pdf is not None and (self._pdf is None or value.pdf is self._pdf)):
            self._pdf = value.pdf
            self._numbers |= bit
            return value.idnum
        self._numbers &= ~bit
        return value

    def _given(self, value, bit: int):
        """What _kept took: the reference made again from its object number."""
        if self._numbers & bit:
            from pypdf.generic import IndirectObject   # loaded already: the record came from a reader

            return IndirectObject(value, 0, self._pdf)
        return value

    @property
    def resources(self):
        return self._given(self._resources, _RESOURCES_NUMBER)

    @property
    def ref(self):
        """The page as the record keeps it: its reference, or its dictionary (a direct one)."""
        return self._given(self._obj, _OBJ_NUMBER)

    @property
    def attrs(self) -> dict:
        """The inherited attributes present, by name (INHERITABLE)."""
        values = (self.resources, self.media_box, self.crop_box, self.rotate)
        return {name: value for name, value in zip(INHERITABLE, values) if value is not None}

    @property
    def obj(self):
        """The page dictionary; read from the file again when asked for after forget()."""
        obj = self.ref
        return resolve(obj) if type(obj).__name__ == "IndirectObject" else obj

    def forget(self, reader) -> None:
        """Let pypdf's object cache go of the page dictionary (its names, references and boxes,
        ~2 KB) and keep only its reference: a long document would otherwise keep every page's."""
        obj = self.ref
        ref = obj if type(obj).__name__ == "IndirectObject" else getattr(obj, "indirect_reference", None)
        cache = getattr(reader, "resolved_objects", None)
        if type(ref).__name__ != "IndirectObject" or getattr(ref, "pdf", None) is not reader or not isinstance(cache, dict):
            return
        key = _cache_key(ref)
        # the dictionary pypdf gives for that reference: it can give it again
        if ref is obj and hasattr(cache.get(key), "get") or cache.get(key) is obj:
            del cache[key]
            self._obj = self._kept(ref, _OBJ_NUMBER)


_OBJ_NUMBER, _RESOURCES_NUMBER = 1, 2   # _PageRecord._numbers: which references are kept as object numbers


def _walk_page_tree(root, limits: Limits, reader=None) -> list[_PageRecord]:
    """Depth-first over /Kids with our own cycle and depth checks (hostile trees fail up front).
    A page reached by reference is recorded by that reference (see _PageRecord). With the
    `reader`, a node written plainly in the file is read straight from its bytes (_plain_node)
    and not left in pypdf's cache: pypdf parses a page's dictionary on that page's turn only."""
    if root is None:
        raise DamagedPDF("the document has no page tree (/Root /Pages is missing)")
    cache = getattr(reader, "resolved_objects", None)
    key = _cache_key(root) if type(root).__name__ == "IndirectObject" and isinstance(cache, dict) else None
    cached = key is None or key in cache
    objects = _plain_objects(reader) if _declared_pages(root) >= PLAIN_WALK_MIN_PAGES else None
    records = _walk_nodes(root, limits, objects)
    if objects is not None and not cached:
        # reading its /Count (or the walk, when it is not plain) left the root node in pypdf's cache,
        # with a reference for every page in its /Kids (~120 B a page, to the end): let it go
        cache.pop(key, None)
    return records


def _declared_pages(root) -> int:
    """The page count the root /Pages node declares (/Count; only chooses how the tree is read)."""
    try:
        count = resolve(root).get("/Count")
        return int(count) if isinstance(count, int) else 0
    except Exception:
        return 0


def _plain_objects(reader):
    """The structure reader's plain-object reader over the file's bytes, or None (no reader)."""
    if reader is None:
        return None
    from .plainobjects import PlainObjects   # here: the command line defers pypdf's import to the opening

    return PlainObjects(reader)


def _plain_node(objects, ref):
    """The page-tree node `ref` names read from the file's bytes, not through pypdf (whose cache
    would keep every page's dictionary, ~2 KB a page, from the opening until the page is read),
    when the node is plain (names, integers, references, numbers in boxes) and its inherited attributes are of the
    kinds pypdf would give the same values for; None otherwise (pypdf reads it)."""
    node = objects.plain(ref.idnum, ref.generation, reals=True)
    if node is None:
        return None
    for name in INHERITABLE:
        value = node.get(name)
        if value is None or type(value) is int or type(value).__name__ == "IndirectObject":
            continue
        if not (type(value) is list and len(value) == 4 and all(type(v) in (int, float) for v in value)):
            return None   # a real /Rotate, a box holding references: pypdf's objects, as before
    return node


def _walk_nodes(root, limits: Limits, objects) -> list[_PageRecord]:
    pages: list[_PageRecord] = []
    stack = [(root, {}, 0, ())]
    plain = objects is not None and objects.data is not None
    visits = 0
    boxes: dict[tuple[float, ...], tuple[float, ...]] = {}
    while stack:
        node_ref, inherited, depth, ancestors = stack.pop()
        visits += 1
        if visits > 2_000_000:
            raise DamagedPDF("the page tree has too many nodes")
        key = _object_key(node_ref)
        if key in ancestors:
            raise DamagedPDF("the page tree has a cycle (a /Kids entry points back to an ancestor)")
        if depth > limits.page_tree_depth:
            raise DamagedPDF(f"the page tree is deeper than {limits.page_tree_depth} levels")
        node = (plain and type(node_ref).__name__ == "IndirectObject" and _plain_node(objects, node_ref)
                or resolve(node_ref))
        if not hasattr(node, "get"):
            continue  # null or junk in /Kids: skipped like viewers do
        attrs = dict(inherited)
        for name in INHERITABLE:
            value = node.get(name)
            if value is not None:
                attrs[name] = value
        kids = resolve(node.get("/Kids"))
        node_type = resolve(node.get("/Type"))
        if node_type == "/Page" or not isinstance(kids, list):
            if node_type == "/Pages" and not isinstance(kids, list):
                continue  # an empty intermediate node
            for name in ("/MediaBox", "/CropBox"):
                if name in attrs:
                    attrs[name] = _plain_box(attrs[name], boxes)
            pages.append(_PageRecord(node_ref if type(node_ref).__name__ == "IndirectObject" else node, attrs))
            continue
        for kid in reversed(kids):
            stack.append((kid, attrs, depth + 1, ancestors + (key,)))
    return pages


def _plain_box(value: Any, boxes: dict) -> Any:
    """A box written as a direct array of four direct numbers, as the tuple of their floats (all
    _rectangle reads of it), one tuple for every page with the same box; anything else as it is."""
    if isinstance(value, list) and len(value) == 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        box = tuple(map(float, value))
        return boxes.setdefault(box, box)
    return value


def _cache_key(ref) -> tuple[int, int]:
    """The key pypdf's resolved-object cache (reader.resolved_objects) files a reference under."""
    return (ref.generation, ref.idnum)


def _resource_users(records: list[_PageRecord]) -> dict[tuple[int, int], int]:
    """How many pages name each /Resources dictionary they reach by reference (pypdf's cache key),
    for the dictionaries shared by several pages: one named by a single page (the usual) is not
    listed (a long document would keep a key a page)."""
    users: dict[tuple[int, int], int] = {}
    for record in records:
        ref = record.resources
        if type(ref).__name__ == "IndirectObject":
            key = _cache_key(ref)
            users[key] = users.get(key, 0) + 1
    return {key: count for key, count in users.items() if count > 1}


class _ObjectMarks:
    """A set of _object_key keys kept small: an object of generation 0 numbered below
    MARKED_OBJECT_NUMBERS is one bit (a long document charges a stream or more a page: a set
    kept a tuple, its two numbers and a slot for each, ~90 B a page); any other key is in a set."""

    __slots__ = ("bits", "others")

    def __init__(self):
        self.bits = bytearray()
        self.others: set = set()

    def __contains__(self, key) -> bool:
        number = _marked_number(key)
        if number < 0:
            return key in self.others
        byte = number >> 3
        return byte < len(self.bits) and bool(self.bits[byte] >> (number & 7) & 1)

    def add(self, key) -> None:
        number = _marked_number(key)
        if number < 0:
            self.others.add(key)
            return
        byte = number >> 3
        if byte >= len(self.bits):
            self.bits.extend(bytes(byte + 1 - len(self.bits)))
        self.bits[byte] |= 1 << (number & 7)


def _marked_number(key) -> int:
    """The object number an _ObjectMarks key is a bit for, or -1 (kept in its set)."""
    if type(key) is tuple and key[1] == 0 and type(key[0]) is int and 0 <= key[0] < MARKED_OBJECT_NUMBERS:
        return key[0]
    return -1


def _object_key(ref) -> Any:
    if type(ref).__name__ == "IndirectObject":
        return (ref.idnum, ref.generation)
    return id(ref)


class Page:
    """One page; its content is interpreted on the first access to `glyphs`."""

    def __init__(self, document: "Document", index: int, record: _PageRecord):
        self._document = document
        self._record = record
        self.number = index + 1
        media = _rectangle(record.media_box) or DEFAULT_MEDIA_BOX
        crop = _rectangle(record.crop_box)
        box = _intersect(crop, media) if crop else None
        self.box = box or media                       # visible box in user space
        rotation = int(_number(record.rotate, 0)) % 360
        self.rotation = rotation - rotation % 90      # only multiples of 90 are meaningful
        w, h = self.box[2] - self.box[0], self.box[3] - self.box[1]
        self.width, self.height = (h, w) if self.rotation in (90, 270) else (w, h)
        self._glyphs: list[Glyph] | None = None
        self._image_coverage = 0.0
        self._unmapped_glyphs = 0
        self._hidden_glyphs = 0
        self._dropped: DropLog | None = None
        self._font_styles: dict[str, FontStyle] = {}
        self._links: list[LinkArea] | None = None
        self._ocr = None
        self._drawing = None
        # warnings outlive the Page object: pypdf repairs a stream once, so a re-interpretation would not see it again
        # (Document._finish keeps a page's list once it has any: most pages have none)
        self._warnings: list[str] = document._page_warnings.get(index) or []

    @property
    def glyphs(self) -> list[Glyph]:
        if self._glyphs is None:
            self._glyphs = self._document._interpret(self)
        return self._glyphs

    @property
    def image_coverage(self) -> float:
        """Share of the page covered by painted images (0–1; overlaps counted twice, capped at 1)."""
        self.glyphs
        return self._image_coverage

    @property
    def unmapped_glyphs(self) -> int:
        """Glyphs shown on the page but left out because their font gives them no Unicode."""
        self.glyphs
        return self._unmapped_glyphs

    @property
    def hidden_glyphs(self) -> int:
        """Glyphs left out because they are in an optional content layer hidden at opening."""
        self.glyphs
        return self._hidden_glyphs

    @property
    def dropped(self) -> DropLog | None:
        """The glyphs the interpreter left out and why (outside the visible box, hidden layers), when
        the document was opened with inspect=True; else None."""
        self.glyphs
        return self._dropped

    @property
    def font_styles(self) -> dict[str, FontStyle]:
        """Bold and italic of each font the page's glyphs name (Glyph.font → FontStyle)."""
        self.glyphs
        return self._font_styles

    @property
    def links(self) -> list[LinkArea]:
        """The page's URI link areas in viewer space (Link annotations; empty when none or unreadable)."""
        if self._links is None:
            from .content.links import link_areas   # here: only the styled outputs read links

            try:
                self._links = link_areas(self._record.obj, viewer_matrix(self.box, self.rotation),
                                         self._document.limits.annotations_per_page)
            except Exception:   # links are an extra: a broken /Annots costs only them
                self._links = []
        return self._links

    @property
    def drawing(self):
        """The rules and marks the page's paths drew (glyphline.content.paths.PageDrawing) when the
        document was opened with paths=True; else None."""
        self.glyphs
        return self._drawing

    @property
    def ocr(self):
        """The OCR report (glyphline.content.ocr.OcrReport) when the page was recognised, else None."""
        self.glyphs
        return self._ocr

    @property
    def warnings(self) -> list[str]:
        """What went wrong on this page (known once it is interpreted, so asking interprets it)."""
        self.glyphs
        return self._warnings

    def __repr__(self) -> str:
        return f"<Page {self.number} {self.width:.0f}×{self.height:.0f} rot={self.rotation}>"


class _LazyPages(Sequence):
    def __init__(self, document: "Document"):
        self._document = document

    def __len__(self) -> int:
        return self._document.page_count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._document.page(i) for i in range(*index.indices(len(self)))]
        return self._document.page(index)


class Document:
    """An opened PDF. Pages are created and interpreted lazily."""

    def __init__(self, reader, records: list[_PageRecord], limits: Limits, keep_outside: bool, warnings: list[str],
                 annotations: bool = True, ocr=None, inspect: bool = False, paths: bool = False):
        from .fonts import FontCache

        self._reader = reader
        self._records = records
        self.limits = limits
        self.keep_outside = keep_outside
        self.paths = paths       # each page keeps the rules and marks its paths draw (Page.drawing), for Markdown
        self.inspect = inspect   # each page lists the glyphs it leaves out (Page.dropped), for the layout inspector
        self.sources = glyph_sources(annotations=annotations, ocr=ocr is not None)   # annotations unless turned off
        self.ocr = ocr   # the injected OCR engine (glyphline.content.ocr.OcrEngine) for pages without a text layer
        self._acroform: tuple | None = None  # (the catalog's /AcroForm,) once a page has drawn annotations
        self._layers: tuple | None = None    # (the optional content's default state,) once a page is read
        self.warnings = warnings
        self._budget = DocumentBudget(limits)
        self._charged = _ObjectMarks()   # the streams charged to the budget: one bit a stream, not a set's key
        # a page lives while the caller holds it: iterating an 800-page document keeps one page's glyphs, not all
        self._pages: weakref.WeakValueDictionary[int, Page] = weakref.WeakValueDictionary()
        self._page_warnings: dict[int, list[str]] = {}
        self._interpreted = bytearray(len(records))   # 1 at the index of each page interpreted once
        self._recognised: dict[int, Page] = {}   # pages read by OCR stay alive: recognising one again would cost seconds
        self._fonts = FontCache(limits, self._read_stream)
        self._font_reports: dict = {}   # font key → filter failures met loading it, told on every page using it
        self._placements: dict = {}     # the interpreter's placement tables, shared by the pages (fonts are cached too)
        self._resource_users = _resource_users(records)   # /Resources by reference → pages naming it, not yet read
        self.metadata = self._read_metadata()
        self._structure: tuple | None = None   # (Structure or None,) once read

    @property
    def page_count(self) -> int:
        return len(self._records)

    @property
    def pages(self) -> Sequence[Page]:
        return _LazyPages(self)

    def page(self, index: int) -> Page:
        if index < 0:
            index += self.page_count
        if not 0 <= index < self.page_count:
            raise IndexError(f"page index {index} out of range (the document has {self.page_count} pages)")
        page = self._pages.get(index)
        if page is None:
            page = Page(self, index, self._records[index])
            self._pages[index] = page
            # once its Page is let go, the page dictionary is read from the file again if ever needed
            weakref.finalize(page, self._records[index].forget, self._reader)
        self._recent = page  # the page just asked for stays alive for the caller's next access
        return page

    def _read_metadata(self) -> dict[str, str]:
        try:
            with _collect_pypdf_warnings(self.warnings):
                info = self._reader.metadata or {}
                return {str(k).lstrip("/"): str(resolve(v)) for k, v in info.items() if resolve(v) is not None}
        except Exception:
            return {}

    def _read_stream(self, stream) -> bytes:
        """Decoded bytes of a stream, within the per-stream and per-document byte budgets."""
        key = _object_key(stream)   # by reference: a forgotten stream read again is the same stream
        stream = resolve(stream)
        if stream is None or not hasattr(stream, "get_data"):
            return b""
        from pypdf.errors import LimitReachedError

        charged = key in self._charged
        # an uncharged stream may use only what is left of the document's budget
        remaining = None if charged else self.limits.document_bytes - self._budget.bytes_used
        try:
            with _pypdf_limits(self.limits, remaining), filters.stream_seconds(self.limits.seconds_per_page):
                data = stream.get_data()
        except LimitReachedError as exc:
            if isinstance(exc, filters.StreamTimeLimit):
                raise PageBudgetExceeded("seconds_per_page", str(exc)) from exc
            if remaining is not None and remaining < self.limits.stream_bytes:
                raise BudgetExceeded("document_bytes", f"more than {self.limits.document_bytes} decompressed bytes in this document") from exc
            raise PageBudgetExceeded("stream_bytes", f"a stream decompresses to more than {self.limits.stream_bytes} bytes") from exc
        if not isinstance(data, bytes):
            data = bytes(data) if data is not None else b""
        if len(data) > self.limits.stream_bytes:
            raise PageBudgetExceeded("stream_bytes", f"a stream decompresses to more than {self.limits.stream_bytes} bytes")
        if not charged:  # a stream shared by many pages is charged once
            self._charged.add(key)
            self._budget.charge_bytes(len(data))
        return data

    def _content_bytes(self, page: Page, env: PageEnv) -> bytes:
        contents = page._record.obj.get("/Contents")   # unresolved: a stream's reference lets the cache forget it
        resolved = resolve(contents)
        segments = resolved if isinstance(resolved, list) else [contents]
        parts = []
        for index, segment in enumerate(segments):
            if segment is None:
                continue
            before = len(env.warnings)
            try:
                parts.append(self._read_stream(segment))
                _forget_content_stream(self._reader, segment)
            except (PageBudgetExceeded, BudgetExceeded):
                raise
            except Exception as exc:
                if len(env.warnings) == before:   # a failing filter has already said which one
                    env.warnings.append(warning("content-stream-skipped", index=index + 1, reason=short_error(exc)))
        # segments are one stream (ISO 32000-1 §7.8.2): a token may straddle a boundary, so join with whitespace only
        return b"\n".join(parts)

    def _interpret(self, page: Page) -> list[Glyph]:
        glyphs: list[Glyph] = []
        # a page interpreted again (its Page object was dropped) keeps the warnings of the first time
        warnings = [] if self._interpreted[page.number - 1] else page._warnings
        self._interpreted[page.number - 1] = 1

        def report(message: str) -> None:
            if message not in warnings and len(warnings) < MAX_PAGE_WARNINGS:
                warnings.append(message)

        def load_font(font_obj, resource_name: str):
            key = self._fonts._key(font_obj)
            if key not in self._font_reports:
                met: list[str] = []
                with filters.reporting(met.append):
                    font = self._fonts.get(font_obj, resource_name)
                self._font_reports[key] = met
            else:
                font = self._fonts.get(font_obj, resource_name)
            for message in self._font_reports[key]:   # the font is cached: its failures are told on each page
                report(message)
            page._font_styles[font.name] = FontStyle(font.bold, font.italic)
            return font

        env = PageEnv(
            limits=self.limits, budget=PageBudget(self.limits), load_font=load_font,
            read_stream=self._read_stream, clip=(0.0, 0.0, page.width, page.height),
            keep_outside=self.keep_outside, warnings=warnings, optional_content=self._optional_content(),
            dropped=DropLog(self.limits.dropped_glyphs_listed) if self.inspect else None,
            drawing=_page_drawing(self.limits) if self.paths else None, placements=self._placements,
        )
        with _collect_pypdf_warnings(warnings), fewer_collections(), filters.reporting(report):
            source_input = PageInput(
                number=page.number, obj=page._record.obj, matrix=viewer_matrix(page.box, page.rotation), env=env,
                content=lambda: self._content_bytes(page, env),
                resources=lambda: resolve(page._record.resources), acroform=self._form,
                ocr=self.ocr,
            )
            for source in self.sources:   # each isolated: a failure in one does not cost the others
                try:
                    source.draw(source_input, glyphs)
                except PageBudgetExceeded as exc:
                    warnings.append(warning(source.stopped, page=page.number, reason=f"{exc} (limit {exc.limit})"))
                    break   # the sources after it would find the budget spent too
                except BudgetExceeded:
                    raise
                except RecursionError as exc:
                    kind = source.nested or source.failed
                    warnings.append(warning(kind, page=page.number, reason=short_error(exc)))
                except Exception as exc:
                    warnings.append(warning(source.failed, page=page.number, reason=short_error(exc)))
        self._forget_resources(page)
        return self._finish(page, env, glyphs)

    def _forget_resources(self, page: Page) -> None:
        """Let pypdf's object cache go of the page's /Resources (a few KB a page) once every page
        naming it is read: a long document would otherwise keep every page's. A page read again
        (laid out with the document's statistics) or a form naming it reads it from the file again."""
        ref = page._record.resources
        if type(ref).__name__ != "IndirectObject":
            return
        key = _cache_key(ref)
        users = self._resource_users.get(key, 1) - 1   # not listed: this page's alone
        if users > 0:
            self._resource_users[key] = users
            return
        self._resource_users.pop(key, None)
        cache = getattr(self._reader, "resolved_objects", None)
        if isinstance(cache, dict):
            cache.pop(key, None)

    def _finish(self, page: Page, env: PageEnv, glyphs: list[Glyph]) -> list[Glyph]:
        warnings = env.warnings
        page._image_coverage = min(1.0, env.image_area / max(1.0, page.width * page.height))
        page._unmapped_glyphs = env.undecodable
        page._hidden_glyphs = env.hidden_glyphs
        page._dropped = env.dropped
        page._drawing = env.drawing
        if env.hidden_glyphs:
            warnings.append(warning("hidden-layers", count=env.hidden_glyphs, page=page.number))
        page._ocr = env.ocr
        if env.ocr is not None:
            self._recognised[page.number] = page
        if env.undecodable:
            warnings.append(warning("unmapped-glyphs", count=env.undecodable, page=page.number))
        del warnings[MAX_PAGE_WARNINGS:]
        if warnings and warnings is page._warnings:   # the first interpretation's, kept for a page read again
            self._page_warnings[page.number - 1] = warnings
        return glyphs

    def _optional_content(self):
        """The catalog's /OCProperties read into content.optional.OptionalContent (None when
        there are no hidden layers), read once."""
        if self._layers is None:
            from .content.optional import OptionalContent

            try:
                root = resolve(self._reader.trailer.get("/Root"))
                layers = OptionalContent(root.get("/OCProperties")) if hasattr(root, "get") else None
            except BudgetExceeded:
                raise
            except Exception:
                layers = None   # unreadable optional content: every layer shows
            self._layers = (layers if layers is not None and layers.off else None,)
        return self._layers[0]
    @property
    def structure(self):
        """The structure tree of a tagged PDF (glyphline.structure.Structure), or None; read once.
        Its warnings (a broken tree) join the document's."""
        if self._structure is None:
            try:
                with _collect_pypdf_warnings(self.warnings):
                    root = resolve(self._reader.trailer.get("/Root"))
                    if isinstance(root, dict) and "/StructTreeRoot" not in root:
                        structure = None   # untagged: the tree reader's module is not even loaded
                    else:
                        from .structure import read_structure

                        structure = read_structure(root, [record.obj for record in self._records], self._reader)
            except Exception as exc:  # the tags are a help to ordering, never a reason to fail
                structure = None
                self.warnings.append(warning("structure-unreadable-short", reason=short_error(exc)))
            if structure is not None:
                self.warnings.extend(w for w in structure.warnings if w not in self.warnings)
            self._structure = (structure,)
        return self._structure[0]

    def _form(self):
        """The catalog's /AcroForm (None when absent or unreadable), read once."""
        if self._acroform is None:
            try:
                root = resolve(self._reader.trailer.get("/Root"))
                self._acroform = (resolve(root.get("/AcroForm")) if hasattr(root, "get") else None,)
            except Exception:
                self._acroform = (None,)
        return self._acroform[0]


def short_error(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


def _looks_like_pdf(data: bytes) -> bool:
    if b"%PDF-" in data[:HEADER_SEARCH_BYTES]:
        return True
    # a file whose header was lost can still be repaired when its objects are there
    return b" obj" in data[:HEADLESS_OBJECT_BYTES] and (b"endobj" in data or b"/Type" in data)


def _is_binary_file(file) -> bool:
    """A file object pypdf can read objects from lazily: binary, readable, seekable."""
    try:
        return (callable(getattr(file, "read", None)) and callable(getattr(file, "seek", None))
                and file.seekable() and not isinstance(file, io.TextIOBase))
    except Exception:   # a closed file, an object without seekable()
        return False


def open_file(path):
    """The file at `path` open for open() to read through, or its whole bytes when it cannot seek
    (a pipe, a FIFO: pypdf seeks); a directory or an unreadable file raises OSError here."""
    file = builtins.open(path, "rb")
    try:
        if not file.seekable():
            with file:
                return file.read()
    except BaseException:
        file.close()
        raise
    return file


def whole_bytes(data) -> bytes:
    """The file's bytes, for what must hold them all (a repair, OCR's renderer): `data` itself, or
    the seekable file read from its start."""
    if isinstance(data, bytes):
        return data
    data.seek(0)
    return data.read()


def _check_file(file) -> None:
    """open()'s empty-file and is-it-a-PDF checks (_looks_like_pdf's) on a file, read in bounded
    pieces: the head, and only when its header was lost (a damaged file) the rest, FILE_SCAN_BYTES
    at a time, never held whole."""
    file.seek(0)
    head = file.read(HEADLESS_OBJECT_BYTES)
    if not head.strip():
        while True:
            piece = file.read(FILE_SCAN_BYTES)
            if not piece:
                raise NotAPDF("the file is empty")
            if piece.strip():   # text after a blank head: no object in the head either
                raise NotAPDF("this is not a PDF file (no %PDF header and no PDF objects)")
    if b"%PDF-" in head[:HEADER_SEARCH_BYTES] or (b" obj" in head and (b"endobj" in head or b"/Type" in head)):
        return
    if b" obj" in head:
        tail = head[-5:]   # "endobj" or "/Type" cut between two pieces
        while piece := file.read(FILE_SCAN_BYTES):
            joined = tail + piece
            if b"endobj" in joined or b"/Type" in joined:
                return
            tail = joined[-5:]
    raise NotAPDF("this is not a PDF file (no %PDF header and no PDF objects)")


def open(data, *, password: str = "", limits: Limits | None = None, keep_outside: bool = False,
         annotations: bool = True, ocr=None, inspect: bool = False, paths: bool = False) -> Document:
    """Opens PDF bytes, or a seekable binary file (read through: pypdf reads the objects it needs,
    the file is not held whole; it must stay open while the document is read). Raises NotAPDF,
    PasswordRequired, DamagedPDF or BudgetExceeded.
    `annotations=False` leaves out the text of annotations (filled form fields, FreeText, stamps);
    `ocr` (a glyphline.content.ocr.OcrEngine) recognises the pages that have no text layer;
    `inspect=True`: each page lists the glyphs it leaves out (Page.dropped).
    `paths=True`: each page keeps the rules and marks its paths draw (Page.drawing)."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes) and not _is_binary_file(data):
        raise TypeError("glyphline.open() takes the PDF's bytes or a seekable binary file")
    limits = limits or Limits()
    if isinstance(data, bytes):
        if not data.strip():
            raise NotAPDF("the file is empty")
        if not _looks_like_pdf(data):
            raise NotAPDF("this is not a PDF file (no %PDF header and no PDF objects)")
    else:
        _check_file(data)
    warnings: list[str] = []
    from pypdf._reader import PdfReader   # not `from pypdf`: the command line's pypdf may be deferred (_pypdf_reading)
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    filters.install()
    filter_failures: list[str] = []

    def report(message: str) -> None:
        if message not in warnings:
            warnings.append(message)
            filter_failures.append(message)

    with _collect_pypdf_warnings(warnings), _pypdf_limits(limits), filters.reporting(report):
        try:
            reader = _read_with_repair(PdfReader, data)
        except FileNotDecryptedError as exc:
            raise PasswordRequired("the PDF is encrypted and needs a password") from exc
        except (PdfReadError, ValueError, KeyError, TypeError, IndexError, AttributeError, AssertionError,
                RecursionError, OverflowError) as exc:
            raise DamagedPDF(f"the PDF cannot be read: {short_error(exc)}") from exc
        except Exception as exc:  # pypdf raises many kinds on hostile files; all mean "damaged"
            raise DamagedPDF(f"the PDF cannot be read: {short_error(exc)}") from exc
        _decrypt(reader, password, DependencyError, FileNotDecryptedError)
        try:
            root = resolve(reader.trailer.get("/Root"))
            pages_root = root.get("/Pages") if hasattr(root, "get") else None
            records = _walk_page_tree(pages_root, limits, reader)
        except DamagedPDF as exc:
            if filter_failures:   # the page tree sat in a stream nothing could decode: say which filter
                raise DamagedPDF(f"{exc.reason} ({filter_failures[0]})") from exc
            raise
        except (NotAPDF, PasswordRequired):
            raise
        except FileNotDecryptedError as exc:
            raise PasswordRequired("the PDF is encrypted and needs a password") from exc
        except Exception as exc:
            raise DamagedPDF(f"the page tree cannot be read: {short_error(exc)}") from exc
        if not records:
            records = _pages_from_pypdf(reader, limits)
        xfa = _xfa_warning(root)
        if xfa:
            warnings.append(xfa)
    return Document(reader, records, limits, keep_outside, warnings, annotations, ocr, inspect, paths)


def _xfa_warning(root) -> str | None:
    from .content.annotations import xfa_warning

    try:
        return xfa_warning(root)
    except Exception:   # a damaged /AcroForm only costs the warning
        return None


class _FileBytes(io.BytesIO):
    """The file's bytes as pypdf's stream, held once. A BytesIO shares the bytes it is made from
    until getbuffer() is called, which copies them; pypdf calls it to size the stream (and the
    structure tree's reader to search it), so a long file was held twice for the whole extraction.
    Here getbuffer() is a read-only view of those same bytes: nothing writes to a reader's stream."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self._data = data

    def getbuffer(self) -> memoryview:
        return memoryview(self._data)


def _read_with_repair(PdfReader, data):
    """pypdf rebuilds a lost xref only when it finds a startxref; point one at 0 to make it scan the file.
    `data` is the file's bytes or a seekable binary file, which pypdf reads lazily; a damaged file's
    repair reads it whole (pypdf's scan for objects reads the whole stream anyway)."""
    try:
        reader = PdfReader(_FileBytes(data) if isinstance(data, bytes) else data, strict=False)
    except Exception as first_error:
        try:
            reader = PdfReader(_FileBytes(whole_bytes(data) + b"\nstartxref\n0\n%%EOF\n"), strict=False)
        except Exception:
            raise first_error from None
    _forget_xref_streams(reader)
    _forget_used_entries(reader)
    _compact_xref(reader)
    return reader


def _forget_xref_streams(reader) -> None:
    """pypdf keeps each cross-reference stream it read as the object of that number; an update
    may give the number to another object (pdfjs issue15096: a form field's appearance), which
    the newest cross-reference section locates and which the kept stream would hide."""
    cache = getattr(reader, "resolved_objects", None)
    if not isinstance(cache, dict):
        return
    for key, obj in list(cache.items()):
        try:
            is_xref = hasattr(obj, "get_data") and obj.get("/Type") == "/XRef"
        except Exception:   # a damaged object: leave it
            continue
        if is_xref:
            del cache[key]


def _forget_used_entries(reader) -> None:
    """pypdf's xref_free_entry says of every object number in a cross-reference table whether it
    is free, in two dictionaries (its generation's and 65535's: ~180 B a page of a long document);
    only "free" is ever read (get(number, False)), so the entries saying "in use" go."""
    free = getattr(reader, "xref_free_entry", None)
    if not isinstance(free, dict):
        return
    for generation, entries in list(free.items()):
        if isinstance(entries, dict):
            free[generation] = {number: flag for number, flag in entries.items() if flag}


def _compact_xref(reader) -> None:
    """pypdf's cross-reference table (reader.xref: generation -> {object number: offset}) as
    _Offsets, an array of offsets by object number, for each generation of a long document; its
    table of the objects in object streams (reader.xref_objStm) as _StreamPlaces likewise."""
    xref = getattr(reader, "xref", None)
    if not isinstance(xref, dict):
        return
    for generation, entries in list(xref.items()):
        if type(entries) is dict and len(entries) >= COMPACT_XREF_MIN_OBJECTS:
            offsets = _Offsets.of(entries)
            if offsets is not None:
                xref[generation] = offsets
    in_streams = getattr(reader, "xref_objStm", None)
    if type(in_streams) is dict and len(in_streams) >= COMPACT_XREF_MIN_OBJECTS:
        places = _StreamPlaces.of(in_streams)
        if places is not None:
            reader.xref_objStm = places


class _NumberTable(MutableMapping):
    """One of pypdf's tables by object number, read and repaired by pypdf as its dict: arrays
    indexed by object number (`_at` is -1 where a number has no entry), and a dict beside them for
    what they cannot hold (a repair setting a number past their end, an odd value)."""

    __slots__ = ("_at", "_count", "_beyond")

    def __init__(self, at: array, count: int):
        self._at = at
        self._count = count
        self._beyond: dict = {}

    @classmethod
    def of(cls, entries: dict):
        """The table of a dict of plain entries (non-negative int numbers, values the arrays hold,
        not too sparse), or None: then the dict stays."""
        if not all(type(k) is int and k >= 0 and cls._fits(v) for k, v in entries.items()):
            return None
        size = max(entries) + 1
        if size > COMPACT_XREF_SPARSENESS * len(entries):
            return None
        table = cls._empty(size)
        for number, value in entries.items():
            table._store(number, value)
        table._count = len(entries)
        return table

    @classmethod
    def _empty(cls, size: int) -> "_NumberTable":
        raise NotImplementedError

    def _held(self, number) -> bool:
        at = self._at
        return type(number) is int and 0 <= number < len(at) and at[number] >= 0

    def _value(self, number):
        raise NotImplementedError

    @staticmethod
    def _fits(value) -> bool:
        raise NotImplementedError

    def _store(self, number, value) -> None:
        raise NotImplementedError

    def __contains__(self, number) -> bool:
        return self._held(number) or number in self._beyond

    def __getitem__(self, number):
        if self._held(number):
            return self._value(number)
        return self._beyond[number]

    def get(self, number, default=None):
        if self._held(number):
            return self._value(number)
        return self._beyond.get(number, default)

    def __setitem__(self, number, value) -> None:
        inside = type(number) is int and 0 <= number < len(self._at)
        if inside and self._fits(value) and number not in self._beyond:
            if self._at[number] < 0:
                self._count += 1
            self._store(number, value)
            return
        if inside and self._at[number] >= 0:
            self._at[number] = -1          # the entry moves to the dict: one place for each number
            self._count -= 1
        self._beyond[number] = value

    def __delitem__(self, number) -> None:
        if self._held(number):
            self._at[number] = -1
            self._count -= 1
            return
        del self._beyond[number]

    def __len__(self) -> int:
        return self._count + len(self._beyond)

    def __iter__(self) -> Iterator[int]:
        yield from (number for number, first in enumerate(self._at) if first >= 0)
        yield from list(self._beyond)


class _Offsets(_NumberTable):
    """Where each object of one generation starts in the file, for pypdf (reader.xref[generation]
    after the opening: pypdf looks numbers up, and sets one when it repairs a reference), as 8-byte
    offsets indexed by object number: pypdf's dict keeps an int key, an int offset and a slot an
    object (~96 B: ~290 B a page of a long document, to its end)."""

    __slots__ = ()

    @classmethod
    def _empty(cls, size: int) -> "_Offsets":
        return cls(array("q", [-1]) * size, 0)

    def _value(self, number) -> int:
        return self._at[number]

    @staticmethod
    def _fits(value) -> bool:
        return type(value) is int and value >= 0

    def _store(self, number, value) -> None:
        self._at[number] = value


class _StreamPlaces(_NumberTable):
    """Which object stream holds each compressed object, and at which index (pypdf's
    reader.xref_objStm: object number -> (stream number, index)), as two arrays indexed by object
    number (`_at` the streams): pypdf's dict keeps an int key, a tuple and a slot an object (~120 B)."""

    __slots__ = ("_index",)

    def __init__(self, stream: array, index: array, count: int):
        super().__init__(stream, count)
        self._index = index

    @classmethod
    def _empty(cls, size: int) -> "_StreamPlaces":
        return cls(array("q", [-1]) * size, array("q", [0]) * size, 0)

    def _value(self, number) -> tuple[int, int]:
        return self._at[number], self._index[number]

    @staticmethod
    def _fits(value) -> bool:
        return (type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int
                and value[0] >= 0 and value[1] >= 0)

    def _store(self, number, value) -> None:
        self._at[number], self._index[number] = value


def _decrypt(reader, password: str, DependencyError, FileNotDecryptedError) -> None:
    try:
        if not reader.is_encrypted:
            return
    except Exception as exc:
        raise DamagedPDF(f"the encryption dictionary cannot be read: {short_error(exc)}") from exc
    try:
        result = reader.decrypt(password or "")
    except DependencyError as exc:
        raise DamagedPDF("the PDF uses AES encryption and no AES provider is available (install 'cryptography')") from exc
    except NotImplementedError as exc:
        raise DamagedPDF(f"unsupported encryption: {short_error(exc)}") from exc
    except Exception as exc:
        raise DamagedPDF(f"the encryption dictionary is damaged: {short_error(exc)}") from exc
    if not result:  # PasswordType.NOT_DECRYPTED == 0
        if password:
            raise PasswordRequired("the password is wrong")
        raise PasswordRequired("the PDF is encrypted and needs a password")


def _pages_from_pypdf(reader, limits: Limits) -> list[_PageRecord]:
    """Last resort when /Root /Pages yields nothing: pypdf's own flattening (it finds orphan pages on repair)."""
    records = []
    try:
        for page in reader.pages:
            attrs = {name: page.get(name) for name in INHERITABLE if page.get(name) is not None}
            records.append(_PageRecord(page, attrs))
    except Exception:
        pass
    return records
