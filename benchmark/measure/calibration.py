"""The calibration table's counts: each production tokenizer's tokens on the fit split, beside the
counts of the measured split the run already has (results/calibration.py fits and checks).

The fit split is the measured corpus's `dev` (FLORES-200's 997 lines a language); the checked
split is what the run measures (`devtest`), whose per-sentence token counts counting made. Only
the dev totals are new work, so they are counted cheaply: each sentence encoded alone as plain
text (as counting does), without decoding, spans or words, in one library call where the library
has one (measure/batches.py), at most MAX_FIT_LINES lines in all, an equal share per language
evenly spread over its dev text (so 204 languages cost what 30 do), one task per tokenizer on the
run's workers, and from the results cache on a rerun (keyed by the tokenizer's identity and the
lines). Trained tokenizers learned from dev, so they get no entry; nor does a corpus without a dev
split (the record says so). Counts are kept per line, so that on a corpus with domain labels the
same counts give each domain's own entries (results/calibration_domains.py) at no extra encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.families import is_production
from benchmark.corpora.languages import script_of
from benchmark.measure.batches import encode_each
from benchmark.plumbing.errors import one_line
from benchmark.results.calibration import CalibrationEntry, LanguageCounts, fit_calibration
from benchmark.results.calibration_domains import DomainCalibrationEntry, fit_domain_calibration

MAX_FIT_LINES = 30_000  # dev lines per tokenizer in all, shared equally by the languages


@dataclass(frozen=True)
class FitTask:
    tokenizer: str
    recipe: Recipe | None  # None: a forked worker finds it built (`share_adapters`), or counted here
    lines_by_language: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def n_lines(self) -> int:
        return sum(len(lines) for _, lines in self.lines_by_language)


def fit_lines(corpus, languages: Sequence[str], max_sentences: int | None) -> dict[str, tuple[str, ...]]:
    """Each language's fit lines: its dev split (the first `max_sentences` lines with that cap),
    `MAX_FIT_LINES // len(languages)` of them evenly spread when it has more; {} without a dev split.

    Evenly spread, not the first lines: FLORES-200 orders its sentences by article, so a spread
    sample covers more articles."""
    if corpus.train_split == corpus.measure_split or not languages:
        return {}
    out = {}
    for code in languages:
        lines = corpus.lines(corpus.train_split, code)[:max_sentences]
        out[code] = tuple(lines[i] for i in _fit_indices(len(lines), len(languages)))
    return out


def fit_domains(corpus, languages: Sequence[str], max_sentences: int | None) -> tuple[str, ...]:
    """The domain label of each fit line (the same lines in every language), () without labels."""
    labels = corpus.domains.get(corpus.train_split, ())[:max_sentences]
    if not labels or corpus.train_split == corpus.measure_split or not languages:
        return ()
    return tuple(labels[i] for i in _fit_indices(len(labels), len(languages)))


def _fit_indices(n_lines: int, n_languages: int) -> range | list[int]:
    share = max(1, MAX_FIT_LINES // n_languages)
    return [i * n_lines // share for i in range(share)] if n_lines > share else range(n_lines)


def describe_fit(corpus, fitted: Mapping[str, Sequence[str]]) -> str:
    """The record's settings.calibration: how the table was fitted and checked."""
    if not fitted:
        return (f"none: {corpus.name} has no dev split to fit on apart from the {corpus.measure_split} text "
                "measured (a corpus with dev/ and devtest/ gets a calibration table)")
    sizes = sorted({len(lines) for lines in fitted.values()})
    each = f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,}-{sizes[-1]:,}"
    return (f"every production tokenizer's tokens per character and per UTF-8 byte, fitted on {each} lines of each "
            f"language's {corpus.train_split} split of {corpus.name} (at most {MAX_FIT_LINES:,} in all, evenly "
            f"spread; each sentence encoded alone as plain text) per language, per script (its languages pooled) "
            f"and over all languages; checked on every {corpus.measure_split} sentence measured: the median and "
            "90th percentile of each sentence's |estimate - tokens| / tokens, the whole text's estimate / tokens - 1, "
            "and the same for characters / 4" + (
                "; on this corpus's domain labels, the same per domain, fitted on its own dev lines and checked on "
                f"its own {corpus.measure_split} lines" if corpus.domains.get(corpus.train_split) else ""))


def count_fit(adapter: Adapter, lines_by_language: Mapping[str, Sequence[str]]) -> dict[str, tuple[int, ...]] | str:
    """Language -> the tokens of each of its lines, each encoded alone; or the one-line reason it raised."""
    try:
        return {code: tuple(map(len, encode_each(adapter, lines))) for code, lines in lines_by_language.items()}
    except Exception as exc:  # one tokenizer's failure leaves it out of the table, not the run
        return one_line(exc)


def run_fit_task(task: FitTask, adapter: Adapter | None = None) -> dict[str, tuple[int, ...]] | str:
    from benchmark.measure.executors import adapter_of

    try:
        adapter = adapter or adapter_of(task)
    except Exception as exc:
        return one_line(exc)
    return count_fit(adapter, dict(task.lines_by_language))


def fit_counts(tokenizers: Sequence[Adapter], fitted: Mapping[str, Sequence[str]], executor, progress,
               stored) -> dict[str, dict[str, tuple[int, ...]]]:
    """tokenizer id -> language -> its tokens on each fit line, for the production tokenizers: from
    the results cache `stored`, else counted on `executor`'s workers where a recipe can build them,
    or here (where counting runs here)."""
    from benchmark.measure.executors import share_adapters

    work = start_fit_counts(tokenizers, fitted, executor, stored)
    share_adapters(work.shared)  # forked workers use these, not a rebuild from the file
    step = progress.task(f"calibration: {len(work.tasks)} production tokenizers on the fit split",
                         total=len(work.tasks))
    found = work.finish(executor.map(run_fit_task, work.tasks, on_done=lambda: progress.advance(step)))
    progress.finish(step)
    return found


@dataclass(frozen=True)
class FitWork:
    """`fit_counts` in two halves: `tasks` for the workers (who find `shared` built when forked
    after `share_adapters(shared)`), and `finish(their results, in task order)`."""

    tasks: list[FitTask]
    shared: list[Adapter]
    finish: Callable[[Sequence[dict[str, tuple[int, ...]] | str]], dict[str, dict[str, tuple[int, ...]]]]


NO_FIT = FitWork([], [], lambda results: {})  # nothing to fit: no dev split, or no production tokenizer


def start_fit_counts(tokenizers: Sequence[Adapter], fitted: Mapping[str, Sequence[str]], executor,
                     stored) -> FitWork:
    """`fit_counts` in two halves, so that its tasks can share a pool with others (the run's
    counting): `finish` counts here what no worker can build, stores what was counted and gives
    what `fit_counts` gives."""
    from benchmark.measure.results_cache import _digest, texts_digest, tokenizer_identity

    wanted = [t for t in tokenizers if is_production(t.family)]
    if not fitted or not wanted:
        return NO_FIT
    digests = {code: texts_digest(lines) for code, lines in fitted.items()}
    keys = {}
    for tokenizer in wanted:
        identity = tokenizer_identity(tokenizer)
        keys[tokenizer.id] = {code: _digest({"kind": "calibration-lines", "tokenizer": identity, "lines": digest})
                              if identity and stored.root else None for code, digest in digests.items()}
    found: dict[str, dict[str, tuple[int, ...]]] = {}
    todo: dict[str, tuple[str, ...]] = {}
    for tokenizer in wanted:
        known = {code: stored.get(key, tuple[int, ...]) for code, key in keys[tokenizer.id].items()}
        found[tokenizer.id] = {code: n for code, n in known.items() if n is not None}
        missing = tuple(code for code in fitted if code not in found[tokenizer.id])
        if missing:
            todo[tokenizer.id] = missing
    pooled = executor.n_workers > 1
    by_id = {t.id: t for t in wanted}
    shipped_ids = {i for i in todo if pooled and (executor.shares_memory or by_id[i].recipe is not None)}
    tasks = [FitTask(i, None if executor.shares_memory else by_id[i].recipe,
                     tuple((code, tuple(fitted[code])) for code in codes)) for i, codes in todo.items()]
    shipped = [task for task in tasks if task.tokenizer in shipped_ids]

    def finish(results: Sequence[dict[str, tuple[int, ...]] | str]) -> dict[str, dict[str, tuple[int, ...]]]:
        counted = dict(zip((task.tokenizer for task in shipped), results))
        for task in tasks:
            if task.tokenizer not in shipped_ids:
                counted[task.tokenizer] = run_fit_task(task, by_id[task.tokenizer])
        for tokenizer, totals in counted.items():
            if isinstance(totals, str):
                found.pop(tokenizer)  # raised: no entry, as a failed row has no figures
                continue
            for code, n_tokens in totals.items():
                stored.put(keys[tokenizer][code], n_tokens)
            found[tokenizer].update(totals)
        return found

    return FitWork(shipped, [by_id[i] for i in shipped_ids], finish)


def calibration_entries(tokenizers: Sequence[Adapter], fitted: Mapping[str, Sequence[str]],
                        measured: Mapping[str, Sequence[str]], counted,
                        fit_counts: Mapping[str, Mapping[str, Sequence[int]]],
                        script_of: Mapping[str, str | None]) -> tuple[CalibrationEntry, ...]:
    """The table: each tokenizer of `fit_counts` (tokenizer -> language -> tokens per fit line) on
    each language it counted on both splits (`counted`: the run's tokenizer id -> (counts per
    language, failures))."""
    return fit_calibration(_table(tokenizers, fitted, measured, counted, fit_counts, None, None), script_of)


def run_calibration(tokenizers: Sequence[Adapter], plan, fitted: Mapping[str, Sequence[str]], counted,
                    fit_counts: Mapping[str, Mapping[str, Sequence[int]]]):
    """A run's (whole-corpus entries, domain entries) on `plan`'s measured texts and labels."""
    measured = {code: plan.measure_texts[code] for code in plan.languages}
    scripts = {code: script_of(code) for code in plan.languages}
    fit_labels = fit_domains(plan.corpus, plan.languages, plan.max_sentences)
    return (calibration_entries(tokenizers, fitted, measured, counted, fit_counts, scripts),
            domain_calibration_entries(tokenizers, fitted, fit_labels, measured, plan.measure_domains, counted,
                                       fit_counts, scripts))


def domain_calibration_entries(tokenizers: Sequence[Adapter], fitted: Mapping[str, Sequence[str]],
                               fit_labels: Sequence[str], measured: Mapping[str, Sequence[str]],
                               measure_labels: Sequence[str], counted,
                               fit_counts: Mapping[str, Mapping[str, Sequence[int]]],
                               script_of: Mapping[str, str | None]) -> tuple[DomainCalibrationEntry, ...]:
    """The table per domain: `calibration_entries` on each domain's fit lines (`fit_labels`: a
    label per fit line) and measured lines (`measure_labels`) only; none without both labels."""
    if not fit_labels or not measure_labels:
        return ()
    by_domain = {}
    for domain in sorted(set(fit_labels) & set(measure_labels)):  # a domain with lines in both splits
        fit_keep = [i for i, label in enumerate(fit_labels) if label == domain]
        check_keep = [i for i, label in enumerate(measure_labels) if label == domain]
        by_domain[domain] = _table(tokenizers, fitted, measured, counted, fit_counts, fit_keep, check_keep)
    return fit_domain_calibration({d: table for d, table in by_domain.items() if table}, script_of)


def _table(tokenizers, fitted, measured, counted, fit_counts, fit_keep: Sequence[int] | None,
           check_keep: Sequence[int] | None) -> dict[str, dict[str, LanguageCounts]]:
    """tokenizer -> language -> its counts on the fit lines `fit_keep` and the measured lines
    `check_keep` (None: every line)."""
    def kept(values: Sequence, keep: Sequence[int] | None) -> list:
        return list(values) if keep is None else [values[i] for i in keep]

    fit_texts = {code: kept(lines, fit_keep) for code, lines in fitted.items()}
    texts = {code: kept(lines, check_keep) for code, lines in measured.items()}
    sizes = {code: ([len(t) for t in lines], [len(t.encode("utf-8")) for t in lines]) for code, lines in texts.items()}
    fit_sizes = {code: (sum(map(len, lines)), sum(len(t.encode("utf-8")) for t in lines))
                 for code, lines in fit_texts.items()}
    table: dict[str, dict[str, LanguageCounts]] = {}
    for tokenizer in tokenizers:
        per_line = fit_counts.get(tokenizer.id)
        if not per_line:
            continue
        counts, failures = counted[tokenizer.id]
        by_language = {}
        for code in measured:
            if code in counts and code not in failures and code in per_line:
                assert len(per_line[code]) == len(fitted[code]), "a count per fit line"
                chars, n_bytes = sizes[code]
                by_language[code] = LanguageCounts(len(fit_texts[code]), sum(kept(per_line[code], fit_keep)),
                                                   *fit_sizes[code], kept(counts[code].tokens_per_line, check_keep),
                                                   chars, n_bytes)
        if by_language:
            table[tokenizer.id] = by_language
    return table
