"""How long a report's index.html takes to open in headless Chromium, offline: each repeat in a
fresh browser context, the Navigation Timing of the page (ms from the start of navigation):
DOMContentLoaded's end (every inline script has run: the controls work) and the load event's end
(every embedded image decoded). Prints one line per repeat, then the medians and the file's size.

    python docs/measurements/page_load.py reports/all-languages/index.html --repeats 5
"""

from __future__ import annotations

import argparse
import shutil
import statistics
from pathlib import Path

from playwright.sync_api import sync_playwright

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    url = args.page.resolve().as_uri()
    ready, loaded = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=FLAGS)
        for repeat in range(args.repeats):
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            page.goto(url, wait_until="load")
            timing = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                                   " return [n.domContentLoadedEventEnd, n.loadEventEnd]; }")
            ready.append(timing[0])
            loaded.append(timing[1])
            print(f"repeat {repeat + 1}: interactive {timing[0]:.0f} ms, loaded {timing[1]:.0f} ms")
            context.close()
        browser.close()
    print(f"median: interactive {statistics.median(ready):.0f} ms, loaded {statistics.median(loaded):.0f} ms; "
          f"{args.page.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
