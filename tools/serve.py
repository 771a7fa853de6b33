"""`make run`: serves dist/ like `python -m http.server`, plus the build's precompressed files.

tools/build_site.py writes `NAME.br` and `NAME.gz` beside each large file. For a request of
NAME whose Accept-Encoding allows it, this server sends the smaller sibling's bytes with
`Content-Encoding` set (Brotli first), the type and validators of NAME itself, and
`Vary: Accept-Encoding` on every answer of a file that has siblings, so caches keep the
variants apart. Standard library only.

    python tools/serve.py [--port 8000] [--bind 127.0.0.1] [DIRECTORY]
"""
from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import os
import sys
from pathlib import Path

# (Content-Encoding, file suffix), best first: the order a sibling is preferred in
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".svg": "image/svg+xml"}


def accepted_encodings(header: str | None) -> set[str]:
    """The codings an Accept-Encoding header allows (q=0 refuses one; "*" allows the rest)."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        (allowed if quality > 0 else refused).add(name)
    if "*" in allowed:
        allowed |= {coding for coding, _ in ENCODINGS if coding not in refused}
    return allowed - refused


def choose_variant(path: str, accept_encoding: str | None) -> tuple[str, str | None, bool]:
    """(file to send, its Content-Encoding or None, whether the file has compressed siblings)."""
    siblings = [(coding, path + suffix) for coding, suffix in ENCODINGS if os.path.isfile(path + suffix)]
    allowed = accepted_encodings(accept_encoding)
    for coding, sibling in siblings:
        if coding in allowed:
            return sibling, coding, True
    return path, None, bool(siblings)


class PrecompressedHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler that answers with a precompressed sibling when the client takes it."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) or not os.path.isfile(path):
            return super().send_head()  # listings, redirects and 404s as usual
        variant, coding, varies = choose_variant(path, self.headers.get("Accept-Encoding"))
        try:
            handle = open(variant, "rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        try:
            stat = os.fstat(handle.fileno())
            modified = os.stat(path).st_mtime
            since = self.headers.get("If-Modified-Since")
            if since and not self.headers.get("If-None-Match"):
                try:
                    if int(modified) <= email.utils.parsedate_to_datetime(since).timestamp():
                        self.send_response(304)
                        if varies:
                            self.send_header("Vary", "Accept-Encoding")
                        self.end_headers()
                        handle.close()
                        return None
                except (TypeError, ValueError, IndexError, OverflowError):
                    pass
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            if coding:
                self.send_header("Content-Encoding", coding)
            if varies:
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(stat.st_size))
            self.send_header("Last-Modified", self.date_time_string(modified))
            self.end_headers()
            return handle
        except Exception:
            handle.close()
            raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", default="dist")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    args = parser.parse_args(argv)
    directory = Path(args.directory).resolve()
    if not directory.is_dir():
        print(f"{directory} does not exist: run `make build` first", file=sys.stderr)
        return 2
    handler = functools.partial(PrecompressedHandler, directory=str(directory))
    with http.server.ThreadingHTTPServer((args.bind, args.port), handler) as server:
        print(f"Serving {directory} on http://{args.bind}:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
