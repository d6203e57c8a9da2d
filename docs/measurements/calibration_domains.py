"""The figures of 2026-12-08-calibration-domains.md, from two saved runs (no run here):

    python docs/measurements/calibration_domains.py /tmp/calib/flores/results.json /tmp/calib/ui/results.json

1. FLORES-200 per domain: each domain's own ratio's held-out error on its own devtest lines, beside
   the whole corpus's ratio on the same text (median over the production tokenizers, per language);
2. UI strings (corpora/django-ui devtest) estimated with FLORES-200's wikinews ratio, its whole
   corpus's ratio and the UI's own ratio: the whole text's estimate / tokens - 1 (from the entries'
   totals) and, with --sentences, each UI string's |estimate - tokens| / tokens (its median), which
   counts the UI lines again on every production tokenizer (about a minute).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmark.results.calibration_domains import whole_text_error  # noqa: E402
from benchmark.results.rows import load_results  # noqa: E402


def pct(value: float) -> str:
    return f"{100 * value:+.1f}%"


def flores_table(flores) -> None:
    whole = {(e.tokenizer, e.group): e for e in flores.calibration}
    languages = list(flores.record.settings.languages)
    print("| domain | language | own ratio: sentence median | own ratio: whole text | whole corpus's ratio: whole text |")
    print("|---|---|---:|---:|---:|")
    for domain in sorted({e.domain for e in flores.calibration_domains}):
        for group in ["all", *languages]:
            found = [e for e in flores.calibration_domains if e.domain == domain and e.group == group]
            if not found:
                continue
            print(f"| {domain} | {group} | {100 * statistics.median(e.char_sentence_error_p50 for e in found):.1f}% | "
                  f"{pct(statistics.median(e.char_total_error for e in found))} | "
                  f"{pct(statistics.median(whole_text_error(whole[(e.tokenizer, group)], e) for e in found))} |")


def ui_table(flores, ui, sentences: dict | None) -> None:
    news = {(e.tokenizer, e.group): e for e in flores.calibration_domains if e.domain == "wikinews"}
    whole = {(e.tokenizer, e.group): e for e in flores.calibration}
    own = [e for e in ui.calibration if e.level == "language"]
    columns = ["news ratio: whole text", "its range over tokenizers", "FLORES whole-corpus ratio: whole text", "UI's own ratio: whole text",
               "UI's own ratio: sentence median"]
    if sentences:
        columns.insert(2, "news ratio: sentence median")
    print("| language | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    cells = []
    for group in dict.fromkeys(e.group for e in own):
        mine = [e for e in own if e.group == group and (e.tokenizer, group) in news]
        errors = [whole_text_error(news[(e.tokenizer, group)], e) for e in mine]
        cells += errors  # one per tokenizer with both entries
        values = [pct(statistics.median(errors)), f"{pct(min(errors))} to {pct(max(errors))}",
                  pct(statistics.median(whole_text_error(whole[(e.tokenizer, group)], e) for e in mine)),
                  pct(statistics.median(e.char_total_error for e in mine)),
                  f"{100 * statistics.median(e.char_sentence_error_p50 for e in mine):.1f}%"]
        if sentences:
            values.insert(2, f"{100 * statistics.median(sentences[(e.tokenizer, group)] for e in mine):.1f}%")
        print(f"| {group} | " + " | ".join(values) + " |")
    print(f"\nnews ratio on UI text, whole text, over {len(cells)} tokenizer x language cells: median "
          f"{pct(statistics.median(cells))}, median |error| {100 * statistics.median(map(abs, cells)):.1f}%")


def sentence_medians(flores, ui_path: Path, ui) -> dict:  # ui_path: the UI corpus folder
    """(tokenizer, language) -> the median over UI devtest strings of |news ratio x chars - tokens| / tokens."""
    import numpy as np

    from benchmark.adapters import PRETRAINED
    from benchmark.corpora import load_corpus

    corpus = load_corpus(ui_path)
    news = {(e.tokenizer, e.group): e for e in flores.calibration_domains if e.domain == "wikinews"}
    out = {}
    for tokenizer in dict.fromkeys(e.tokenizer for e in ui.calibration):
        adapter = PRETRAINED[tokenizer]()
        for code in corpus.languages:
            if (tokenizer, code) not in news:
                continue
            lines = corpus.lines("devtest", code)
            tokens = np.array([len(adapter.encode(t)) for t in lines], dtype=float)
            chars = np.array([len(t) for t in lines], dtype=float)
            keep = tokens > 0
            errors = np.abs(news[(tokenizer, code)].tokens_per_char * chars[keep] - tokens[keep]) / tokens[keep]
            out[(tokenizer, code)] = float(np.median(errors))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("flores", type=Path)
    parser.add_argument("ui", type=Path)
    parser.add_argument("--ui-corpus", type=Path, default=Path(__file__).resolve().parents[2] / "corpora" / "django-ui")
    parser.add_argument("--sentences", action="store_true", help="count the UI strings again for sentence errors")
    args = parser.parse_args()
    flores, ui = load_results(args.flores), load_results(args.ui)
    flores_table(flores)
    print()
    ui_table(flores, ui, sentence_medians(flores, args.ui_corpus, ui) if args.sentences else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
