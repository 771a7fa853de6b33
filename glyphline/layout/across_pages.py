"""Document-level layout: what the pages say together, after every page is laid out.

- the vocabulary: every unbroken word of the document, the evidence dehyphenation consults;
- words hyphenated across a page break ("en-" at the foot of one page, "code" at the head of
  the next) are joined onto the end of the first page: each page keeps only whole words.

The renderers read the result (the joined layouts, PageContext.vocabulary); they decide nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .hyphenation import Vocabulary, ends_with_break_hyphen, join_broken, resolve_joins
from .scripts import no_space_at_line_break
from .model import WORD_TEXT, Block, EndWord, Line, PageLayout, ReflowBlock, ReflowLine

# fold_lines: a line shorter than this ends its run: the break-hyphen test reads the last two characters joined
MIN_RUN_LINE_CHARS = 2


def build_vocabulary(layouts: Iterable[PageLayout]) -> Vocabulary:
    """Count every unbroken word of the document: the evidence dehyphenation consults."""
    vocabulary = Vocabulary()
    count_words(vocabulary, layouts)
    return vocabulary


def count_words(vocabulary: Vocabulary, layouts: Iterable[PageLayout]) -> None:
    """Add the unbroken words of these pages to the vocabulary (a page at a time, as they come)."""
    vocabulary.add_lines(list(map(WORD_TEXT, line.words))
                         for layout in layouts for block in layout.blocks for line in block.lines)


def join_across_pages(layouts: list[PageLayout], vocabulary: Vocabulary | None) -> list[PageLayout]:
    """The layouts with words hyphenated across consecutive pages joined (reflow with
    dehyphenation); the records given are left as they are, a changed page is a new record.

    The last body block of a page that ends in a break hyphen takes the first word of the next
    page's first body block (running headers skipped), joined by the dehyphenation rules.
    """
    out = list(layouts)
    for i in range(len(out) - 1):
        page, following = out[i], out[i + 1]
        if following.number != page.number + 1:
            continue
        last = _last_body(page)
        first = _first_body(following)
        if last is None or first is None:
            continue
        tail_line = page.blocks[last].lines[-1]
        head_line = following.blocks[first].lines[0]
        if not tail_line.words or not head_line.words:
            continue
        tail = tail_line.words[-1]
        head = head_line.words[0]
        if not ends_with_break_hyphen(tail.text) or not head.text[:1].isalnum():
            continue
        joined = tail._replace(text=join_broken(tail.text, head.text, vocabulary))
        out[i] = _with_line(page, last, -1, replace(tail_line, words=tail_line.words[:-1] + [joined]))
        out[i + 1] = _with_line(following, first, 0,
                                replace(head_line, words=head_line.words[1:]) if len(head_line.words) > 1 else None)
    return out


def resolve_tail(layout: PageLayout, joins: list[tuple[str, str]], vocabulary: Vocabulary) -> PageLayout:
    """The layout with the word join_across_pages joined onto its last body line under a
    PendingJoins mark decided by the complete vocabulary (resolve_joins)."""
    last = _last_body(layout)
    line = layout.blocks[last].lines[-1]
    words = [word._replace(text=resolve_joins(word.text, joins, vocabulary)) for word in line.words]
    return _with_line(layout, last, -1, replace(line, words=words))


def ends_apart(layout: PageLayout) -> bool:
    """A page break joins this page's first body line and its last apart: joining its last word
    to the next page leaves what the page before may take from its first line as it was."""
    first, last = _first_body(layout), _last_body(layout)
    return first is None or first != last or len(layout.blocks[first].lines) > 1


def reflow_text_only(layout: PageLayout) -> PageLayout:
    """The layout cut down to what join_across_pages and the reflow renderer read, so a long
    document keeps little of each page until its vocabulary is complete: the blocks' roles and
    lines; the end words of the two lines a page break may join (the last line of the last body
    block, the first of the first body block). The lines between are folded into runs
    (fold_lines): a ReflowLine (text, space_after) per stretch of lines no dehyphenation decision
    cuts; boxes, cells and pitches are dropped."""
    first, last = _first_body(layout), _last_body(layout)
    blocks = []
    for index, block in enumerate(layout.blocks):
        lines = block.lines
        head = index == first
        tail = index == last and not (head and len(lines) == 1)
        middle = fold_lines(lines[1 if head else 0:len(lines) - 1 if tail else len(lines)])
        if head or tail:   # a block join_across_pages may change (_with_line)
            blocks.append(Block(([_ends_only(lines[0])] if head else []) + middle + ([_ends_only(lines[-1])] if tail else []),
                                0.0, 0.0, 0.0, 0.0, role=block.role))
        else:
            blocks.append(ReflowBlock(middle, block.role))
    return replace(layout, blocks=blocks, line_pitches={}, figures=[])


def fold_lines(lines: list) -> list[ReflowLine]:
    """Consecutive lines of a block as runs, each a ReflowLine that join_lines reads as it reads
    the lines it stands for, whatever comes before it: a page of ~45 lines keeps ~10 records.

    A line ends its run when the join after it may depend on the vocabulary or on what precedes
    the run: a break hyphen before an alphanumeric start (join_broken decides), a line of fewer
    than two characters (a break hyphen is read off the last two characters joined), an empty
    line (join_lines skips it). A run's first line without a space ends the run unless a space
    follows it (join_broken takes a run's text up to its first space as the broken word's end)."""
    runs: list[ReflowLine] = []
    text, spaced, spaceless_start = "", False, False
    for line in lines:
        line_text, line_spaced = line.text, line.space_after
        if text and line_text:
            glue = "" if no_space_at_line_break(text[-1], line_text[0], spaced) else " "
            if not (spaceless_start and not glue) and not (
                    ends_with_break_hyphen(text) and line_text[:1].isalnum()):
                text, spaced, spaceless_start = text + glue + line_text, line_spaced, False
                if len(line_text) < MIN_RUN_LINE_CHARS:
                    runs.append(ReflowLine(text, spaced))
                    text = ""
                continue
        if text:
            runs.append(ReflowLine(text, spaced))
        if len(line_text) < MIN_RUN_LINE_CHARS:   # empty or one character: a run of its own
            runs.append(ReflowLine(line_text, line_spaced))
            text = ""
            continue
        text, spaced, spaceless_start = line_text, line_spaced, " " not in line_text
    if text:
        runs.append(ReflowLine(text, spaced))
    return runs


def _ends_only(line: Line) -> Line:
    """The line with its first and last words kept as their text (the ones a page break joins)
    and the words between folded into one: the same Line.text in at most three EndWords."""
    texts = list(map(WORD_TEXT, line.words))
    if len(texts) > 3:
        texts = [texts[0], " ".join(texts[1:-1]), texts[-1]]
    return replace(line, words=list(map(EndWord, texts)))


def _with_line(layout: PageLayout, block_index: int, line_index: int, line) -> PageLayout:
    """The layout with one line of one block replaced, or removed (None); a block left without
    lines is removed too."""
    block = layout.blocks[block_index]
    lines = list(block.lines)
    if line is None:
        del lines[line_index]
    else:
        lines[line_index] = line
    blocks = list(layout.blocks)
    if lines:
        blocks[block_index] = replace(block, lines=lines)
    else:
        del blocks[block_index]
    return replace(layout, blocks=blocks)


def _last_body(layout: PageLayout) -> int | None:
    for i in range(len(layout.blocks) - 1, -1, -1):
        block: Block = layout.blocks[i]
        if block.role == "body" and block.lines:
            return i
    return None


def _first_body(layout: PageLayout) -> int | None:
    for i, block in enumerate(layout.blocks):
        if block.role == "body" and block.lines:
            return i
    return None
