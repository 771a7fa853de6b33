"""Dehyphenation for reflowed text: join a word broken at a line end, keep real compounds.

At a line that ends in a hyphen (U+002D, U+2010) or a soft hyphen (U+00AD) after a letter:
1. a soft hyphen is a discretionary break: join, no hyphen;
2. the document's own evidence decides next: if the compound (`well-known`) occurs unbroken
   elsewhere and the joined word does not, keep the hyphen; if the joined word occurs, join;
3. a next word that is itself hyphenated continues a compound chain (`state-of-` `the-art`):
   keep the hyphen; so does a break after a whole part of a compound (`state-of-the-` `art`:
   "the" is a word of the document, "theart" is not), while `self-con-` `tained` joins;
4. with no evidence in the document, a lowercase continuation asks the word list of the
   document's language (wordlists.py; the language from its function words, language.py):
   - a conjunction next is a suspended compound: the hyphen stays and so does the space
     (`Ein-` `und Ausgang`, `pre-` `and post-war`), unless the joined form is a word;
   - English keeps the hyphen when both halves are words and the joined form is not
     (`self-` `contained`, but `every-` `thing` → everything);
   - German writes compound nouns closed and capitalises after a hyphen, so a capital before
     the break with a lowercase part after it is one word (`Teil-` `menge`); a lowercase pair
     keeps the hyphen only as coordinated adjectives, when both halves are adjectives and the
     joined form is not a word (`deutsch-` `französischen`, but `hoch-` `wertig` → hochwertig);
5. otherwise the fixed rule: a lowercase letter next joins without the hyphen (`en-` `code`);
   a capital or a digit keeps the hyphen with no space (`Osei-` `Mensah`, `COVID-` `19`).
A hyphen after a digit is never a word's break (numbers are not hyphenated): it is a range's or a
compound's own and stays, with no space (`2026-` `2027`, `10-` `12x`, `24-` `hour`).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from itertools import repeat

from .language import detect_language
from .scripts import SOFT_HYPHEN, no_space_at_line_break
from .wordlists import WordList, word_list

HYPHENS = frozenset("-\u2010" + SOFT_HYPHEN)

# Punctuation stripped from a token's edges before looking it up (quotes, brackets, stops).
_EDGE_PUNCT = "\"'“”‘’„«»‹›()[]{}.,;:!?…*"
# A conjunction right after a line-end hyphen: the hyphen is a suspended compound's (`Ein- und Ausgang`)
CONJUNCTIONS = {
    "en": frozenset({"and", "or", "nor"}),
    "de": frozenset({"und", "oder", "bis", "sowie", "bzw", "beziehungsweise"}),
}
# German adjective endings: a word whose forms with all of them are words is an adjective (schwarz: schwarze …)
GERMAN_ADJECTIVE_ENDINGS = ("e", "en", "er", "es", "em")


def _key(token: str) -> str:
    return token.strip(_EDGE_PUNCT).lower()


class Vocabulary:
    """How often each word occurs unbroken (never counting a line-end fragment)."""

    def __init__(self, counts: Counter | None = None):
        self._keyed: Counter = counts if counts is not None else Counter()
        self._raw: Counter = Counter()   # tokens as they stand, keyed on first lookup
        self._total = sum(self._keyed.values())   # kept as the counts grow: detection needs it often
        self._language: str | None = None
        self._language_stale = True

    @property
    def language(self) -> str | None:
        """The document's language as far as its words tell ("en", "de" or None); re-detected
        after the counts changed (iter_pages adds a page at a time)."""
        if self._language_stale:
            self._language = detect_language(self.counts, self.total)
            self._language_stale = False
        return self._language

    @property
    def counts(self) -> Counter:
        """Occurrences by _key. A document repeats its words: keying each distinct token once,
        when the first question comes, is cheaper than keying every occurrence."""
        if self._raw:
            keyed = self._keyed
            for token, n in self._raw.items():
                key = _key(token)
                if key:   # punctuation alone is not a word
                    keyed[key] += n
                    self._total += n
            self._raw = Counter()
        return self._keyed

    @property
    def total(self) -> int:
        """How many words were counted."""
        self.counts
        return self._total

    def add_line(self, words: list[str]) -> None:
        """Count a line's words; a line-end word ending in a hyphen is a fragment, not a word."""
        self.add_lines([words])

    def add_lines(self, lines: Iterable[list[str]]) -> None:
        """add_line for many lines, counted in one pass."""
        tokens: list[str] = []
        for words in lines:
            if words:
                tokens += words[:-1] if words[-1][-1:] in HYPHENS else words
        self._raw.update(tokens)
        self._language_stale = True

    def update(self, other: "Vocabulary") -> None:
        self.counts.update(other.counts)
        self._total += other.total
        self._language_stale = True

    def __contains__(self, word: str) -> bool:
        return self.counts.get(_key(word), 0) > 0

    def count(self, word: str) -> int:
        return self.counts.get(_key(word), 0)


def ends_with_break_hyphen(text: str) -> bool:
    """Does this line end in a hyphen that follows a letter (a candidate word break) or a digit
    (a range or compound broken at its hyphen: join_broken keeps it)?"""
    return len(text) >= 2 and text[-1] in HYPHENS and (text[-2].isalpha() or text[-2].isdecimal())


def join_broken(first: str, second: str, vocabulary: "Vocabulary | PendingJoins | None") -> str:
    """Join `first` (a line's last word, ending in a hyphen) with `second` (the next line's first).

    Returns the single token that replaces both: `first` without its hyphen, then nothing, the
    hyphen, or the hyphen and a space, then `second`.
    """
    if type(vocabulary) is PendingJoins:
        return vocabulary.join(first, second)
    fixed = _fixed_join(first, second)
    return fixed if fixed is not None else _join_by_evidence(first, second, vocabulary)


def _fixed_join(first: str, second: str) -> str | None:
    """join_broken's answer where no evidence is read, None where the vocabulary may decide."""
    hyphen = first[-1]
    stem = first[:-1]
    if hyphen == SOFT_HYPHEN:
        return stem + second
    if stem[-1:].isdecimal():
        return stem + hyphen + second   # `2026-` `2027`: a number is no word broken at a hyphen
    if "-" in second.strip(_EDGE_PUNCT):
        return stem + hyphen + second  # a compound chain goes on: `state-of-` `the-art`
    lead = second[:1]
    if not (lead.isalpha() or lead.islower()):
        return stem + hyphen + second  # `COVID-` `19`
    return None


def _join_by_evidence(first: str, second: str, vocabulary: Vocabulary | None) -> str:
    hyphen = first[-1]
    stem = first[:-1]
    lead = second[:1]
    if vocabulary is not None and lead.isalpha():
        compound = stem + "-" + second
        joined = stem + second
        has_compound = vocabulary.count(compound)
        has_joined = vocabulary.count(joined)
        if has_compound > has_joined:
            return stem + hyphen + second
        if has_joined:
            return joined
        part = stem.rpartition("-")[2]
        if part != stem and vocabulary.count(part) and not vocabulary.count(part + second):
            return stem + hyphen + second   # `state-of-the-` `art`: the break is the compound's own

    if lead.islower():
        if vocabulary is not None:
            kept = _compound_by_word_list(stem, hyphen, second, vocabulary.language)
            if kept is not None:
                return kept
        return stem + second
    return stem + hyphen + second


class PendingJoins:
    """The vocabulary's stand-in for a page written before the document is read to its end: a
    join the vocabulary may decide is left in the text as a mark (one private-use character of
    plane 15 per join, the join's own) and recorded; resolve_joins decides them once the
    vocabulary is complete. A join whose words hold a mark cannot be decided that way (the mark
    may become a hyphen or a space): the page is `tangled` and must wait for the vocabulary."""

    def __init__(self):
        self.joins: list[tuple[str, str]] = []
        self.tangled = False

    def join(self, first: str, second: str) -> str:
        if _MARKS.search(first) or _MARKS.search(second) or len(self.joins) >= MAX_PENDING_JOINS:
            self.tangled = True
            return first + second
        fixed = _fixed_join(first, second)
        if fixed is not None:
            return fixed
        self.joins.append((first, second))
        return first[:-1] + chr(MARK_BASE + len(self.joins) - 1) + second

    def marked(self, text: str) -> bool:
        """The page rendered with these joins can be resolved: not tangled, and each mark stands
        in the text once (a text that holds such a character of its own cannot be)."""
        found = _MARKS.findall(text)
        return not self.tangled and sorted(found) == [chr(MARK_BASE + k) for k in range(len(self.joins))]


MARK_BASE = 0xF0000         # PendingJoins: the first mark, U+F0000 (Supplementary Private Use Area-A)
MAX_PENDING_JOINS = 0xFFFE  # the marks that area holds: a page with more joins waits for the vocabulary
_MARKS = re.compile("[\U000F0000-\U000FFFFD]")


def resolve_joins(text: str, joins: list[tuple[str, str]], vocabulary: Vocabulary) -> str:
    """A text marked by PendingJoins with each join decided by the complete vocabulary."""
    glue = {}
    for k, (first, second) in enumerate(joins):
        joined = join_broken(first, second, vocabulary)
        glue[MARK_BASE + k] = joined[len(first) - 1:len(joined) - len(second)]
    return text.translate(glue)


def _compound_by_word_list(stem: str, hyphen: str, second: str, language: str | None) -> str | None:
    """The compound with its hyphen kept, when the word list of `language` says the break is a
    compound's own; None to join (no list, or the list gives no reason to keep the hyphen)."""
    if language not in CONJUNCTIONS:   # the languages with a word list and rules for it
        return None
    part = stem.rpartition("-")[2].strip(_EDGE_PUNCT)
    head, tail = part.lower(), _key(second)
    if not head or not tail:
        return None
    words = word_list(language)
    if words is None or head + tail in words:
        return None
    if tail in CONJUNCTIONS[language]:
        return stem + hyphen + " " + second       # `Ein-` `und`: a suspended compound
    if language == "de":
        if part[:1].isupper() or not (_german_adjective(head, words) and _german_adjective_form(tail, words)):
            return None
    elif head not in words or tail not in words:
        return None
    return stem + hyphen + second


def _german_adjective(word: str, words: WordList) -> bool:
    return word in words and all(word + ending in words for ending in GERMAN_ADJECTIVE_ENDINGS)


def _german_adjective_form(word: str, words: WordList) -> bool:
    """An adjective, bare or with a declension ending (französisch, französischen)."""
    return _german_adjective(word, words) or any(
        word.endswith(ending) and _german_adjective(word[:-len(ending)], words)
        for ending in GERMAN_ADJECTIVE_ENDINGS)


def join_lines(lines: Iterable[str], vocabulary: Vocabulary | None, dehyphenate: bool = True,
               space_after: Iterable[bool] | None = None) -> str:
    """Join one block's line texts into a single line, undoing line-break hyphenation.

    Lines are joined with one space, except between CJK characters (no spaces in the script).
    `space_after` tells, line by line, whether the line ended in a space glyph (see
    no_space_at_line_break).
    """
    out = ""
    spaced = False   # the line joined last ended in a space glyph
    for text, ends_spaced in zip(lines, repeat(False) if space_after is None else space_after):
        if not text:
            continue
        if not out:
            out, spaced = text, ends_spaced
            continue
        if dehyphenate and ends_with_break_hyphen(out) and text[:1].isalnum():
            cut = out.rfind(" ") + 1
            head, first = out[:cut], out[cut:]
            space = text.find(" ")
            second, rest = (text, "") if space < 0 else (text[:space], text[space:])
            out = head + join_broken(first, second, vocabulary) + rest
        elif no_space_at_line_break(out[-1], text[0], spaced):
            out = out + text   # CJK lines join without a space
        else:
            out = out + " " + text
        spaced = ends_spaced
    if out.endswith(SOFT_HYPHEN):
        out = out[:-1]
    return out
