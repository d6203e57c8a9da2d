"""A run, from plan to rows:

    plan.py            what a run will do: languages, texts, tokenizer ids
    timed_text.py      the text throughput is timed on: languages, sample, warm-up
    run.py             the steps in order
    counting.py        counts tokens (our BPE on tiktoken's engine, checked by twins.py)
    id_counts.py       how often each token id occurred (a row's, in two arrays)
    twins.py           our BPE's twin on tiktoken's engine, checked id for id
    floor.py           the information floor: each language's text compressed
    renyi_interval.py  the Rényi efficiency's bootstrap interval
    cells.py           which tokenizer x language cells are timed, on how many sentences
    timing.py          times encoders; timing_reuse.py keeps timings for `run --reuse-timing`
    executors.py       the counting spread over processes or a Dask cluster; dask_cluster.py
                       reaches the cluster, every wait bounded
    isolated.py        a function run in a forked child, its memory gone with it
    peak_memory.py     peak memory of the run and its workers
    summaries.py       the per-tokenizer figures over every language (Gini, ...)
    group_summaries.py the premium and Gini per language family and resource class
    pairwise.py        per language, each pair of production tokenizers' token ratio
    bases.py           the premium over further base languages (`run --bases`), with its intervals
    domain_premiums.py on a corpus with per-line domain labels, the premium per domain
    code_sample.py     tokens per byte and per line of the code sample (corpora/code/), per language
    vocabulary.py      the vocabulary check (partial-character and unreachable entries); batches.py
                       encodes every entry in one library call where it can
    rare_entries.py    the share of a trained vocabulary rarely seen in its own training text
    results_cache.py   counts kept between runs
    describe.py        the run record
    own_text.py        a user's own files read and counted (`cost --file`)
    calibration.py     the dev totals the calibration table is fitted on (production tokenizers)

Nothing heavy is imported here: submodules are imported by name where they are used."""
