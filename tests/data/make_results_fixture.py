"""Build `tests/data/results_fixture.json`: a small but real results file for the report tests.

Run once by hand (`python tests/data/make_results_fixture.py`); the JSON is committed and the tests
only read it. The counts are real: 40 FLORES-200 devtest sentences per language, encoded by
tiktoken's rank files (through `bpe_openai`, offline) and by SentencePiece / HF tokenizers trained
on 300 dev lines per language at 1024, 2048 and 4096. Our own `bpe` family is stood in for by HF's
BPE trainer over the cl100k pre-tokenizer regex (the report only needs plausible numbers, and this
script must not depend on the trainer it is used to test the reports of). Timings are real but
tiny and noisy: they only have to be plausible.
"""

from __future__ import annotations

import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmark.results.record import MachineInfo, RunRecord, RunSettings, TimingSettings, TokenizerEntry  # noqa: E402
from benchmark.results.rows import ResultRow, Results, save_results  # noqa: E402
from benchmark.measure.run import YARDSTICK_ID  # noqa: E402
from benchmark.measure.timing import RUN_CLOCK, RUN_CLOCK_NAME, measure_throughput  # noqa: E402

LANGUAGES = {
    "eng_Latn": "English",
    "spa_Latn": "Spanish",
    "rus_Cyrl": "Russian",
    "jpn_Jpan": "Japanese",
    "kor_Hang": "Korean",
    "ces_Latn": "Czech",
}
REFERENCE = "eng_Latn"
VOCAB_SIZES = (1024, 4096, 16384)
N_MEASURE = 40
N_TRAIN = 100
EXAMPLE_LINE = 6  # short: "He built a WiFi door bell, he said."
CL100K_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


def shown(data: bytes) -> str:
    """A token as the adapters show it: its text, or "<e3 81>" when it holds part of a character."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "<" + " ".join(f"{byte:02x}" for byte in data) + ">"


def byte_level_alphabet() -> dict[str, int]:
    """GPT-2's printable stand-ins for bytes (what HF's ByteLevel tokens are spelled with) -> byte."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("\xa1"), ord("\xac") + 1), *range(ord("\xae"), 256)]
    chars, extra = list(keep), 0
    for byte in range(256):
        if byte not in keep:
            keep.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(keep, chars)}


def read_lines(split: str, code: str, n: int) -> list[str]:
    path = ROOT / "corpora" / "flores200" / split / f"{code}.{split}"
    return path.read_text(encoding="utf-8").splitlines()[:n]


class Tok:
    """The four things the fixture needs from a tokenizer."""

    def __init__(self, tid, family, vocab_size, encode, decode, pieces, unk_id=None, train_seconds=None):
        self.tid, self.family, self.vocab_size = tid, family, vocab_size
        self.encode, self.decode, self.pieces = encode, decode, pieces
        self.unk_id, self.train_seconds = unk_id, train_seconds


def openai_tok(prefix: str, name: str) -> Tok:
    import bpe_openai

    enc = bpe_openai.get_encoding(name)
    return Tok(
        f"{prefix}/{name}",
        prefix,
        enc.n_vocab,
        enc.encode_ordinary,
        enc.decode,
        lambda ids: [shown(enc.decode_single_token_bytes(i)) for i in ids],
    )


def hf_tok(kind: str, vocab_size: int, train_text: list[str]) -> Tok:
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    if kind == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"], min_frequency=2)
        tid, family = f"hf/wordpiece-{vocab_size}", "hf-wordpiece"
    else:
        tok = Tokenizer(models.BPE())
        if kind == "ours":
            tok.pre_tokenizer = pre_tokenizers.Sequence(
                [
                    pre_tokenizers.Split(Regex(CL100K_PATTERN), behavior="isolated"),
                    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
                ]
            )
            tid, family = f"bpe/cl100k-{vocab_size}", "bpe"
        else:
            tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
            tid, family = f"hf/bpe-{vocab_size}", "hf-bpe"
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size, min_frequency=2, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        )
    start = time.perf_counter()
    tok.train_from_iterator(train_text, trainer=trainer)
    train_seconds = time.perf_counter() - start
    if tok.get_vocab_size() > vocab_size:
        raise ValueError(f"the alphabet needs {tok.get_vocab_size()} entries, more than vocab_size {vocab_size}")

    alphabet = byte_level_alphabet()

    def pieces(ids):
        # WordPiece shows its "##" continuation marks; byte-level BPE tokens are spelled in GPT-2's
        # byte alphabet, turned back into bytes here.
        if kind == "wordpiece":
            return [tok.id_to_token(i) for i in ids]
        return [shown(bytes(alphabet[ch] for ch in tok.id_to_token(i))) for i in ids]

    unk = tok.token_to_id("[UNK]") if kind == "wordpiece" else None
    return Tok(
        tid,
        family,
        vocab_size,
        lambda text: tok.encode(text, add_special_tokens=False).ids,
        lambda ids: tok.decode(ids),
        pieces,
        unk_id=unk,
        train_seconds=train_seconds,
    )


def sp_tok(vocab_size: int, train_text: list[str]) -> Tok:
    import sentencepiece as spm

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "train.txt"
        src.write_text("\n".join(train_text) + "\n", encoding="utf-8")
        start = time.perf_counter()
        try:
            spm.SentencePieceTrainer.train(
                input=str(src),
                model_prefix=str(Path(tmp) / "m"),
                vocab_size=vocab_size,
                model_type="unigram",
                character_coverage=1.0,
                minloglevel=2,
            )
        except RuntimeError as exc:
            # "INTERNAL: src/trainer_interface.cc(638) [...] Vocabulary size is smaller than ..."
            raise ValueError("SentencePiece: " + str(exc).splitlines()[0].split("] ", 1)[-1]) from None
        train_seconds = time.perf_counter() - start
        sp = spm.SentencePieceProcessor(model_file=str(Path(tmp) / "m.model"))
    return Tok(
        f"sentencepiece/unigram-{vocab_size}",
        "sentencepiece-unigram",
        vocab_size,
        lambda text: sp.encode(text),
        lambda ids: sp.decode(ids),
        lambda ids: [sp.id_to_piece(i) for i in ids],
        unk_id=sp.unk_id(),
        train_seconds=train_seconds,
    )


def bootstrap_ci(counts: np.ndarray, ref: np.ndarray, seed: int = 0) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(counts), size=(1000, len(counts)))
    ratios = counts[idx].sum(axis=1) / ref[idx].sum(axis=1)
    return float(np.percentile(ratios, 2.5)), float(np.percentile(ratios, 97.5))


def skipped_row(tid: str, family: str, vocab_size: int, code: str, reason: str) -> ResultRow:
    return ResultRow(
        tokenizer=tid, family=family, vocab_size=vocab_size, language=code, n_sentences=0, n_tokens=0,
        n_bytes=0, n_chars=0, bytes_per_token=None, chars_per_token=None, tokens_per_sentence=None,
        premium=None, premium_ci_low=None, premium_ci_high=None, unk_rate=None, byte_fallback_rate=None,
        roundtrip_rate=None, vocab_utilisation=None, train_seconds=None, throughput_mb_s=None,
        tokens_per_second=None, throughput_x_tiktoken=None, embedding_params=vocab_size * 768,
        status=f"skipped: {reason}",
    )


def main() -> None:
    measure = {code: read_lines("devtest", code, N_MEASURE) for code in LANGUAGES}
    train_text = [line for code in LANGUAGES for line in read_lines("dev", code, N_TRAIN)]

    toks: list[Tok] = [openai_tok("tiktoken", "cl100k_base"), openai_tok("tiktoken", "o200k_base"),
                       openai_tok("bpe_openai", "cl100k_base")]
    failed: dict[str, tuple[str, int, str]] = {}
    for size in VOCAB_SIZES:
        for make, tid, family in (
            (lambda s: hf_tok("ours", s, train_text), f"bpe/cl100k-{size}", "bpe"),
            (lambda s: hf_tok("bpe", s, train_text), f"hf/bpe-{size}", "hf-bpe"),
            (lambda s: hf_tok("wordpiece", s, train_text), f"hf/wordpiece-{size}", "hf-wordpiece"),
            (lambda s: sp_tok(s, train_text), f"sentencepiece/unigram-{size}", "sentencepiece-unigram"),
        ):
            try:
                toks.append(make(size))
            except (ValueError, RuntimeError) as exc:
                failed[tid] = (family, size, str(exc).splitlines()[0])

    yardstick = toks[0].encode  # tiktoken cl100k_base, as `run` times every tokenizer against it
    rows: list[ResultRow] = []
    examples: dict[str, dict[str, tuple[str, ...]]] = {code: {} for code in LANGUAGES}
    tokenizers: dict[str, TokenizerEntry] = {}
    for tok in toks:
        per_sentence = {code: np.array([len(tok.encode(s)) for s in lines]) for code, lines in measure.items()}
        for code, lines in measure.items():
            ids_list = [tok.encode(s) for s in lines]
            counts = per_sentence[code]
            n_tokens = int(counts.sum())
            n_bytes = sum(len(s.encode("utf-8")) for s in lines)
            n_chars = sum(len(s) for s in lines)
            text_mb = n_bytes / 1e6
            timing = measure_throughput(tok.encode, lines, lines, repeats=3, clock=RUN_CLOCK,
                                        yardstick=yardstick)
            median_seconds = timing.median_seconds
            low, high = bootstrap_ci(counts, per_sentence[REFERENCE])
            flat = [i for ids in ids_list for i in ids]
            rows.append(ResultRow(
                tokenizer=tok.tid, family=tok.family, vocab_size=tok.vocab_size, language=code,
                n_sentences=len(lines), n_tokens=n_tokens, n_bytes=n_bytes, n_chars=n_chars,
                bytes_per_token=n_bytes / n_tokens, chars_per_token=n_chars / n_tokens,
                tokens_per_sentence=n_tokens / len(lines),
                premium=n_tokens / int(per_sentence[REFERENCE].sum()),
                premium_ci_low=low, premium_ci_high=high,
                unk_rate=(sum(i == tok.unk_id for i in flat) / len(flat)) if tok.unk_id is not None else 0.0,
                byte_fallback_rate=0.0,
                roundtrip_rate=sum(tok.decode(tok.encode(s)) == s for s in lines) / len(lines),
                vocab_utilisation=len(set(flat)) / tok.vocab_size,
                train_seconds=tok.train_seconds,
                throughput_mb_s=text_mb / median_seconds,
                tokens_per_second=n_tokens / median_seconds,
                throughput_x_tiktoken=timing.x_yardstick,
                embedding_params=tok.vocab_size * 768,
                status="ok",
            ))
            examples[code][tok.tid] = tuple(tok.pieces(tok.encode(lines[EXAMPLE_LINE])))
        tokenizers[tok.tid] = TokenizerEntry(family=tok.family, vocab_size=tok.vocab_size,
                                             fingerprint=f"fixture-{tok.tid}", status="ok")
    for tid, (family, size, reason) in failed.items():
        for code in LANGUAGES:
            rows.append(skipped_row(tid, family, size, code, reason))
        tokenizers[tid] = TokenizerEntry(family=family, vocab_size=size, fingerprint=None,
                                         status=f"skipped: {reason}")

    record = RunRecord(
        date="2025-01-01T00:00:00Z",
        settings=RunSettings(languages=tuple(LANGUAGES), reference=REFERENCE, vocab_sizes=VOCAB_SIZES,
                             n_sentences={code: N_MEASURE for code in LANGUAGES}, quick=True,
                             timing=TimingSettings(repeats=3, clock=RUN_CLOCK_NAME, yardstick=YARDSTICK_ID)),
        package_versions={"python": platform.python_version()},
        machine=MachineInfo(platform="fixture", cpu_count=2),
        corpus_checksums={},
        tokenizers=tokenizers,
        examples=examples,
        example_sentences={code: lines[EXAMPLE_LINE] for code, lines in measure.items()},
        language_names=dict(LANGUAGES),
    )
    rows.sort(key=lambda r: (r.tokenizer, r.language))
    save_results(Results(rows=tuple(rows), record=record), Path(__file__).with_name("results_fixture.json"))
    print(f"{len(rows)} rows, {len(failed)} skipped tokenizers: {sorted(failed)}")


if __name__ == "__main__":
    main()
