"""`make wordlists`: the compact word lists that decide hyphens without evidence (glyphline/data/wordlists/).

Sources are Debian's word-list packages, which install plain lists in /usr/share/dict:

    en  wamerican + wbritish   SCOWL size 50, American and British spellings (SCOWL's permissive licence)
    de  wngerman               igerman98, new orthography (GPL-2+)

Dehyphenation asks only about lowercase words (a line that continues in lowercase): whether
the two halves around a line-end hyphen are words, and whether the joined form is one. So each
list keeps the entries written in lowercase letters alone (no abbreviations, no possessives
"'s"), plus the lowercased form of a capitalised entry that splits into two lowercase entries,
the only names whose membership can change an answer ("Sundays": sun + days, joined). The words are sorted and front-coded (each word stores how many leading
characters it shares with the one before, then the rest), restarting every RESTART words so
that a lookup decodes one short run after a binary search over the restart words; the result is
zlib-compressed. The first line records the source packages and their versions, so a check can
tell whether a list still matches what the sources give (tests/test_wordlists.py).

The output is committed: a wheel is built by pip, which cannot install Debian packages, and the
engine must behave the same wherever it is installed. Each list's copyright notice is copied
beside it from the package's own /usr/share/doc/<package>/copyright.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import unicodedata
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "glyphline" / "data" / "wordlists"
DICT_DIR = Path("/usr/share/dict")
DOC_DIR = Path("/usr/share/doc")
FORMAT = "glyphline-wordlist 1"
RESTART = 16          # a full word every RESTART words: a lookup decodes at most this many
MAX_SHARED = 60       # shared-prefix lengths are stored as one character, chr(48 + n)
# language → the Debian packages and the file each installs
SOURCES: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("wamerican", "american-english"), ("wbritish", "british-english")),
    "de": (("wngerman", "ngerman"),),
}


def package_version(package: str) -> str:
    done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"{package} is not installed: run `make wordlist-sources` (apt-get install {package})")
    return done.stdout.strip()


def list_words(lines) -> set[str]:
    """The lowercase entries (NFC, letters only), and the capitalised ones, lowercased, that split
    into two lowercase entries (a joined form the hyphen rule must know as a word)."""
    lowercase: set[str] = set()
    capitalised: set[str] = set()
    for line in lines:
        word = unicodedata.normalize("NFC", line.strip())
        if word and word.isalpha():
            (lowercase if word == word.lower() else capitalised).add(word.lower())
    joined = {word for word in capitalised - lowercase
              if any(word[:i] in lowercase and word[i:] in lowercase for i in range(1, len(word)))}
    return lowercase | joined


def encode(words: set[str], header: str) -> bytes:
    out = [header]
    previous = ""
    for i, word in enumerate(sorted(words)):
        shared = 0
        if i % RESTART:
            limit = min(len(previous), len(word), MAX_SHARED)
            while shared < limit and previous[shared] == word[shared]:
                shared += 1
        out.append(chr(48 + shared) + word[shared:])
        previous = word
    return zlib.compress("\n".join(out).encode("utf-8"), 9)


def build_language(lang: str, dict_dir: Path = DICT_DIR) -> tuple[bytes, str]:
    """(the compressed list, the concatenated copyright notices) for `lang`."""
    lines: list[str] = []
    sources = []
    notices = []
    for package, filename in SOURCES[lang]:
        version = package_version(package)
        sources.append(f"{package}={version}")
        lines += (dict_dir / filename).read_text(encoding="utf-8").splitlines()
        notices.append(f"== {package} {version}: /usr/share/doc/{package}/copyright ==\n"
                       + (DOC_DIR / package / "copyright").read_text(encoding="utf-8"))
    words = list_words(lines)
    header = f"{FORMAT} {lang} {len(words)} {RESTART} {' '.join(sources)}"
    return encode(words, header), "\n".join(notices)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in SOURCES:
        data, notice = build_language(lang)
        (args.out / f"{lang}.words.z").write_bytes(data)
        (args.out / f"{lang}.COPYRIGHT").write_text(notice, encoding="utf-8")
        header = zlib.decompress(data).split(b"\n", 1)[0].decode()
        print(f"{lang}: {len(data):,} bytes ({header})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
