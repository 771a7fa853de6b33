// Brotli for tools/build_site.py (Python's standard library has none; Node's zlib does):
//   node tools/brotli_files.mjs SOURCE TARGET [SOURCE TARGET ...]   writes TARGET = brotli(SOURCE)
import { readFileSync, writeFileSync } from "node:fs";
import zlib from "node:zlib";

const args = process.argv.slice(2);
if (!args.length || args.length % 2) {
  console.error("usage: node tools/brotli_files.mjs SOURCE TARGET [SOURCE TARGET ...]");
  process.exit(2);
}
for (let i = 0; i < args.length; i += 2) {
  const data = readFileSync(args[i]);
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_LGWIN, BROTLI_MAX_QUALITY } = zlib.constants;
  // the best quality and the largest standard window: done once per file content (the build caches it)
  writeFileSync(args[i + 1], zlib.brotliCompressSync(data, {
    params: { [BROTLI_PARAM_QUALITY]: BROTLI_MAX_QUALITY, [BROTLI_PARAM_SIZE_HINT]: data.length, [BROTLI_PARAM_LGWIN]: 24 },
  }));
}
