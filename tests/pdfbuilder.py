"""A small synthetic-PDF builder: raw PDF bytes (objects, xref, trailer) for exact engine tests.

Python values map to PDF objects: dict → dictionary, list/tuple → array, int/float → number,
bool → true/false, None → null, str starting with "/" → name, other str → text string,
bytes → literal string, Ref → indirect reference, Raw → written verbatim.

    b = PdfBuilder()
    f = b.font_type1("Helvetica")
    b.page(content=b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET", fonts={"F1": f})
    data = b.build()

Only encryption goes through pypdf's writer (`encrypt`): everything else is written here, so a
test controls every byte the engine sees.
"""
from __future__ import annotations

import io
import zlib
from dataclasses import dataclass, field

LETTER = (0, 0, 612, 792)


@dataclass(frozen=True)
class Ref:
    num: int


@dataclass(frozen=True)
class Raw:
    data: bytes


@dataclass
class Stream:
    data: bytes
    attrs: dict = field(default_factory=dict)


def _literal(data: bytes) -> bytes:
    return b"(" + data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def text_string(text: str) -> bytes:
    """A PDF text string: hex UTF-16BE with BOM (always valid, whatever the characters)."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def serialize(value) -> bytes:
    if isinstance(value, Raw):
        return value.data
    if isinstance(value, Ref):
        return b"%d 0 R" % value.num
    if value is None:
        return b"null"
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, float):
        return (b"%.6f" % value).rstrip(b"0").rstrip(b".")
    if isinstance(value, str):
        if value.startswith("/"):
            return value.encode("latin-1")
        return text_string(value)
    if isinstance(value, bytes):
        return _literal(value)
    if isinstance(value, (list, tuple)):
        return b"[" + b" ".join(serialize(v) for v in value) + b"]"
    if isinstance(value, dict):
        return b"<<" + b"".join(b"/" + k.encode() + b" " + serialize(v) for k, v in value.items()) + b">>"
    raise TypeError(f"cannot serialize {type(value).__name__}")


def flate(data: bytes) -> bytes:
    return zlib.compress(data)


def flate_bomb(inflated_size: int, fill: bytes = b" ") -> bytes:
    """Flate data that inflates to `inflated_size` bytes of `fill`, built without allocating them."""
    chunk = fill * ((1 << 20) // len(fill))
    compressor = zlib.compressobj(9)
    out, remaining = [], inflated_size
    while remaining > 0:
        piece = chunk if remaining >= len(chunk) else chunk[:remaining]
        out.append(compressor.compress(piece))
        remaining -= len(piece)
    out.append(compressor.flush())
    return b"".join(out)


# ---------------------------------------------------------------- content helpers

def utf16_hex(text: str) -> bytes:
    return text.encode("utf-16-be").hex().upper().encode()


def actual_text(text: str, inner: bytes) -> bytes:
    """A marked-content span whose glyphs a reader replaces by `text`."""
    return b"/Span <</ActualText <FEFF" + utf16_hex(text) + b">>> BDC " + inner + b" EMC"


def marked(role: str, mcid: int, inner: bytes) -> bytes:
    """A tagged marked-content span: `inner` belongs to the structure element holding MCID `mcid`."""
    return b"/%s <</MCID %d>> BDC " % (role.encode(), mcid) + inner + b" EMC\n"


def inline_image(width: int = 4, height: int = 2, data: bytes | None = None) -> bytes:
    """BI … ID … EI with 8-bit grey samples; default samples contain text-operator look-alikes."""
    if data is None:
        data = (b"(X)Tj" + b"BT" + b"ET\x00")[: width * height].ljust(width * height, b"\x7f")
    return b"BI /W %d /H %d /BPC 8 /CS /G ID " % (width, height) + data + b" EI"


def hex_codes(codes: list[int], code_bytes: int = 2) -> bytes:
    """A hex string operand for multi-byte fonts: <0041 0042>."""
    return b"<" + b"".join(b"%0*X" % (code_bytes * 2, c) for c in codes) + b">"


# ---------------------------------------------------------------- ToUnicode CMaps

def _code(code: int, code_bytes: int) -> bytes:
    return b"<%0*X>" % (code_bytes * 2, code)


def _bump(text: str) -> str | None:
    """The text a bfrange yields for the next code (last UTF-16 unit + 1), BMP single chars only."""
    if len(text) != 1 or ord(text) >= 0xFFFF or 0xD800 <= ord(text) + 1 <= 0xDFFF:
        return None
    return chr(ord(text) + 1)


def tounicode_cmap(mapping: dict[int, str], code_bytes: int = 1, style: str = "bfchar") -> bytes:
    """CMap text for {code: text}. style: "bfchar" (one entry each), "bfrange" (runs of
    consecutive codes with consecutive text as <lo> <hi> <start>, the rest bfchar) or "array"
    (runs of consecutive codes as <lo> <hi> [<t1> <t2> …])."""
    codes = sorted(mapping)
    singles, ranges = [], []          # ranges: (lo, hi, [texts])
    i = 0
    while i < len(codes):
        j = i
        while (j + 1 < len(codes) and codes[j + 1] == codes[j] + 1 and codes[j + 1] >> 8 == codes[i] >> 8
               and (style == "array" or _bump(mapping[codes[j]]) == mapping[codes[j + 1]])):
            j += 1
        if style != "bfchar" and j > i:
            ranges.append((codes[i], codes[j], [mapping[c] for c in codes[i:j + 1]]))
        else:
            singles.extend(codes[i:j + 1])
        i = j + 1
    hi = (1 << (8 * code_bytes)) - 1
    out = [b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
           b"/CIDSystemInfo <</Registry (Adobe) /Ordering (UCS) /Supplement 0>> def",
           b"/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
           b"1 begincodespacerange " + _code(0, code_bytes) + b" " + _code(hi, code_bytes) + b" endcodespacerange"]
    for start in range(0, len(singles), 100):   # at most 100 entries per section (CMap rule)
        part = singles[start:start + 100]
        out.append(b"%d beginbfchar" % len(part))
        out += [_code(c, code_bytes) + b" <" + utf16_hex(mapping[c]) + b">" for c in part]
        out.append(b"endbfchar")
    for start in range(0, len(ranges), 100):
        part = ranges[start:start + 100]
        out.append(b"%d beginbfrange" % len(part))
        for lo, hi_, texts in part:
            dest = (b"[" + b" ".join(b"<" + utf16_hex(t) + b">" for t in texts) + b"]" if style == "array"
                    else b"<" + utf16_hex(texts[0]) + b">")
            out.append(_code(lo, code_bytes) + b" " + _code(hi_, code_bytes) + b" " + dest)
        out.append(b"endbfrange")
    out.append(b"endcmap CMapName currentdict /CMap defineresource pop end end")
    return b"\n".join(out)


# ---------------------------------------------------------------- the builder

class PdfBuilder:
    def __init__(self, version: str = "1.7"):
        self.version = version
        self.objects: dict[int, object] = {}
        self.pages_root = self.reserve()
        self.nodes: dict[int, dict] = {self.pages_root.num: {"parent": None, "kids": [], "attrs": {}}}
        self.extra_kids: dict[int, list[Ref]] = {}     # deliberately broken /Kids entries
        self.info: dict | None = None

    # -- objects
    def reserve(self) -> Ref:
        ref = Ref(len(self.objects) + 1)
        self.objects[ref.num] = None
        return ref

    def add(self, value) -> Ref:
        ref = self.reserve()
        self.objects[ref.num] = value
        return ref

    def set(self, ref: Ref, value) -> Ref:
        self.objects[ref.num] = value
        return ref

    def stream(self, data: bytes, attrs: dict | None = None, compress: bool = False, into: Ref | None = None) -> Ref:
        """A stream object; `into` fills a reserved reference (for self-referencing objects)."""
        attrs = dict(attrs or {})
        if compress:
            data, attrs["Filter"] = flate(data), "/FlateDecode"
        return self.set(into, Stream(data, attrs)) if into else self.add(Stream(data, attrs))

    # -- fonts
    def font_type1(self, base: str = "Helvetica", *, encoding=None, widths: list | None = None,
                   first_char: int = 32, ascent: float | None = None, descent: float = -200,
                   subtype: str = "/Type1", to_unicode: Ref | None = None) -> Ref:
        """A simple font; standard-14 without /Widths when `widths` is None. `encoding` is a
        name ("/WinAnsiEncoding"), a dict ({"Differences": [...]}), or None."""
        font = {"Type": "/Font", "Subtype": subtype, "BaseFont": "/" + base}
        if encoding is not None:
            font["Encoding"] = encoding
        if widths is not None:
            font.update(FirstChar=first_char, LastChar=first_char + len(widths) - 1, Widths=widths)
        if ascent is not None:
            font["FontDescriptor"] = self.font_descriptor(base, ascent, descent)
        if to_unicode is not None:
            font["ToUnicode"] = to_unicode
        return self.add(font)

    def font_truetype(self, base: str = "TestSans", *, widths: list, first_char: int = 32,
                      encoding="/WinAnsiEncoding", ascent: float = 800, descent: float = -200,
                      to_unicode: Ref | None = None) -> Ref:
        return self.font_type1(base, encoding=encoding, widths=widths, first_char=first_char,
                               ascent=ascent, descent=descent, subtype="/TrueType", to_unicode=to_unicode)

    def font_descriptor(self, name: str, ascent: float, descent: float) -> Ref:
        return self.add({"Type": "/FontDescriptor", "FontName": "/" + name, "Flags": 32,
                         "FontBBox": [-100, descent, 1000, ascent], "ItalicAngle": 0,
                         "Ascent": ascent, "Descent": descent, "CapHeight": ascent, "StemV": 80})

    def font_type3(self, glyphs: dict[int, str], *, font_matrix=(0.001, 0, 0, 0.001, 0, 0),
                   width: float = 1000, to_unicode: Ref | None = None, base_encoding: str | None = None) -> Ref:
        """A Type3 font drawing a filled square for each code; `glyphs` maps code → glyph name;
        `base_encoding` ("/WinAnsiEncoding") goes into the /Encoding dictionary."""
        procs = {name: self.stream(b"%g 0 0 0 %g %g d1 0 0 %g %g re f" % (width, width, width, width, width))
                 for name in glyphs.values()}
        first, last = min(glyphs), max(glyphs)
        differences: list = []
        for code in sorted(glyphs):
            differences += [code, "/" + glyphs[code]]
        font = {"Type": "/Font", "Subtype": "/Type3", "FontMatrix": list(font_matrix),
                "FontBBox": [0, 0, width, width], "CharProcs": procs,
                "Encoding": {"Type": "/Encoding", "Differences": differences,
                             **({"BaseEncoding": base_encoding} if base_encoding else {})},
                "FirstChar": first, "LastChar": last,
                "Widths": [width if c in glyphs else 0 for c in range(first, last + 1)],
                "Resources": {}}
        if to_unicode is not None:
            font["ToUnicode"] = to_unicode
        return self.add(font)

    def tounicode(self, mapping: dict[int, str], code_bytes: int = 1, style: str = "bfchar") -> Ref:
        return self.stream(tounicode_cmap(mapping, code_bytes, style))

    def font_type0(self, mapping: dict[int, str] | None, *, vertical: bool = False, w: list | None = None,
                   dw: float = 1000, w2: list | None = None, dw2: tuple | None = None,
                   style: str = "bfchar", base: str = "TestCID", ascent: float = 880,
                   descent: float = -120) -> Ref:
        """A Type0 font (Identity-H/V, CIDFontType2) with a ToUnicode CMap made from `mapping`
        (2-byte codes); `w`, `dw`, `w2`, `dw2` are the CID font's width entries as in the PDF."""
        cid = {"Type": "/Font", "Subtype": "/CIDFontType2", "BaseFont": "/" + base,
               "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Identity", "Supplement": 0},
               "FontDescriptor": self.font_descriptor(base, ascent, descent),
               "DW": dw, "CIDToGIDMap": "/Identity"}
        if w is not None:
            cid["W"] = w
        if w2 is not None:
            cid["W2"] = w2
        if dw2 is not None:
            cid["DW2"] = list(dw2)
        font = {"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/" + base,
                "Encoding": "/Identity-V" if vertical else "/Identity-H", "DescendantFonts": [self.add(cid)]}
        if mapping is not None:
            font["ToUnicode"] = self.tounicode(mapping, 2, style)
        return self.add(font)

    # -- XObjects
    def form(self, content: bytes, *, bbox=(0, 0, 1000, 1000), matrix=None, fonts: dict | None = None,
             xobjects: dict | None = None, resources: dict | None = None, into: Ref | None = None) -> Ref:
        """A Form XObject; without fonts/xobjects/resources it has no /Resources (inherits the caller's)."""
        attrs = {"Type": "/XObject", "Subtype": "/Form", "BBox": list(bbox)}
        if matrix is not None:
            attrs["Matrix"] = list(matrix)
        res = self.resources(fonts, xobjects, resources)
        if res is not None:
            attrs["Resources"] = res
        return self.stream(content, attrs, into=into)

    def annotation(self, subtype: str, rect, *, appearance: bytes | dict | Ref | None = None, bbox=None,
                   matrix=None, fonts: dict | None = None, **entries) -> Ref:
        """An annotation dictionary; `appearance` becomes its /AP /N: content bytes (a form with
        `bbox`, default the Rect's size, `matrix` and `fonts`), a dict of state → content bytes
        (checkboxes, radio buttons), or any object as is (a Ref, or junk for broken files)."""
        annot = {"Type": "/Annot", "Subtype": subtype, "Rect": list(rect)}
        if bbox is None:
            bbox = (0, 0, rect[2] - rect[0], rect[3] - rect[1])

        def form(content):
            return self.form(content, bbox=bbox, matrix=matrix, fonts=fonts) if isinstance(content, bytes) else content

        if isinstance(appearance, dict):
            annot["AP"] = {"N": {state.lstrip("/"): form(c) for state, c in appearance.items()}}
        elif appearance is not None:
            annot["AP"] = {"N": form(appearance)}
        annot.update(entries)
        return self.add(annot)

    @staticmethod
    def resources(fonts: dict | None = None, xobjects: dict | None = None, extra: dict | None = None) -> dict | None:
        if fonts is None and xobjects is None and extra is None:
            return None
        res = dict(extra or {})
        if fonts is not None:
            res["Font"] = fonts
        if xobjects is not None:
            res["XObject"] = xobjects
        return res

    # -- page tree
    def pages_node(self, parent: Ref | None = None, *, media_box=None, crop_box=None, rotate=None,
                   fonts: dict | None = None, xobjects: dict | None = None) -> Ref:
        """An intermediate /Pages node under `parent` (the root by default) carrying inheritable attributes."""
        ref = self.reserve()
        attrs = self._page_attrs(media_box, crop_box, rotate, self.resources(fonts, xobjects))
        self.nodes[ref.num] = {"parent": parent or self.pages_root, "kids": [], "attrs": attrs}
        self.nodes[(parent or self.pages_root).num]["kids"].append(ref)
        return ref

    def page(self, content: bytes | list[bytes] = b"", *, fonts: dict | None = None, xobjects: dict | None = None,
             media_box=LETTER, crop_box=None, rotate=None, parent: Ref | None = None,
             resources: dict | None = None, compress: bool = False, extra: dict | None = None) -> Ref:
        """A page; `content` as a list of byte segments becomes a /Contents array. Pass
        media_box=None to inherit it from a /Pages node."""
        segments = content if isinstance(content, list) else [content]
        streams = [self.stream(seg, compress=compress) for seg in segments]
        res = self.resources(fonts, xobjects, resources)
        attrs = {"Type": "/Page", **self._page_attrs(media_box, crop_box, rotate, res)}
        attrs["Contents"] = streams if isinstance(content, list) else streams[0]
        attrs.update(extra or {})
        parent = parent or self.pages_root
        ref = self.add(attrs)
        self.nodes[parent.num]["kids"].append(ref)
        return ref

    @staticmethod
    def _page_attrs(media_box, crop_box, rotate, resources) -> dict:
        attrs = {}
        if media_box is not None:
            attrs["MediaBox"] = list(media_box)
        if crop_box is not None:
            attrs["CropBox"] = list(crop_box)
        if rotate is not None:
            attrs["Rotate"] = rotate
        if resources is not None:
            attrs["Resources"] = resources
        return attrs

    def add_kid(self, node: Ref, kid: Ref) -> None:
        """Append a raw /Kids entry (e.g. an ancestor, making a cycle) that counts for nothing."""
        self.extra_kids.setdefault(node.num, []).append(kid)

    def deep_chain(self, depth: int, content: bytes = b"", **page_args) -> Ref:
        """`depth` nested /Pages nodes under the root with one page at the bottom."""
        node = self.pages_root
        for _ in range(depth):
            node = self.pages_node(node)
        return self.page(content, parent=node, **page_args)

    def _emit_tree(self) -> None:
        counts: dict[int, int] = {}
        for num in reversed(self.nodes):    # a node is always registered after its parent
            counts[num] = sum(counts.get(k.num, 1) for k in self.nodes[num]["kids"])
        for num, node in self.nodes.items():
            kids = node["kids"] + self.extra_kids.get(num, [])
            attrs = {"Type": "/Pages", "Kids": kids, "Count": counts[num], **node["attrs"]}
            if node["parent"] is not None:
                attrs["Parent"] = node["parent"]
            self.objects[num] = attrs
            for kid in node["kids"]:
                if kid.num not in self.nodes:
                    self.objects[kid.num]["Parent"] = Ref(num)

    # -- tagged PDF
    def struct_tree(self, page: Ref | None, elements: list, *, role_map: dict | None = None,
                    parent_tree: dict | None = None) -> dict:
        """A /StructTreeRoot whose /Document element holds `elements` in reading order; returns the
        catalog entries to pass to build(catalog=...). An element is (role, kids, extra): kids are
        MCIDs (int) on `page` and nested elements; extra adds entries (/Alt, /Lang, /Pg …).
        `page=None` leaves out /Pg (the /ParentTree then says where MCIDs are: {page: [element …]})."""
        root = self.reserve()

        def element(spec, parent: Ref) -> Ref:
            role, kids, extra = (tuple(spec) + ({},))[:3]
            ref = self.reserve()
            entries = {"Type": "/StructElem", "S": "/" + role, "P": parent}
            if page is not None:
                entries["Pg"] = page
            entries.update(extra)
            entries["K"] = [kid if isinstance(kid, int) else element(kid, ref) for kid in kids]
            self.set(ref, entries)
            spec_refs[id(spec)] = ref
            return ref

        spec_refs: dict[int, Ref] = {}
        document = element(("Document", elements), root)
        tree = {"Type": "/StructTreeRoot", "K": [document]}
        if role_map:
            tree["RoleMap"] = {name: "/" + role for name, role in role_map.items()}
        if parent_tree:
            nums = []
            for number, (page_ref, specs) in enumerate(parent_tree.items()):
                self.objects[page_ref.num]["StructParents"] = number
                nums += [number, [spec_refs[id(spec)] for spec in specs]]
            tree["ParentTree"] = {"Nums": nums}
        self.set(root, tree)
        return {"StructTreeRoot": root, "MarkInfo": {"Marked": True}}

    # -- output
    def build(self, *, info: dict | None = None, object_streams: bool = False, packing=None,
              catalog: dict | None = None) -> bytes:
        """The file. `info` fills the /Info dictionary (str values become text strings);
        object_streams packs non-stream objects into one /ObjStm with an xref stream.
        `packing` = (filter name, encode function) compresses the /ObjStm and the xref stream
        with another filter (default: the /ObjStm with /FlateDecode, the xref stream plain).
        `catalog` adds entries to the document catalog (e.g. {"AcroForm": {...}})."""
        saved = dict(self.objects)      # build() can be called again (e.g. with object streams)
        self._packing = packing
        try:
            return self._build(info, object_streams, catalog or {})
        finally:
            self.objects = saved

    def _build(self, info: dict | None, object_streams: bool, extra: dict) -> bytes:
        self._emit_tree()
        catalog = self.add({"Type": "/Catalog", "Pages": self.pages_root, **extra})
        info_ref = self.add(dict(info)) if info else None
        trailer = {"Size": len(self.objects) + 1, "Root": catalog}
        if info_ref:
            trailer["Info"] = info_ref
        out = io.BytesIO()
        out.write(b"%%PDF-%s\n%%\xe2\xe3\xcf\xd3\n" % self.version.encode())
        if object_streams:
            return self._build_objstm(out, trailer)
        offsets = {}
        for num, value in self.objects.items():
            offsets[num] = out.tell()
            out.write(b"%d 0 obj\n" % num + self._body(value) + b"\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1))
        for num in range(1, len(self.objects) + 1):
            out.write(b"%010d 00000 n \n" % offsets[num])
        out.write(b"trailer\n" + serialize(trailer) + b"\nstartxref\n%d\n%%%%EOF\n" % xref)
        return out.getvalue()

    @staticmethod
    def _body(value) -> bytes:
        if isinstance(value, Stream):
            attrs = {**value.attrs, "Length": len(value.data)}
            return serialize(attrs) + b"\nstream\n" + value.data + b"\nendstream"
        return serialize(value)

    def _build_objstm(self, out: io.BytesIO, trailer: dict) -> bytes:
        packed = [n for n, v in self.objects.items() if not isinstance(v, Stream)]
        header, body = [], io.BytesIO()
        for num in packed:
            header.append(b"%d %d" % (num, body.tell()))
            body.write(serialize(self.objects[num]) + b"\n")
        head = b" ".join(header) + b"\n"
        objstm_num = len(self.objects) + 1
        xref_num = objstm_num + 1
        entries = {n: (2, objstm_num, i) for i, n in enumerate(packed)}
        name, encode = self._packing or ("/FlateDecode", flate)
        objstm = Stream(encode(head + body.getvalue()),
                        {"Type": "/ObjStm", "N": len(packed), "First": len(head), "Filter": name})
        for num, value in list(self.objects.items()) + [(objstm_num, objstm)]:
            if num in entries:
                continue
            entries[num] = (1, out.tell(), 0)
            out.write(b"%d 0 obj\n" % num + self._body(value) + b"\nendobj\n")
        xref_offset = out.tell()
        entries[xref_num] = (1, xref_offset, 0)
        rows = [bytes([0]) + (0).to_bytes(4, "big") + (65535).to_bytes(2, "big")]
        for num in range(1, xref_num + 1):
            kind, a, b = entries[num]
            rows.append(bytes([kind]) + a.to_bytes(4, "big") + b.to_bytes(2, "big"))
        attrs = {**trailer, "Type": "/XRef", "Size": xref_num + 1, "W": [1, 4, 2]}
        xref_data = b"".join(rows)
        if self._packing:
            attrs["Filter"], xref_data = name, encode(xref_data)
        out.write(b"%d 0 obj\n" % xref_num + self._body(Stream(xref_data, attrs)) + b"\nendobj\n")
        out.write(b"startxref\n%d\n%%%%EOF\n" % xref_offset)
        return out.getvalue()


# ---------------------------------------------------------------- encryption (pypdf's writer)

ENCRYPTIONS = ("RC4-40", "RC4-128", "AES-128", "AES-256")


def encrypt(data: bytes, algorithm: str, user_password: str = "", owner_password: str = "owner-secret") -> bytes:
    """Re-write `data` encrypted with pypdf (the only place the builder uses pypdf's writer)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password, owner_password, algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def simple_page_pdf(text: bytes = b"Hello", *, size: float = 12, at=(72, 700), **page_args) -> bytes:
    """One Helvetica line on one page: the smallest useful document."""
    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    b.page(b"BT /F1 %g Tf %g %g Td (%s) Tj ET" % (size, at[0], at[1], text), fonts={"F1": font}, **page_args)
    return b.build()


def gbk_cmap_pdf(text: str) -> bytes:
    """Chinese text in a Type0 font naming the predefined CMap GBK-EUC-H, without ToUnicode: its
    text needs two CMap files (GBK-EUC-H and Adobe-GB1-UCS2). A Uni… CMap would not do: the
    engine reads UCS-2 codes even without its file."""
    b = PdfBuilder()
    cid_font = b.add({"Type": "/Font", "Subtype": "/CIDFontType0", "BaseFont": "/STSong-Light",
                      "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"GB1", "Supplement": 2}, "DW": 1000})
    font = b.add({"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/STSong-Light",
                  "Encoding": "/GBK-EUC-H", "DescendantFonts": [cid_font]})
    b.page(content=b"BT /F1 12 Tf 72 700 Td <" + text.encode("gbk").hex().encode() + b"> Tj ET", fonts={"F1": font})
    return b.build()


# ---------------------------------------------------------------- in-memory pypdf objects

def pdf_object(value):
    """Python value → pypdf object, for tests that hand objects to a stage directly: '/Name'
    strings become names, other strings text strings, lists arrays, dicts dictionaries, bytes
    a decoded stream, None null; pypdf objects pass through."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject,
                               NameObject, NullObject, NumberObject, PdfObject, TextStringObject)

    if isinstance(value, PdfObject):
        return value
    if value is None:
        return NullObject()
    if isinstance(value, bool):
        raise TypeError("no booleans here")
    if isinstance(value, int):
        return NumberObject(value)
    if isinstance(value, float):
        return FloatObject(value)
    if isinstance(value, str):
        return NameObject(value) if value.startswith("/") else TextStringObject(value)
    if isinstance(value, (list, tuple)):
        return ArrayObject(pdf_object(v) for v in value)
    if isinstance(value, dict):
        return DictionaryObject({NameObject(k): pdf_object(v) for k, v in value.items()})
    if isinstance(value, bytes):
        stream = DecodedStreamObject()
        stream.set_data(value)
        return stream
    raise TypeError(type(value))


# ---------------------------------------------------------------- CFF pieces (embedded font programs)

def cff_index(items: list[bytes], offset_size: int = 4) -> bytes:
    """A CFF INDEX: count, offset size, offsets (1-based) and the data."""
    if not items:
        return b"\x00\x00"
    offsets, pos = [], 1
    for item in items:
        offsets.append(pos)
        pos += len(item)
    offsets.append(pos)
    return (len(items).to_bytes(2, "big") + bytes([offset_size])
            + b"".join(o.to_bytes(offset_size, "big") for o in offsets) + b"".join(items))


def cff_int(value: int) -> bytes:
    """A CFF DICT operand in its five-byte form (fixed width, so offsets can be computed first)."""
    return b"\x1d" + value.to_bytes(4, "big", signed=True)

