"""The verbs that show what the program holds, measuring nothing: `encode` (how one sentence splits
in each tokenizer: Once | upon | a | time) and `list` (the tokenizers, the corpus's languages and
the cache). Each returns its exit status, as commands.py's verbs do."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from benchmark.cli.commands import EXIT_OK, EXIT_SOME_FAILED
from benchmark.plumbing.errors import BenchmarkError
from benchmark.plumbing.escaping import terminal_text


def cmd_encode(text: str, config, *, separator: str = " | ", out: TextIO | None = None) -> int:
    """Print `text` split at token boundaries under each tokenizer; a tokenizer that raises on it
    is one line naming why."""
    from benchmark.adapters import (
        PRETRAINED, NotBuilt, TrainingCache, build_tokenizers, check_tokenizer_files, cache_root, file_id,
        load_tokenizer_file, select_ids, trained_families,
    )
    from benchmark.plumbing.errors import one_line
    from benchmark.corpora.mixes import parse_mixes
    from benchmark.measure.plan import plan_training

    out = out or sys.stdout
    if not text:
        raise BenchmarkError("encode needs a non-empty text, e.g. `python -m benchmark encode \"Once upon a time\"`")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # A command-line argument that is not valid UTF-8 arrives with its bad bytes as surrogates.
        raise BenchmarkError(
            f"the text is not valid UTF-8 (character {exc.start}: {text[exc.start:exc.end]!r}); pass UTF-8 text"
        ) from None
    check_tokenizer_files(config.tokenizer_files, pattern=config.tokenizer_file_pattern)
    files = {file_id(p): Path(p) for p in config.tokenizer_files}
    mixes = parse_mixes(config.train_mixes)
    ids = select_ids(config.tokenizers, config.vocab_sizes, list(files), mixes=mixes)
    # The user's files before any training: a damaged one fails in seconds.
    from_files = {i: load_tokenizer_file(files[i], pattern=config.tokenizer_file_pattern) for i in ids if i in files}
    library_ids = [i for i in ids if i not in files]
    training = plan_training(config) if any(i not in PRETRAINED for i in library_ids) else None
    cache = TrainingCache(cache_root(config.cache_dir))
    built = dict(zip(library_ids, build_tokenizers(library_ids, training, cache, families=trained_families(mixes)))
                 ) if library_ids else {}
    built.update(from_files)
    width = max((len(terminal_text(i)) for i in ids), default=0)  # a file's id holds its name: ESC, U+202E...
    status = EXIT_OK
    for tokenizer_id in ids:
        tokenizer, name = built[tokenizer_id], terminal_text(tokenizer_id)
        if isinstance(tokenizer, NotBuilt):
            print(f"{name:<{width}}     -  {terminal_text(tokenizer.status)}", file=out)
            status = EXIT_SOME_FAILED if tokenizer.status.startswith("failed") else status
            continue
        try:
            split = tokenizer.token_strings(text)
        except Exception as exc:  # this tokenizer cannot take this text: say so, show the others
            print(f"{name:<{width}}     -  failed: {terminal_text(one_line(exc))}", file=out)
            status = EXIT_SOME_FAILED
            continue
        shown = terminal_text(separator.join(piece.replace("\n", "\\n") for piece in split))
        print(f"{name:<{width}} {len(split):>5}  {shown}", file=out)
    return status


def _source_line(tokenizer_id: str) -> str:
    """Where a pretrained tokenizer's file comes from, from package metadata alone (nothing is read),
    and the models that use it (`run --models` takes their names)."""
    from benchmark.adapters.models import model_labels, models_of
    from benchmark.adapters.registry import pretrained_file
    from benchmark.plumbing.pinned import NOT_INSTALLED, installed_version

    file = pretrained_file(tokenizer_id)
    version = installed_version(file.package)
    models = models_of(tokenizer_id)
    used_by = (f"; models: {', '.join(model_labels(models))}" + "".join(f" ({note})" for note in
                                                                      dict.fromkeys(m.note for m in models if m.note))
               if models else "")
    if version == NOT_INSTALLED:
        return f"{file.file}, from {file.package}, which is not installed (`{file.install_hint}`){used_by}"
    return f"{file.file}, from {file.package} {version}" + (" (carried in it)" if file.carried else "") + used_by


def cmd_list(*, corpus: Path | None = None, cache_dir: Path | None = None, out: TextIO | None = None) -> int:
    """Print the tokenizer ids (at the default sizes), the corpus languages and what the cache holds."""
    from benchmark.adapters import DEFAULT_VOCAB_SIZES, PRETRAINED, TrainingCache, cache_root, trained_families
    from benchmark.corpora import BUNDLED_CORPUS_DIR, is_bundled, load_corpus, named_corpus_dir

    out = out or sys.stdout
    root = named_corpus_dir(Path(corpus)) if corpus else BUNDLED_CORPUS_DIR
    # First: a bad folder is an error, not a listing cut short. The bundled corpus's texts are
    # pinned, so its listing reads only the names (not 408 files).
    loaded = None if is_bundled(root) else load_corpus(root)
    cache_folder = cache_root(cache_dir)
    if cache_folder.exists() and not cache_folder.is_dir():  # not "(empty)": no cache can be there
        raise BenchmarkError(f"--cache-dir {cache_folder}: is a file, not a cache folder")
    print("Tokenizers (trained at --vocab-sizes, default " + ",".join(map(str, DEFAULT_VOCAB_SIZES)) + "):", file=out)
    entries = [(f"{family.id_prefix}{{size}}", f"family {family.family}, trained on the dev split"
                + (f" ({family.mix.description})" if family.mix else "")) for family in trained_families()]
    entries += [(tokenizer_id, "pretrained, offline: " + _source_line(tokenizer_id)) for tokenizer_id in PRETRAINED]
    entries.append(("file/<name>", "--tokenizer-file: HF tokenizer.json, SentencePiece .model, tiktoken ranks, "
                                   "our model JSON"))
    width = max(len(name) for name, _ in entries)
    for name, what in entries:
        print(f"  {name:<{width}}  {what}", file=out)
    _list_languages(root, loaded, out)
    print(f"\nCache of trained tokenizers: {cache_folder}", file=out)
    held = TrainingCache(cache_folder).entries()
    if not held:
        print("  (empty: `run` or `train` fills it)", file=out)
    for family, n in held.items():
        print(f"  {family:<{width}}  {n} entr{'y' if n == 1 else 'ies'}", file=out)
    return EXIT_OK


def _list_languages(root: Path, loaded, out: TextIO) -> None:
    """One line per language: code, English name, script (and direction); a user corpus's line
    counts, the bundled corpus's once (the same in every language)."""
    from benchmark.corpora import (
        BUNDLED_LINES, FLORES_LANGUAGES, bundled_languages, is_right_to_left, language_name, script_name,
    )

    if loaded is None:
        codes = bundled_languages(root)
        splits = " and ".join(f"{split} ({n:,} lines)" for split, n in BUNDLED_LINES.items())
        print(f"\nCorpus flores200 ({root}): {len(codes)} languages, each with {splits}; * the "
              f"{len(FLORES_LANGUAGES)} a run measures unless given --languages (`--languages all` for every one):",
              file=out)
    else:
        codes = loaded.languages
        print("\n" + terminal_text(f"Corpus {loaded.name} ({root}):"), file=out)
    rows = []
    for code in codes:
        script = script_name(code) + (", right to left" if is_right_to_left(code) else "")
        mark = "*" if loaded is None and code in FLORES_LANGUAGES else " "
        counts = "" if loaded is None else ", ".join(f"{split} {len(loaded.lines(split, code))} lines"
                                                    for split in loaded.splits)
        rows.append((f"{mark} {code}", language_name(code), script, counts))
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(len(rows[0]) if rows else 0)]
    for row in rows:  # a column empty in every row (a user corpus's scripts) takes no room
        cells = [cell.ljust(width) for cell, width in zip(row, widths) if width]
        print(terminal_text(("  " + "  ".join(cells)).rstrip()), file=out)
