"""The page draws every script its token examples show without system fonts: it embeds subset Noto
faces (report/pages/page_fonts.py) that cover every character of those examples."""

from __future__ import annotations

import base64
import io
import re
import unicodedata

import pytest
from fontTools.ttLib import TTFont

from benchmark.report.pages.html import render_html
from benchmark.report.pages.token_examples import html_languages, token_examples_text
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.paths import DATA

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
    import dataclasses

    bare = ReportView(rows=many.rows, record=dataclasses.replace(many.record, examples={}), summaries=many.summaries)
    assert "@font-face" not in render_html(bare, [])
