"""Rare entries: the share of a trained tokenizer's vocabulary that occurs fewer than 10 times when
it encodes its own training text (the Korean notes' "rarely trained" tokens, whose embedding rows
see little gradient), beside the embedding's V x D parameters the report already shows.

Its own training text is the run's training lines, each language's counted as often as the
tokenizer's training mix weighted it (our BPE's `weights` setting; 1 for the libraries'
trainers, which learn from the lines as they are; a weight of 0 leaves a language out). An entry
is an id whose bytes the adapter knows (special and added tokens are not entries). Only trained
tokenizers have a training text: the others get None.

Our BPE counts on tiktoken's engine, checked first on these lines (measure/twins.py). Each tokenizer
is one task on the run's workers (built from its recipe there), as counting is;
a rerun takes the share from the results cache, keyed by the tokenizer's identity, its training
lines and their weights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from benchmark.adapters.base import Adapter, Recipe
from benchmark.measure.twins import proven_twin
from benchmark.plumbing.errors import one_line

RARE_BELOW = 10  # occurrences in the training text under which an entry counts as rare


@dataclass(frozen=True)
class RareTask:
    tokenizer: str
    recipe: Recipe | None  # None: counted in this process (an adapter without a recipe)
    lines_by_language: tuple[tuple[str, tuple[str, ...]], ...]
    weights: tuple[tuple[str, int], ...]  # language -> how often its lines count


def rare_entry_share(adapter: Adapter, lines_by_language: Mapping[str, Sequence[str]],
                     weights: Mapping[str, int]) -> float | None:
    """Share of the entries of `adapter` seen fewer than RARE_BELOW times in the weighted lines."""
    seen: Counter[int] = Counter()
    for code, lines in lines_by_language.items():
        weight = weights.get(code, 1)
        if weight <= 0:
            continue
        counts: Counter[int] = Counter()
        encode = proven_twin(adapter, lines).encode  # our BPE: tiktoken's engine, checked on these lines
        for line in lines:
            counts.update(encode(line))
        for token_id, n in counts.items():
            seen[token_id] += weight * n
    entries = [i for i in range(adapter.vocab_size) if adapter.token_bytes(i) is not None]
    if not entries:
        return None
    return sum(1 for i in entries if seen[i] < RARE_BELOW) / len(entries)


def run_rare_task(task: RareTask, adapter: Adapter | None = None) -> float | str | None:
    """The share for one tokenizer, or the one-line reason it could not be had."""
    try:
        adapter = adapter or task.recipe.build()
        return rare_entry_share(adapter, dict(task.lines_by_language), dict(task.weights))
    except Exception as exc:  # one tokenizer's failure leaves its cell blank, not the run
        return one_line(exc)


def rare_tasks(tokenizers: Sequence[Adapter], lines_by_language: Mapping[str, Sequence[str]],
               is_trained, shipped=lambda adapter: True) -> list[RareTask]:
    """One task per trained tokenizer (`is_trained(adapter)`), with its mix's weights; with the
    tokenizer's recipe when it is `shipped` to a worker (else it runs where the adapter is)."""
    lines = tuple((code, tuple(texts)) for code, texts in lines_by_language.items())
    tasks = []
    for adapter in tokenizers:
        if not is_trained(adapter):
            continue
        weights = adapter.settings.get("weights") or {}
        tasks.append(RareTask(adapter.id, adapter.recipe if shipped(adapter) else None, lines,
                              tuple((code, int(weights.get(code, 1))) for code, _ in lines)))
    return tasks


def cached_shares(tasks: Sequence[RareTask], tokenizers: Sequence[Adapter], stored):
    """(tokenizer id -> share the results cache `stored` holds, the tasks still to run, `keep`:
    stores what those tasks found, given tokenizer id -> share)."""
    from benchmark.measure.results_cache import _digest, texts_digest, tokenizer_identity

    identities = {t.id: tokenizer_identity(t) for t in tokenizers}
    keys = {task.tokenizer: _digest({"kind": "rare", "tokenizer": identities[task.tokenizer], "weights": task.weights,
                                     "lines": {code: texts_digest(lines) for code, lines in task.lines_by_language}})
            for task in tasks if identities.get(task.tokenizer) and stored.root}
    known = {}
    for task in tasks:
        share = stored.get(keys.get(task.tokenizer), float)
        if share is not None:
            known[task.tokenizer] = share

    def keep(found: Mapping[str, float | str | None]) -> None:
        for tokenizer, share in found.items():
            if isinstance(share, float):
                stored.put(keys.get(tokenizer), share)

    return known, [task for task in tasks if task.tokenizer not in known], keep


def rare_shares(tokenizers: Sequence[Adapter], training, executor, progress, stored) -> dict[str, float | None]:
    """tokenizer id -> the share of its entries rare in its own training text (`training`, the
    run's TrainingText), for the trained ones: from the results cache `stored`, else counted on
    `executor`'s workers where a recipe can build them, else here."""
    from benchmark.adapters import parse_trained_id

    if training is None:
        return {}
    here = {t.id: t for t in tokenizers
            if t.recipe is None or (executor.n_workers == 1 and executor.shares_memory)}
    tasks = rare_tasks(tokenizers, training.lines, lambda adapter: parse_trained_id(adapter.id) is not None,
                       shipped=lambda adapter: adapter.id not in here)
    known, tasks, keep = cached_shares(tasks, tokenizers, stored)
    if not tasks:
        return known
    step = progress.task("rare entries (each trained tokenizer on its training text)", total=len(tasks))
    shipped = [task for task in tasks if task.tokenizer not in here]
    found = dict(zip((task.tokenizer for task in shipped),
                     executor.map(run_rare_task, shipped, on_done=lambda: progress.advance(step))))
    for task in tasks:
        if task.tokenizer in here:
            found[task.tokenizer] = run_rare_task(task, here[task.tokenizer])
            progress.advance(step)
    progress.finish(step)
    keep(found)
    return {**known, **{tokenizer: share if isinstance(share, float) else None for tokenizer, share in found.items()}}
