"""What each verb does, as a plain typed function (the CLI only parses and calls these).

    run      measure every tokenizer on every language, write reports/
    train    train (or read from the cache) the trained tokenizers, print their sizes and times
    encode   (show.py) how one sentence splits in each tokenizer: Once | upon | a | time
    list     (show.py) the tokenizers and corpora this program knows
    report   render reports/ again from a saved results.json, without measuring
    reproduce  recompute a study's published token counts offline and compare them
    cost     what one language (or your own files) costs on each model, from saved results
    speed    our encoder's speed as ratios to tiktoken; --check against the committed baseline

Each returns its exit status; output to `out` (stdout), warnings and progress to stderr.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Sequence, TextIO

from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.fileio import can_write_into, nearest_existing
from benchmark.plumbing.escaping import terminal_text

DEFAULT_OUTPUT = Path("reports")
EXIT_OK, EXIT_SOME_FAILED = 0, 1


def cmd_run(config, *, output: Path = DEFAULT_OUTPUT, plots: bool = True, progress: bool | None = None,
            executor: str = "processes", workers: int | None = None, scheduler: str | None = None,
            replace_foreign: bool = False, out: TextIO | None = None) -> int:
    """Measure, then publish results.json and the reports in `output` (the old report stays whole
    until the new one is complete). Counting runs on `executor` (executors.py). Exit status 1
    when a tokenizer failed on some language. The output folder is claimed before measuring (one
    run at a time, plumbing/publish.py), so what can be checked is checked before minutes of work."""
    from benchmark.plumbing.publish import claim_output

    from benchmark.adapters import default_cache_dir

    with claim_output(Path(output), replace_foreign=replace_foreign) as claim:
        claim.check_outside(Path(config.cache_dir) if config.cache_dir else default_cache_dir(),
                            "the cache of trained tokenizers", "--cache-dir")
        return _measure_and_publish(config, claim, output=Path(output), plots=plots, progress=progress,
                                    executor=executor, workers=workers, scheduler=scheduler, out=out or sys.stdout)


def _measure_and_publish(config, claim, *, output: Path, plots: bool, progress: bool | None, executor: str,
                         workers: int | None, scheduler: str | None, out: TextIO) -> int:
    from benchmark.measure.executors import make_executor
    from benchmark.measure.plan import plan_run
    from benchmark.measure.run import n_failed_tokenizers, run_benchmark
    from benchmark.report import preload as preload_report
    from benchmark.plumbing.progress import progress_enabled
    from benchmark.plumbing.publish import ReportInterrupted

    started = time.perf_counter()
    plan = plan_run(config)
    if plan.trains:
        _check_cache_writable(plan.cache_dir)
    for line in describe_texts(plan, train_corpus_given=config.train_corpus_dir is not None):
        print(terminal_text(line), file=out)
    show = progress_enabled() if progress is None else progress
    try:
        with make_executor(executor, workers, scheduler) as counting:
            results = run_benchmark(plan, executor=counting, show_progress=show,
                                    while_counting=lambda: preload_report(plots=plots))
    except KeyboardInterrupt:
        holds = "the previous report, whole" if (output / "results.json").is_file() else "no report"
        raise ReportInterrupted(f"interrupted while measuring: {output} still holds {holds}") from None
    if not any(row.ok for row in results.rows):
        # A report of nothing would still print findings; better to say why and write nothing.
        reasons = sorted({f"{row.tokenizer}: {row.status}" for row in results.rows})
        raise BenchmarkError("nothing was measured, every tokenizer was skipped or failed: " + "; ".join(reasons[:4])
                             + (f"; and {len(reasons) - 4} more" if len(reasons) > 4 else ""))
    never_learnt = [code for code, source in (results.record.settings.train_language_of or {}).items()
                    if source is None]
    if never_learnt and plan.trains:
        print(f"warning: the training corpus has no {', '.join(never_learnt)}: the trained tokenizers are "
              "measured on a language they never learnt (the report says so too)", file=sys.stderr)
    written = _publish(results, output, plots=plots, show_progress=show, claim=claim)
    n_ok = sum(row.ok for row in results.rows)
    n_failed = sum(row.failed for row in results.rows)
    n_skipped = len(results.rows) - n_ok - n_failed
    print(f"{n_ok} rows measured, {n_skipped} skipped, {n_failed} failed, in {time.perf_counter() - started:.1f} s; "
          f"wrote {len(written)} files to {output}/", file=out)
    failed = n_failed_tokenizers(results)
    if failed:
        print(f"{failed} tokenizer{'s' if failed > 1 else ''} failed on some language: see the status column "
              f"of {output / 'results.csv'}", file=out)
        return EXIT_SOME_FAILED
    return EXIT_OK


def describe_texts(plan, *, train_corpus_given: bool = False) -> list[str]:
    """`run`'s first lines: which text is measured and which trains, the folders named as the run
    record names them (tests/measure/test_train_corpus.py shows each case)."""
    from benchmark.measure.plan import display_path

    def split_of(corpus, split: str) -> str:
        where = display_path(corpus.root)
        return f"every line of {where}" if split == "all" else f"the {split} split of {where}"

    n_measured = sorted({len(texts) for texts in plan.measure_texts.values()})
    lines = f"{n_measured[0]:,} lines each" if len(n_measured) == 1 else f"{n_measured[0]:,}-{n_measured[-1]:,} lines"
    n_languages = f"{len(plan.languages)} language{'s' if len(plan.languages) != 1 else ''}"
    kind = f", domain {plan.corpus.domain}," if plan.corpus.domain else ""
    said = [f"measuring {n_languages} on {split_of(plan.corpus, plan.corpus.measure_split)}{kind} ({lines})"]
    if not plan.trains:
        return said
    n_trained = len(plan.trained)
    n_lines = len(plan.training.texts) // max(1, len(plan.train_languages))
    said.append(f"training {n_trained} tokenizer{'s' if n_trained != 1 else ''} on "
                f"{split_of(plan.train_corpus, plan.train_corpus.train_split)} "
                f"({len(plan.train_languages)} languages, {n_lines:,} lines each)")
    if train_corpus_given:
        said[-1] += " (--train-corpus)"
    elif plan.train_corpus is not plan.corpus and plan.corpus.measure_split == "all":
        said[-1] += (f": {display_path(plan.corpus.root)} has no dev/ and devtest/ subfolders to train on "
                     "(add them, or name another corpus with --train-corpus DIR)")
    return said


def _check_cache_writable(cache_dir: Path | None) -> None:
    """A training cache that cannot take new models is said now, not after minutes of training."""
    from benchmark.adapters import cache_root

    root = cache_root(cache_dir)
    existing = nearest_existing(root)
    if not existing.is_dir():
        raise BenchmarkError(f"{root}: cannot cache trained tokenizers there ({existing} is not a folder); "
                             "choose another folder with --cache-dir")
    if not can_write_into(existing):
        # What the cache holds is still read; only what is trained now cannot be kept.
        print(f"warning: {existing} is not writable: a tokenizer the cache lacks is trained for this run only "
              "(--cache-dir chooses another cache)", file=sys.stderr)


def _publish(results, output: Path, *, plots: bool, show_progress: bool,
             results_file: Path | None = None, claim=None, prices: Path | None = None) -> list[Path]:
    """`publish_report`; if publishing fails after measuring, the measurements are kept beside the
    folder, named, with the command that renders them."""
    from benchmark.report import keep_measurements, publish_report

    try:
        return publish_report(results, output, plots=plots, results_file=results_file, show_progress=show_progress,
                              claim=claim, prices=prices)
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        if isinstance(exc, (BenchmarkError, OSError)):
            if results_file is not None:
                raise  # nothing was measured: the results file is where it was
            why = str(exc)
            hint = ""
        else:  # a renderer's own failure (matplotlib, a font)
            why = f"the reports could not be rendered ({type(exc).__name__}: {exc})"
            hint = " (or add --no-plots)" if plots else ""
        if results_file is not None:
            saved, again = f"{output} is as it was", f"--results {results_file}"
        else:
            kept = keep_measurements(results, output)
            saved, again = f"the measurements are saved in {kept} and {output} is as it was", \
                f"--results {kept} --output {output}"
        raise BenchmarkError(f"{why}; {saved}; render them with `python -m benchmark report {again}`{hint}") from exc


def cmd_report(*, results_path: Path = DEFAULT_OUTPUT / "results.json", output: Path | None = None,
               plots: bool = True, replace_foreign: bool = False, prices: Path | None = None,
               base: str | None = None, out: TextIO | None = None) -> int:
    """Render the reports again from a saved results.json (no measuring); the file is kept as it is.
    `prices`: the user's prices file, read as `cost --prices` reads it, for the money figures; `base`:
    premiums over that language (one the run computed, `run --bases`; results/rebase.py)."""
    from benchmark.plumbing.progress import progress_enabled
    from benchmark.plumbing.manifest import sha256_file
    from benchmark.plumbing.publish import claim_output
    from benchmark.results.rows import load_results

    out = out or sys.stdout
    results_path = Path(results_path)
    results = load_results(results_path)
    if base is not None:  # an unknown base is its one line before any folder is touched
        from benchmark.results.rebase import rebased

        results = rebased(results, base, where=str(results_path))
    if prices is not None:  # a bad prices file is its one line before any folder is touched
        from benchmark.pricing.prices.book import price_book

        price_book(results, prices=prices)
    output = Path(output) if output is not None else results_path.parent
    # The results file is copied into the report byte for byte: one equal to it in the folder loses nothing.
    carried = {"results.json": sha256_file(results_path)}
    with claim_output(output, replace_foreign=replace_foreign, carried=carried) as claim:
        # Copied into the new folder before the swap, so one inside the folder being replaced is fine.
        written = _publish(results, output, plots=plots, show_progress=progress_enabled(), results_file=results_path,
                           claim=claim, prices=prices)
    print(f"wrote {len(written)} files to {output}/", file=out)
    return EXIT_OK


def cmd_train(config, *, save_dir: Path | None = None, out: TextIO | None = None) -> int:
    """Train the trained tokenizers into the cache (and `save_dir`, if given); print a table."""
    from benchmark.adapters import (
        PRETRAINED, NotBuilt, TrainingCache, build_tokenizers, cache_root, select_ids, trained_families,
    )
    from benchmark.corpora.mixes import parse_mixes
    from benchmark.measure.plan import plan_training

    out = out or sys.stdout
    mixes = parse_mixes(config.train_mixes)
    ids = [i for i in select_ids(config.tokenizers, config.vocab_sizes, mixes=mixes) if i not in PRETRAINED]
    if not ids:
        raise BenchmarkError("nothing to train: --tokenizers selects only pretrained tokenizers")
    _check_cache_writable(config.cache_dir)
    if save_dir is not None:
        from benchmark.plumbing.fileio import check_writable_folder

        check_writable_folder(save_dir, "--save-dir")  # before the training, not after
    training = plan_training(config)
    cache = TrainingCache(cache_root(config.cache_dir),
                          enabled=not config.retrain)
    built = build_tokenizers(ids, training, cache, families=trained_families(mixes),
                             on_step=lambda label: print(terminal_text(label), file=sys.stderr))
    targets = {t.id: Path(save_dir) / (t.id.replace("/", "_") + t.file_suffix)
               for t in built if save_dir is not None and not isinstance(t, NotBuilt)}
    if targets:  # before any model is written: a file of the same name that is not ours is kept
        from benchmark.plumbing.manifest import refuse_not_ours

        refuse_not_ours(Path(save_dir), [path.name for path in targets.values()], "--save-dir",
                        hint=" (the trained models are in the cache: training again takes seconds)")
    print(f"{'tokenizer':<28} {'vocab_size':>10} {'train_seconds':>13}  status", file=out)
    saved = []
    for tokenizer in built:
        if isinstance(tokenizer, NotBuilt):
            print(terminal_text(f"{tokenizer.id:<28} {tokenizer.vocab_size:>10} {'':>13}  {tokenizer.status}"), file=out)
            continue
        print(f"{tokenizer.id:<28} {tokenizer.vocab_size:>10} {tokenizer.train_seconds:>13.2f}  ok", file=out)
        if tokenizer.id in targets:
            tokenizer.save(targets[tokenizer.id])
            saved.append(targets[tokenizer.id])
    if saved:
        from benchmark.plumbing.manifest import record_saved

        record_saved(Path(save_dir), saved)  # what this program wrote there, so a later run may replace it
    print(terminal_text(f"cache: {cache.root}"), file=out)
    if save_dir is not None:
        # Where the files went, and how they are named: the id with / as _ (`--tokenizer-file` reads them).
        example = terminal_text(f"{save_dir}/" + (f" ({saved[0].name}{', ...' if len(saved) > 1 else ''})" if saved else ""))
        print(f"wrote {len(saved)} model file{'' if len(saved) == 1 else 's'} to {example}", file=out)
    return EXIT_SOME_FAILED if any(t.status.startswith("failed") for t in built if isinstance(t, NotBuilt)) else EXIT_OK


def cmd_reproduce(study: str, *, columns: Sequence[str] | None = None, languages: Sequence[str] | None = None,
                  out: TextIO | None = None) -> int:
    """Recompute a study's published counts (`benchmark.reproduce`) and print how many match;
    exit status 1 when any differs, with a table of language, published, computed."""
    from benchmark.corpora import bundled_languages, language_name, resolve_codes
    from benchmark.reproduce import render, reproduce

    out = out or sys.stdout
    codes = resolve_codes(languages, bundled_languages(), where="corpora/flores200",
                          name_of=language_name) if languages else None
    reproduction = reproduce(study, columns=columns, languages=codes)
    print(render(reproduction), file=out)
    return EXIT_OK if reproduction.ok else EXIT_SOME_FAILED


ALL_LANGUAGES_OUTPUT = DEFAULT_OUTPUT / "all-languages"  # the committed 204-language results `cost` reads


def cmd_cost(language: str, *, results_path: Path = ALL_LANGUAGES_OUTPUT / "results.json", prices: Path | None = None,
             models: Sequence[str] | None = None, as_json: bool = False, base: str | None = None,
             out: TextIO | None = None) -> int:
    """Print `language`'s cost (codes or names, comma-separated) on every model or `models`, from saved results;
    `base`: premiums over that language (one the run computed, `run --bases`)."""
    from benchmark.pricing.language.text import answer_for

    (out or sys.stdout).write(answer_for(language, Path(results_path), prices=prices, models=models, as_json=as_json,
                                         base=base))
    return EXIT_OK


def cmd_cost_file(paths: Sequence[Path], *, results_path: Path = ALL_LANGUAGES_OUTPUT / "results.json",
                  out: TextIO | None = None, **options) -> int:
    """Print the files' cost and window fit; `options` are own_cost_answer's (language, prices, models, as_json,
    every_tokenizer)."""
    from benchmark.pricing.file.answer import own_cost_answer

    print(own_cost_answer(paths, results_path=Path(results_path), **options), end="", file=out or sys.stdout)
    return EXIT_OK


def cmd_speed(options, *, out: TextIO | None = None) -> int:
    """Time our encoder against tiktoken as `options` (a `benchmark.speed.SpeedOptions`) say and
    print Markdown; exit status 1 when `--check` finds a regression."""
    from benchmark.speed import run_speed

    return run_speed(options, out=out)
