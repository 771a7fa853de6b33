"""The README's screenshots: the web app on a desktop and a phone, light and dark, with a converted
sample, taken in headless Chromium from a built site.

    .venv/bin/python tools/screenshots.py [--dist DIR] [--out docs/screenshots]

Without --dist the site is built first (tools/build_site.py into a temporary folder). Writes
desktop-light.png, desktop-dark.png, phone-light.png and phone-dark.png, and the layout inspector's
inspector-light.png and inspector-dark.png.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from e2e_support import CHROMIUM_ARGS, StaticServer, find_chromium, open_app, wait_job_state  # noqa: E402

SAMPLE = REPO / "tests" / "data" / "sample.pdf"
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def take(dist: Path, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    server = StaticServer(dist)
    written = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            for device, viewport in VIEWPORTS.items():
                for scheme in ("light", "dark"):
                    phone = device == "phone"
                    context = browser.new_context(viewport=viewport, color_scheme=scheme, locale="en-US",
                                                  device_scale_factor=2 if phone else 1, is_mobile=phone,
                                                  has_touch=phone, reduced_motion="reduce")
                    page = open_app(context, server.url)
                    page.locator("#file").set_input_files(str(SAMPLE))
                    wait_job_state(page, 0, ("done",))
                    if not phone:   # a phone shows the top of the page: the search field would scroll it away
                        page.locator("li.job").first.locator("input.search").fill("text")
                    path = out / f"{device}-{scheme}.png"
                    page.screenshot(path=str(path), full_page=not phone)
                    written.append(path)
                    if not phone:   # the layout inspector over the rendered sample page
                        card = page.locator("li.job").first
                        card.locator("button.inspect").click()
                        card.locator('.inspector[data-state="ready"] svg[data-underlay="rendered"]').wait_for(timeout=120_000)
                        path = out / f"inspector-{scheme}.png"
                        card.locator(".inspector").screenshot(path=str(path))
                        written.append(path)
                    context.close()
            browser.close()
    finally:
        server.stop()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    args = parser.parse_args()
    if args.dist:
        paths = take(args.dist.resolve(), args.out)
    else:
        with tempfile.TemporaryDirectory() as folder:
            dist = Path(folder) / "dist"
            subprocess.run([sys.executable, str(REPO / "tools" / "build_site.py"), "--dist", str(dist)], check=True, cwd=REPO)
            paths = take(dist, args.out)
    for path in paths:
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
