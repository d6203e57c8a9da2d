"""The page draws every character it shows without system fonts beyond Latin, Greek and Cyrillic:
it embeds subset Noto faces (report/pages/page_fonts.py) that cover every character of its token
examples and every other character outside the blocks every browser's fonts draw (a vocabulary
table's `１０` and `珊`), and names them in each font stack of the page."""

from __future__ import annotations

import base64
import dataclasses
import io
import re
import unicodedata

import pytest
from fontTools.ttLib import TTFont

from benchmark.report.pages.html import render_html
from benchmark.report.pages.page_fonts import SYSTEM_DRAWN, beyond_system_fonts, page_text
from benchmark.report.pages.token_examples import html_languages, token_examples_text
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO

FACE = re.compile(r'@font-face \{ font-family: "([^"]+)"; font-weight: 400; src: url\(data:font/woff;base64,'
                  r'([A-Za-z0-9+/=]+)\) format\("woff"\); \}')


@pytest.fixture(scope="module")
def many():
    return ReportView.of(load_results(DATA / "results_many.json"))


def test_the_page_embeds_fonts_covering_every_character_of_its_token_examples(many):
    scripts = {many.record.language_scripts.get(code) for code in html_languages(many)}
    assert {"Arab", "Deva", "Hebr", "Ethi", "Thai", "Taml"} <= scripts  # the scripts without system fonts
    page = render_html(many, [])
    faces = FACE.findall(page)
    assert faces
    covered: set[int] = set()
    for _, data in faces:
        font = TTFont(io.BytesIO(base64.b64decode(data)))
        assert font.flavor == "woff" and "fvar" not in font  # one weight, compressed
        covered |= set(font.getBestCmap())
    wanted = {ord(ch) for ch in token_examples_text(many) if unicodedata.category(ch)[0] not in "ZC"}
    missing = sorted(chr(c) for c in wanted - covered)
    assert not missing, missing
    # The token spans are set in those faces first.
    rule = re.search(r"\.toks \{ font-family: ([^;]+);", page).group(1)
    assert [name for name, _ in faces] == re.findall(r'"([^"]+)"', rule)


def test_a_face_holds_only_the_characters_the_page_needs(many):
    # Subsets, not whole fonts: the CJK face alone is 16 MB.
    page = render_html(many, [])
    sizes = [len(base64.b64decode(data)) for _, data in FACE.findall(page)]
    assert sum(sizes) < 400_000, sizes


def test_a_page_without_token_examples_embeds_no_font(many):
    # Its tables hold Latin, Greek and Cyrillic alone: nothing to embed.
    bare = ReportView(rows=many.rows, record=dataclasses.replace(many.record, examples={}), summaries=many.summaries)
    assert "@font-face" not in render_html(bare, [])


def faces_of(page: str) -> dict[str, set[int]]:
    """family -> the code points its embedded face draws."""
    return {name: set(TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()) for name, data in FACE.findall(page)}


def stack(page: str, selector: str) -> list[str]:
    return [name.strip().strip('"') for name in re.search(re.escape(selector) + r" \{ font-family: ([^;]+);", page)[1].split(",")]


def test_a_page_without_token_examples_embeds_a_face_for_the_cjk_of_its_vocabulary_table():
    # A real small run with Qwen: its vocabulary table names entries such as "１０" and "珊" (with a
    # variation selector), which a machine without CJK fonts draws as boxes.
    cost = ReportView.of(load_results(DATA / "results_cost.json"))
    bare = ReportView(rows=cost.rows, record=dataclasses.replace(cost.record, examples={}), summaries=cost.summaries)
    page = render_html(bare, [])
    assert "１０" in page_text(page) and "珊" in page_text(page)
    faces = faces_of(page)
    assert {ord(ch) for ch in "珊０１２"} <= set().union(*faces.values())
    # The faces come after the system's fonts (a machine's own fonts draw what they can) and before
    # the generic family, in the text and in the first column of the tables.
    for selector, generic in (("body", "sans-serif"), ("td:first-child, .tokrow .tid", "monospace")):
        names = stack(page, selector)
        assert names[-1] == generic and names[-1 - len(faces):-1] == list(faces)


# No pinned package carries a Noto face for these scripts (manimgx-fonts has 19 scripts, the CJK
# package one): the 204-language page shows them in its token examples and tables unembedded.
NO_FACE = ("TIBETAN", "OL CHIKI", "TIFINAGH")


@pytest.fixture(scope="module", params=["reports/results.json",
                                        pytest.param("reports/all-languages/results.json", marks=pytest.mark.slow)])
def real_page(request):
    return request.param, render_html(ReportView.of(load_results(REPO / request.param)), [])


def test_every_character_of_the_real_reports_is_drawn_by_an_embedded_face_or_by_every_browser(real_page):
    name, page = real_page
    covered = set().union(*faces_of(page).values())
    missing = sorted({ch for ch in beyond_system_fonts(page_text(page)) if ord(ch) not in covered})
    assert all(unicodedata.name(ch).startswith(NO_FACE) for ch in missing), (
        name, [f"U+{ord(ch):04X} {unicodedata.name(ch)}" for ch in missing if not unicodedata.name(ch).startswith(NO_FACE)])
    assert set(stack(page, "body")) >= set(faces_of(page))
    if name == "reports/results.json":  # the six-language page: its vocabulary table's CJK, nothing missing
        assert {ord(ch) for ch in "珊０１２"} <= covered and not missing
