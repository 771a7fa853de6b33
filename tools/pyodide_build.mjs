// Build step run by tools/build_site.py inside the Pyodide that dist/ ships (Node):
//  1. rewrites every wheel in dist/wheels/ as a sourceless .pyc wheel (bytecode compiled by the
//     same interpreter, so the magic number matches; imports get ~2× faster);
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
const { bootForSnapshot, exposeAes, startPyodide } = await import(pathToFileURL(join(dist, "worker", "engine_setup.mjs")).href);

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
                code = compile(data, f"{site_packages}/{name}", "exec", dont_inherit=True, optimize=0)
                data = bytes(bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
                name = name[:-3] + ".pyc"
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

// what the snapshot has imported: shared with tools/browser_snapshot.py
const PREIMPORT = readFileSync(new URL("./snapshot_imports.py", import.meta.url), "utf8");

async function compileWheels() {
  const pyodide = await startPyodide(loadPyodide, indexURL);
  pyodide.runPython(COMPILE_WHEEL);
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

if (mode !== "--snapshot-only") await compileWheels();
const snapshot = mode === "--compile-only" ? null : await makeSnapshot();
console.log(JSON.stringify({ snapshot }));
process.exit(0);
