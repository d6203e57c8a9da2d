"""Fixtures for the page's tests in a real browser: Playwright's Python package driving the
system's Chromium (Debian's, /usr/bin/chromium; `.ci/run` installs it where it can), headless and
offline. Where either is missing every test here skips, saying which and how to get it.

- `browser`: one Chromium per test process.
- `open_page(path, fragment="")`: a fresh tab on a page of ours (a file: URL), every request
  beyond file: and data: URLs refused and recorded; the test fails if the page asked the
  network for anything or its script threw.
- `all_languages`: the committed 204-language report (reports/all-languages/: index.html, and
  results.json read once), the page the issue's checks are made on.
- `rendered_all_languages`: the same results rendered by this checkout's code into a tmp folder,
  once per test process (no plots), for the scripts the committed page predates.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import REPO

ALL_LANGUAGES = REPO / "reports" / "all-languages"

# As the machine's own check starts it: without the background-networking flags Chromium keeps
# trying a network this machine does not have.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright's Python package is not installed: pip install -e '.[test]'")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium): the page's browser tests need one")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser) -> Iterator[Callable[..., object]]:
    contexts, refused, errors = [], [], []

    def route(request_route) -> None:
        url = request_route.request.url
        if url.startswith(("data:", "file:")):
            request_route.continue_()
        else:
            refused.append(url)
            request_route.abort()

    def open_(path: Path, fragment: str = "", *, width: int = 1400, height: int = 1000):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        context.route("**/*", route)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.resolve().as_uri() + (f"#{fragment}" if fragment else ""), wait_until="load")
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not refused, f"the page asked the network for {refused[:3]}"
    assert not errors, f"the page's script threw: {errors[:3]}"


@pytest.fixture(scope="session")
def all_languages() -> tuple[Path, ReportView]:
    """(reports/all-languages/index.html, its results), the results read once per test process."""
    return ALL_LANGUAGES / "index.html", ReportView.of(load_results(ALL_LANGUAGES / "results.json"))


@pytest.fixture(scope="session")
def rendered_all_languages(all_languages, tmp_path_factory) -> tuple[Path, ReportView]:
    """(index.html, its results): the committed 204-language results rendered once per test process by
    this checkout's code (render_html, no plots), so the tests see today's page scripts, not the
    committed page's."""
    from benchmark.report.pages.html import render_html

    _, results = all_languages
    path = tmp_path_factory.mktemp("rendered-all-languages") / "index.html"
    path.write_text(render_html(results, []), encoding="utf-8")
    return path, results
