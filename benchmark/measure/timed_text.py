"""The text a run times throughput on: which languages, a sample of each one's measured sentences,
and the text its encoder is warmed on first (plan.py takes the measured text, and every count
covers all of it).

- Languages: every one up to `MAX_TIMED_LANGUAGES`; past it the reference, one per script (speed
  follows the script), then the others in run order.
- Warm-up: the language's `dev` split, so the timed text is unseen; a corpus without one borrows
  the training corpus's lines of the same language; a language with neither is timed cold.
"""

from __future__ import annotations

from typing import Sequence

from benchmark.corpora import Corpus, one_per_script, script_of

# Throughput is a rate: it is timed on a sample of each language's measured sentences, so its cost
# stops growing with the corpus (counts, premiums and intervals cover every sentence). The sample
# is evenly spread over the text; at most this many sentences and bytes.
TIMED_SENTENCES = 256
TIMED_BYTES = 256_000
# Throughput is timed on at most this many languages of a run (the reference, one per script, then
# in run order: FLORES-200's 29 scripts all get one), so timing 204 languages costs what 32 cost;
# the counts cover every language.
MAX_TIMED_LANGUAGES = 32
# --quick times less, and says so in the record: the reference and one language per script, on
# at most this many sentences, and each trained family at its largest size only (every family,
# every production tokenizer and every script still gets a throughput).
QUICK_TIMED_SENTENCES = 100
# Before timing, the encoder's cache is warmed on at most this many sentences of other text of the
# language (FLORES-200's dev split has 997), so a big corpus's warm-up costs no more than FLORES's.
WARM_UP_SENTENCES = 1_000
WARM_UP_BYTES = 1_000_000


def timed_texts_of(measure_texts: dict[str, tuple[str, ...]], reference: str, *,
                   quick: bool) -> dict[str, tuple[str, ...]]:
    """language -> the sentences its throughput is timed on, for the timed languages only (in run
    order); `quick`: one language per script and the reference, at most QUICK_TIMED_SENTENCES each."""
    languages = list(measure_texts)
    if quick:
        n_scripts = len({script_of(code) or code for code in languages})
        return {code: timed_sample(measure_texts[code], max_sentences=QUICK_TIMED_SENTENCES)
                for code in timed_languages(languages, reference, min(n_scripts, MAX_TIMED_LANGUAGES))}
    return {code: timed_sample(measure_texts[code]) for code in timed_languages(languages, reference)}


def timed_languages(languages: Sequence[str], reference: str, limit: int = MAX_TIMED_LANGUAGES) -> list[str]:
    """The languages whose throughput is timed, in run order: all of them up to `limit`; past it,
    the reference, the first language of each script (speed follows the script), then the
    others in run order, `limit` in all."""
    return one_per_script(languages, limit, first=[reference])


def timed_sample(texts: Sequence[str], *, max_sentences: int = TIMED_SENTENCES,
                 max_bytes: int = TIMED_BYTES) -> tuple[str, ...]:
    """The sentences throughput is timed on: `max_sentences` evenly spread over `texts` (all of
    them when there are fewer), then as many of those as fit in `max_bytes`, passing over any one
    too long to fit alone (at least one).

    >>> timed_sample(["a", "b", "c", "d", "e", "f"], max_sentences=3)
    ('a', 'c', 'e')
    >>> timed_sample(["a" * 10, "b", "c"], max_bytes=5)
    ('b', 'c')
    """
    n = len(texts)
    picked = [texts[i * n // max_sentences] for i in range(max_sentences)] if n > max_sentences else list(texts)
    return tuple(_within_bytes(picked, max_bytes))


def _within_bytes(texts: Sequence[str], max_bytes: int) -> list[str]:
    """`texts` in order while their bytes fit in `max_bytes`, passing over any text too long to
    fit alone (a document-sized line would be the whole sample); the shortest text if none fits."""
    kept, size = [], 0
    for text in texts:
        n_bytes = len(text.encode("utf-8"))
        if size + n_bytes > max_bytes:
            if n_bytes > max_bytes:
                continue
            break
        kept.append(text)
        size += n_bytes
    if not kept and texts:
        kept = [min(texts, key=lambda text: len(text.encode("utf-8")))]
    return kept


def warm_up_texts(corpus: Corpus, train_corpus: Corpus, languages: Sequence[str], counterpart: dict[str, str],
             measure_texts: dict[str, tuple[str, ...]], limit: int | None):
    """Each language's warm-up text before timing and where it comes from: the language's own dev
    split; a corpus without one borrows the training corpus's lines of the same language (as many
    as are measured); a language the training corpus lacks warms up on nothing, i.e. is timed cold
    (warming a Korean encoder on English would fill its cache with the wrong words)."""
    warm_texts: dict[str, tuple[str, ...]] = {}
    warm_source: dict[str, str] = {}
    train_split = train_corpus.train_split
    for code in languages:
        if "dev" in corpus.splits:
            texts = corpus.lines("dev", code)[:limit]
            warm_source[code] = f"dev split of {corpus.name}"
        elif code in counterpart:
            source = counterpart[code]
            texts = train_corpus.lines(train_split, source)[: len(measure_texts[code])]
            warm_source[code] = f"{train_split} split of {train_corpus.name} ({source})"
        else:
            texts = ()
            warm_source[code] = f"none: timed cold (no dev split here and no counterpart in {train_corpus.name})"
        warm_texts[code] = tuple(_within_bytes(texts[:WARM_UP_SENTENCES], WARM_UP_BYTES)) if texts else ()
    return warm_texts, warm_source
