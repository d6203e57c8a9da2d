"""The results as README.md shows them: every text in them escaped for Markdown.

Every string of a `Results` came from outside or may have (tokenizer file names, corpus file and
folder names, vocabulary entries, status messages, results.json fields), and README.md is drawn
by many modules from many fields. So instead of escaping at each of those places, README.md is
drawn from a copy whose every string (and mapping key) went through
`benchmark.plumbing.escaping.markdown_text`, which leaves ordinary text as it is: ids, codes and numbers
still match the code's own constants. index.html escapes HTML itself and reads the original.
"""

from __future__ import annotations

from typing import Any

from benchmark.plumbing.escaping import markdown_text
from benchmark.results.bases import BasePremiums
from benchmark.results.calibration import CalibrationEntry
from benchmark.results.calibration_domains import domains_from_list
from benchmark.results.code import CodeCosts
from benchmark.results.domain_premiums import DomainPremium
from benchmark.results.groups import GroupSummary
from benchmark.results.pairwise import PairwiseRatio
from benchmark.results.record import RunRecord, from_plain
from benchmark.results.rows import ResultRow, Results, TokenizerSummary


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return markdown_text(value)
    if isinstance(value, dict):
        return {_escaped(key): _escaped(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_escaped(item) for item in value]
    return value


def markdown_results(results: Results) -> Results:
    """`results` with every string escaped by `markdown_text`; the same object when none changes."""
    plain = results.to_dict()
    escaped = _escaped(plain)
    if escaped == plain:
        return results
    rows = tuple(ResultRow(**row) for row in escaped["rows"])
    record = RunRecord.from_dict(escaped["record"])
    summaries = from_plain(tuple[TokenizerSummary, ...], escaped["summaries"], "summaries")
    pairwise = from_plain(tuple[PairwiseRatio, ...], escaped["pairwise"], "pairwise")
    calibration = tuple(CalibrationEntry(**entry) for entry in escaped["calibration"])
    groups = tuple(GroupSummary(**entry) for entry in escaped["groups"])
    by_domain = tuple(DomainPremium(**entry) for entry in escaped["domain_premiums"])
    return Results(rows=rows, record=record, summaries=summaries, pairwise=pairwise, calibration=calibration,
                   bases=BasePremiums.from_dict(escaped["bases"]), domain_premiums=by_domain, groups=groups,
                   code=CodeCosts.from_dict(escaped["code"]),
                   calibration_domains=domains_from_list(escaped["calibration_domains"], "calibration_domains"))
