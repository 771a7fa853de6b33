"""Unicode Bidirectional Algorithm (UAX #9) for one line, and its use in reverse.

A PDF paints right-to-left text as glyphs at positions; sorted by x, a line's glyphs are in
*visual* order. Text must come out in *logical* (reading) order. For the levels that real
lines reach (an RTL paragraph with embedded numbers and Latin, or the reverse) reordering is
its own inverse: resolving the levels of the visual sequence and applying rule L2 again
gives the logical order. Where two logical strings paint identically (e.g. "A 1" vs "1 A"
inside Hebrew) the reading that keeps the visual left-to-right run together is chosen.

Implemented: P2/P3 (paragraph level), W1–W7, N1–N2, I1–I2, L1, L2 and L4 mirroring of
brackets. Explicit embeddings, overrides and isolates (X1–X8) are not applied: their
control characters are ignored (X9), as producers do not put them in PDF text.
Units may be multi-character strings (a ligature, an ActualText span, a ToUnicode value
carrying a whole cluster): a unit moves as a whole and keeps its inner order, its class being
that of its first strong character. Rule MIXED_UNIT: a unit holding strong characters of both
directions (Skia maps one Latin glyph to "حَبيبي h") says nothing about where it is painted: it
takes the class of the nearest strong unit painted after it (else before it), so it stays in
the run its glyph is painted in and a Latin word it starts is not split; it does not vote for
the line's direction.
"""
from __future__ import annotations

import unicodedata

STRONG = frozenset({"L", "R", "AL"})
NEUTRAL = frozenset({"B", "S", "WS", "ON"})
EXPLICIT_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "BN"})
TRAILING_WHITESPACE = frozenset({"WS", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "BN"})
# L4: bracket-like characters drawn mirrored at odd levels (the common pairs; full list is BidiMirroring.txt)
MIRROR_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">", "«": "»", "‹": "›", "⁅": "⁆",
                "⁽": "⁾", "₍": "₎", "〈": "〉", "《": "》", "「": "」", "『": "』", "【": "】",
                "〔": "〕", "〖": "〗", "〘": "〙", "〚": "〛", "﹙": "﹚", "﹛": "﹜", "﹝": "﹞",
                "（": "）", "［": "］", "｛": "｝", "＜": "＞", "⟨": "⟩", "≤": "≥", "∈": "∋"}
MIRROR = {**MIRROR_PAIRS, **{v: k for k, v in MIRROR_PAIRS.items()}}
OPENING = frozenset(MIRROR_PAIRS)
SENTENCE_END = frozenset(".!?:;,\u061f\u061b\u060c\u06d4")   # incl. Arabic ? ; , and full stop
MAX_LEVEL = 125     # UAX #9's max_depth; levels here never exceed 2, the guard bounds loops


def unit_class(text: str) -> str:
    """Bidi class of a unit: its first strong character's, else its first number's, else its first's."""
    if not text:
        return "BN"
    first_number = None
    for ch in text:
        cls = unicodedata.bidirectional(ch) or "L"
        if cls in STRONG:
            return "ON" if len(text) > 1 and is_mixed(text) else cls   # MIXED_UNIT: see unit_classes
        if first_number is None and cls in ("EN", "AN"):
            first_number = cls
    if first_number is not None and len(text) > 1:
        return first_number
    return unicodedata.bidirectional(text[0]) or "L"


def unit_classes(texts: list[str]) -> list[str]:
    """unit_class of each unit of a line in visual order, MIXED_UNIT applied (two linear passes)."""
    classes = [unit_class(t) for t in texts]
    mixed = [len(t) > 1 and c == "ON" and is_mixed(t) for t, c in zip(texts, classes)]
    if not any(mixed):
        return classes
    after: list[str | None] = [None] * len(classes)
    nearest = None
    for i in range(len(classes) - 1, -1, -1):
        after[i] = nearest
        if classes[i] in STRONG and not mixed[i]:
            nearest = classes[i]
    nearest = None
    for i, c in enumerate(classes):
        if mixed[i]:
            classes[i] = after[i] or nearest or "ON"
        elif c in STRONG:
            nearest = c
    return classes


def is_mixed(text: str) -> bool:
    """True when `text` holds strong characters of both directions (rule MIXED_UNIT)."""
    ltr = rtl = False
    for ch in text:
        cls = unicodedata.bidirectional(ch)
        if cls == "L":
            ltr = True
        elif cls in ("R", "AL"):
            rtl = True
        if ltr and rtl:
            return True
    return False


def paragraph_level(texts: list[str]) -> int | None:
    """P2/P3 on logical text: 1 if the first strong character is right-to-left, 0 if L, None if none."""
    for text in texts:
        for ch in text:
            cls = unicodedata.bidirectional(ch)
            if cls == "L":
                return 0
            if cls in ("R", "AL"):
                return 1
    return None


def line_base_direction(texts: list[str], visual: bool = True) -> str:
    """'rtl' or 'ltr' for a line.

    Logical order: the first strong character (P2/P3). Visual order (glyphs by x), where the
    first character read sits at the left or the right end: the strong characters at both
    ends when they agree; else sentence punctuation ending the line at one end; else the
    majority of strong characters. Callers that know the block's alignment should pass it.
    """
    if not visual:
        return "rtl" if paragraph_level(texts) == 1 else "ltr"
    strong = [c for t in texts if len(t) == 1 or not is_mixed(t)
              for c in map(unicodedata.bidirectional, t) if c in STRONG]
    if not strong:
        return "ltr"
    left_rtl, right_rtl = strong[0] != "L", strong[-1] != "L"
    if left_rtl == right_rtl:
        return "rtl" if left_rtl else "ltr"
    visible = [t.strip() for t in texts if t.strip()]
    if visible and visible[-1][-1] in SENTENCE_END and visible[0][0] not in SENTENCE_END:
        return "ltr"
    if visible and visible[0][0] in SENTENCE_END and visible[-1][-1] not in SENTENCE_END:
        return "rtl"
    rtl = sum(1 for c in strong if c != "L")
    return "rtl" if rtl > len(strong) - rtl else "ltr"


def resolve_levels(classes: list[str], para_level: int) -> list[int]:
    """Embedding level of each unit (rules W1–W7, N1–N2, I1–I2, L1) for one line."""
    para_level = max(0, min(para_level, MAX_LEVEL))
    keep = [i for i, c in enumerate(classes) if c not in EXPLICIT_CONTROLS]    # X9
    types = [classes[i] for i in keep]
    e = "R" if para_level % 2 else "L"
    _weak_types(types, e)
    _neutral_types(types, e)
    levels = [para_level] * len(classes)
    for k, i in enumerate(keep):
        t = types[k]
        if para_level % 2 == 0:
            levels[i] = para_level + (1 if t == "R" else 2 if t in ("AN", "EN") else 0)
        else:
            levels[i] = para_level + (1 if t in ("L", "EN", "AN") else 0)
    # removed controls take the level of the unit before them (or the paragraph's)
    for i, c in enumerate(classes):
        if c in EXPLICIT_CONTROLS:
            levels[i] = levels[i - 1] if i > 0 else para_level
    _reset_whitespace(classes, levels, para_level)
    return levels


def _weak_types(t: list[str], sos: str) -> None:
    n = len(t)
    prev = sos
    for i in range(n):                                  # W1: marks take their base's class
        if t[i] == "NSM":
            t[i] = prev
        prev = t[i]
    last_strong = sos
    for i in range(n):                                  # W2: numbers after Arabic letters are AN
        if t[i] in STRONG:
            last_strong = t[i]
        elif t[i] == "EN" and last_strong == "AL":
            t[i] = "AN"
    for i in range(n):                                  # W3
        if t[i] == "AL":
            t[i] = "R"
    for i in range(1, n - 1):                           # W4: one separator inside a number
        if t[i] == "ES" and t[i - 1] == "EN" and t[i + 1] == "EN":
            t[i] = "EN"
        elif t[i] == "CS" and t[i - 1] == t[i + 1] and t[i - 1] in ("EN", "AN"):
            t[i] = t[i - 1]
    i = 0
    while i < n:                                        # W5: terminators next to a number
        if t[i] != "ET":
            i += 1
            continue
        j = i
        while j < n and t[j] == "ET":
            j += 1
        if (i > 0 and t[i - 1] == "EN") or (j < n and t[j] == "EN"):
            for k in range(i, j):
                t[k] = "EN"
        i = j
    for i in range(n):                                  # W6
        if t[i] in ("ES", "ET", "CS"):
            t[i] = "ON"
    last_strong = sos
    for i in range(n):                                  # W7: numbers in Latin context are L
        if t[i] in ("L", "R"):
            last_strong = t[i]
        elif t[i] == "EN" and last_strong == "L":
            t[i] = "L"


def _neutral_types(t: list[str], e: str) -> None:
    n = len(t)
    i = 0
    while i < n:
        if t[i] not in NEUTRAL:
            i += 1
            continue
        j = i
        while j < n and t[j] in NEUTRAL:
            j += 1
        before = _strong_direction(t[i - 1]) if i > 0 else e     # sos = eos = e (one level run)
        after = _strong_direction(t[j]) if j < n else e
        direction = before if before == after else e            # N1, else N2
        for k in range(i, j):
            t[k] = direction
        i = j


def _strong_direction(t: str) -> str:
    return "R" if t in ("R", "AN", "EN") else "L"


def _reset_whitespace(classes: list[str], levels: list[int], para_level: int) -> None:
    # L1: separators, and whitespace before them or at the end of the line, take the paragraph level
    trailing = True
    for i in range(len(classes) - 1, -1, -1):
        c = classes[i]
        if c in ("S", "B"):
            levels[i] = para_level
            trailing = True
        elif trailing and c in TRAILING_WHITESPACE:
            levels[i] = para_level
        else:
            trailing = False


def reorder(levels: list[int]) -> list[int]:
    """L2: indices in display order for units in logical order (and, being an involution
    for real lines, logical order for units in display order)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = min(max(levels), MAX_LEVEL)
    lowest_odd = min((lv for lv in levels if lv % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        i, n = 0, len(order)
        while i < n:
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < n and levels[order[j]] >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    return order


def mirrored(text: str) -> str:
    return MIRROR.get(text, text) if len(text) == 1 else text


def logical_to_visual(texts: list[str], base_rtl: bool | None = None) -> list[str]:
    """What a PDF paints from left to right for a logical line (with L4 mirroring)."""
    level = paragraph_level(texts) if base_rtl is None else int(base_rtl)
    levels = resolve_levels(unit_classes(texts), level or 0)
    return [mirrored(texts[i]) if levels[i] % 2 else texts[i] for i in reorder(levels)]


def visual_to_logical(texts: list[str], base_rtl: bool | None = None) -> list[int]:
    """Indices of `texts` (units in visual left-to-right order) in logical reading order."""
    return _visual_order(texts, base_rtl)[0]


def _visual_order(texts: list[str], base_rtl: bool | None) -> tuple[list[int], list[int]]:
    if base_rtl is None:
        base_rtl = line_base_direction(texts) == "rtl"
    levels = resolve_levels(unit_classes(texts), int(base_rtl))
    return reorder(levels), levels


def logical_line(glyph_texts_in_x_order: list[str], base_rtl: bool | None = None) -> str:
    """Logical-order text of a line whose glyph texts are given by increasing x.

    `base_rtl` None = decide from the glyphs (majority of strong characters).
    """
    texts = glyph_texts_in_x_order
    if not any(_has_rtl(t) for t in texts) and not base_rtl:
        return "".join(texts)       # nothing right-to-left: visual order is logical order
    order, levels = _visual_order(texts, base_rtl)
    plain = [texts[i] for i in order]
    mirrored_back = [mirrored(texts[i]) if levels[i] % 2 else texts[i] for i in order]
    # producers differ: most record the mirrored glyph's own character, some the logical one
    if _brackets_balanced(mirrored_back) or not _brackets_balanced(plain):
        return "".join(mirrored_back)
    return "".join(plain)


def _has_rtl(text: str) -> bool:
    for ch in text:
        if unicodedata.bidirectional(ch) in ("R", "AL", "AN"):
            return True
    return False


def _brackets_balanced(texts: list[str]) -> bool:
    depth = 0
    for text in texts:
        for ch in text:
            if ch in OPENING:
                depth += 1
            elif ch in MIRROR:
                depth -= 1
                if depth < 0:
                    return False
    return depth == 0


def painted_in_logical_order(texts: list[str], xs: list[float]) -> bool:
    """True when the right-to-left glyphs of a line, in content-stream order, mostly move left.

    Such producers paint in reading order (x decreasing), so stream order is already logical;
    the usual producers (Chromium, XeTeX, LibreOffice) paint by increasing x (visual order).
    """
    leftward = rightward = 0
    for k in range(1, min(len(texts), len(xs))):
        if _has_rtl(texts[k - 1]) and _has_rtl(texts[k]):
            if xs[k] < xs[k - 1]:
                leftward += 1
            elif xs[k] > xs[k - 1]:
                rightward += 1
    return leftward > rightward


def line_text(texts_in_stream_order: list[str], xs: list[float], base_rtl: bool | None = None) -> str:
    """Logical text of one line's glyphs given in content-stream order with their x origins."""
    n = min(len(texts_in_stream_order), len(xs))
    texts, xs = texts_in_stream_order[:n], xs[:n]
    if any(_has_rtl(t) for t in texts) and painted_in_logical_order(texts, xs):
        swapped = [mirrored(t) for t in texts]
        # the glyphs of brackets in RTL runs are mirrored: undo it when that balances them
        if not _brackets_balanced(texts) and _brackets_balanced(swapped):
            return "".join(swapped)
        return "".join(texts)
    by_x = sorted(range(n), key=lambda i: xs[i])
    return logical_line([texts[i] for i in by_x], base_rtl)


def logical_words(glyph_texts_in_x_order: list[str], word_starts: list[bool],
                  base_rtl: bool | None = None) -> list[tuple[list[int], str]]:
    """A line's words in reading order: (glyph indices in reading order, the word's text).

    `word_starts[i]` is True when a word space comes before glyph i (glyphs by x, as the
    word stage found them). Whitespace glyphs separate words and belong to none. Brackets
    painted mirrored inside right-to-left runs are turned back in the text. A glyph group
    that mixes directions with no space may be regrouped, as reading order demands.
    """
    units: list[str] = []
    owners: list[int] = []          # glyph index of each unit, -1 for an inferred space
    for i, text in enumerate(glyph_texts_in_x_order):
        if i and i < len(word_starts) and word_starts[i]:
            units.append(" ")
            owners.append(-1)
        units.append(text)
        owners.append(i)
    if not any(_has_rtl(t) for t in units) and not base_rtl:
        order, levels = list(range(len(units))), [0] * len(units)
    else:
        order, levels = _visual_order(units, base_rtl)
    mirrored_back = [mirrored(units[k]) if levels[k] % 2 else units[k] for k in order]
    if not _brackets_balanced(mirrored_back) and _brackets_balanced([units[k] for k in order]):
        mirrored_back = [units[k] for k in order]
    words: list[tuple[list[int], str]] = []
    indices: list[int] = []
    texts: list[str] = []
    for k, text in zip(order, mirrored_back):
        owner = owners[k]
        if owner < 0 or not text.strip():
            if indices:
                words.append((indices, "".join(texts).strip()))
            indices, texts = [], []
        else:
            indices.append(owner)
            texts.append(text)
    if indices:   # a unit's own edge spaces (a cluster text "حَبيبي ") are no part of the word
        words.append((indices, "".join(texts).strip()))
    return words
