"""Our parity-aware trainer beside HuggingFace's `ParityBpeTrainer`, on the same text
(`python -m benchmark speed --hf-parity`).

Both learn from each language's dev split, which is also the parity text, with the same
pre-tokenization (cl100k's regex on bytes) and `min_frequency=2`, in the variant without global
merges (adapters/hf_parity.py sets HF up as the `hf/parity-{size}` family). Reported per size:

- both merge lists side by side: where they first differ and why (the two worst languages'
  parity tokens and the worst language's two best pair counts at that step, from our model:
  both trainers agree up to there, so that state is HF's too), and how many tokens both lists
  make;
- each model's devtest tokens per language, their total and Gini;
- training time, CPU and wall seconds, one run each (HF runs on one thread).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence

from benchmark.bpe import ByteLevelBPE, count_pretokens
from benchmark.results.metrics import gini
from benchmark.speed.ratios import LanguageTexts


def compare_hf_parity(corpus: Sequence[LanguageTexts], vocab_size: int) -> dict:
    """The two parity-aware trainers to `vocab_size` on the dev splits: merges, tokens, time."""
    from benchmark.adapters.hf_parity import N_BYTES, cut, train
    from benchmark.adapters.hf_tokenizers import HFAdapter, _byte_decoder

    dev = {language.language: list(language.dev) for language in corpus}
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    ours = ByteLevelBPE.train_parity(dev, vocab_size)
    ours_seconds = (time.process_time() - cpu_start, time.perf_counter() - wall_start)
    cpu_start = time.process_time()
    config, hf_wall = train(dev, vocab_size - N_BYTES)
    hf_seconds = (time.process_time() - cpu_start, hf_wall)
    hf = HFAdapter(json.dumps(cut(config, vocab_size - N_BYTES)), id=f"hf/parity-{vocab_size}", family="hf-parity",
                   train_seconds=hf_wall, settings={})
    to_byte = _byte_decoder()
    hf_merges = [(bytes(to_byte[c] for c in left), bytes(to_byte[c] for c in right))
                 for left, right in config["model"]["merges"]]
    our_merges = [(ours.token_bytes(left), ours.token_bytes(right)) for left, right in ours.merges]
    first_difference = next((k for k, (a, b) in enumerate(zip(our_merges, hf_merges)) if a != b), None)
    tokens = {"ours": {}, "hf": {}}
    for language in corpus:
        lines = list(language.devtest)
        tokens["ours"][language.language] = sum(map(len, ours.encode_batch(lines)))
        tokens["hf"][language.language] = sum(len(hf.encode(line)) for line in lines)
    return {
        "vocab_size": vocab_size,
        "merges": {"ours": our_merges, "hf": hf_merges},
        "first_difference": first_difference,
        "why": None if first_difference is None else _state_at(dev, first_difference),
        "shared_tokens": len({a + b for a, b in our_merges} & {a + b for a, b in hf_merges}),
        "tokens": tokens,
        "gini": {name: gini(list(counts.values())) for name, counts in tokens.items()},
        "cpu_seconds": {"ours": ours_seconds[0], "hf": hf_seconds[0]},
        "wall_seconds": {"ours": ours_seconds[1], "hf": hf_seconds[1]},
    }


def _state_at(dev: dict[str, list[str]], n_merges: int) -> dict:
    """After the first `n_merges` merges (the same in both): each language's parity tokens, and the
    pair counts of the worst language (ties decided by name, as ours does)."""
    model = ByteLevelBPE.train_parity(dev, 256 + n_merges)
    n_tokens = {code: sum(map(len, model.encode_batch(lines))) for code, lines in dev.items()}
    worst = sorted(n_tokens, key=lambda code: (-n_tokens[code], code))
    pairs: Counter[tuple[bytes, bytes]] = Counter()
    for data, n in count_pretokens(dev[worst[0]], "cl100k").items():
        ids = model.encode_ordinary(data.decode("utf-8"))
        for left, right in zip(ids, ids[1:]):
            pairs[model.token_bytes(left), model.token_bytes(right)] += n
    best = sorted(pairs.items(), key=lambda item: -item[1])[:2]
    return {"n_tokens": {code: n_tokens[code] for code in worst[:2]}, "best_pairs": best}


def format_hf_parity(row: dict, n_shown: int = 6) -> str:
    """The figures as Markdown: the first merges side by side, then tokens, Gini and time."""
    merges, first = row["merges"], row["first_difference"]
    n_merges = len(merges["ours"])
    lines = [f"vocab {row['vocab_size']}: {n_merges:,} merges each; identical up to merge "
             f"{first if first is not None else n_merges} (0-based); {row['shared_tokens']:,} of the tokens "
             "made by both lists", ""]
    if row["why"] is not None:
        why = row["why"]
        worst = ", ".join(f"{code} {n:,}" for code, n in why["n_tokens"].items())
        pairs = ", ".join(f"{_show(a, b)} {n:,}" for (a, b), n in why["best_pairs"])
        lines += [f"at merge {first}: parity tokens of the two worst languages {worst}; the worst one's best "
                  f"pairs {pairs}", ""]
    lines += ["| merge | ours | HF |", "|---:|---|---|"]
    shown = list(range(min(n_shown, n_merges)))
    if first is not None:
        shown += [k for k in range(first, min(first + 3, n_merges)) if k not in shown]
    for k in shown:
        ours, hf = merges["ours"][k], merges["hf"][k]
        lines.append(f"| {k} | {_show(*ours)} | {_show(*hf)} |")
    tokens = row["tokens"]
    lines += ["", "| devtest tokens | ours | HF |", "|---|---:|---:|"]
    for language in tokens["ours"]:
        lines.append(f"| {language} | {tokens['ours'][language]:,} | {tokens['hf'][language]:,} |")
    lines.append(f"| total | {sum(tokens['ours'].values()):,} | {sum(tokens['hf'].values()):,} |")
    lines.append(f"| Gini | {row['gini']['ours']:.4f} | {row['gini']['hf']:.4f} |")
    lines.append(f"| training, CPU s | {row['cpu_seconds']['ours']:.2f} | {row['cpu_seconds']['hf']:.2f} |")
    lines.append(f"| training, wall s | {row['wall_seconds']['ours']:.2f} | {row['wall_seconds']['hf']:.2f} |")
    return "\n".join(lines)


def _show(left: bytes, right: bytes) -> str:
    """A pair as two code spans, escaped for a Markdown table cell (bytes that do not decode as \\x..)."""
    def one(data: bytes) -> str:
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in data.decode("utf-8", "backslashreplace"))
        return "`" + text.replace("`", "\\x60").replace("|", "\\|") + "`"
    return f"{one(left)} + {one(right)}"
