"""The output folder: one writer at a time, never a user's file lost, measurements kept when the
publishing is refused (issue #26, cases 1, 2, 4, 7 and 10).

Real runs on real folders: two `python -m benchmark` processes at once on one folder, folders of a
user's own files, a folder that is the current one, a symbolic link to a report.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmark.cli.parser import main
from benchmark.plumbing.manifest import MANIFEST, foreign_files
from benchmark.results.rows import load_results
from tests.support.paths import DATA, REPO

TINY = ["--corpus", str(DATA / "tiny_corpus"), "--tokenizers", "tiktoken/cl100k_base", "--repeats", "1"]


def run_args(output: Path, *extra: str) -> list[str]:
    return ["run", *TINY, "--no-plots", "--output", str(output), *extra]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "benchmark", *args]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "CI": "true"}


def assert_whole_report(folder: Path) -> str:
    """One report whose files belong together (its manifest lists each, unchanged); its date."""
    assert foreign_files(folder) == []
    listed = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert {"results.json", "results.csv", "summaries.csv", "README.md", "index.html"} <= set(listed)
    date = load_results(folder / "results.json").record.date
    assert f"Run of {date}" in (folder / "README.md").read_text(encoding="utf-8")
    return date


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


# ---------------------------------------------------------------- case 1: one writer at a time


def wait_for(path: Path, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_a_second_writer_stops_at_once_naming_the_first_and_the_first_report_is_whole(tmp_path):
    output = tmp_path / "O"
    other = tmp_path / "other"
    assert main(run_args(other)) == 0
    # Long enough (plots, two languages of the bundled corpus) to be caught in the act.
    first = subprocess.Popen(command("run", "--languages", "eng,kor", "--max-sentences", "40", "--tokenizers",
                                     "tiktoken/cl100k_base", "--repeats", "1", "--output", str(output)),
                             cwd=tmp_path, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(tmp_path / ".O.lock", first)
    second = subprocess.run(command("report", "--results", str(other / "results.json"), "--output", str(output),
                                    "--no-plots"), cwd=tmp_path, env=environment(), capture_output=True, text=True,
                            timeout=120)
    still_running = first.poll() is None
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert still_running, "the first run ended before the second began: the test proves nothing"
    assert second.returncode == 2
    assert second.stderr == f"error: another run (pid {first.pid}) is writing {output}; wait for it to finish, " \
                            "or choose another --output\n"
    assert_whole_report(output)
    assert load_results(output / "results.json").record.settings.max_sentences == 40
    assert leftovers(tmp_path) == []  # no staging folder, no lock file


def test_two_runs_started_together_one_report_and_the_exit_codes_say_which(tmp_path):
    output = tmp_path / "O"
    runs = [subprocess.Popen(command(*run_args(output)), cwd=tmp_path, env=environment(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    done = [(run.pid, run.returncode, out, err) for run, (out, err) in zip(runs, outputs)]
    assert sorted(code for _, code, _, _ in done) in ([0, 0], [0, 2])
    for pid, code, out, err in done:
        if code == 2:
            other = next(p for p, c, _, _ in done if c == 0)
            assert f"another run (pid {other}) is writing {output}" in err
        else:
            # index.html, README.md, results.csv, results.json, summaries.csv, code.csv, manifest.json
            assert f"wrote 7 files to {output}/" in out
    assert_whole_report(output)
    assert leftovers(tmp_path) == []


def test_a_killed_runs_staging_folder_is_removed_by_the_next_run_not_by_a_waiting_one(tmp_path):
    from benchmark.plumbing.publish import claim_output

    output = tmp_path / "O"
    assert main(run_args(output)) == 0
    killed = tmp_path / ".O.new-abcd1234"  # what a run killed mid-render leaves (or one rendering now)
    stranger = tmp_path / ".O.new-abcd1234.keep"  # not a staging folder of O: not ours to remove
    stranger.mkdir()
    with claim_output(output):
        killed.mkdir()
        (killed / "results.json").write_text("{}", encoding="utf-8")
        # While a run holds O, another is refused and touches nothing of it.
        assert main(run_args(output)) == 2
        assert killed.is_dir()
    assert main(run_args(output)) == 0
    assert not killed.exists() and stranger.is_dir()


# ---------------------------------------------------------------- case 2: a user's folder


def test_a_folder_of_a_users_files_is_refused_before_measuring_and_kept(tmp_path, capsys):
    folder = tmp_path / "R"
    (folder / "plots" / "thesis").mkdir(parents=True)
    files = {"README.md": "mine\n", "index.html": "x\n", "plots/thesis/figure1.png": "png",
             "plots/raw.csv": "a,b\n"}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    assert main(run_args(folder)) == 2
    captured = capsys.readouterr()
    assert "measuring" not in captured.out  # refused before it began
    assert captured.err.startswith(f"error: {folder}: holds files that are not part of a report (README.md, "
                                   "index.html, plots/) (it has no manifest.json, so none of its files is known to "
                                   "be a report's)")
    assert "--replace-foreign" in captured.err
    assert {name: (folder / name).read_text(encoding="utf-8") for name in files} == files


def test_the_default_reports_folder_of_a_working_folder_with_its_own_readme_is_kept(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "README.md").write_text("# my notes\n", encoding="utf-8")
    done = subprocess.run(command("run", *TINY, "--no-plots"), cwd=tmp_path, env=environment(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "reports: holds files that are not part of a report (README.md)" in done.stderr
    assert (tmp_path / "reports" / "README.md").read_text(encoding="utf-8") == "# my notes\n"


def test_a_report_is_replaced_but_not_once_a_file_in_it_changed_unless_asked(tmp_path, capsys):
    output = tmp_path / "O"
    assert main(run_args(output)) == 0
    first = assert_whole_report(output)
    assert main(run_args(output)) == 0  # exactly a report: replaced
    assert assert_whole_report(output) >= first
    (output / "README.md").write_text("edited by hand\n", encoding="utf-8")
    (output / "notes.txt").write_text("mine\n", encoding="utf-8")
    capsys.readouterr()
    assert main(run_args(output)) == 2
    assert "(README.md (changed), notes.txt)" in capsys.readouterr().err
    assert (output / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert main(run_args(output, "--replace-foreign")) == 0
    assert not (output / "notes.txt").exists()
    assert_whole_report(output)


def test_a_folder_without_a_manifest_is_no_report_but_for_what_the_new_one_carries(tmp_path):
    # issue 38 item 1: a folder without a manifest was taken for a report of the version before
    # manifests, so a user's results.csv beside a copied results.json was replaced.
    from benchmark.plumbing.manifest import sha256_file

    legacy = tmp_path / "reports"
    shutil.copytree(REPO / "reports", legacy, ignore=shutil.ignore_patterns("all-languages"))
    assert foreign_files(legacy) == []
    (legacy / MANIFEST).unlink()
    found = foreign_files(legacy)
    assert {"README.md", "index.html", "results.csv", "results.json", "summaries.csv", "plots/"} <= set(found)
    carried = {"results.json": sha256_file(legacy / "results.json")}
    assert "results.json" not in foreign_files(legacy, carried=carried)
    for name in list(legacy.iterdir()):
        if name.name != "results.json":
            shutil.rmtree(name) if name.is_dir() else name.unlink()
    assert foreign_files(legacy, carried=carried) == []  # only what the new report holds byte for byte
    assert foreign_files(legacy, carried={"results.json": "0" * 64}) == ["results.json"]


# ---------------------------------------------------------------- case 4: checked before measuring


def test_the_current_folder_or_one_holding_the_cache_is_refused_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    started = time.perf_counter()
    assert main(run_args(Path("."))) == 2
    err = capsys.readouterr().err
    assert "is the current folder or holds it" in err and "Errno" not in err
    output = tmp_path / "O"
    assert main(run_args(output, "--cache-dir", str(output / "cache"), "--tokenizers", "bpe/*",
                         "--vocab-sizes", "300")) == 2
    err = capsys.readouterr().err
    assert f"{output}: holds the cache of trained tokenizers ({output / 'cache'})" in err
    assert not output.exists()
    assert time.perf_counter() - started < 20  # nothing was measured or trained


def test_a_file_dropped_in_during_the_run_is_kept_and_so_are_the_measurements(tmp_path, monkeypatch, capsys):
    import benchmark.report as report

    output = tmp_path / "O"
    assert main(run_args(output)) == 0
    before = (output / "results.json").read_bytes()
    write_reports = report.write_reports

    def drop_a_file(results, folder, **kwargs):
        (output / "notes.txt").write_text("mine\n", encoding="utf-8")  # the user, while it renders
        return write_reports(results, folder, **kwargs)

    monkeypatch.setattr(report, "write_reports", drop_a_file)
    capsys.readouterr()
    assert main(run_args(output)) == 2
    err = capsys.readouterr().err
    kept = tmp_path / "O-unrendered-results.json"
    assert "holds files that are not part of a report (notes.txt)" in err
    assert f"the measurements are saved in {kept} and {output} is as it was" in err
    assert f"`python -m benchmark report --results {kept} --output {output}`" in err
    assert load_results(kept).rows
    assert (output / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert (output / "results.json").read_bytes() == before
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- cases 7 and 10


def test_report_in_the_folder_it_renders_says_what_to_do_instead_of_errno_16(tmp_path):
    output = tmp_path / "O"
    assert main(run_args(output)) == 0
    done = subprocess.run(command("report", "--results", "results.json", "--no-plots"), cwd=output,
                          env=environment(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == (f"error: .: is the current folder or holds it, and a report replaces its folder whole; "
                           f"run from outside it (e.g. `cd {tmp_path}`) and give --output {output}\n")
    again = subprocess.run(command("report", "--results", "O/results.json", "--no-plots"), cwd=tmp_path,
                           env=environment(), capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert_whole_report(output)


def test_a_link_to_a_report_stays_a_link_and_its_folder_gets_the_new_report(tmp_path):
    real = tmp_path / "real"
    assert main(run_args(real)) == 0
    first = (real / "results.json").read_bytes()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert main(run_args(link)) == 0
    assert link.is_symlink() and link.resolve() == real
    assert (real / "results.json").read_bytes() != first
    assert_whole_report(real)
    assert leftovers(tmp_path) == []
