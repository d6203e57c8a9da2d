"""Per-line domain labels: a folder's domains.tsv, FLORES-200's metadata, `--domain`'s cut, and a
folder's SHA256SUMS; each bad file is one error naming it."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.corpora import BUNDLED_CORPUS_DIR, load_corpus
from benchmark.corpora.domains import domain_line_indices, only_domain, read_domain_labels
from benchmark.corpora.folders import named_corpus_dir
from benchmark.plumbing.errors import BenchmarkError


def _folder(root: Path, labels: list[str] | None, *, n_lines: int = 4) -> Path:
    for split in ("dev", "devtest"):
        (root / split).mkdir(parents=True, exist_ok=True)
        (root / split / "eng.txt").write_text("".join(f"english {split} {i}\n" for i in range(n_lines)), encoding="utf-8")
        (root / split / "jpn.txt").write_text("".join(f"日本語 {split} {i}\n" for i in range(n_lines)), encoding="utf-8")
        if labels is not None:
            (root / split / "domains.tsv").write_text("domain\n" + "".join(f"{x}\n" for x in labels), encoding="utf-8")
    return root


def test_a_folder_carries_its_labels_and_one_domain_cuts_every_language_alike(tmp_path):
    corpus = load_corpus(_folder(tmp_path / "c", ["news", "social", "news", "speech"]))
    assert corpus.domains["devtest"] == ("news", "social", "news", "speech")
    news = only_domain(corpus, "news")
    assert news.splits["devtest"]["eng"] == ("english devtest 0", "english devtest 2")
    assert news.splits["devtest"]["jpn"] == ("日本語 devtest 0", "日本語 devtest 2")
    assert news.splits["dev"] == corpus.splits["dev"]  # training text is left whole
    assert news.domain == "news" and news.domains["devtest"] == ("news", "news")
    assert "devtest/domains.tsv" in corpus.checksums  # the labels are part of what was measured


def test_an_unknown_domain_names_the_domains_there_are(tmp_path):
    corpus = load_corpus(_folder(tmp_path / "c", ["news", "social", "news", "speech"]))
    with pytest.raises(BenchmarkError, match=r"^--domain 'sports': not a domain of corpus c; its domains: news, social, speech$"):
        only_domain(corpus, "sports")
    unlabelled = load_corpus(_folder(tmp_path / "u", None))
    with pytest.raises(BenchmarkError, match="has no domain labels"):
        only_domain(unlabelled, "news")


@pytest.mark.parametrize("text, message", [
    ("domain\nnews\nnews\n", r"domains.tsv: 2 labels for 4 corpus lines"),
    ("label\nnews\nnews\nnews\nnews\n", r"domains.tsv:1: header 'label'"),
    ("domain\nnews\n\nnews\nnews\n", r"domains.tsv:3: '' is not a domain label"),
    ("domain\nnews\nso cial\nnews\nnews\n", r"domains.tsv:3: 'so cial' is not a domain label"),
])
def test_a_broken_labels_file_is_one_error_naming_file_and_line(tmp_path, text, message):
    root = _folder(tmp_path / "c", ["news"] * 4)
    (root / "devtest" / "domains.tsv").write_text(text, encoding="utf-8")
    with pytest.raises(BenchmarkError, match=message):
        load_corpus(root)
    (root / "devtest" / "domains.tsv").write_bytes(b"domain\nnews\n\xff\nnews\nnews\n")
    with pytest.raises(BenchmarkError, match="domains.tsv: not valid UTF-8"):
        load_corpus(root)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["news", "social", "speech", "literary"]), min_size=1, max_size=40))
def test_labels_read_back_as_written_and_their_lines_partition_the_corpus(labels):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "domains.tsv"
        path.write_text("domain\n" + "".join(f"{x}\n" for x in labels), encoding="utf-8")
        assert read_domain_labels(path, len(labels)) == tuple(labels)
    indices = domain_line_indices(tuple(labels))
    assert sorted(i for found in indices.values() for i in found) == list(range(len(labels)))
    assert all(labels[i] == name for name, found in indices.items() for i in found)


def test_the_bundled_corpus_takes_its_domains_from_its_metadata():
    corpus = load_corpus(BUNDLED_CORPUS_DIR)
    for split in ("dev", "devtest"):
        with open(BUNDLED_CORPUS_DIR / f"metadata_{split}.tsv", encoding="utf-8", newline="") as file:
            column = [row["domain"] for row in csv.DictReader(file, delimiter="\t")]
        assert corpus.domains[split] == tuple(column) and len(column) == corpus.n_sentences(split)
    assert set(corpus.domains["devtest"]) == {"wikibooks", "wikinews", "wikivoyage"}
    news = only_domain(corpus, "wikinews")
    assert news.n_sentences("devtest") == corpus.domains["devtest"].count("wikinews")


def test_a_folder_with_sha256sums_refuses_a_changed_or_unlisted_file(tmp_path):
    root = _folder(tmp_path / "c", ["news"] * 4)
    names = [f"{split}/{name}" for split in ("dev", "devtest") for name in ("eng.txt", "jpn.txt", "domains.tsv")]
    (root / "SHA256SUMS").write_text("".join(f"{hashlib.sha256((root / n).read_bytes()).hexdigest()}  {n}\n"
                                             for n in names), encoding="ascii")
    assert load_corpus(root).domains["devtest"] == ("news",) * 4
    with open(root / "devtest" / "jpn.txt", "a", encoding="utf-8") as file:
        file.write("日本語 extra\n")
    with pytest.raises(BenchmarkError, match=r"devtest/jpn.txt: SHA-256 [0-9a-f]{64} does not match"):
        load_corpus(root)
    (root / "SHA256SUMS").write_text("\n".join(f"{'0' * 64}  {n}" for n in names[:2]) + "\n", encoding="ascii")
    with pytest.raises(BenchmarkError, match=r"dev/eng.txt: SHA-256 .* does not match"):
        load_corpus(root)
    (root / "SHA256SUMS").write_text("not a sum\n", encoding="ascii")
    with pytest.raises(BenchmarkError, match=r"SHA256SUMS:1: not a '<sha256>  <name>' line"):
        load_corpus(root)


def test_a_corpus_is_named_by_its_folder_in_corpora(tmp_path, monkeypatch):
    import benchmark.corpora.folders as folders

    monkeypatch.setattr(folders, "CORPORA_DIR", tmp_path)
    monkeypatch.chdir("/")  # no folder called `built` here
    _folder(tmp_path / "built", ["news"] * 4)
    assert named_corpus_dir(Path("built")) == tmp_path / "built"
    (tmp_path / "unbuilt").mkdir()
    (tmp_path / "unbuilt" / "README.md").write_text("how to build\n", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"corpus 'unbuilt' is not built in this checkout.*README.md"):
        named_corpus_dir(Path("unbuilt"))
    assert named_corpus_dir(Path("nowhere")) == Path("nowhere")  # the folder's own error comes later
