"""A run, from plan to rows: `plan.py` resolves what a run will do, `run.py` puts it in order,
`counting.py` counts tokens, `timing.py` times encoders, `executors.py` spreads the counting over
processes or a Dask cluster, `summaries.py` and `vocabulary.py` the per-tokenizer figures,
`results_cache.py` keeps counts between runs, `describe.py` writes the run record.

Nothing heavy is imported here: submodules are imported by name where they are used."""
