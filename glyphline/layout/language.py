"""Which language a document is written in, from how often its commonest words occur.

Function words make up a large share of any running text in their language (in English "the",
"of", "and" alone are about a tenth of it) and hardly occur in another; counting them over the
document's own word counts is enough to choose between the languages that have a word list,
and cheap: a few dozen dictionary lookups. A text where neither language's function words are
frequent (a table of numbers, another language, a few words) has no language.
"""
from __future__ import annotations

from collections.abc import Mapping

# frequent function words that are not also frequent words of the other language
STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        "the of and to is that for with as are this be by it on from which not or have has were "
        "their can its these been than also into".split()),
    "de": frozenset(
        "der die und das ist nicht ein eine zu den von mit sich des auf für dem werden wird auch "
        "oder als bei nach aus sind einer eines durch wie im zur zum".split()),
}
MIN_SHARE = 0.08    # function words of the chosen language: at least this share of all words
MIN_HITS = 3        # and at least this many occurrences: three words are no evidence
MIN_LEAD = 2.0      # and this many times the other language's share, or the text is mixed


def detect_language(counts: Mapping[str, int], total: int | None = None) -> str | None:
    """"en", "de" or None, from lowercase word → occurrences (hyphenation.Vocabulary.counts) and
    their sum, when the caller keeps it."""
    if total is None:
        total = sum(counts.values())
    if not total:
        return None
    hits = sorted(((sum(counts.get(w, 0) for w in words), lang) for lang, words in STOPWORDS.items()),
                  reverse=True)
    best, lang = hits[0]
    runner_up = hits[1][0] if len(hits) > 1 else 0
    if best < MIN_HITS or best < MIN_SHARE * total or best < MIN_LEAD * runner_up:
        return None
    return lang
