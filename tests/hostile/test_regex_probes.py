"""A user's regex that backtracks without end on text made of its own literals (issue 53): the
fixed probes ('a' * 40, ' ' * 40, ...) let `(?:x|x)+$` through, and HF's engine then panicked on
'x' * 40 + '!' with 69 lines of Rust backtrace. The probes now include runs of what each pattern
names, so the file is refused when read, in one line, by a real process."""

from __future__ import annotations

import pytest

from benchmark.bpe.patterns import PROBES, probes_for
from tests.adapters.test_hf_backtracking import benchmark_cli, hf_file


@pytest.mark.parametrize("pattern, text", [("(?:x|x)+$", "x" * 40 + "!"), ("(?:qz|qz)+$", "qz" * 40 + "!"),
                                           ("(?:[Q-R]z|[Q-R]z)+$", "Qz" * 40 + "\n")])
def test_a_regex_that_backtracks_on_its_own_literals_is_refused_in_one_line(tmp_path, pattern, text):
    path = hf_file(tmp_path / "own.json", pattern)
    done = benchmark_cli("encode", text, "--tokenizer-file", str(path), "--tokenizers", "file/*", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"error: {path}: its regex {pattern!r} "
                                                                    "backtracks without end: on "), done.stderr


def test_the_probes_of_a_published_pattern_are_few_and_each_once():
    from benchmark.bpe.patterns import PATTERNS

    for name, pattern in PATTERNS.items():
        if pattern is not None:
            probes = probes_for(pattern)
            assert probes[:len(PROBES)] == PROBES and len(set(probes)) == len(probes) < 200, name
