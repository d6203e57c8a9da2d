"""Whether two runs' results are the same but for their timing columns.

    python docs/measurements/compare_results.py BEFORE_DIR AFTER_DIR

Each folder is a run's output (`run --output DIR`). Compared exactly: every row of results.json
(keyed by tokenizer and language), every summary (by tokenizer), every pairwise ratio (by
language and pair), and results.csv, summaries.csv and pairwise.csv line by line, all without
the timing columns (docs/methodology.md, "What changes between runs"). Floats are compared as
written, so a figure that moved in its last bit is a difference. Prints what differs, and exits 1
if anything does. `--skip-family F` leaves a family's rows out (hf-wordpiece, when a run is older
than benchmark/adapters/hf_wordpiece.py: HF's own trainer broke ties in hash-map order, so two
trainings differed).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

TIMING = {"train_seconds", "throughput_mb_s", "tokens_per_second", "throughput_x_tiktoken"}


def _keyed(items, key, skip):
    return {key(item): {k: v for k, v in item.items() if k not in TIMING}
            for item in items if item.get("family") not in skip}


def _differences(name: str, before: dict, after: dict, limit: int = 8) -> list[str]:
    out = [f"{name}: {key} only before" for key in before.keys() - after.keys()]
    out += [f"{name}: {key} only after" for key in after.keys() - before.keys()]
    for key in sorted(before.keys() & after.keys(), key=str):
        for field in sorted(before[key].keys() | after[key].keys()):
            old, new = before[key].get(field), after[key].get(field)
            if old != new:
                out.append(f"{name}: {key} {field}: {old!r} -> {new!r}")
    if len(out) > limit:
        out = out[:limit] + [f"{name}: ... {len(out) - limit} more"]
    return out


def _csv_rows(path: Path, skip) -> dict:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {k: {f: v for f, v in row.items() if f not in TIMING} for k, row in enumerate(
        r for r in rows if r.get("family") not in skip)}


def compare(before: Path, after: Path, skip: frozenset[str] = frozenset()) -> list[str]:
    old = json.loads((before / "results.json").read_text(encoding="utf-8"))
    new = json.loads((after / "results.json").read_text(encoding="utf-8"))
    found = []
    found += _differences("row", _keyed(old["rows"], lambda r: (r["tokenizer"], r["language"]), skip),
                          _keyed(new["rows"], lambda r: (r["tokenizer"], r["language"]), skip))
    found += _differences("summary", _keyed(old["summaries"], lambda s: s["tokenizer"], skip),
                          _keyed(new["summaries"], lambda s: s["tokenizer"], skip))
    found += _differences("pairwise", _keyed(old.get("pairwise") or [], lambda p: (p["language"], p["tokenizer"], p["other"]), skip),
                          _keyed(new.get("pairwise") or [], lambda p: (p["language"], p["tokenizer"], p["other"]), skip))
    for name in ("results.csv", "summaries.csv", "pairwise.csv"):
        if (before / name).exists() or (after / name).exists():
            found += _differences(name, _csv_rows(before / name, skip), _csv_rows(after / name, skip))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--skip-family", action="append", default=[])
    args = parser.parse_args(argv)
    found = compare(args.before, args.after, frozenset(args.skip_family))
    old = json.loads((args.before / "results.json").read_text(encoding="utf-8"))
    print(f"{len(old['rows'])} rows, {len(old['summaries'])} summaries, {len(old.get('pairwise') or [])} pairwise "
          f"ratios compared without {', '.join(sorted(TIMING))}: "
          + ("identical" if not found else f"{len(found)} differences"))
    for line in found:
        print("  " + line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
