"""Word lists of a language, loaded lazily: the last word on a hyphen with no evidence in the document.

The lists are built by `make wordlists` (tools/build_wordlists.py) from Debian's word-list
packages: the lowercase entries, sorted, front-coded with a full word every `restart` words,
zlib-compressed; the first line names the format, the language, the count, the restart interval
and the source packages. A list is read only when a document's hyphen needs it, once per process.

Where the bytes come from is pluggable, as for the CMaps (`set_wordlist_loader`): on CPython the
package data in glyphline/data/wordlists/; in the browser the worker installs `browser_loader`,
which fetches `<site>/wordlists/<lang>.words.z` (the service worker caches it once fetched).
Unknown languages, missing files and corrupt data give None: dehyphenation then does without.
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Callable, Optional

from ..sitefetch import site_loader

WordListLoader = Callable[[str], Optional[bytes]]

FORMAT = "glyphline-wordlist"
FORMAT_VERSION = "1"
LANGUAGE = re.compile(r"[a-z]{2,3}")   # a language code is a file name: nothing else may reach the loader
MAX_LIST_BYTES = 8 << 20               # decompressed; the shipped lists are 0.6 and 3 MB
PACKAGE_DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "wordlists"


class WordListError(ValueError):
    """The bytes are not a word list of this format."""


class WordList:
    """Membership of lowercase words. The decoded text is kept whole (splitting 250,000 lines cost
    a process ~15 ms and 12 MB): a lookup binary-searches the whole words in it (lines whose
    shared-prefix length is 0, the restart words among them) and decodes the short run from the
    one at or before the word to the next."""

    def __init__(self, data: bytes):
        try:
            decompressor = zlib.decompressobj()
            raw = decompressor.decompress(data, MAX_LIST_BYTES)
            if decompressor.unconsumed_tail:
                raise WordListError("word list larger than the limit")
            text = raw.decode("utf-8")
        except (zlib.error, UnicodeDecodeError) as error:
            raise WordListError(f"not a word list: {error}") from None
        header, _, body = text.partition("\n")
        fields = header.split()
        if len(fields) < 5 or fields[0] != FORMAT or fields[1] != FORMAT_VERSION:
            raise WordListError("not a word list: bad header")
        self.language = fields[2]
        self.sources = fields[5:]
        try:
            count, restart = int(fields[3]), int(fields[4])
        except ValueError:
            raise WordListError("not a word list: bad header") from None
        self._count = body.count("\n") + 1 if body else 0
        if restart < 1 or self._count != count:
            raise WordListError("word list truncated")
        if body and body[0] != "0":
            raise WordListError("word list damaged: a restart word is not whole")
        self._text = body

    def __len__(self) -> int:
        return self._count

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        text = self._text
        first_end = text.find("\n")
        if not text or text[1:first_end if first_end >= 0 else len(text)] > word:
            return False
        # binary search over the newline before each whole word ("\n0"): `low` is one whose word
        # is <= word (-1: the first line), every one at `high` or after has a greater word
        low, high = -1, len(text)
        while low + 1 < high:
            middle = (low + 1 + high) // 2
            found = text.find("\n0", middle, high + 1)
            if found < 0:
                high = middle
                continue
            end = text.find("\n", found + 1)
            if text[found + 2:end if end >= 0 else len(text)] <= word:
                low = found
            else:
                high = found
        following = text.find("\n0", low + 1)
        previous = ""
        for line in text[low + 1:following if following >= 0 else len(text)].split("\n"):
            if not line:
                return False
            previous = previous[:ord(line[0]) - 48] + line[1:]
            if previous >= word:
                return previous == word
        return False


def file_loader(language: str) -> bytes | None:
    """Default loader on CPython: the package data."""
    try:
        return (PACKAGE_DATA_DIR / f"{language}.words.z").read_bytes()
    except OSError:
        return None


def browser_loader(base_url: str) -> WordListLoader:
    """A loader for Pyodide in a Web Worker: synchronous GET of `<base_url>/<lang>.words.z`."""
    return site_loader(base_url, ".words.z")


_loader: WordListLoader = file_loader
_cache: dict[str, WordList | None] = {}


def set_wordlist_loader(loader: WordListLoader) -> None:
    """Install where word-list bytes come from (the web worker installs `browser_loader`)."""
    global _loader
    _loader = loader
    _cache.clear()


def word_list(language: str | None) -> WordList | None:
    """The word list of `language` ("en", "de"), loaded on first use; None when there is none."""
    if not isinstance(language, str) or not LANGUAGE.fullmatch(language):
        return None
    if language in _cache:
        return _cache[language]
    try:
        data = _loader(language)
    except Exception:   # a loader is outside code (network, file system): never fatal here
        data = None
    words = None
    if data:
        try:
            words = WordList(data)
        except WordListError:
            words = None
        if words is not None and words.language != language:
            words = None
    _cache[language] = words
    return words
