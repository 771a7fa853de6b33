# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test venv clean cmaps brotli-data build e2e-deps ocr-deps bench bench-deps wordlists wordlist-sources bytecode

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# the web app: dist/ is a self-contained static site (tools/build_site.py); `run` serves it
build: $(STAMP) cmaps
	$(VPY) tools/build_site.py

# tools/serve.py: python -m http.server plus the build's .br/.gz files (Content-Encoding, Vary)
run: build
	@echo "Glyphline: http://127.0.0.1:8000/"
	$(VPY) tools/serve.py --port 8000 --bind 127.0.0.1 dist

# the browser tests need node_modules/ (cmaps does `npm ci`) and Debian's chromium
e2e-deps: cmaps
	@test -x /usr/bin/chromium || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium) \
		|| echo "make: chromium could not be installed; the e2e tests will be skipped"

test: $(STAMP) cmaps brotli-data e2e-deps ocr-deps wordlist-sources
	$(VPY) -m pytest -q

# Adobe's predefined CMaps, packed by pdfjs-dist (pinned in package.json): built, never hand-copied
CMAP_SRC := node_modules/pdfjs-dist/cmaps

$(CMAP_SRC)/LICENSE: package.json package-lock.json
	npm ci --no-audit --no-fund --omit=optional   # pdfjs-dist's optional canvas binary (35 MB) is not needed
	touch $@

# cmaps/LICENSE is copied last, so it doubles as the stamp (no extra file lands in the site)
cmaps/LICENSE: $(CMAP_SRC)/LICENSE
	mkdir -p cmaps
	cp $(CMAP_SRC)/*.bcmap cmaps/
	cp $(CMAP_SRC)/LICENSE cmaps/LICENSE

cmaps: cmaps/LICENSE

# the Brotli static dictionary and transforms for the pure-Python decoder, from the Brotli C library
# (the brotli package or Node's zlib): generated, never hand-copied; the wheel build makes its own
BROTLI_DATA := glyphline/data/brotli/dictionary.bin

$(BROTLI_DATA): tools/brotli_static.py glyphline/brotli.py
	$(PY) tools/brotli_static.py

brotli-data: $(BROTLI_DATA)

# OCR on CPython (`--ocr`, tests/test_ocr.py): Debian's tesseract with English, and poppler's pdftoppm
# to render pages whose images are not decoded in Python (JBIG2)
OCR_PACKAGES := tesseract-ocr tesseract-ocr-eng poppler-utils

ocr-deps:
	@command -v tesseract >/dev/null && command -v pdftoppm >/dev/null || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(OCR_PACKAGES)) \
		|| echo "make: $(OCR_PACKAGES) could not be installed; the OCR tests will be skipped"

# word lists for hyphens without evidence (glyphline/data/wordlists/, committed: pip cannot run
# apt when it builds a wheel): built from Debian's word-list packages, never hand-copied.
# `make test` installs the sources so tests/test_wordlists.py can check the committed lists.
WORDLIST_PACKAGES := wamerican wbritish wngerman

wordlist-sources:
	@test -f /usr/share/dict/american-english -a -f /usr/share/dict/british-english -a -f /usr/share/dict/ngerman || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(WORDLIST_PACKAGES)) \
		|| echo "make: $(WORDLIST_PACKAGES) could not be installed; the word-list source check will be skipped"

wordlists: wordlist-sources
	$(PY) tools/build_wordlists.py

# benchmarks against the peers (not part of `make test`): quality on ../shared/corpus, then speed
bench-deps: $(STAMP)
	@command -v pdftotext >/dev/null && command -v mutool >/dev/null || \
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q poppler-utils mupdf-tools)
	$(VPY) -m pip install -q pymupdf pypdfium2 pdfplumber
	@test -f .cache/node/node_modules/pdfjs-dist/package.json || npm install --prefix .cache/node --no-audit --no-fund --omit=optional pdfjs-dist@5.6.205

# an editable install has no bytecode, and with PYTHONDONTWRITEBYTECODE set every glyphline
# process compiles the whole engine again (~0.1 s a process): compile it, as `pip install` does;
# and the methods its dataclasses write (glyphline/_record_code.py), as a first run would
bytecode:
	$(VPY) -m compileall -q glyphline
	$(VPY) -m glyphline._record_code

bench: bench-deps bytecode
	$(VPY) bench/quality.py
	$(VPY) bench/glyphs.py
	$(VPY) bench/speed.py
	$(VPY) bench/smallfiles.py

clean:
	rm -rf $(VENV) dist build *.egg-info
