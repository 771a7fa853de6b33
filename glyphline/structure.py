"""Structure stage: the author's own structure tree (tagged PDF, ISO 32000-1 §14.7) → per-page tags.

A tagged PDF says, in /StructTreeRoot, which marked-content spans (/MCID in the page content)
make up which element (H1, P, LI, TD, Figure …) and in which order a reader meets them.
This module reads the tree once per document, depth first, and gives each page a map
MCID → Tag (the element's standard role, its ancestors' roles, /Alt, /ActualText, /Lang and
its position in the tree's order). Layout uses it to order blocks and to name their roles.

Hostile trees are bounded: a cycle, more than MAX_STRUCT_NODES nodes or more than
MAX_STRUCT_DEPTH levels end the reading with a warning and no tags (geometry order then).
Knows nothing about text or glyphs; pypdf objects stay inside this module.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .notices import warning
from .pdfobjects import resolve
from .plainobjects import PlainObjects

MAX_STRUCT_NODES = 500_000     # elements + content items read from one tree (a 1,000-page book has ~10⁵)
MAX_STRUCT_DEPTH = 200         # nesting of structure elements (real trees are < 30 deep)
MAX_ROLE_MAP_STEPS = 16        # a /RoleMap chain longer than this is a loop
MAX_NUMBER_TREE_NODES = 100_000  # nodes of the /ParentTree number tree read

# The standard structure types (ISO 32000-1 §14.8.4, 32000-2 §14.8.4): a role mapped to one of
# these stops the /RoleMap chain.
STANDARD_ROLES = frozenset("""
Document DocumentFragment Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private Aside
Title FENote Sub P Note Code Lbl LBody Em Strong H H1 H2 H3 H4 H5 H6 L LI Table TR TH TD THead TBody TFoot
Span Quote Reference BibEntry Link Annot Ruby RB RT RP Warichu WT WP Figure Formula Form Artifact
""".split())

# Roles that name a block of text (what Markdown wants: a heading, a paragraph, a list item, a cell …).
# A glyph's Tag names the nearest of these among its element and ancestors.
BLOCK_ROLES = frozenset("""
H H1 H2 H3 H4 H5 H6 Title P Lbl LBody LI TH TD Caption Figure Formula Note FENote Code BlockQuote TOCI
BibEntry Aside
""".split())


@dataclass(frozen=True, slots=True)
class Tag:
    """What the structure tree says about one marked-content span (one MCID on one page)."""

    order: int                   # position of the span in the tree's reading order (depth first, 0 first)
    role: str                    # standard role of the nearest block element (BLOCK_ROLES), else of the element
    element: int = 0             # which element `role` is (spans of one paragraph or list item share it)
    path: tuple[str, ...] = ()   # standard roles from the root down to `role` (e.g. Document, L, LI, LBody)
    lineage: tuple[int, ...] = ()   # the element numbers of `path` (which list item, which table row …)
    alt: str = ""                # /Alt of the element or an ancestor (a figure's description)
    actual_text: str = ""        # /ActualText of the named element, when it has one
    lang: str = ""               # /Lang of the element or the nearest ancestor with one


@dataclass
class Structure:
    """The tree's tags by page index (0-based), and figures that carry /Alt, in tree order."""

    pages: dict[int, dict[int, Tag]] = field(default_factory=dict)
    figures: dict[int, list[Tag]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def page(self, index: int) -> dict[int, Tag]:
        return self.pages.get(index, {})


def _at_order(tag: Tag, order: int) -> Tag:
    """`tag` for a span at `order` in the tree (one per MCID: positional, not dataclasses.replace)."""
    return Tag(order, tag.role, tag.element, tag.path, tag.lineage, tag.alt, tag.actual_text, tag.lang)


class _TreeTooLarge(Exception):
    pass


def read_structure(root: Any, pages: list, pdf: Any = None) -> Structure | None:
    """The structure tree of the catalog `root`, or None when the document is not tagged.
    `pages` are the page dictionaries in document order; `pdf` is the pypdf reader (its plain
    elements are then read straight from the file, see PlainObjects)."""
    tree = resolve(_get(root, "/StructTreeRoot"))
    if not _is_dict(tree):
        return None
    reader = _TreeReader(tree, pages, PlainObjects(pdf))
    try:
        reader.walk()
    except (_TreeTooLarge, RecursionError) as exc:
        return Structure(warnings=[warning("structure-unused", reason=str(exc))])
    except Exception as exc:  # a damaged tree costs the tags, never the text
        return Structure(warnings=[warning("structure-unreadable", reason=type(exc).__name__)])
    return reader.structure


class _TreeReader:
    def __init__(self, tree, pages: list, objects: PlainObjects):
        self.objects = objects
        self.pages = pages
        self.page_keys = {_object_key(page): index for index, page in enumerate(pages)}
        self.element_tags: dict[Any, tuple[Tag, int]] = {}   # element key → its Tag and first span's order (ParentTree)
        self.role_map = resolve(_get(tree, "/RoleMap"))
        self.tree = tree
        self.structure = Structure()
        self.nodes = 0
        self.elements = 0             # elements met so far: their numbers (Tag.element)
        self.leaves = 0               # marked-content spans met so far: their order numbers (Tag.order)
        self.unplaced = False         # some MCIDs had no page (/Pg): the ParentTree places them

    def walk(self) -> None:
        # explicit stack: (kid, page index inherited, roles on the path, their element numbers, alt, lang,
        # named element, under a block?)
        stack: list[tuple] = [(kid, None, (), (), "", "", None, False) for kid in reversed(_kids(self.tree))]
        seen: set = set()   # an element met twice is a cycle (or shared, which a tree never is)
        while stack:
            node, page, path, lineage, alt, lang, named, in_block = stack.pop()
            self.nodes += 1
            if self.nodes > MAX_STRUCT_NODES:
                raise _TreeTooLarge(f"more than {MAX_STRUCT_NODES} nodes")
            if type(node) is int:   # a marked-content span of the page (the usual leaf): nothing to resolve
                self._mark(page, node, named)
                continue
            key = _object_key(node)
            node = self.objects.resolve(node)
            if isinstance(node, int) and not isinstance(node, bool):
                self._mark(page, node, named)
                continue
            if not _is_dict(node):
                continue
            kind = resolve(_get(node, "/Type"))
            if kind == "/MCR":
                mcid = resolve(_get(node, "/MCID"))
                if _get(node, "/Stm") is None and isinstance(mcid, int):   # /Stm: a form's own MCIDs (not read)
                    self._mark(self._page_of(node, page), mcid, named)
                continue
            if kind == "/OBJR":
                continue   # an annotation or XObject: no marked content of the page
            if key is not None:
                if key in seen:
                    raise _TreeTooLarge("an element appears twice in it: a cycle")
                seen.add(key)
            if len(path) >= MAX_STRUCT_DEPTH:
                raise _TreeTooLarge(f"it is deeper than {MAX_STRUCT_DEPTH} levels")
            role = self._standard_role(resolve(_get(node, "/S")))
            if role == "Artifact":
                continue
            page = self._page_of(node, page)
            path = path + (role,)
            alt = _text(_get(node, "/Alt")) or alt
            lang = _text(_get(node, "/Lang")) or lang
            self.elements += 1
            lineage = lineage + (self.elements,)
            if role in BLOCK_ROLES or not in_block:   # the nearest block element names the text; else the innermost
                named = Tag(order=self.leaves, role=role, element=self.elements, path=path, lineage=lineage, alt=alt,
                            actual_text=_text(_get(node, "/ActualText")), lang=lang)
                in_block = in_block or role in BLOCK_ROLES
                if role == "Figure" and alt and page is not None:
                    self.structure.figures.setdefault(page, []).append(named)
            if key is not None:   # the ParentTree may name it: its spans follow what came before it
                self.element_tags[key] = (named, self.leaves)
            for kid in reversed(_kids(node, self.objects.resolve)):
                stack.append((kid, page, path, lineage, alt, lang, named, in_block))
        if self.unplaced:
            self._place_by_parent_tree()

    def _mark(self, page: int | None, mcid: int, named: Tag | None) -> None:
        if named is None:
            return   # an MCID straight under the root: no element to name it
        if page is None:
            self.unplaced = True
            self.leaves += 1   # it still takes its place in the order (the ParentTree names its page)
            return
        tags = self.structure.pages.setdefault(page, {})
        if mcid not in tags:
            tags[mcid] = _at_order(named, self.leaves)
            self.leaves += 1

    def _page_of(self, node, inherited: int | None) -> int | None:
        ref = _get(node, "/Pg")
        if ref is None:
            return inherited
        return self.page_keys.get(_object_key(ref), inherited)

    def _standard_role(self, name: Any) -> str:
        role = str(name or "").lstrip("/")
        for _ in range(MAX_ROLE_MAP_STEPS):
            if role in STANDARD_ROLES or not _is_dict(self.role_map):
                break
            mapped = resolve(_get(self.role_map, "/" + role))
            if mapped is None:
                break
            role = str(mapped).lstrip("/")
        return role

    def _place_by_parent_tree(self) -> None:
        """MCIDs of elements without /Pg: the /ParentTree lists, per page, each MCID's element."""
        parent_tree = _number_tree(resolve(_get(self.tree, "/ParentTree")))
        for index, page_obj in enumerate(self.pages):
            parents = resolve(parent_tree.get(resolve(_get(page_obj, "/StructParents"))))
            if not isinstance(parents, list):
                continue
            tags = self.structure.pages.setdefault(index, {})
            for mcid, element in enumerate(parents):
                named = self.element_tags.get(_object_key(element))
                if named is not None and mcid not in tags:
                    tags[mcid] = _at_order(*named)


# ----------------------------------------------------------------------------- pypdf object helpers


def _object_key(ref: Any) -> Any:
    if type(ref).__name__ == "IndirectObject":
        return (ref.idnum, ref.generation)
    indirect = getattr(ref, "indirect_reference", None)
    if indirect is not None:
        return (indirect.idnum, indirect.generation)
    return None


def _is_dict(obj: Any) -> bool:
    return isinstance(obj, dict)


def _get(obj: Any, key: str) -> Any:
    try:
        return obj.get(key) if isinstance(obj, dict) else None
    except Exception:
        return None


def _kids(node: Any, read=resolve) -> list:
    kids = read(_get(node, "/K"))
    if kids is None:
        return []
    return list(kids) if isinstance(kids, list) else [kids]


def _text(value: Any) -> str:
    if value is None:
        return ""   # (most elements: no /Alt, /Lang or /ActualText)
    value = resolve(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        from .content.interpreter import decode_text_string
        return decode_text_string(bytes(value))
    return ""


def _number_tree(node: Any) -> dict[int, Any]:
    """A number tree (/Nums, /Kids) flattened, at most MAX_NUMBER_TREE_NODES nodes read."""
    out: dict[int, Any] = {}
    stack = [node]
    seen: set = set()
    visits = 0
    while stack and visits < MAX_NUMBER_TREE_NODES:
        visits += 1
        item = stack.pop()
        key = _object_key(item)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        item = resolve(item)
        if not _is_dict(item):
            continue
        nums = resolve(_get(item, "/Nums"))
        if isinstance(nums, list):
            for i in range(0, len(nums) - 1, 2):
                number = resolve(nums[i])
                if isinstance(number, int):
                    out[number] = nums[i + 1]
        kids = resolve(_get(item, "/Kids"))
        if isinstance(kids, list):
            stack.extend(reversed(kids))
    return out
