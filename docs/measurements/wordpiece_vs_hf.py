"""Our WordPiece trainer (benchmark/adapters/hf_wordpiece.py) against HF's WordPieceTrainer:

    python docs/measurements/wordpiece_vs_hf.py --sizes 4096,8192,16384 --trainings 5
    python docs/measurements/wordpiece_vs_hf.py --languages all --max-lines 147 --sizes 8192,16384 --trainings 1

On the FLORES-200 dev lines of the languages (default: the six of the default run), per size and
for each of N HF trainings: HF's time, whether ours, told the order that training numbered its
`##` forms in, writes the same tokenizer.json byte for byte (and its time), and the devtest
tokens of the six default languages under each HF training and under ours in its own order.
"""

from __future__ import annotations

import argparse
import json
import time

from benchmark.adapters import hf_tokenizers, hf_wordpiece
from benchmark.corpora import load_flores
from benchmark.corpora.flores import bundled_languages

SIX = ("eng_Latn", "spa_Latn", "rus_Cyrl", "jpn_Jpan", "kor_Hang", "ces_Latn")


def hf_training(texts: list[str], size: int):
    from tokenizers import trainers

    tok = hf_tokenizers._new_wordpiece()
    started = time.perf_counter()
    tok.train_from_iterator(texts, trainer=trainers.WordPieceTrainer(
        vocab_size=size, min_frequency=hf_tokenizers.MIN_FREQUENCY, special_tokens=[hf_tokenizers.UNK],
        show_progress=False))
    return tok, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--languages", default=",".join(SIX), help="codes, or all")
    parser.add_argument("--max-lines", type=int, default=None, help="the first N dev lines of each")
    parser.add_argument("--sizes", default="4096,8192,16384")
    parser.add_argument("--trainings", type=int, default=5, help="HF trainings per size")
    args = parser.parse_args()
    corpus = load_flores(languages=bundled_languages() if args.languages == "all" else args.languages.split(","))
    texts = [line for code in corpus.languages for line in corpus.lines("dev", code)[:args.max_lines]]
    measured = load_flores(languages=SIX)
    devtest = [line for code in SIX for line in measured.lines("devtest", code)]
    started = time.perf_counter()
    words = hf_wordpiece.count_words(hf_tokenizers._new_wordpiece(), texts)
    count_seconds = time.perf_counter() - started
    n_before = 1 + len({ch for word in words for ch in word})
    n_continuations = len({ch for word in words for ch in word[1:]})
    print(f"{len(texts):,} lines, {len(words):,} distinct words, {n_before - 1:,} characters, "
          f"{n_continuations:,} ## forms; counting the words {count_seconds:.2f} s")

    def n_tokens(tok) -> int:
        return sum(len(e.ids) for e in tok.encode_batch(devtest, add_special_tokens=False))

    for size in map(int, args.sizes.split(",")):
        same, hf_counts = 0, []
        for i in range(args.trainings):
            tok, hf_seconds = hf_training(texts, size)
            vocab = json.loads(tok.to_str())["model"]["vocab"]
            order = sorted(vocab, key=vocab.get)[n_before:n_before + n_continuations]
            started = time.perf_counter()
            ours = hf_wordpiece.train_vocab(words, vocab_size=size, min_frequency=hf_tokenizers.MIN_FREQUENCY,
                                            continuation_order=order).vocab
            ours_seconds = time.perf_counter() - started
            identical = hf_tokenizers.wordpiece_from_vocab(ours).to_str() == tok.to_str()
            same += identical
            hf_counts.append(n_tokens(tok))
            print(f"  {size}: HF training {i + 1} {hf_seconds:.2f} s; ours in its order {ours_seconds:.2f} s "
                  f"(+ {count_seconds:.2f} s counting), same file: {identical}")
        own, own_seconds = hf_tokenizers._wordpiece_trainer(texts, [size])(size)
        low = min(hf_counts)
        print(f"{size}: same file {same} of {args.trainings}; devtest tokens (six languages): HF {hf_counts}, "
              f"spread {(max(hf_counts) - low) / low:.3%}; ours {n_tokens(own)} ({(n_tokens(own) - low) / low:+.3%} "
              f"from HF's fewest), trained in {own_seconds:.2f} s with the counting")


if __name__ == "__main__":
    main()
