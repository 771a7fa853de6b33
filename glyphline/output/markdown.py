"""Markdown output: headings, lists, tables, emphasis and links, for search indexes and language models.

Layout decides the structure (glyphline.layout.structure marks each block's kind, level and
list marker; words carry bold, italic and link); this module only writes it as CommonMark
with GitHub's pipe tables:

- a heading block → `#`×level; a list item → `-` (bullets, letters) or `N.` (numbers), four
  spaces per nesting level, consecutive items one line apart; a paragraph → one line,
  dehyphenated as in reflow;
- the rows of one table → a pipe table, its first row the header when it is tagged as one (TH),
  ruled as one (layout.drawn) or alone is bold (else an empty header row, since a pipe table must have one); a table Markdown cannot hold (one
  column, or mostly empty cells) → one row per line with its cells separated by ` | `;
- bold and italic words → `**…**` / `*…*`, only for runs shorter than their block (a bold
  paragraph is the author's style, not emphasis); words under a URI link → `[text](uri)`, the
  punctuation next to them outside the link where it lies outside the link's area;
- a footnote paired with its mark → `[^N]` at the mark and `[^N]: …` where the note stands;
- a tagged figure with alt text → `![alt]()` (a placeholder: the text has no image to point to);
- running headers, footers and page numbers are left out; every page starts with
  `<!-- page N -->` so a chunk of the output keeps its page;
- Markdown's metacharacters in the text are escaped, so the text reads back as itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..layout.hyphenation import Vocabulary, ends_with_break_hyphen, join_broken
from ..layout.model import Block, PageLayout, Word
from ..layout.scripts import no_space_at_line_break

if TYPE_CHECKING:
    from . import DocumentContext, PageContext, RenderedPage

PAGE_MARKER = "<!-- page {number} -->"
NEST_INDENT = "    "           # one list level: four spaces fit under "- " and "10. " alike
TABLE_KINDS = ("table_header", "table_row")   # a table's first row may be its tagged header row
TABLE_MAX_EMPTY_SHARE = 0.5    # a grid with more empty cells than this is no table a reader could follow

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>~|])")
_LINE_START = re.compile(r"^(?:(#{1,6})(?=\s|$)|([-+*=>])|(\d{1,9})([.)])(?=\s|$))")
_NUMBERED = re.compile(r"^\(?(\d{1,9})[.)]$")


@dataclass(slots=True)
class _Token:
    text: str
    bold: bool
    italic: bool
    link: str
    space_before: bool
    note: str = ""


def markdown_page(layout: PageLayout, context: "PageContext") -> str:
    """The page in Markdown, without the page marker (the document adds it)."""
    out: list[str] = []
    previous_kind: tuple = ("", 0, False)
    blocks = [b for b in layout.blocks if b.kind != "running" and (b.lines or b.kind == "figure")]
    i = 0
    while i < len(blocks):
        block = blocks[i]
        if block.kind in TABLE_KINDS:
            j = i + 1
            while j < len(blocks) and blocks[j].kind == "table_row" and blocks[j].table == block.table:
                j += 1
            text = _table(blocks[i:j])
            i = j
        elif block.kind == "figure":
            text = "![" + escape(" ".join(block.marker.split())) + "]()"
            i += 1
        else:
            text = _block(block, context.vocabulary, context.dehyphenate)
            i += 1
        if not text:
            continue
        kind = (block.kind, block.level, bool(_NUMBERED.match(block.marker)))
        if out:
            # one list, items one line apart: the same kind of item, or a level in or out
            tight = block.kind == "list_item" == previous_kind[0] and (kind[1] != previous_kind[1] or kind[2] == previous_kind[2])
            out.append("\n" if tight else "\n\n")
        out.append(text)
        previous_kind = kind
    return "".join(out)


def markdown_document(pages: "list[RenderedPage]", context: "DocumentContext") -> str:
    parts = [PAGE_MARKER.format(number=page.number) + ("\n\n" + page.text if page.text else "") for page in pages]
    return "\n\n".join(parts) + "\n" if parts else ""


# ----------------------------------------------------------------------------- blocks

def _block(block: Block, vocabulary: Vocabulary | None, dehyphenate: bool) -> str:
    tokens = _tokens([line.words for line in block.lines], vocabulary, dehyphenate)
    if block.kind == "heading":
        return "#" * block.level + " " + _inline(tokens, emphasis=False)
    if block.kind == "footnote":
        return "[^" + block.marker + "]: " + _inline(tokens, emphasis=True, line_start=False)
    if block.kind == "list_item":
        number = _NUMBERED.match(block.marker)
        if number:
            lead = number.group(1) + ". "
        elif len(block.marker) == 1 or not block.marker[:1].isalnum() and not block.marker.startswith("("):
            lead = "- "   # a bullet
        else:
            lead = "- " + escape(block.marker) + " "   # a lettered or Roman item: Markdown numbers only digits
        return NEST_INDENT * block.level + lead + _inline(tokens, emphasis=True, line_start=False)
    return _inline(tokens, emphasis=True)


def _table(rows: list[Block]) -> str:
    width = max(len(row.cells) for row in rows)
    grid = [[_inline(_tokens([cell], None, False), emphasis=False, line_start=False).replace("\n", " ")
             for cell in row.cells] + [""] * (width - len(row.cells)) for row in rows]
    used = [c for c in range(width) if any(cells[c] for cells in grid)]
    grid = [[cells[c] for c in used] for cells in grid]
    cells_total = len(grid) * len(used)
    empty = sum(1 for cells in grid for cell in cells if not cell)
    if len(used) < 2 or len(grid) < 2 or empty > TABLE_MAX_EMPTY_SHARE * cells_total:
        return "\n".join(" | ".join(cell for cell in cells if cell) for cells in grid)
    if rows[0].kind == "table_header" or _bold_header(rows):
        header, body = grid[0], grid[1:]
    else:
        header, body = [""] * len(used), grid
    lines = [_pipe_row(header), "|" + "|".join(" --- " for _ in used) + "|"]
    lines.extend(_pipe_row(cells) for cells in body)
    return "\n".join(lines)


def _pipe_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _bold_header(rows: list[Block]) -> bool:
    """Is the first row set bold while the rows under it are not (a header row by weight)?"""
    def bold(row: Block) -> bool:
        words = [w for cell in row.cells for w in cell]
        return bool(words) and all(w.bold for w in words)
    return bold(rows[0]) and not all(bold(row) for row in rows[1:])


# ----------------------------------------------------------------------------- inline text

def _tokens(lines: list[list[Word]], vocabulary: Vocabulary | None, dehyphenate: bool) -> list[_Token]:
    """The words of a block in order, lines joined as reflow joins them (break hyphens undone)."""
    tokens: list[_Token] = []
    for line in lines:
        for index, word in enumerate(line):
            if not word.text:
                continue
            if tokens and index == 0:
                last = tokens[-1]
                if dehyphenate and ends_with_break_hyphen(last.text) and word.text[:1].isalnum():
                    last.text = join_broken(last.text, word.text, vocabulary)
                    continue
                space = not no_space_at_line_break(last.text[-1], word.text[0])
            else:
                space = bool(tokens)
            if word.note and word.text == word.note:
                space = False   # a superscript mark set apart from its word: [^1] follows the word
            if word.link and word.link_outside != (0, 0):
                tokens.extend(_link_pieces(word, space))
            else:
                tokens.append(_Token(word.text, word.bold, word.italic, word.link, space, word.note))
    return tokens


def _link_pieces(word: Word, space: bool) -> list[_Token]:
    """A linked word as its punctuation outside the link, the linked text, and the punctuation after it."""
    lead, trail = word.link_outside
    end = len(word.text) - trail
    pieces = [(word.text[:lead], ""), (word.text[lead:end], word.link), (word.text[end:], "")]
    tokens = [_Token(text, word.bold, word.italic, link, space and not tokens_before, "")
              for tokens_before, (text, link) in enumerate(piece for piece in pieces if piece[0])]
    if word.note:   # the footnote mark ends the word: it goes with the piece it ends
        tokens[-1].note = word.note
    return tokens


def _inline(tokens: list[_Token], *, emphasis: bool, line_start: bool = True) -> str:
    """Tokens as Markdown: escaped, links and (when `emphasis` and not the whole block) bold and italic."""
    if not tokens:
        return ""
    if emphasis and all(t.bold == tokens[0].bold and t.italic == tokens[0].italic for t in tokens):
        emphasis = False   # the whole block in one style: the author's type, not emphasis
    out: list[str] = []
    i = 0
    while i < len(tokens):
        j = i + 1
        while j < len(tokens) and tokens[j].link == tokens[i].link:
            j += 1
        group = tokens[i:j]
        text = _emphasised(group, emphasis)
        if tokens[i].link:
            text = _link(text, " ".join(t.text for t in group), tokens[i].link)
        out.append((" " if tokens[i].space_before and out else "") + text)
        i = j
    text = "".join(out)
    return _escape_line_start(text) if line_start else text


def _emphasised(tokens: list[_Token], emphasis: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        style = (tokens[i].bold, tokens[i].italic) if emphasis else (False, False)
        j = i + 1
        while j < len(tokens) and emphasis and (tokens[j].bold, tokens[j].italic) == style:
            j += 1
        text = "".join((" " if t.space_before and k else "") + _word(t) for k, t in enumerate(tokens[i:j]))
        delimiter = "*" * (2 * style[0] + style[1])
        out.append((" " if tokens[i].space_before and out else "") + delimiter + text + delimiter)
        i = j
    return "".join(out)


def _word(token: _Token) -> str:
    if not token.note:
        return escape(token.text)
    at = token.text.rfind(token.note)
    if at < 0:
        return escape(token.text)
    return escape(token.text[:at]) + "[^" + token.note + "]" + escape(token.text[at + len(token.note):])


def _link(text: str, plain: str, uri: str) -> str:
    if plain.strip() == uri and " " not in uri:
        return "<" + uri.replace(">", "%3E") + ">"
    return "[" + text + "](" + uri.replace(" ", "%20").replace("(", "%28").replace(")", "%29") + ")"


def escape(text: str) -> str:
    """Text with Markdown's inline metacharacters escaped (it reads back as the same characters)."""
    return _INLINE_SPECIAL.sub(r"\\\1", text)


def _escape_line_start(text: str) -> str:
    """Escape what would make a line a heading, list item, quote or rule ("# 1", "- x", "3. x")."""
    if text[:1] in "*[<":
        return text   # opens with our own emphasis or link (the text's own are escaped as "\\*")
    match = _LINE_START.match(text)
    if match is None:
        return text
    if match.group(3):
        return match.group(3) + "\\" + text[len(match.group(3)):]
    return "\\" + text
