"""What a run will do: `RunConfig` (the options) -> `Plan` (corpora, languages, texts, tokenizer ids).

The protocol decided here:
- Trained tokenizers learn from the training corpus's `dev` split: `--train-corpus`, else the
  measured corpus when it has dev/ and devtest/, else the bundled FLORES-200. All selected
  languages together, an equal share each: the same number of lines per language. The corpus is
  parallel, so equal lines means equal content; equal bytes would instead give scripts with more
  bytes per sentence fewer sentences. At most `MAX_TRAINING_LINES` lines in all: past 30
  languages each gives the first `MAX_TRAINING_LINES // n_languages` lines of its split (204
  languages: 147 each), and the run record's `train_share` says so (docs/reproduce.md has the
  measurements behind the number).
- Every measurement is on `devtest` (or, for a corpus without splits, the whole corpus, while
  training is on another corpus): no measurement sees training text. That is checked line by
  line, not assumed from folder names: a run with trained tokenizers is refused if more than 5%
  of a language's measured lines are training text, and the report counts the few others.
- A corpus trained elsewhere trains (and, without a dev split, warms up) on the training corpus's
  counterpart of each language: the same code or the same language part (`eng` -> `eng_Latn`).
  Languages without one leave the training to the others; if none has one, the training
  corpus's default languages are used (the bundled FLORES-200's six).
- Throughput is timed on a sample of the measured text after a warm-up on other text of the
  language (timed_text.py says which).

Everything is resolved once, here: the tokenizer ids, whether anything is trained, the texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from benchmark.measure.bases import resolve_bases
from benchmark.adapters import DEFAULT_VOCAB_SIZES, TrainingText, check_tokenizer_files, file_id, select_ids, trained_families
from benchmark.adapters.families import parse_trained_id
from benchmark.adapters.table import Family, TrainedId
from benchmark.corpora import (
    BUNDLED_CORPUS_DIR,
    ENGLISH_CODES,
    Corpus,
    default_languages,
    english_code,
    is_bundled,
    language_name,
    language_part,
    list_corpus_languages,
    load_corpus,
    named_corpus_dir,
    resolve_code,
    resolve_codes,
)
from benchmark.corpora.domains import only_domain
from benchmark.plumbing.errors import BenchmarkError
from benchmark.measure.timed_text import timed_texts_of, warm_up_texts
from benchmark.corpora.mixes import DEFAULT_MIXES, TrainingMix, check_mix_languages, parse_mixes

QUICK_SENTENCES = 200  # --quick: lines per language, for training and for measuring
QUICK_VOCAB_SIZES = (1024, 4096)
TIMED_REPEATS = 3  # timed repeats per tokenizer and language (`run --repeats`)
# Above this share of a language's measured lines found word for word in the training text, a run
# with trained tokenizers is refused: that is measuring on training data. Below it (a few common
# lines such as "Yes." in two unrelated corpora) the report gives the count.
MAX_SHARE_MEASURED_IN_TRAINING = 0.05
# Trained tokenizers learn from at most this many lines in all, an equal share per language: the
# whole dev split of up to 30 languages (30 x 997 = 29,910 lines) is kept whole, and 204 languages
# train on 147 lines each, so training time and memory stop growing with the number of languages
# (the measurements behind the number: docs/measurements/2026-12-01-training-cap.md).
MAX_TRAINING_LINES = 30_000


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides the numbers of a run (the CLI's options, unpacked)."""

    languages: tuple[str, ...] | None = None  # None: every language of the corpus
    reference: str | None = None  # None: the corpus's English code
    vocab_sizes: tuple[int, ...] = DEFAULT_VOCAB_SIZES
    tokenizers: tuple[str, ...] | None = None  # ids or patterns; None: all
    tokenizer_files: tuple[Path, ...] = ()
    tokenizer_file_pattern: str = "cl100k"  # pre-tokeniser regex for bare tiktoken rank files
    corpus_dir: Path | None = None  # None: the bundled FLORES-200
    domain: str | None = None  # measure only the lines of this domain (corpora/domains.py); None: every line
    train_corpus_dir: Path | None = None  # None: the bundled FLORES-200
    max_sentences: int | None = None  # cap on lines per language (training and measuring)
    repeats: int = TIMED_REPEATS
    train_mixes: tuple[str, ...] = DEFAULT_MIXES  # our BPE's training mixes (benchmark/corpora/mixes.py)
    cache_dir: Path | None = None  # None: default_cache_dir()
    retrain: bool = False
    results_cache: bool = True  # False (--no-cache): no measured figure read from or kept in the cache
    quick: bool = False
    reuse_timing: bool = False  # --reuse-timing: timing columns from the results cache where it has them
    bases: tuple[str, ...] | None = None  # --bases: premiums over these too; None: measure/bases.py's default

    @classmethod
    def from_options(cls, *, quick: bool = False, languages: Sequence[str] | None = None,
                     reference: str | None = None, vocab_sizes: Sequence[int] | None = None,
                     tokenizers: Sequence[str] | None = None, train_mixes: Sequence[str] | None = None,
                     tokenizer_files: Sequence[Path] = (), tokenizer_file_pattern: str = "cl100k",
                     corpus: Path | None = None, train_corpus: Path | None = None, domain: str | None = None,
                     max_sentences: int | None = None, repeats: int | None = None, cache_dir: Path | None = None,
                     retrain: bool = False, no_cache: bool = False, reuse_timing: bool = False,
                     bases: Sequence[str] | None = None) -> RunConfig:
        """The options as the CLI gives them (None or an empty list: not given): `quick` changes
        the defaults, an option given wins."""
        def given(values):
            return tuple(values) if values else None

        values = {"languages": given(languages), "reference": reference, "vocab_sizes": given(vocab_sizes),
                  "tokenizers": given(tokenizers), "train_mixes": given(train_mixes),
                  "tokenizer_files": tuple(Path(p) for p in tokenizer_files),
                  "tokenizer_file_pattern": tokenizer_file_pattern, "corpus_dir": Path(corpus) if corpus else None, "domain": domain,
                  "train_corpus_dir": Path(train_corpus) if train_corpus else None, "max_sentences": max_sentences,
                  "repeats": repeats, "cache_dir": Path(cache_dir) if cache_dir else None, "retrain": retrain,
                  "results_cache": not no_cache, "reuse_timing": reuse_timing, "bases": given(bases)}
        if quick:
            values = {"vocab_sizes": QUICK_VOCAB_SIZES, "max_sentences": QUICK_SENTENCES, "quick": True,
                      **{k: v for k, v in values.items() if v is not None}}
        return cls(**{k: v for k, v in values.items() if v is not None})


@dataclass(frozen=True)
class Plan:
    """What a run will do, resolved from the config: corpora, languages, texts, tokenizer ids."""

    corpus: Corpus
    train_corpus: Corpus
    languages: tuple[str, ...]
    reference: str
    train_languages: tuple[str, ...]
    train_language_of: dict[str, str | None]  # measured language -> its counterpart in the training corpus
    measure_texts: dict[str, tuple[str, ...]]
    timed_texts: dict[str, tuple[str, ...]]  # the sample throughput is timed on
    warm_texts: dict[str, tuple[str, ...]]
    warm_source: dict[str, str]  # language -> where its warm-up text comes from (for the record)
    training: TrainingText
    train_share: str  # how the training lines were shared out, and whether MAX_TRAINING_LINES cut them
    mixes: tuple[TrainingMix, ...]  # our BPE's training mixes
    families: tuple[Family, ...]  # the trained families, ours in each mix first
    tokenizer_ids: tuple[str, ...]
    trained: dict[str, TrainedId]  # the trained ones of tokenizer_ids, read once: id -> (family, size)
    trains: bool  # whether any tokenizer of the run is trained by this program
    # measured language -> how many of its measured lines occur, word for word, in the training text
    n_measured_in_training: dict[str, int]
    # The options a run reads past planning, as given, so the plan is all a run is handed.
    quick: bool
    vocab_sizes: tuple[int, ...]
    max_sentences: int | None
    tokenizer_files: tuple[Path, ...]
    tokenizer_file_pattern: str
    repeats: int
    cache_dir: Path | None  # None: default_cache_dir()
    retrain: bool
    results_cache: bool = True  # False (--no-cache): nothing read from or kept in the results cache
    reuse_timing: bool = False  # --reuse-timing: timings read back from the results cache (measure/timing_reuse.py)
    bases: tuple[str, ...] = ()  # the premium's bases, the reference first (measure/bases.py)
    measure_domains: tuple[str, ...] = ()  # each measured line's domain label, where the corpus has them


def corpus_root(path: Path | None) -> Path:
    return named_corpus_dir(path) if path is not None else BUNDLED_CORPUS_DIR


def display_path(path: Path) -> str:
    """The bundled corpus as a repository path (same on every machine), a user's as given."""
    try:
        return str(Path(path).resolve().relative_to(BUNDLED_CORPUS_DIR.parent.parent))
    except ValueError:
        return str(path)


def resolve_languages(root: Path, languages: Sequence[str] | None,
                      reference: str | None) -> tuple[tuple[str, ...] | None, str]:
    """The corpus's codes to load, None for its default ones (`default_languages`), and the
    reference, which is always measured (the premium needs it). What the user typed is resolved
    by `corpora.resolve_codes`: `hin` and `HIN` are `hin_Deva`, `all` is every language, `zho`
    (`zho_Hans` or `zho_Hant`) is refused with both."""
    available = list_corpus_languages(root)  # a folder it cannot load raises load_corpus's own error
    if reference is None:
        reference = english_code(available)
        if reference is None:
            raise BenchmarkError(
                f"{root}: no English file ({', '.join(ENGLISH_CODES)}, in any case) to measure the premium "
                f"against; pick one of {', '.join(available) or '(none found)'} with --reference CODE"
            )
    else:
        reference = resolve_code(reference, available, where=str(root), name_of=language_name,
                                 what="reference language")
    if languages is None:
        default = default_languages(root)
        if reference in default:  # None: the corpus's own default (bundled: its six; a folder: every file)
            return (None if is_bundled(root) or default == available else default), reference
        return (reference, *default), reference
    selected = list(resolve_codes(languages, available, where=str(root), name_of=language_name))
    if reference not in selected:
        selected.insert(0, reference)
    return tuple(selected), reference


def match_languages(codes: Sequence[str], available: Sequence[str]) -> dict[str, str]:
    """Each code's counterpart among `available`: the same code, else the one code with the same
    language part, the part before "_" in any case, a two-letter code read as its three-letter one
    (`eng` -> `eng_Latn`, `eng_Latf` -> `eng_Latn`, `ru` -> `rus_Cyrl`). A code with no
    counterpart, or with several (`zho` -> `zho_Hans`, `zho_Hant`), is left out.

    >>> match_languages(["eng", "ru", "hin"], ["eng_Latn", "rus_Cyrl"])
    {'eng': 'eng_Latn', 'ru': 'rus_Cyrl'}
    """

    matched = {}
    for code in codes:
        if code in available:
            matched[code] = code
            continue
        base = language_part(code)
        candidates = [other for other in available if language_part(other) == base]
        if len(candidates) == 1:
            matched[code] = candidates[0]
    return matched


def training_text(train_corpus: Corpus, languages: Sequence[str], max_sentences: int | None) -> TrainingText:
    """The lines trained tokenizers learn from: the training split of `languages`, the same
    number of lines from each (parallel lines: the same content), `n_train_lines` of them."""
    split = train_corpus.train_split
    n_train = n_train_lines(train_corpus, languages, max_sentences)
    return TrainingText.of({code: train_corpus.lines(split, code)[:n_train] for code in languages})


def n_train_lines(train_corpus: Corpus, languages: Sequence[str], max_sentences: int | None) -> int:
    """Lines per language of the training text: the shortest split, or `max_sentences`, or the
    language's share of MAX_TRAINING_LINES, whichever is fewest (at least one)."""
    n_lines = _n_lines_uncapped(train_corpus, languages, max_sentences)
    return max(1, min(n_lines, MAX_TRAINING_LINES // len(languages)))


def describe_train_share(train_corpus: Corpus, languages: Sequence[str], max_sentences: int | None) -> str:
    """The run record's `train_share`: the rule, and whether the cap cut the training text."""
    text = "equal number of lines per language (parallel lines: the same content in each)"
    n_lines = _n_lines_uncapped(train_corpus, languages, max_sentences)
    n_capped = n_train_lines(train_corpus, languages, max_sentences)
    if n_capped < n_lines:
        text += (f"; capped at {MAX_TRAINING_LINES:,} training lines in all, so each of the {len(languages)} "
                 f"languages gives its first {n_capped:,} lines of {n_lines:,}")
    return text


def _n_lines_uncapped(train_corpus: Corpus, languages: Sequence[str], max_sentences: int | None) -> int:
    split = train_corpus.train_split
    n_lines = min(len(train_corpus.lines(split, code)) for code in languages)
    return n_lines if max_sentences is None else min(n_lines, max_sentences)


def plan_training(config: RunConfig) -> TrainingText:
    """Only the training text, for verbs that train or load trained tokenizers without measuring
    (`train`, `encode`): `config.languages` are resolved in the training corpus (`eng` finds
    `eng_Latn`, `all` takes every language), its default languages when None."""
    root = corpus_root(config.train_corpus_dir)
    languages = None
    if config.languages is not None:
        languages = resolve_codes(config.languages, list_corpus_languages(root), where=str(root),
                                  name_of=language_name)
    corpus = load_corpus(root, languages)
    check_mix_languages(parse_mixes(config.train_mixes), corpus.languages)
    return training_text(corpus, corpus.languages, config.max_sentences)


def plan_run(config: RunConfig) -> Plan:
    root = corpus_root(config.corpus_dir)
    load_languages, reference = resolve_languages(root, config.languages, config.reference)
    # Seconds, not minutes: a missing or unreadable tokenizer file fails before any corpus is read.
    check_tokenizer_files(config.tokenizer_files, pattern=config.tokenizer_file_pattern)
    mixes = parse_mixes(config.train_mixes)
    ids = tuple(select_ids(config.tokenizers, config.vocab_sizes, [file_id(p) for p in config.tokenizer_files],
                           mixes=mixes))
    families = trained_families(mixes)
    trained = {i: found for i in ids if (found := parse_trained_id(i, families)) is not None}
    trains = bool(trained)
    corpus = load_corpus(root, load_languages)
    if config.domain is not None:
        corpus = only_domain(corpus, config.domain)
    languages = corpus.languages

    # A corpus with its own dev/ and devtest/ trains on its dev/; a flat one cannot (every line is
    # measured), so it trains on the bundled FLORES-200's counterparts; --train-corpus overrides both.
    has_split = corpus.train_split != corpus.measure_split
    train_root = corpus_root(config.train_corpus_dir if config.train_corpus_dir is not None
                             else root if has_split else None)
    same_corpus = train_root.resolve() == root.resolve()
    if same_corpus:
        train_corpus = corpus
        counterpart: dict[str, str] = {code: code for code in languages}
    else:
        # Learn the measured languages where the training corpus has them, under their own code
        # or one it starts (a user's `eng` is FLORES's `eng_Latn`); a user corpus of codes FLORES
        # does not know at all (e.g. `hin`) trains on all of FLORES's languages instead.
        counterpart = match_languages(languages, list_corpus_languages(train_root))
        wanted = list(dict.fromkeys(counterpart.values())) or None
        train_corpus = load_corpus(train_root, wanted)
    # Only tokenizers this run trains must not be measured on their training text.
    if same_corpus and trains and not has_split:  # only when --train-corpus names the measured corpus
        raise BenchmarkError(
            f"{root}: has no dev/ and devtest/ subfolders, so training on it (--train-corpus) would measure on "
            "training text; add the subfolders, or leave --train-corpus out to train on the bundled FLORES-200"
        )
    train_languages = tuple(dict.fromkeys(counterpart.values())) or train_corpus.languages
    if trains:
        check_mix_languages(mixes, train_languages)

    limit = config.max_sentences
    measure_texts = {code: corpus.lines(corpus.measure_split, code)[:limit] for code in languages}
    training = training_text(train_corpus, train_languages, limit)
    warm_texts, warm_source = warm_up_texts(corpus, train_corpus, languages, counterpart, measure_texts, limit)
    timed_texts = timed_texts_of(measure_texts, reference, quick=config.quick)

    # The report says no measurement sees training text: check it line by line, whatever the
    # folders are called (another folder can hold the same text).
    training_lines = set(training.texts)
    n_measured_in_training = {code: sum(line in training_lines for line in measure_texts[code])
                              for code in languages}
    if trains:
        for code in languages:
            share = n_measured_in_training[code] / max(1, len(measure_texts[code]))
            if share > MAX_SHARE_MEASURED_IN_TRAINING:
                raise BenchmarkError(
                    f"{corpus.root}: {n_measured_in_training[code]} of the {len(measure_texts[code])} {code} lines "
                    f"measured are also training text in {train_corpus.root} ({train_corpus.train_split} split); "
                    "measure on text the trained tokenizers have not seen (a corpus with dev/ and devtest/ "
                    "trains on dev and measures devtest)"
                )
    return Plan(
        corpus=corpus, train_corpus=train_corpus, languages=languages, reference=reference,
        train_languages=train_languages, train_language_of={code: counterpart.get(code) for code in languages},
        measure_texts=measure_texts, timed_texts=timed_texts, warm_texts=warm_texts, warm_source=warm_source, training=training,
        train_share=describe_train_share(train_corpus, train_languages, limit),
        mixes=mixes, families=families, tokenizer_ids=ids, trained=trained, trains=trains,
        n_measured_in_training=n_measured_in_training, quick=config.quick, vocab_sizes=config.vocab_sizes,
        max_sentences=config.max_sentences, tokenizer_files=config.tokenizer_files,
        tokenizer_file_pattern=config.tokenizer_file_pattern, repeats=config.repeats, cache_dir=config.cache_dir,
        retrain=config.retrain, results_cache=config.results_cache, reuse_timing=config.reuse_timing,
        bases=resolve_bases(config.bases, languages, reference, where=str(root)),
        measure_domains=corpus.domains.get(corpus.measure_split, ())[:limit],
    )
