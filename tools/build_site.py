"""`make build`: writes dist/, the web app as a self-contained static site.

Everything in dist/ is addressed by relative URLs, so the folder can be copied to any static
host or subpath. Inputs: the page sources (index.html, static/, worker/, app.py, sw.js), the
glyphline wheel built from this repo (its word lists moved out to wordlists/), pypdf's wheel from PyPI, the five Pyodide runtime files,
aes-js and client-zip from node_modules/ (`npm ci`), and the sample PDF. tools/pyodide_build.mjs then turns
the wheels into .pyc wheels, trims Pyodide's standard library to what they can import and compiles
what a start-up and a conversion do import (Pyodide's lock file loses its package list). The
memory snapshot is taken on the visitor's machine after the first boot (worker/worker.mjs) unless
--ship-snapshot asks for one made here (tools/browser_snapshot.py in headless Chromium when
available, else in Node). The service worker gets the list of every file with a version derived
from their contents, so any change re-caches the site. Last, every large file gets `.br` and `.gz`
siblings for servers that send them (tools/serve.py, README), and the build prints the bytes of
a first visit, raw and compressed (also in worker/build.mjs as `FIRST_VISIT`).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
WORK = ROOT / "build" / "web"  # wheels and downloads kept between builds
PYODIDE_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PYPDF_REQUIREMENT = "pypdf==7.1.1"
PAGE_FILES = ("index.html", "app.py", "manifest.webmanifest")
# the PNG icons the manifest names, drawn from static/icon.svg (tools/icons.py): size → maskable
ICONS = {"icons/icon-192.png": (192, False), "icons/icon-512.png": (512, False), "icons/icon-maskable-512.png": (512, True)}
MASKABLE_BACKGROUND = (0xF6, 0xF7, 0xF9)  # the manifest's background_color: the page stands out on it
PAGE_DIRS = ("static", "worker")
OPTIONAL_DIRS = ("cmaps",)  # CMap data, when the engine ships it as separate files
ON_DEMAND_PREFIXES = ("cmaps/",)  # not at install: on demand, then all in the background once ready
# the word lists (glyphline/data/wordlists/) leave the browser's wheel and become files of the
# site, which the worker fetches when a hyphen needs one (glyphline.layout.wordlists.browser_loader).
# They are precached, not on demand: 0.36 MB against the 14 MB first visit, and a request in the
# middle of a conversion would tell the server the document's language and break offline use of
# a list that the first visit's files did not need.
WORDLIST_PACKAGE_DIR = "glyphline/data/wordlists/"
WORDLIST_SITE_DIR = "wordlists"
SAMPLE_PDF = ROOT / "tests" / "data" / "sample.pdf"
# Pyodide's fallback package CDN (used by Node when a package is missing locally): dist/ names
# no other origin, and the worker passes packageBaseUrl, so the literal is replaced by "./"
PYODIDE_CDN_LITERAL = re.compile(r"https://cdn\.jsdelivr\.net/pyodide/v\$\{\w+\}/full/")
COMMENT_WITH_URL = re.compile(r"^[ \t]*//.*https?://.*\n", re.MULTILINE)
SW_LIST_PLACEHOLDERS = ("SHELL", "LATER", "CMAPS", "OCR", "RENDERER")  # sw.js: /*@NAME@*/[] becomes the list
# OCR (tesseract.js, pinned in package.json): self-hosted, fetched only when a user asks to recognise
# a scan, then cached by the service worker (never at install: 7 MB the first visit does not need).
# Only the LSTM cores (OEM 1) and the integer "best" models (ocr_files adds those of the languages);
# the worker picks the core the browser runs.
OCR_DIR = "vendor/tesseract/"
OCR_FILES = {
    "tesseract.esm.min.js": "tesseract.js/dist/tesseract.esm.min.js",
    "worker.min.js": "tesseract.js/dist/worker.min.js",
    "core/tesseract-core-lstm.wasm.js": "tesseract.js-core/tesseract-core-lstm.wasm.js",
    "core/tesseract-core-simd-lstm.wasm.js": "tesseract.js-core/tesseract-core-simd-lstm.wasm.js",
    "core/tesseract-core-relaxedsimd-lstm.wasm.js": "tesseract.js-core/tesseract-core-relaxedsimd-lstm.wasm.js",
}
# the OCR languages: every @tesseract.js-data/<code> that package.json pins (add one there to ship
# it), each fetched only when chosen; English first (the banner's default), then by code
OCR_LANGUAGE_PACKAGE = "@tesseract.js-data/"
OCR_LANGUAGE_MODEL = "4.0.0_best_int"  # LSTM-only, integer "best": what OEM 1 reads, a third of the full model
OCR_NOT_LANGUAGES = ("osd",)  # orientation and script detection: no text of its own
OCR_LANGUAGES_MODULE = "static/ocr-languages.mjs"  # generated: the languages and their download sizes
# tesseract.js's defaults point at jsDelivr; the site passes every path, and the literal becomes
# a same-origin one, so even a forgotten option never leaves the origin
TESSERACT_CDN_LITERAL = "https://cdn.jsdelivr.net/npm/"
# The page renderer (static/pdfrender.mjs: OCR of pages whose images tesseract.js cannot read, the
# layout inspector's underlay): pdf.js from the pinned pdfjs-dist, fetched on first use and then
# cached by the service worker, like OCR. Its CMaps are the site's cmaps/ (the same files). Not
# vendored: the no-wasm fallbacks (the site needs wasm anyway) and QuickJS (PDF scripts stay off).
RENDERER_DIR = "vendor/pdfjs/"
RENDERER_FILES = {
    "pdf.min.mjs": "pdfjs-dist/build/pdf.min.mjs",
    "pdf.worker.min.mjs": "pdfjs-dist/build/pdf.worker.min.mjs",
    "LICENSE": "pdfjs-dist/LICENSE",
    "wasm/jbig2.wasm": "pdfjs-dist/wasm/jbig2.wasm",
    "wasm/openjpeg.wasm": "pdfjs-dist/wasm/openjpeg.wasm",
    "wasm/qcms_bg.wasm": "pdfjs-dist/wasm/qcms_bg.wasm",
    **{f"wasm/{name}": f"pdfjs-dist/wasm/{name}" for name in (
        "LICENSE_JBIG2", "LICENSE_OPENJPEG", "LICENSE_QCMS", "LICENSE_PDFJS_JBIG2", "LICENSE_PDFJS_OPENJPEG",
        "LICENSE_PDFJS_QCMS")},
}
RENDERER_DATA_DIRS = ("standard_fonts", "iccs")  # copied whole from pdfjs-dist
SW_VERSION_PLACEHOLDER = "@VERSION@"
BUILD_MODULE = "worker/build.mjs"  # generated: what the worker loads (wheels, sizes, snapshot)
ENGINE_MODULE = "static/engine.mjs"  # generated: the engine's modes, option defaults, error kinds and extensions
COMPRESS_MIN_BYTES = 1024  # smaller files: the saving is below a packet, not worth two more files
COMPRESS_KEEP_RATIO = 0.9  # a sibling is kept only when it saves 10 %+ (zips and wheels barely shrink)
COMPRESSED_SUFFIXES = (".br", ".gz")


def run(cmd: list[str], **kwargs: object) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def build_engine_wheel(python: str) -> Path:
    """pip wheel of this repo; stale setuptools output is removed first so deleted modules stay gone."""
    out = WORK / "engine"
    shutil.rmtree(out, ignore_errors=True)
    for stale in (ROOT / "build" / "lib", ROOT / "build" / "bdist.linux-x86_64"):
        shutil.rmtree(stale, ignore_errors=True)
    # without the predefined CMaps (setup.py): the site serves them from cmaps/, fetched on demand
    run([python, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        env={**os.environ, "GLYPHLINE_WHEEL_CMAPS": "0"})
    (wheel,) = out.glob("glyphline-*.whl")
    if any(name.endswith(".bcmap") for name in zipfile.ZipFile(wheel).namelist()):
        raise SystemExit(f"{wheel.name} carries CMaps: the site's wheel must not")
    return wheel


def move_wordlists_out_of_wheel(wheel: Path, site_dir: Path) -> int:
    """Writes the wheel's word lists to `site_dir` and rewrites the wheel (and its RECORD)
    without them; returns how many files moved."""
    moved = 0
    rewritten = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith(WORDLIST_PACKAGE_DIR):
                site_dir.mkdir(parents=True, exist_ok=True)
                (site_dir / info.filename[len(WORDLIST_PACKAGE_DIR):]).write_bytes(data)
                moved += 1
                continue
            if info.filename.endswith(".dist-info/RECORD"):
                data = b"".join(line for line in data.splitlines(keepends=True)
                                if not line.startswith(WORDLIST_PACKAGE_DIR.encode()))
            target.writestr(info, data)
    rewritten.replace(wheel)
    return moved


def download_pypdf_wheel(python: str) -> Path:
    out = WORK / "pypdf"
    name, version = PYPDF_REQUIREMENT.split("==")
    found = sorted(out.glob(f"{name}-{version}-*.whl"))
    if not found:  # downloaded once; later builds work offline
        run([python, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(out), PYPDF_REQUIREMENT])
        found = sorted(out.glob(f"{name}-{version}-*.whl"))
    return found[0]


def wrap_aes_js(target: Path) -> None:
    """aes-js is UMD; an ES module sees no `this`, so give it a CommonJS `module` and re-export."""
    source = (NODE_MODULES / "aes-js" / "index.js").read_text(encoding="utf-8")
    source = COMMENT_WITH_URL.sub("", source)  # reference links in comments: dist/ names no other origin
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        "// aes-js 3.1.2 (MIT), wrapped as an ES module by tools/build_site.py\n"
        "const module = { exports: {} }; const exports = module.exports;\n"
        f"{source}\nexport default module.exports;\n",
        encoding="utf-8",
    )


def write_icons(dist: Path) -> None:
    """The installable app's PNG icons, rendered from static/icon.svg (no binary files in the repo)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import icons

    for name, (size, maskable) in ICONS.items():
        target = dist / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(icons.render(ROOT / "static" / "icon.svg", size, MASKABLE_BACKGROUND if maskable else None))


def copy_client_zip(target: Path) -> None:
    """client-zip (MIT, pinned in package.json) is an ES module already: "Download all" builds its ZIP."""
    package = json.loads((NODE_MODULES / "client-zip" / "package.json").read_text(encoding="utf-8"))
    source = (NODE_MODULES / "client-zip" / "index.js").read_text(encoding="utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"// client-zip {package['version']} ({package['license']}), copied by tools/build_site.py\n{source}",
                      encoding="utf-8")


def trim_lock_file(path: Path) -> None:
    """Pyodide's lock file without its package list: the site installs its wheels itself
    (unpackArchive, never loadPackage by name), and the list is 117 KB of a first visit that
    every start fetched and parsed. Its `info` stays: loadPyodide checks the ABI version there."""
    lock = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")


def remove_pyodide_cdn(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    patched, count = PYODIDE_CDN_LITERAL.subn("./", source)
    if count != 1:
        raise SystemExit(f"{path.name}: expected one CDN literal, found {count} (Pyodide upgraded? check the pattern)")
    path.write_text(patched, encoding="utf-8")


def ocr_languages() -> list[str]:
    """The language codes package.json pins as @tesseract.js-data packages, English first."""
    dependencies = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    codes = [name[len(OCR_LANGUAGE_PACKAGE):] for name in dependencies if name.startswith(OCR_LANGUAGE_PACKAGE)]
    return sorted((code for code in codes if code not in OCR_NOT_LANGUAGES), key=lambda code: (code != "eng", code))


def ocr_files() -> dict[str, str]:
    """Site path under OCR_DIR → node_modules path: tesseract.js, its LSTM cores, each language's model."""
    languages = {f"lang/{code}.traineddata.gz": f"{OCR_LANGUAGE_PACKAGE}{code}/{OCR_LANGUAGE_MODEL}/{code}.traineddata.gz"
                 for code in ocr_languages()}
    return {**OCR_FILES, **languages}


def write_ocr_languages_module(dist: Path) -> None:
    """What the OCR banner offers and what each choice downloads the first time: the two scripts and
    the largest core (the one a browser gets depends on its SIMD support), each language's model,
    and pdf.js when pages must be rendered first."""
    files = {target: (NODE_MODULES / source).stat().st_size for target, source in ocr_files().items()}
    base = files["tesseract.esm.min.js"] + files["worker.min.js"] + max(
        size for target, size in files.items() if target.startswith("core/"))
    languages = ocr_languages()
    # pdf.js, for pages drawn before they are read: its two scripts and the larger image codec
    renderer = {target: (NODE_MODULES / source).stat().st_size for target, source in RENDERER_FILES.items()}
    renderer_bytes = renderer["pdf.min.mjs"] + renderer["pdf.worker.min.mjs"] + max(
        renderer["wasm/jbig2.wasm"], renderer["wasm/openjpeg.wasm"])
    sizes = {"base": base, "renderer": renderer_bytes,
             **{code: files[f"lang/{code}.traineddata.gz"] for code in languages}}
    (dist / OCR_LANGUAGES_MODULE).write_text(
        "// generated by tools/build_site.py from package.json's @tesseract.js-data packages\n"
        f"export const OCR_LANGUAGES = Object.freeze({json.dumps(languages)});\n"
        f"export const DOWNLOAD_BYTES = Object.freeze({json.dumps(sizes)});\n",
        encoding="utf-8",
    )


def vendor_tesseract(dist: Path) -> None:
    for target, source in ocr_files().items():
        destination = dist / OCR_DIR / target
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(NODE_MODULES / source, destination)
        if target.endswith(".min.js"):
            text = destination.read_text(encoding="utf-8")
            if TESSERACT_CDN_LITERAL not in text:
                raise SystemExit(f"{target}: no CDN literal (tesseract.js upgraded? check the pattern)")
            destination.write_text(text.replace(TESSERACT_CDN_LITERAL, "./"), encoding="utf-8")


def vendor_pdfjs(dist: Path) -> None:
    """pdf.js for static/pdfrender.mjs; its CMap URL is the site's cmaps/, which must hold pdf.js's
    very files (both come from pdfjs-dist: `make cmaps`)."""
    package = NODE_MODULES / "pdfjs-dist"
    for target, source in RENDERER_FILES.items():
        destination = dist / RENDERER_DIR / target
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(NODE_MODULES / source, destination)
    for name in RENDERER_DATA_DIRS:
        copy_tree(package / name, dist / RENDERER_DIR / name)
    site_cmaps = dist / "cmaps"
    if site_cmaps.is_dir():
        stale = [p.name for p in sorted((package / "cmaps").glob("*.bcmap"))
                 if not (site_cmaps / p.name).is_file() or (site_cmaps / p.name).read_bytes() != p.read_bytes()]
        if stale:
            raise SystemExit(f"cmaps/ differs from pdfjs-dist's ({len(stale)} files, e.g. {stale[0]}): run `make cmaps`")


def copy_tree(source: Path, target: Path) -> None:
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if path.is_file() and "__pycache__" not in relative.parts and not any(p.startswith(".") for p in relative.parts):
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def boot_files(dist: Path, wheels: list[Path], snapshot: str | None) -> dict[str, int]:
    """The files the worker may fetch while starting, with their sizes in bytes: the progress
    bar's manifest (the worker counts their bytes as they stream in), and the service worker's
    LATER list (cached when first fetched, not at install)."""
    paths = [f"pyodide/{name}" for name in PYODIDE_RUNTIME if name != "pyodide.mjs"]  # pyodide.mjs: a static import
    paths += [f"wheels/{w.name}" for w in wheels] + ["app.py"]
    if snapshot:
        paths.append(f"snapshot/{snapshot}")
    return {path: (dist / path).stat().st_size for path in paths}


def build_id(dist: Path, paths: list[str]) -> str:
    """A hash of what a memory snapshot holds (runtime, stdlib, wheels, app.py): the key of the
    snapshot the worker takes on the visitor's machine, so a new build never restores an old one."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(f"{path}\0{sha256(dist / path)}\n".encode())
    return digest.hexdigest()[:16]


def write_build_module(dist: Path, wheels: list[Path], snapshot: str | None) -> None:
    files = boot_files(dist, wheels, snapshot)
    info = {
        "id": build_id(dist, [path for path in files if not path.startswith("snapshot/")]),
        "wheels": [w.name for w in wheels],
        "snapshot": snapshot,
        "files": files,
        # the CMaps the site ships: one that cannot be fetched is "font data missing", not "a scan"
        "cmaps": sorted(p.stem for p in (dist / "cmaps").glob("*.bcmap")),
    }
    (dist / BUILD_MODULE).write_text(
        "// generated by tools/build_site.py: what the worker loads\n"
        f"export const BUILD = {json.dumps(info, indent=2)};\n",
        encoding="utf-8",
    )


def write_engine_module(dist: Path, python: str) -> None:
    """The JavaScript side's copy of glyphline.options.describe(), read from this checkout's engine."""
    # describe() gives each mode's file extension from its renderer, so a new mode downloads under its own name
    done = subprocess.run([python, "-c", "import json, glyphline.options as o; print(json.dumps(o.describe()))"],
                          check=True, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    described = json.loads(done.stdout)
    (dist / ENGINE_MODULE).write_text(
        "// generated by tools/build_site.py from glyphline.options.describe(): edit the Python, not this file\n"
        f"export const MODES = Object.freeze({json.dumps(described['modes'])});\n"
        f"export const EXTENSIONS = Object.freeze({json.dumps(described['extensions'])});\n"
        f"export const DEFAULT_OPTIONS = Object.freeze({json.dumps(described['options'])});\n"
        f"export const ERROR_KINDS = Object.freeze({json.dumps(described['errorKinds'])});\n",
        encoding="utf-8",
    )


def write_service_worker(dist: Path, later: set[str]) -> str:
    """sw.js with every file of dist/ in one of its lists (SHELL cached at install, LATER when the
    worker first fetches it, CMAPS on demand and in the background, OCR and RENDERER when first
    used) and a version
    hashed from all their contents."""
    lists: dict[str, list[str]] = {"SHELL": ["./"], "LATER": [], "CMAPS": [], "OCR": [], "RENDERER": []}
    digest = hashlib.sha256()
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        relative = path.relative_to(dist).as_posix()
        if relative == "sw.js" or is_compressed_sibling(path):
            continue
        digest.update(f"{relative}\0{sha256(path)}\n".encode())
        if relative.startswith(ON_DEMAND_PREFIXES):
            lists["CMAPS"].append(f"./{relative}")
        elif relative.startswith(OCR_DIR):
            lists["OCR"].append(f"./{relative}")
        elif relative.startswith(RENDERER_DIR):
            lists["RENDERER"].append(f"./{relative}")
        elif relative in later:
            lists["LATER"].append(f"./{relative}")
        else:
            lists["SHELL"].append(f"./{relative}")
    version = f"glyphline-{digest.hexdigest()[:16]}"
    source = (ROOT / "sw.js").read_text(encoding="utf-8")
    for name in SW_LIST_PLACEHOLDERS:
        placeholder = f"/*@{name}@*/[]"
        if placeholder not in source:
            raise SystemExit(f"sw.js lost its build placeholder {placeholder}")
        source = source.replace(placeholder, json.dumps(lists[name], indent=2))
    if SW_VERSION_PLACEHOLDER not in source:
        raise SystemExit("sw.js lost its build placeholders")
    source = source.replace(SW_VERSION_PLACEHOLDER, version)
    (dist / "sw.js").write_text(source, encoding="utf-8")
    return version


def is_compressed_sibling(path: Path) -> bool:
    return path.suffix in COMPRESSED_SUFFIXES and path.with_suffix("").is_file()


def brotli_cached(sources: list[Path]) -> dict[Path, bytes]:
    """Brotli (Node's zlib, best quality) of each file, kept in build/web/brotli/ by content hash:
    quality 11 takes ~40 s on the wasm, and the runtime files do not change between builds."""
    store = WORK / "brotli"
    store.mkdir(parents=True, exist_ok=True)
    cached = {source: store / f"{sha256(source)}.br" for source in sources}
    todo = [arg for source, target in cached.items() if not target.is_file() for arg in (str(source), str(target) + ".tmp")]
    if todo:
        print(f"+ node tools/brotli_files.mjs ({len(todo) // 2} files)", flush=True)
        subprocess.run(["node", str(ROOT / "tools" / "brotli_files.mjs"), *todo], check=True)
        for source, target in cached.items():
            if not target.is_file():
                Path(str(target) + ".tmp").replace(target)
    return {source: target.read_bytes() for source, target in cached.items()}


def precompress(dist: Path, paths: list[Path] | None = None) -> int:
    """Writes NAME.br and NAME.gz beside each file of dist/ (or of `paths`) that they shrink by
    10 %+ (a server sends one when the browser accepts it, tools/serve.py); returns how many
    files got siblings."""
    if paths is None:
        paths = [p for p in sorted(dist.rglob("*")) if p.is_file() and not is_compressed_sibling(p)]
    candidates = [p for p in paths if p.stat().st_size >= COMPRESS_MIN_BYTES and p.suffix not in COMPRESSED_SUFFIXES]
    brotli = brotli_cached(candidates)
    count = 0
    for path in candidates:
        variants = {".br": brotli[path], ".gz": gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)}
        worth_it = min(len(data) for data in variants.values()) <= path.stat().st_size * COMPRESS_KEEP_RATIO
        for suffix, data in variants.items():
            sibling = Path(f"{path}{suffix}")
            if worth_it:
                sibling.write_bytes(data)
            else:
                sibling.unlink(missing_ok=True)
        count += worth_it
    return count


def wire_bytes(path: Path) -> dict[str, int]:
    """The bytes of one file on the wire: raw, and as the smallest encoding a browser takes."""
    raw = path.stat().st_size
    sizes = {"raw": raw, "gzip": raw, "br": raw}
    for suffix, key in ((".gz", "gzip"), (".br", "br")):
        sibling = Path(f"{path}{suffix}")
        if sibling.is_file():
            sizes[key] = sibling.stat().st_size
    sizes["br"] = min(sizes["br"], sizes["gzip"])  # a browser with Brotli also takes gzip
    return sizes


def first_visit_files(dist: Path) -> tuple[list[str], list[str]]:
    """What a first visit downloads: (the page, the service worker's install list and every
    start-up file; the CMaps, which the service worker fetches in the background once ready).
    The wheels count either way: after a shipped snapshot they are fetched in the background.
    OCR's and the page renderer's files are not part of it: fetched only when used."""
    files, background = ["sw.js"], []
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        relative = path.relative_to(dist).as_posix()
        if relative == "sw.js" or is_compressed_sibling(path) or relative.startswith((OCR_DIR, RENDERER_DIR)):
            continue
        (background if relative.startswith(ON_DEMAND_PREFIXES) else files).append(relative)
    return files, background


def first_visit_report(dist: Path) -> dict[str, int]:
    """The first visit's bytes: raw, gzip, br (the smallest a Brotli browser gets) and the same
    three for what the service worker fetches after "ready" (CMaps, so that CJK works offline)."""
    files, background = first_visit_files(dist)
    report = {}
    for prefix, paths in (("", files), ("background_", background)):
        for key in ("raw", "gzip", "br"):
            report[prefix + key] = sum(wire_bytes(dist / path)[key] for path in paths)
    return report


def set_first_visit(dist: Path, first_visit: dict[str, int]) -> None:
    """Writes the first visit's bytes into worker/build.mjs (the progress bar's manifest)."""
    module = dist / BUILD_MODULE
    source = module.read_text(encoding="utf-8").split("export const FIRST_VISIT")[0]
    module.write_text(source + f"export const FIRST_VISIT = {json.dumps(first_visit)};\n", encoding="utf-8")


def compile_and_snapshot(dist: Path, wheels: list[Path]) -> str:
    """.pyc wheels (Node, in the very Pyodide that dist/ ships) and the memory snapshot: taken in
    headless Chromium when it is there (the snapshot then keeps stack switching, so the worker
    can pause between pages), else in Node."""
    import browser_snapshot  # tools/, beside this script

    names = [w.name for w in wheels]
    in_browser = browser_snapshot.available()
    node = ["node", str(ROOT / "tools" / "pyodide_build.mjs"), *(["--compile-only"] if in_browser else [])]
    done = subprocess.run([*node, str(dist), *names], check=True, capture_output=True, text=True)
    if not in_browser:
        return json.loads(done.stdout.strip().splitlines()[-1])["snapshot"]
    try:
        return browser_snapshot.take_snapshot(dist, names)
    except Exception as error:  # a broken browser must not break the build: Node can do it too
        print(f"snapshot in Chromium failed ({error}); taking it in Node", file=sys.stderr, flush=True)
        done = subprocess.run(["node", str(ROOT / "tools" / "pyodide_build.mjs"), "--snapshot-only", str(dist), *names],
                              check=True, capture_output=True, text=True)
        return json.loads(done.stdout.strip().splitlines()[-1])["snapshot"]


def compile_only(dist: Path, wheels: list[Path]) -> None:
    """.pyc wheels and the trimmed standard library, without a snapshot (the visitor's machine takes it)."""
    names = [w.name for w in wheels]
    done = subprocess.run(["node", str(ROOT / "tools" / "pyodide_build.mjs"), "--compile-only", str(dist), *names],
                          check=True, capture_output=True, text=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"standard library trimmed to {report['stdlibFiles']} files, {report['stdlibCompiled']} of them compiled to .pyc",
          flush=True)


def build(dist: Path, python: str, with_snapshot: bool = True, ship_snapshot: bool = False) -> None:
    if not (NODE_MODULES / "pyodide" / "pyodide.mjs").is_file():
        raise SystemExit("node_modules/pyodide is missing: run `npm ci` first")
    WORK.mkdir(parents=True, exist_ok=True)
    engine = build_engine_wheel(python)
    pypdf = download_pypdf_wheel(python)

    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir(parents=True)
    for name in PAGE_FILES:
        shutil.copyfile(ROOT / name, dist / name)
    for name in PAGE_DIRS:
        copy_tree(ROOT / name, dist / name)
    for name in OPTIONAL_DIRS:
        if (ROOT / name).is_dir():
            copy_tree(ROOT / name, dist / name)
    (dist / "pyodide").mkdir()
    for name in PYODIDE_RUNTIME:
        shutil.copyfile(NODE_MODULES / "pyodide" / name, dist / "pyodide" / name)
    remove_pyodide_cdn(dist / "pyodide" / "pyodide.mjs")
    trim_lock_file(dist / "pyodide" / "pyodide-lock.json")
    wrap_aes_js(dist / "vendor" / "aes-js.mjs")
    vendor_tesseract(dist)
    write_ocr_languages_module(dist)
    vendor_pdfjs(dist)
    copy_client_zip(dist / "vendor" / "client-zip.mjs")
    write_icons(dist)
    (dist / "wheels").mkdir()
    wheels = []
    for wheel in (pypdf, engine):  # load order: pypdf first, the engine imports it
        shutil.copyfile(wheel, dist / "wheels" / wheel.name)
        wheels.append(dist / "wheels" / wheel.name)
    if not move_wordlists_out_of_wheel(wheels[-1], dist / WORDLIST_SITE_DIR):
        raise SystemExit(f"the engine wheel has no {WORDLIST_PACKAGE_DIR}: run `make wordlists`")
    # what the worker imports before it takes a memory snapshot on the visitor's machine
    shutil.copyfile(ROOT / "tools" / "snapshot_imports.py", dist / "worker" / "glyphline_snapshot_imports.py")
    (dist / "samples").mkdir()
    shutil.copyfile(SAMPLE_PDF, dist / "samples" / "sample.pdf")
    snapshot = None
    if with_snapshot and ship_snapshot:
        snapshot = compile_and_snapshot(dist, wheels)
    elif with_snapshot:
        compile_only(dist, wheels)
    write_build_module(dist, wheels, snapshot=snapshot)
    write_engine_module(dist, python)
    later = set(boot_files(dist, wheels, snapshot))
    # sw.js's version hashes every file before the first visit's bytes are written into
    # build.mjs (they follow from the other files), so only build.mjs needs the loop below
    version = write_service_worker(dist, later=later)
    precompressed = precompress(dist)
    # the report counts build.mjs too, which holds the report: repeat until the sizes settle
    first_visit: dict[str, int] = {}
    for _ in range(6):
        set_first_visit(dist, first_visit)
        precompress(dist, [dist / BUILD_MODULE])
        measured = first_visit_report(dist)
        if measured == first_visit:
            break
        first_visit = measured
    total = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file() and not is_compressed_sibling(p))
    print(f"dist/ ready: {version}, {total:,} bytes; {precompressed} files precompressed (.br, .gz)", flush=True)
    print(f"first visit: {first_visit['raw']:,} bytes raw, {first_visit['gzip']:,} gzip, "
          f"{first_visit['br']:,} brotli (then {first_visit['background_br']:,} brotli of CMaps in the background)",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--python", default=sys.executable, help="the Python whose pip builds and downloads wheels")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="ship source wheels and the whole standard library (no .pyc, no memory snapshot)")
    parser.add_argument("--ship-snapshot", action="store_true",
                        help="take the memory snapshot here and ship it (+9 MB on the first visit, a faster cold start)")
    args = parser.parse_args(argv)
    build(args.dist.resolve(), args.python, with_snapshot=not args.no_snapshot, ship_snapshot=args.ship_snapshot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
