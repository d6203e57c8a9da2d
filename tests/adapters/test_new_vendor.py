"""Adding a vendor is its module, its line in the table, its file and its test, and nothing else:
a made-up vendor, Acme, is added to a copy of the package with exactly those edits (its module
under adapters/, its name in families.py's import and PRODUCTION_MODULES, and as its file the
`qwen.tiktoken` that Alibaba's dashscope ships, a package no vendor of the table reads), and in
that copy its id, `--tokenizers production`, `list`, a run's rows and record (the package and its
version, the file's provenance), the results cache's key and the report's name, order and colour
all follow. tests/report/test_style.py shows the palette alone. Its test is the one every vendor has: its ids against the vendor's own encoder.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO

pytest.importorskip("dashscope")

ACME_MODULE = '''"""Acme's vocabulary, made up for tests/adapters/test_new_vendor.py: `acme/qwen`, the rank file
`resources/qwen.tiktoken` of Alibaba's dashscope, counted as Qwen's (NFC, then tiktoken with Qwen's
pattern)."""

from __future__ import annotations

from benchmark.adapters.alibaba_qwen import N_SPECIAL, QWEN_PATTERN
from benchmark.adapters.base import Adapter, Recipe
from benchmark.adapters.openai_tiktoken import RankVocabulary, vendor_rank_adapter
from benchmark.adapters.table import NFC, PRODUCTION, Family, pick_file, pretrained
from benchmark.plumbing.pinned import PinnedFile, read_pinned

FAMILY = Family("acme", "Acme Tokens", PRODUCTION, order=85, round_trip=NFC, byte_level=False)
FILES = {"qwen": PinnedFile("dashscope", "dashscope", "resources/qwen.tiktoken",
                            "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",
                            "made up for a test: the qwen.tiktoken Alibaba's dashscope ships")}
TOKENIZERS = pretrained(FAMILY, FILES)


def vendor_file(name: str) -> PinnedFile:
    return pick_file(FILES, name, "Acme")


def load(name: str) -> Adapter:
    from benchmark.bpe.openai_ranks import parse_rank_file

    file = vendor_file(name)
    ranks = parse_rank_file(read_pinned(file), source=file.file)
    vocabulary = RankVocabulary(ranks=ranks, pattern=QWEN_PATTERN, n_vocab=len(ranks) + N_SPECIAL,
                                special_ids=f"{len(ranks)}-{len(ranks) + N_SPECIAL - 1}")
    return vendor_rank_adapter(vocabulary, file, id=f"{FAMILY.family}/{name}", family=FAMILY.family,
                               recipe=Recipe(f"{__name__}:load", (name,)), nfc=True)
'''

# Run in the copy: what a user and a report would see of the new vendor.
CHECKS = '''
import contextlib, io, json, sys
from pathlib import Path
out, cache = Path(sys.argv[1]), Path(sys.argv[2])
from benchmark.adapters import PRETRAINED, select_ids
from benchmark.adapters.families import (PRETRAINED_TOKENIZERS, family_name, family_rank, production_tokenizers,
                                         vendor_packages)
from benchmark.cli.parser import main
from benchmark.measure.describe import PACKAGES
from benchmark.measure.results_cache import counting_packages
from benchmark.report.plots.style import family_styles
from benchmark.results.rows import load_results
from tests.support.vendor_code import LANGUAGES, VENDOR_ENCODERS, devtest_lines

acme, vendor = PRETRAINED["acme/qwen"](), VENDOR_ENCODERS["qwen/qwen"]()  # its test: the vendor's own encoder
lines = [line for language in LANGUAGES for line in devtest_lines(language)[:200]]
assert main(["run", "--languages", "eng,kor", "--max-sentences", "20", "--repeats", "1", "--no-plots",
             "--tokenizers", "acme/*,qwen/qwen", "--output", str(out), "--cache-dir", str(cache)]) == 0
results = load_results(out / "results.json")
production = sorted({spec.family.family for spec in PRETRAINED_TOKENIZERS.values()})
styles = family_styles(production)
listed = io.StringIO()
with contextlib.redirect_stdout(listed):
    assert main(["list", "--cache-dir", str(cache)]) == 0
print(json.dumps({
    "mismatches": sum(acme.encode(line) != vendor(line) for line in lines), "n_lines": len(lines),
    "in_production": "acme/qwen" in select_ids(["production"], [1024]),
    "selected": select_ids(["acme/*"], [1024]),
    "rows": sorted({(row.tokenizer, row.status) for row in results.rows}),
    "n_tokens_equal_qwen": all(a.n_tokens == q.n_tokens for a, q in zip(
        [r for r in results.rows if r.tokenizer == "acme/qwen"], [r for r in results.rows if r.tokenizer == "qwen/qwen"])),
    "source": [results.record.tokenizers["acme/qwen"].source.package, results.record.tokenizers["acme/qwen"].source.provenance],
    "record_version": results.record.package_versions.get("dashscope"),
    "packages": ["dashscope" in vendor_packages(), "dashscope" in PACKAGES, "dashscope" in counting_packages()],
    "shown": production_tokenizers(results.rows),
    "name": family_name("acme"), "rank_between": family_rank("xai") < family_rank("acme") < family_rank("anthropic"),
    "colour_own": styles["acme"].colour not in [styles[f].colour for f in production if f != "acme"],
    "listed": [line.split(None, 1) for line in listed.getvalue().splitlines() if line.split()[:1] == ["acme/qwen"]],
    "readme_names_it": "acme/qwen" in (out / "README.md").read_text(encoding="utf-8"),
}))
'''


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def acme_copy(tmp_path_factory):
    """A copy of the package with Acme added by its module and its line in the table, and the diff."""
    root = tmp_path_factory.mktemp("acme")
    shutil.copytree(REPO / "benchmark", root / "benchmark", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "corpora", root / "corpora", copy_function=_link_or_copy)  # the bundled corpus, its own
    (root / "benchmark" / "adapters" / "acme_tokens.py").write_text(ACME_MODULE, encoding="utf-8")
    families = root / "benchmark" / "adapters" / "families.py"
    before = families.read_text(encoding="utf-8")
    after = before.replace("from benchmark.adapters import (\n", "from benchmark.adapters import (\n    acme_tokens,\n", 1)
    after = after.replace("xai_grok, anthropic_claude)", "xai_grok, anthropic_claude, acme_tokens)", 1)
    families.write_text(after, encoding="utf-8")
    changed = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    return root, changed


def test_the_table_line_is_the_only_edit_outside_the_vendors_module(acme_copy):
    root, changed = acme_copy
    assert len(changed) == 3 and changed[0] == "+    acme_tokens,", changed  # the import, the tuple's line twice
    assert changed[1].startswith("-") and changed[2].endswith("anthropic_claude, acme_tokens)")
    edited = {str(path.relative_to(root / "benchmark")) for path in (root / "benchmark").rglob("*.py")
              if not (REPO / "benchmark" / path.relative_to(root / "benchmark")).exists()
              or (REPO / "benchmark" / path.relative_to(root / "benchmark")).read_bytes() != path.read_bytes()}
    assert edited == {"adapters/acme_tokens.py", "adapters/families.py"}


def test_everything_else_follows_from_the_table(acme_copy, tmp_path):
    root, _ = acme_copy
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(REPO)]), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = subprocess.run([sys.executable, "-c", CHECKS, str(tmp_path / "out"), str(tmp_path / "cache")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["mismatches"] == 0 and seen["n_lines"] == 1200  # the same ids as dashscope's own encoder
    assert seen["in_production"] and seen["selected"] == ["acme/qwen"]
    assert seen["rows"] == [["acme/qwen", "ok"], ["qwen/qwen", "ok"]] and seen["n_tokens_equal_qwen"]
    assert seen["source"] == ["dashscope", "made up for a test: the qwen.tiktoken Alibaba's dashscope ships"]
    from importlib import metadata

    assert seen["record_version"] == metadata.version("dashscope")
    assert seen["packages"] == [True, True, True]  # the record's and the results cache key's packages
    assert seen["shown"] == ["qwen/qwen", "acme/qwen"]  # report order: the family's `order`
    assert seen["name"] == "Acme Tokens" and seen["rank_between"] and seen["colour_own"]
    assert seen["readme_names_it"]
    (listed,) = seen["listed"]  # `list`: the file and the package it ships in, with the pinned version
    assert "dashscope/resources/qwen.tiktoken, from dashscope " + metadata.version("dashscope") in listed[1]
