"""index.html's per-language attributes as one embedded JSON block, the data the page's filters
read: {code: {"name": ..., "script": ...}}. A key added here (a family, a resource tier) reaches
the page without touching its script, which makes one filter per key it finds.
"""

from __future__ import annotations

from benchmark.corpora.languages import script_name
from benchmark.plumbing.escaping import json_script
from benchmark.report.view import ReportView

BLOCK_ID = "language-data"


def language_attributes(results: ReportView) -> dict[str, dict[str, str]]:
    """Each measured language's attributes, in code order: its English name (the code where the
    run has none) and its script's name ('Devanagari')."""
    codes = sorted({row.language for row in results.rows})
    names = results.record.language_names
    return {code: {"name": names.get(code) or code, "script": script_name(code)} for code in codes}


def language_data_block(results: ReportView) -> str:
    """The `<script type="application/json">` element holding `language_attributes`; '<', '>' and
    '&' are JSON escapes, so no name can close the element or open another."""
    return json_script(BLOCK_ID, language_attributes(results), sort_keys=True)
