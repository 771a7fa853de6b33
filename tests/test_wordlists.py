"""Word lists (format, loader seam, shipped data), language detection, and the hyphen rules they decide."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import pytest

from glyphline.layout import wordlists
from glyphline.layout.hyphenation import Vocabulary, join_broken
from glyphline.layout.language import detect_language
from glyphline.layout.wordlists import PACKAGE_DATA_DIR, WordList, WordListError, word_list

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import build_wordlists  # noqa: E402

MAX_LIST_BYTES = 300_000     # the budget per language
MAX_LOAD_SECONDS = 2.0       # generous: about 0.03 s (en) and 0.1 s (de) on an idle core

ENGLISH = ("The method is simple and the results of the tests are shown in this table for the reader "
           "with the data that we have from the study.").split()
GERMAN = ("Die Methode ist einfach und die Ergebnisse der Versuche werden in der Tabelle gezeigt, "
          "die mit den Daten von der Studie auf der Seite steht.").split()


@pytest.fixture
def loader_calls():
    """The shipped lists through a loader that records what it was asked for."""
    calls: list[str] = []

    def load(language):
        calls.append(language)
        return wordlists.file_loader(language)

    wordlists.set_wordlist_loader(load)
    yield calls
    wordlists.set_wordlist_loader(wordlists.file_loader)


def _vocabulary(words):
    vocabulary = Vocabulary()
    vocabulary.add_line(list(words))
    return vocabulary


def _encoded(words, lang="xx"):
    return build_wordlists.encode(set(words), f"glyphline-wordlist 1 {lang} {len(set(words))} "
                                                f"{build_wordlists.RESTART} test=1")


# ----------------------------------------------------------------------------- the format

def test_every_word_is_found_and_nothing_else():
    words = {f"w{i:04d}{'x' * (i % 7)}" for i in range(200)} | {"a", "ab", "abc", "zz", "über", "straße"}
    listed = WordList(_encoded(words))
    assert len(listed) == len(words)
    assert all(word in listed for word in words)
    for absent in ("", "0", "aa", "abcd", "w0000x", "zzz", "w", "ü", "strasse", "w0199xxxxx"):
        assert absent not in listed
    assert 42 not in listed


@pytest.mark.parametrize("data", [b"", b"not zlib at all", zlib.compress(b"hello\nworld"),
                                  zlib.compress(b"glyphline-wordlist 1 xx 5 16 s\n0a\n1b")])
def test_bytes_that_are_not_a_word_list_are_refused(data):
    with pytest.raises(WordListError):
        WordList(data)


def test_a_damaged_restart_word_is_refused():
    text = zlib.decompress(_encoded({"alpha", "alps", "beta"})).decode().replace("\n0alpha", "\n2alpha")
    with pytest.raises(WordListError):
        WordList(zlib.compress(text.encode()))


def test_a_list_damaged_midway_answers_without_raising_and_keeps_the_runs_it_did_not_touch():
    words = sorted(f"word{i:03d}" for i in range(100))
    header, body = zlib.decompress(_encoded(set(words))).decode().split("\n", 1)
    lines = body.split("\n")
    lines[40] = "9" + lines[40][1:] + "\uffff"   # a prefix longer than the word before, junk after
    listed = WordList(zlib.compress("\n".join([header, *lines]).encode()))
    answers = {word: word in listed for word in words + ["word", "zzz", "\uffff"]}
    assert all(answers[word] for word in words[:32] + words[48:])


def test_the_loader_is_asked_once_per_language_and_failures_give_none():
    calls = []

    def load(language):
        calls.append(language)
        if language == "en":
            return _encoded({"self", "contained"}, "en")
        if language == "de":
            return _encoded({"haus"}, "fr")   # a list of another language than asked for
        raise OSError("network down")

    wordlists.set_wordlist_loader(load)
    try:
        assert "self" in word_list("en") and word_list("en") is word_list("en")
        assert word_list("de") is None
        assert word_list("fr") is None
        assert word_list("../etc") is None and word_list("EN") is None and word_list(None) is None
        assert calls == ["en", "de", "fr"]
    finally:
        wordlists.set_wordlist_loader(wordlists.file_loader)


def test_browser_loader_outside_pyodide_gives_none():
    assert wordlists.browser_loader("https://example.invalid/wordlists/")("en") is None


# ----------------------------------------------------------------------------- the shipped lists

@pytest.mark.parametrize("lang, present, absent", [
    ("en", ["self", "contained", "everything", "encode", "colour", "color", "sundays"], ["selfcontained", "Self", "the's"]),
    ("de", ["deutsch", "französischen", "hochwertig", "schwarz", "und", "größer"], ["deutschfranzösischen", "straße", "Haus"]),
])
def test_shipped_lists_load_within_budget(lang, present, absent):
    path = PACKAGE_DATA_DIR / f"{lang}.words.z"
    assert path.stat().st_size <= MAX_LIST_BYTES
    started = time.perf_counter()
    listed = WordList(path.read_bytes())
    assert time.perf_counter() - started < MAX_LOAD_SECONDS
    assert listed.language == lang and len(listed) > 50_000
    assert all(word in listed for word in present)
    assert not any(word in listed for word in absent)
    assert (PACKAGE_DATA_DIR / f"{lang}.COPYRIGHT").read_text(encoding="utf-8").strip()


def _installed(package: str) -> str | None:
    if shutil.which("dpkg-query") is None:
        return None
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", package], capture_output=True, text=True)
    fields = done.stdout.split()
    return fields[-1] if done.returncode == 0 and "installed" in fields[:3] and len(fields) == 4 else None


@pytest.mark.parametrize("lang", sorted(build_wordlists.SOURCES))
def test_committed_lists_are_what_the_build_makes_from_their_sources(lang):
    committed = (PACKAGE_DATA_DIR / f"{lang}.words.z").read_bytes()
    header = zlib.decompress(committed).split(b"\n", 1)[0].decode().split()
    wanted = dict(field.split("=", 1) for field in header[5:])
    for package, filename in build_wordlists.SOURCES[lang]:
        if _installed(package) is None or not (build_wordlists.DICT_DIR / filename).is_file():
            pytest.skip(f"{package} is not installed (make wordlist-sources)")
        if _installed(package) != wanted.get(package):
            pytest.skip(f"{package} {_installed(package)} installed, the list was built from {wanted.get(package)}")
    data, notice = build_wordlists.build_language(lang)
    assert data == committed, "run `make wordlists` and commit the result"
    assert notice == (PACKAGE_DATA_DIR / f"{lang}.COPYRIGHT").read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- language detection

def test_language_is_detected_from_function_words():
    assert detect_language(Counter(w.lower() for w in ENGLISH)) == "en"
    assert detect_language(Counter(w.lower() for w in GERMAN)) == "de"


@pytest.mark.parametrize("words", [
    [],
    ["the", "and"],                                               # too few to tell
    ["12.5", "13.0", "total", "net", "gross"] * 20 + ["the", "of", "and"],   # a table: too rare
    ENGLISH + GERMAN,                                             # mixed: neither leads enough
    "la méthode est simple et les résultats sont dans le tableau".split(),
])
def test_no_language_without_enough_evidence(words):
    assert detect_language(Counter(w.lower() for w in words)) is None


def test_the_language_follows_the_words_added():
    vocabulary = Vocabulary()
    assert vocabulary.language is None
    vocabulary.update(_vocabulary(GERMAN))
    assert vocabulary.language == "de"
    vocabulary.update(_vocabulary(ENGLISH * 5))
    assert vocabulary.language == "en"


# ----------------------------------------------------------------------------- the rules

@pytest.mark.parametrize("first, second, out", [
    ("self-", "contained", "self-contained"),        # both halves words, the joined form is not
    ("Self-", "contained,", "Self-contained,"),      # at a sentence start too, punctuation kept
    ("(long-", "term)", "(long-term)"),
    ("every-", "thing", "everything"),               # the joined form is a word: join
    ("en-", "code", "encode"),                       # a half is no word: join
    ("Sun-", "days", "Sundays"),                     # a name is a word too
    ("pre-", "and", "pre- and"),                     # a suspended compound: hyphen and space stay
    ("non-self-", "contained", "non-self-contained"),   # the part before the break is the half
])
def test_english_word_list_rules(first, second, out, loader_calls):
    assert join_broken(first, second, _vocabulary(ENGLISH)) == out


@pytest.mark.parametrize("first, second, out", [
    ("deutsch-", "französischen", "deutsch-französischen"),   # coordinated adjectives
    ("griechisch-", "römischen", "griechisch-römischen"),
    ("schwarz-", "weißen", "schwarzweißen"),         # both spellings are right; the list has this one
    ("hoch-", "wertig", "hochwertig"),               # the joined form is a word
    ("vor-", "programmierten", "vorprogrammierten"),  # a particle is no adjective
    ("Tangential-", "ebene", "Tangentialebene"),     # a capital before the break: a noun, closed
    ("Teil-", "menge", "Teilmenge"),
    ("(Tangential-", "ebene)", "(Tangentialebene)"),  # the capital counts behind a bracket too
    ("Anfangs-", "und", "Anfangs- und"),             # suspended: `Anfangs- und Endpunkt`
    ("Ein-", "bzw.", "Ein- bzw."),
])
def test_german_word_list_rules(first, second, out, loader_calls):
    assert join_broken(first, second, _vocabulary(GERMAN)) == out


def test_the_documents_own_evidence_comes_before_the_list(loader_calls):
    vocabulary = _vocabulary(ENGLISH + ["selfcontained"])
    assert join_broken("self-", "contained", vocabulary) == "selfcontained"
    assert loader_calls == []


def test_no_language_no_list(loader_calls):
    assert join_broken("self-", "contained", _vocabulary(["a", "few", "words"])) == "selfcontained"
    assert join_broken("self-", "contained", None) == "selfcontained"
    assert loader_calls == []


def test_without_its_list_the_rule_falls_back_to_joining():
    wordlists.set_wordlist_loader(lambda language: None)
    try:
        assert join_broken("self-", "contained", _vocabulary(ENGLISH)) == "selfcontained"
    finally:
        wordlists.set_wordlist_loader(wordlists.file_loader)


def _one_column_pdf(lines: list[str]) -> bytes:
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    font = b.font_type1("Helvetica")
    ops = b"BT /F1 11 Tf 14 TL 72 720 Td " + b" ".join(
        b"(" + line.encode("latin-1") + b") Tj T*" for line in lines) + b" ET"
    b.page(ops, fonts={"F1": font})
    return b.build()


def test_extract_text_keeps_a_compound_hyphen_the_document_gives_no_evidence_for(loader_calls):
    from glyphline import extract_text

    data = _one_column_pdf([
        "The method is simple and the results of the tests are shown in",
        "this table for the reader with the data from a self-",
        "contained study that we have run for every-",
        "thing in the table, as the report of the study shows.",
    ])
    text = extract_text(data).text
    assert "a self-contained study" in text and "for everything in" in text
    assert loader_calls == ["en"]
    assert "self- contained" in extract_text(data, dehyphenate=False).text


def test_a_document_without_line_end_hyphens_never_loads_a_list(loader_calls):
    from glyphline import extract_text

    extract_text(_one_column_pdf(["The method is simple and the results of the tests",
                                  "are shown in this table for the reader."]))
    assert loader_calls == []


# ----------------------------------------------------------------------------- the web build

def test_the_site_build_moves_the_word_lists_out_of_the_engine_wheel(tmp_path):
    import zipfile

    import build_site

    wheel = tmp_path / "glyphline-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as out:
        out.writestr("glyphline/__init__.py", "")
        out.writestr("glyphline/data/wordlists/en.words.z", b"EN")
        out.writestr("glyphline/data/wordlists/en.COPYRIGHT", "notice")
        out.writestr("glyphline-0.1.0.dist-info/RECORD",
                     "glyphline/__init__.py,,0\nglyphline/data/wordlists/en.words.z,sha256=x,2\n"
                     "glyphline/data/wordlists/en.COPYRIGHT,sha256=y,6\nglyphline-0.1.0.dist-info/RECORD,,\n")
    site = tmp_path / "dist" / "wordlists"
    assert build_site.move_wordlists_out_of_wheel(wheel, site) == 2
    assert (site / "en.words.z").read_bytes() == b"EN" and (site / "en.COPYRIGHT").read_text() == "notice"
    with zipfile.ZipFile(wheel) as rewritten:
        assert rewritten.namelist() == ["glyphline/__init__.py", "glyphline-0.1.0.dist-info/RECORD"]
        assert "wordlists" not in rewritten.read("glyphline-0.1.0.dist-info/RECORD").decode()


def test_the_worker_installs_the_site_loader():
    sys.path.insert(0, str(ROOT))
    import app

    try:
        app.use_site_wordlists("https://example.invalid/wordlists/")
        assert word_list("en") is None   # outside Pyodide the site loader fetches nothing
    finally:
        wordlists.set_wordlist_loader(wordlists.file_loader)
    assert word_list("en") is not None


def test_the_vocabulary_keeps_its_total_as_it_grows():
    vocabulary = _vocabulary(["The", "cat,", "the", "hat", "well-"])
    assert vocabulary.total == 4 == sum(vocabulary.counts.values())
    vocabulary.update(_vocabulary(["a", "dog", "..."]))
    assert vocabulary.total == 6 == sum(vocabulary.counts.values())
    assert Vocabulary(Counter({"x": 3})).total == 3
