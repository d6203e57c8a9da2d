"""The page's per-language JSON block: every measured language with its name and script, read
back from the page as the browser would, and no name able to close the element."""

from __future__ import annotations

import dataclasses
import html.parser
import json

from benchmark.report.pages.html import render_html
from benchmark.report.pages.language_data import BLOCK_ID, language_attributes, language_data_block
from benchmark.report.view import ReportView
from benchmark.results.rows import load_results
from tests.support.report_fixture import FIXTURE


class _Block(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inside, self.text = False, []

    def handle_starttag(self, tag, attrs):
        self.inside = tag == "script" and ("id", BLOCK_ID) in attrs

    def handle_endtag(self, tag):
        self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.text.append(data)


def _read(page: str) -> dict:
    parser = _Block()
    parser.feed(page)
    return json.loads("".join(parser.text))


def test_the_page_carries_every_language_with_its_script():
    results = ReportView.of(load_results(FIXTURE))
    data = _read(render_html(results, []))
    assert set(data) == {row.language for row in results.rows}
    assert data["rus_Cyrl"]["script"] == "Cyrillic"
    assert data["eng_Latn"] == {"name": results.record.language_names["eng_Latn"], "script": "Latin"}


def test_a_hostile_name_stays_inside_the_block():
    results = ReportView.of(load_results(FIXTURE))
    hostile = "</script><script>alert(1)</script>&amp;"
    record = dataclasses.replace(results.record, language_names={**results.record.language_names, "rus_Cyrl": hostile})
    results = dataclasses.replace(results, record=record)
    block = language_data_block(results)
    assert block.count("</script>") == 1
    assert _read(block)["rus_Cyrl"]["name"] == hostile
    assert language_attributes(results)["rus_Cyrl"]["name"] == hostile
