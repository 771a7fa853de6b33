// Build step run by tools/build_site.py inside the Pyodide that dist/ ships (Node):
//  1. rewrites every wheel in dist/wheels/ as a sourceless .pyc wheel (bytecode compiled by the
//     same interpreter, so the magic number matches; imports get ~2× faster);
//  0. (--compile-only and --all) trims dist/pyodide/python_stdlib.zip to the standard-library
//     modules the engine, pypdf, app.py and Pyodide itself can import (see TRIM_STDLIB), turns
//     the ones a start-up and a conversion do import into sourceless .pyc (Pyodide's zip holds
//     only sources, so every start compiled ~190 modules: 2/3 of its CPU), and checks that a
//     conversion still runs on the result;
//  2. boots Pyodide with those wheels and app.py, imports the whole engine, and writes a memory
//     snapshot (gzip) that the worker restores instead of booting (~1 s instead of 3–6 s).
// The snapshot holds the exact Pyodide build id: it must be rebuilt on every Pyodide or wheel
// change, which this step does on every `make build`.
//
//   node tools/pyodide_build.mjs [--compile-only | --snapshot-only] DIST WHEEL...
//                                            → prints {"snapshot": "engine-<hash>.snap.gz" | null}
// The snapshot keeps Node's answer to "is there stack switching?" (no), so tools/build_site.py
// prefers tools/browser_snapshot.py (Chromium) and uses this one when no Chromium is there.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
const mode = args[0] && args[0].startsWith("--") ? args.shift() : "--all";
// --compile-only: the snapshot is taken in Chromium; --snapshot-only: the wheels are compiled already
if (!["--all", "--compile-only", "--snapshot-only"].includes(mode)) {
  console.error(`unknown option ${mode}`);
  process.exit(2);
}
const [distArg, ...wheelNames] = args;
if (!distArg || !wheelNames.length) {
  console.error("usage: node tools/pyodide_build.mjs [--compile-only | --snapshot-only] DIST WHEEL...");
  process.exit(2);
}
const dist = resolve(distArg);
const indexURL = join(dist, "pyodide") + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
// the worker's own boot sequence, from the dist/ being built
const { bootForSnapshot, exposeAes, installApp, startPyodide, unpackWheels } = await import(pathToFileURL(join(dist, "worker", "engine_setup.mjs")).href);

// Python run inside Pyodide before COMPILE_WHEEL and COMPILE_STDLIB: compile_compact(), source
// → a smaller code object with the same behaviour (tools/compact_bytecode.py)
const COMPACT_COMPILE = readFileSync(new URL("./compact_bytecode.py", import.meta.url), "utf8");

// Python run inside Pyodide: a wheel's .py files → sourceless .pyc, RECORD rewritten
const COMPILE_WHEEL = `
import base64, hashlib, importlib._bootstrap_external as bootstrap, importlib.util, io, site, zipfile

def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def compile_wheel(source_path, target_path):
    site_packages = site.getsitepackages()[0]
    members = []
    record_name = None
    with zipfile.ZipFile(source_path) as wheel:
        for info in wheel.infolist():
            if info.is_dir():
                continue
            data = wheel.read(info)
            name = info.filename
            if name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            if name.endswith(".py"):
                code = compile_compact(data, f"{site_packages}/{name}")
                data = bytes(bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
                name = name[:-3] + ".pyc"
            elif name.endswith(".dist-info/METADATA"):
                data = data.split(b"\\n\\n", 1)[0] + b"\\n"  # the headers: the long description is the README
            members.append((name, data))
    lines = [record_line(name, data) for name, data in members] + [f"{record_name},,"]
    members.append((record_name, ("\\n".join(lines) + "\\n").encode()))
    with zipfile.ZipFile(target_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
`;

// Python run inside Pyodide: which standard-library files to keep. Every import statement (at any
// depth, inside try blocks too) of the wheels' sources and app.py is followed through the stdlib's
// own sources until nothing new turns up; what Pyodide imported while starting is kept, and so are
// whole packages that are found by name at run time (codecs by encoding name, Pyodide's own).
// In the stdlib only the imports that run at import time are followed (a function's own import,
// such as pydoc's in help(), is not); the check below then runs a conversion on the result.
const TRIM_STDLIB = `
import ast, io, sys, zipfile

ALWAYS_WHOLE = ("encodings", "pyodide", "_pyodide", "importlib", "collections", "re", "json", "asyncio")
EVERY_DEPTH = ("pyodide", "_pyodide")

def top_level_nodes(tree):
    # statements run at import (inside if/try/with too), not the bodies of functions and classes
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            continue  # a script's own block (heapq's imports doctest there)
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            pending.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))
        for handler in getattr(node, "handlers", ()):
            pending.extend(handler.body)

def imported_names(source, module, is_package, every_depth=True):
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in (ast.walk(tree) if every_depth else top_level_nodes(tree)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1]) if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return names

def needed_members(stdlib_zip, roots):
    with zipfile.ZipFile(stdlib_zip) as archive:
        files = {info.filename for info in archive.infolist() if not info.is_dir()}
        def module_file(name):
            path = name.replace(".", "/")
            if f"{path}/__init__.py" in files:
                return f"{path}/__init__.py", True
            if f"{path}.py" in files:
                return f"{path}.py", False
            return None, False
        keep = set()
        whole = {name[:-3].replace("/", ".").removesuffix(".__init__") for name in files
                 if name.endswith(".py") and name.split("/")[0].removesuffix(".py") in ALWAYS_WHOLE}
        pending = set(roots) | set(sys.modules) | whole
        seen = set()
        while pending:
            name = pending.pop()
            if not name or name in seen:
                continue
            seen.add(name)
            parts = name.split(".")
            pending.update(".".join(parts[:i]) for i in range(1, len(parts)))
            member, is_package = module_file(name)
            if member is None:
                continue
            keep.add(member)
            source = archive.read(member).decode("utf-8", "replace")
            # the stdlib's own imports inside functions are not followed (pydoc, pdb, email...
            # hide there): only what runs at import; Pyodide's own loader at every depth (its
            # functions run on every start: loadPackage imports tarfile inside one)
            every_depth = name.split(".")[0] in EVERY_DEPTH
            pending.update(imported_names(source, name, is_package, every_depth))
        for name in files:
            if name.split("/")[0].removesuffix(".py") in ALWAYS_WHOLE or "/" not in name and not name.endswith(".py"):
                keep.add(name)
        return sorted(keep)

def rewrite_zip(source_path, target_path, members):
    with zipfile.ZipFile(source_path) as source, zipfile.ZipFile(target_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for name in members:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, source.read(name))

def wheel_roots(wheel_paths, extra_sources):
    names = set()
    for path in wheel_paths:
        with zipfile.ZipFile(path) as wheel:
            for member in wheel.namelist():
                if member.endswith(".py"):
                    module = member[:-3].replace("/", ".").removesuffix(".__init__")
                    names |= imported_names(wheel.read(member), module, member.endswith("__init__.py"))
    for source in extra_sources:
        names |= imported_names(source, "glyphline_app", False)
    return names

def trim_stdlib(stdlib_zip, target_zip, wheel_paths, extra_sources):
    members = needed_members(stdlib_zip, wheel_roots(wheel_paths, extra_sources))
    rewrite_zip(stdlib_zip, target_zip, members)
    return len(members)
`;

// Python run inside Pyodide: the standard-library zip with the members `compiled` (what a start
// and a conversion import) as sourceless .pyc, compiled by this very interpreter (same magic
// number); unchecked-hash headers, as no source is there to check against
const COMPILE_STDLIB = `
import importlib._bootstrap_external as bootstrap, importlib.util, zipfile

def compile_stdlib(source_path, target_path, compiled, mounted_at):
    compiled = set(compiled)
    with zipfile.ZipFile(source_path) as source, zipfile.ZipFile(target_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for member in source.infolist():
            name, data = member.filename, source.read(member)
            if name in compiled:
                # Pyodide's own packages keep their docstrings: _pyodide.docstring reads them
                own = name.split("/")[0] in ("pyodide", "_pyodide")
                code = compile_compact(data, f"{mounted_at}/{name}", strip_docstrings=not own)
                data = bytes(bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
                name = name[:-3] + ".pyc"
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data)
    return len(compiled)
`;

// Python run after a start-up and a conversion: the standard-library zip's members they imported
const IMPORTED_STDLIB = `
import sys
_zip = next(path for path in sys.path if path.endswith(".zip"))
sorted({module.__spec__.origin[len(_zip) + 1:] for module in list(sys.modules.values())
        if getattr(module, "__spec__", None) and (module.__spec__.origin or "").startswith(_zip + "/")
        and module.__spec__.origin.endswith(".py")})
`;

// Python run on the trimmed library: everything the snapshot imports, a conversion, a pause
const CHECK_TRIMMED = `
import glyphline_app, pathlib
result = glyphline_app.convert(1, pathlib.Path("/tmp/sample.pdf").read_bytes(), {}, lambda message: None, lambda: False)
assert result["type"] == "result", result
`;

// what the snapshot has imported: shared with tools/browser_snapshot.py
const PREIMPORT = readFileSync(new URL("./snapshot_imports.py", import.meta.url), "utf8");

async function trimStdlib() {
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL });
  pyodide.runPython(TRIM_STDLIB);
  const stdlib = join(indexURL, "python_stdlib.zip");
  pyodide.FS.writeFile("/tmp/stdlib.zip", new Uint8Array(readFileSync(stdlib)));
  const paths = [];
  for (const name of wheelNames) {
    pyodide.FS.writeFile(`/tmp/${name}`, new Uint8Array(readFileSync(join(dist, "wheels", name))));
    paths.push(`/tmp/${name}`);
  }
  const trim = pyodide.globals.get("trim_stdlib");
  const kept = trim("/tmp/stdlib.zip", "/tmp/stdlib-trimmed.zip", pyodide.toPy(paths), pyodide.toPy([readFileSync(join(dist, "app.py"), "utf8"), PREIMPORT]));
  trim.destroy();
  writeFileSync(stdlib, pyodide.FS.readFile("/tmp/stdlib-trimmed.zip"));
  return kept;
}

// a fresh Pyodide on the trimmed library (source wheels): the snapshot's imports and a conversion
async function checkTrimmed() {
  globalThis.aesjs = (await import(pathToFileURL(join(dist, "vendor", "aes-js.mjs")).href)).default;
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL });
  // as the worker installs them (loadPackage reaches importlib.metadata, and so email)
  const failures = [];
  await pyodide.loadPackage(wheelNames.map((name) => join(dist, "wheels", name)),
    { messageCallback: () => {}, errorCallback: (message) => failures.push(message) });
  if (failures.length) throw new Error(failures.join("; "));
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.FS.writeFile(`${sitePackages}/glyphline_app.py`, readFileSync(join(dist, "app.py"), "utf8"));
  pyodide.FS.writeFile("/tmp/sample.pdf", new Uint8Array(readFileSync(join(dist, "samples", "sample.pdf"))));
  pyodide.runPython(PREIMPORT);
  pyodide.runPython(CHECK_TRIMMED);
  await pyodide.runPythonAsync("import asyncio\nawait asyncio.sleep(0)");
}

// what the worker imports from the standard library: a start, the engine's install and import
// as the worker does them (unpacked wheels, app.py, the snapshot's imports) and a conversion
async function importedStdlib() {
  globalThis.aesjs = (await import(pathToFileURL(join(dist, "vendor", "aes-js.mjs")).href)).default;
  const wheels = wheelNames.map((name) => new Uint8Array(readFileSync(join(dist, "wheels", name))));
  const pyodide = await startPyodide(loadPyodide, indexURL);
  unpackWheels(pyodide, wheels);
  installApp(pyodide, readFileSync(join(dist, "app.py"), "utf8"));
  pyodide.FS.writeFile("/tmp/sample.pdf", new Uint8Array(readFileSync(join(dist, "samples", "sample.pdf"))));
  pyodide.runPython(PREIMPORT);
  pyodide.runPython(CHECK_TRIMMED);
  return { members: pyodide.runPython(IMPORTED_STDLIB).toJs(), mountedAt: pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('.zip'))") };
}

// the interpreter that compiles: code objects with line numbers but no column ranges (a
// traceback shows no ^^^ markers): a fifth less bytecode on the first visit
const COMPILER_ENV = { env: { PYTHONNODEBUGRANGES: "1" } };

async function compileStdlib() {
  const { members, mountedAt } = await importedStdlib();
  const pyodide = await startPyodide(loadPyodide, indexURL, COMPILER_ENV);
  pyodide.runPython(COMPACT_COMPILE + COMPILE_STDLIB);
  const stdlib = join(indexURL, "python_stdlib.zip");
  pyodide.FS.writeFile("/tmp/stdlib.zip", new Uint8Array(readFileSync(stdlib)));
  const compile = pyodide.globals.get("compile_stdlib");
  const count = compile("/tmp/stdlib.zip", "/tmp/stdlib-compiled.zip", pyodide.toPy(members), mountedAt);
  compile.destroy();
  writeFileSync(stdlib, pyodide.FS.readFile("/tmp/stdlib-compiled.zip"));
  return count;
}

async function compileWheels() {
  const pyodide = await startPyodide(loadPyodide, indexURL, COMPILER_ENV);
  pyodide.runPython(COMPACT_COMPILE + COMPILE_WHEEL);
  const compile = pyodide.globals.get("compile_wheel");
  for (const name of wheelNames) {
    const path = join(dist, "wheels", name);
    pyodide.FS.writeFile(`/tmp/${name}`, new Uint8Array(readFileSync(path)));
    compile(`/tmp/${name}`, `/tmp/pyc-${name}`);
    writeFileSync(path, pyodide.FS.readFile(`/tmp/pyc-${name}`));
  }
  compile.destroy();
}

async function makeSnapshot() {
  exposeAes((await import(pathToFileURL(join(dist, "vendor", "aes-js.mjs")).href)).default);
  const wheels = wheelNames.map((name) => new Uint8Array(readFileSync(join(dist, "wheels", name))));
  const pyodide = await bootForSnapshot(loadPyodide, indexURL, wheels, readFileSync(join(dist, "app.py"), "utf8"),
    PREIMPORT);
  const snapshot = gzipSync(pyodide.makeMemorySnapshot(), { level: 6 });
  const name = `engine-${createHash("sha256").update(snapshot).digest("hex").slice(0, 16)}.snap.gz`;
  mkdirSync(join(dist, "snapshot"), { recursive: true });
  writeFileSync(join(dist, "snapshot", name), snapshot);
  return name;
}

let stdlibModules = null;
let stdlibCompiled = null;
if (mode !== "--snapshot-only") {
  stdlibModules = await trimStdlib();
  stdlibCompiled = await compileStdlib();
  await checkTrimmed();
  await compileWheels();
}
const snapshot = mode === "--compile-only" ? null : await makeSnapshot();
console.log(JSON.stringify({ snapshot, stdlibFiles: stdlibModules, stdlibCompiled }));
process.exit(0);
