"""One summary per tokenizer over every language of a run: fairness, token distribution, vocabulary.

- Fairness: the Gini coefficient of the languages' token counts for the same lines, the most
  tokens over the fewest (worst to best) and the mean premium of the languages other than the
  reference, each with a 95% bootstrap interval over sentences drawn with the premium's seeded
  resamples (`metrics.fairness_cis`). Only over every language of the run: a tokenizer that failed
  on one gets blanks and a note, since a Gini over fewer languages is not comparable.
- Rényi efficiency of all the languages' tokens together (the rows have each language's).
- Vocabulary health (benchmark.measure.vocabulary), checked once per tokenizer in a counting task,
  and for a trained tokenizer the share of its entries rare in its own training text
  (benchmark.measure.rare_entries).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from benchmark.results import metrics
from benchmark.adapters import Adapter, NotBuilt
from benchmark.measure.counting import Counts
from benchmark.measure.id_counts import IdCounts
from benchmark.results.record import DistributionSettings
from benchmark.results.rows import TokenizerSummary
from benchmark.measure.vocabulary import VocabularyHealth

DISTRIBUTION_SETTINGS = DistributionSettings(
    renyi_alpha=metrics.RENYI_ALPHA,
    renyi_efficiency=("Rényi entropy of order alpha of the token distribution (every token of the text counted) "
                      "over log2(vocab_size), the entropy of a uniform distribution over the whole vocabulary "
                      "(Zouhar et al. 2023); rows: one language's tokens; summaries: every language's together"),
    renyi_efficiency_ci=("95% percentile bootstrap over sentences with the premium's resamples, exact (every resample's "
                         "token frequencies), in the production tokenizers' rows only, for its cost (on every row it "
                         "would add about 70% to the default run's counting); none where a pool of workers counted a "
                         "language's sentences in more than one task (over 20,000 lines)"),
    fairness=("over the run's languages, each one's n_tokens for the same lines: Gini coefficient "
              "sum_i sum_j |x_i - x_j| / (2 n^2 mean(x)), the most over the fewest, and the mean premium of the "
              "languages but the reference; 95% percentile bootstrap over sentences with the premium's resamples"),
)


def build_summaries(tokenizers: Sequence[Adapter | NotBuilt], languages: Sequence[str], reference: str,
                    counted: Mapping[str, tuple[dict[str, Counts], dict[str, str]]],
                    vocabularies: Mapping[str, VocabularyHealth | str | None],
                    rare_entry_shares: Mapping[str, float | None] | None = None) -> tuple[TokenizerSummary, ...]:
    """A summary for each tokenizer that was measured (skipped ones have none), in run order."""
    measured = [t for t in tokenizers if isinstance(t, Adapter)]
    complete = [t for t in measured if all(code in counted[t.id][0] for code in languages) and len(languages) > 1]
    reference_index = list(languages).index(reference)
    intervals = dict(zip((t.id for t in complete), metrics.fairness_cis(
        [([counted[t.id][0][code].tokens_per_line for code in languages], reference_index) for t in complete])))
    summaries = []
    for tokenizer in measured:
        counts, failures = counted[tokenizer.id]
        fields: dict = dict.fromkeys(("gini", "worst_to_best", "mean_premium", "worst_language", "best_language"))
        ci = intervals.get(tokenizer.id, {})
        note = None
        if tokenizer.id in intervals:
            totals = [sum(counts[code].tokens_per_line) for code in languages]
            fair = metrics.fairness(totals, reference_index)
            fields.update(gini=fair.gini, worst_to_best=fair.worst_to_best, mean_premium=fair.mean_premium,
                          worst_language=languages[totals.index(max(totals))],
                          best_language=languages[totals.index(min(totals))])
        elif len(languages) < 2:
            note = "one language: no fairness figures"
        else:
            note = f"not counted on {', '.join(sorted(set(languages) - set(counts)))}: no fairness figures"
        pooled = IdCounts.pooled(counts[code].token_counts for code in languages if code in counts)
        vocabulary = vocabularies.get(tokenizer.id)
        if isinstance(vocabulary, str):
            note = "; ".join(filter(None, (note, f"vocabulary check failed: {vocabulary}")))
            vocabulary = None
        summaries.append(TokenizerSummary(
            tokenizer=tokenizer.id, family=tokenizer.family, vocab_size=tokenizer.vocab_size,
            n_languages=len(languages) if tokenizer.id in intervals else 0,
            **fields,
            **{f"{name}_ci_{end}": (bounds[k] if bounds else None)
               for name in ("gini", "worst_to_best", "mean_premium")
               for bounds in [metrics.containing(ci.get(name), fields[name])] for k, end in enumerate(("low", "high"))},
            renyi_efficiency=metrics.renyi_efficiency(pooled.values(), vocab_size=tokenizer.vocab_size),
            n_partial_char_entries=vocabulary.n_partial_char_entries if vocabulary else None,
            n_entries_checked=vocabulary.n_entries_checked if vocabulary else None,
            n_unreachable=vocabulary.n_unreachable if vocabulary else None,
            unreachable_examples=vocabulary.unreachable_examples if vocabulary else (),
            entries_checked=vocabulary.entries_checked if vocabulary else None,
            rare_entry_share=(rare_entry_shares or {}).get(tokenizer.id),
            note=note,
        ))
    return tuple(summaries)
