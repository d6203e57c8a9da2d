"""What a run measured, as typed, versioned data: `record.py` is the run record (settings, sources,
timings), `rows.py` the rows and summaries with their JSON and CSV forms, `metrics.py` the pure
formulas each row's figures follow (no I/O), `pairwise.py` the ratios between tokenizers, `groups.py` the summaries per language family and
resource class, `plain.py`
typed values as JSON data and back (the record's, the summaries', the results cache's entries),
`calibration.py` the tokens-per-character and per-byte table fitted on dev and checked on devtest,
`calibration_domains.py` the same per domain of a labelled corpus,
`bases.py` the premiums' intervals over further base languages (`run --bases`), `rebase.py` the
results seen over one of them (`report --base`, `cost --base`),
`domain_premiums.py` the premium per domain (kind of text) of a corpus with per-line labels.
`code.py` each tokenizer's tokens on the pinned code sample, per programming language (no premium).

    from benchmark.results import load_results
    frame = load_results("reports/results.json").to_frame()
"""

from benchmark.results.rows import ROW_FIELDS, Results, ResultRow, RunRecord, load_results, save_results

__all__ = ["ROW_FIELDS", "Results", "ResultRow", "RunRecord", "load_results", "save_results"]
