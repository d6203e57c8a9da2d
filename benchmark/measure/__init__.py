"""A run, from plan to rows: `plan.py` resolves what a run will do, `run.py` puts it in order,
`counting.py` counts tokens (our BPE on tiktoken's engine, checked by `twins.py`), `timing.py` times encoders, `executors.py` spreads the counting over
processes or a Dask cluster, `summaries.py` and `vocabulary.py` the per-tokenizer figures (every
entry encoded in one library call where it can: `batches.py`),
`results_cache.py` keeps counts between runs, `describe.py` writes the run record; `own_text.py`
reads and counts a user's own files (`cost --file`).

Nothing heavy is imported here: submodules are imported by name where they are used."""
