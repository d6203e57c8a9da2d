"""The docs say what the code does: every snippet of README.md and docs/*.md is run or checked.

- A ```python block runs alone, in a fresh temporary folder, in its own process: no name from
  another block, no path relative to the repository. A block that cannot run there has
  `<!-- snippet: not run: REASON -->` on the line before its fence, and the test says the reason.
- A ```bash block: every `python -m benchmark ...` command in it is parsed by the real parser, so
  a verb or option that does not exist (or no longer exists) fails here. They are not run: most
  take minutes at full size; tests/cli/test_commands.py runs each verb on small inputs.
- A ```bash block whose commands start with `$ ` is a transcript: each command is run and its
  output must be the lines printed under it, exactly.
- Every fence names its language, so no block slips past this test unread.
- Every `--option` named in the prose is one some verb takes (`--corpus-dir` became `--corpus`).
- Every module path (`benchmark/measure/plan.py`, `tests/cli/test_commands.py`) and dotted name
  (`benchmark.results.load_results`) the pages name exists, and the layout in docs/extending.md
  names every package and top-level module of `benchmark/`, each file it lists where it says.

tests/docs/test_readme.py checks what README.md and docs/usage.md promise besides.

docs/measurements/ is left out: its pages are dated records of what was run then, not instructions.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.support.paths import REPO

DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LANGUAGES = {"python", "bash", "text", "json"}
FENCE = re.compile(r"^```(?P<language>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
NOT_RUN = re.compile(r"<!-- snippet: not run: (?P<reason>[^>]+?) -->\s*\Z")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    language: str
    body: str
    not_run: str | None  # the reason given in the Markdown, or None

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        before = text[:match.start()]
        marker = NOT_RUN.search(before)
        found.append(Block(path, before.count("\n") + 1, match["language"].strip(), match["body"],
                           marker["reason"] if marker else None))
    return found


ALL_BLOCKS = [block for path in DOC_FILES for block in blocks(path)]
PYTHON = [block for block in ALL_BLOCKS if block.language == "python"]
SHELL = [block for block in ALL_BLOCKS if block.language == "bash"]


def shell_commands(body: str) -> list[tuple[list[str], list[str]]]:
    """Each command of a shell block as argv, with the output lines printed under it when the
    block is a transcript (`$ ` commands); continuation lines joined, comments dropped, `&&`
    chains split."""
    lines = body.replace("\\\n", " ").splitlines()
    transcript = any(line.startswith("$ ") for line in lines)
    commands: list[tuple[list[str], list[str]]] = []
    for line in lines:
        if transcript and not line.startswith("$ "):
            if commands:
                commands[-1][1].append(line)
            continue
        words = shlex.split(line.removeprefix("$ "), comments=True)
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            commands.append((words[:cut], []))
            words = words[cut + 1:]
    return commands


def benchmark_argv(argv: list[str]) -> list[str] | None:
    """The arguments after `python -m benchmark`, None for another command."""
    return argv[3:] if argv[:3] == ["python", "-m", "benchmark"] else None


def test_every_fence_names_its_language():
    unnamed = [f"{block.where} ({block.language or 'none'})" for block in ALL_BLOCKS
               if block.language not in LANGUAGES]
    assert not unnamed, f"name a fence's language ({', '.join(sorted(LANGUAGES))}): {unnamed}"
    assert PYTHON and SHELL


def test_a_marker_says_why_and_stands_before_a_python_block():
    for path in DOC_FILES:
        text = path.read_text(encoding="utf-8")
        n_markers = text.count("<!-- snippet:")
        assert n_markers == sum(block.not_run is not None for block in blocks(path)), (
            f"{path.relative_to(REPO)}: write `<!-- snippet: not run: REASON -->` on the line before a fence")
    assert all(block.language == "python" for block in ALL_BLOCKS if block.not_run)


@pytest.mark.parametrize("block", PYTHON, ids=[block.where for block in PYTHON])
def test_python_snippet_runs_alone_in_a_fresh_folder(block, tmp_path):
    if block.not_run:
        pytest.skip(f"{block.where} is marked not run: {block.not_run}")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", block.body], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{block.where} failed:\n{done.stderr[-3000:]}"


def check_parses(argv: list[str], where: str) -> None:
    """`python -m benchmark ...` as the CLI's parser reads it: a verb or option that does not
    exist fails, naming the doc's line (`--help` is fine)."""
    from benchmark.cli.parser import build_parser

    args = benchmark_argv(argv)
    if args is None:
        return
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            build_parser().parse_args(args)
    except SystemExit as exit:
        if exit.code != 0:
            pytest.fail(f"{where}: `{shlex.join(argv)}` does not parse: {stderr.getvalue().strip().splitlines()[-1]}")


@pytest.mark.parametrize("block", SHELL, ids=[block.where for block in SHELL])
def test_benchmark_commands_in_shell_blocks_parse(block):
    for argv, _ in shell_commands(block.body):
        check_parses(argv, block.where)


@pytest.mark.parametrize("path", DOC_FILES, ids=[path.name for path in DOC_FILES])
def test_benchmark_commands_in_the_prose_parse(path):
    text = path.read_text(encoding="utf-8")
    prose = FENCE.sub(lambda match: "\n" * match[0].count("\n"), text)  # keeps the line numbers
    for match in re.finditer(r"`(python -m benchmark\b[^`]*)`", prose):
        check_parses(shlex.split(match[1]), f"{path.relative_to(REPO)}:{prose[:match.start()].count(chr(10)) + 1}")


TRANSCRIPTS = [block for block in SHELL if any(output for _, output in shell_commands(block.body))]


@pytest.mark.parametrize("block", TRANSCRIPTS, ids=[block.where for block in TRANSCRIPTS])
def test_transcripts_print_what_the_docs_show(block, tmp_path, monkeypatch, capsys):
    from benchmark.cli.parser import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for argv, shown in shell_commands(block.body):
        args = benchmark_argv(argv)
        assert args is not None, f"{block.where}: a transcript runs `python -m benchmark` commands only"
        capsys.readouterr()
        assert main(args) == 0
        assert capsys.readouterr().out.splitlines() == shown, f"{block.where}: `{shlex.join(argv)}` printed otherwise"


def test_shell_commands_are_split_as_a_shell_would():
    body = ("# a comment\npython -m benchmark run --quick  # trailing\n"
            "python3 -m venv .venv && . .venv/bin/activate && python -m benchmark list \\\n    --cache-dir c\n")
    assert [argv for argv, _ in shell_commands(body)] == [
        ["python", "-m", "benchmark", "run", "--quick"], ["python3", "-m", "venv", ".venv"],
        [".", ".venv/bin/activate"], ["python", "-m", "benchmark", "list", "--cache-dir", "c"]]
    assert shell_commands("$ python -m benchmark list\na  1\nb  2\n") == [
        (["python", "-m", "benchmark", "list"], ["a  1", "b  2"])]


OTHER_PROGRAMS = {"pip", "pytest", "dask", "valgrind", "python3", "git"}


def cli_options() -> set[str]:
    """Every `--option` some verb takes (an old spelling kept only to name the new one is not one)."""
    import argparse

    from benchmark.cli.parser import build_parser

    (verbs,) = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return {option for parser in verbs.choices.values() for action in parser._actions
            if action.help != argparse.SUPPRESS for option in action.option_strings if option.startswith("--")}


@pytest.mark.parametrize("path", DOC_FILES, ids=[path.name for path in DOC_FILES])
def test_every_option_the_prose_names_exists(path):
    known = cli_options()
    prose = FENCE.sub("", path.read_text(encoding="utf-8"))
    unknown = set()
    for span in re.findall(r"`([^`\n]+)`", prose):
        words = span.split()
        if not words or words[0] in OTHER_PROGRAMS or (words[0] == "python" and words[1:3] != ["-m", "benchmark"]):
            continue  # another program's options
        unknown |= {option for option in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", span)
                    if option not in known and not option.startswith("--benchmark-")}  # pytest-benchmark's own
    assert not unknown, f"{path.relative_to(REPO)} names options no verb takes: {sorted(unknown)}"


PATH = re.compile(r"(?<![\w/.-])((?:benchmark|tests|corpora|docs)/[\w./*-]*[\w*/])")
DOTTED = re.compile(r"(?<![\w/.-])(benchmark(?:\.\w+)+)")


def resolves(dotted: str) -> bool:
    """`benchmark.results.load_results`: a module, then attributes of it."""
    import importlib

    parts = dotted.split(".")
    for n_module in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:n_module]))
        except ImportError:
            continue
        try:
            for name in parts[n_module:]:
                thing = getattr(thing, name)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("path", DOC_FILES, ids=[path.name for path in DOC_FILES])
def test_every_module_path_and_name_the_pages_give_exists(path):
    text = path.read_text(encoding="utf-8")
    missing = [name for name in sorted(set(PATH.findall(text))) if not list(REPO.glob(name.rstrip("/")))]
    missing += [name for name in sorted(set(DOTTED.findall(text))) if not resolves(name)]
    assert not missing, f"{path.relative_to(REPO)} names what the tree does not have: {missing}"


LAYOUT_PAGE = REPO / "docs" / "extending.md"


def layout_entries() -> list[tuple[Path, str]]:
    """The layout block of docs/extending.md as (path, description): a line at the margin names a
    path from the repository root, an indented one a path in the last folder at the margin; a
    line indented further continues the description above."""
    (block,) = [block for block in blocks(LAYOUT_PAGE) if block.body.startswith("benchmark/\n")]
    entries: list[tuple[Path, str]] = []
    folder = REPO
    for line in block.body.splitlines():
        name, _, description = line.strip().partition("  ")
        if not line.startswith(" "):
            folder = REPO / name
            entries.append((folder, description))
        elif line.startswith("  ") and not line.startswith("   "):
            entries.append((folder / name, description))
        else:
            path, previous = entries[-1]
            entries[-1] = (path, previous + " " + line.strip())
    return entries


def test_the_layout_is_the_tree():
    entries = layout_entries()
    for path, description in entries:
        assert path.exists(), f"docs/extending.md's layout names {path.relative_to(REPO)}, which does not exist"
        for name in re.findall(r"\b\w+\.py\b", description):
            assert (path / name).exists(), f"docs/extending.md's layout puts {name} in {path.relative_to(REPO)}/"
    named = {path for path, _ in entries}
    package = REPO / "benchmark"
    parts = [p for p in package.iterdir() if (p / "__init__.py").is_file()]
    parts += [p for p in package.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    unnamed = sorted(p.name for p in parts if p not in named)
    assert not unnamed, f"docs/extending.md's layout leaves out benchmark/{unnamed}: add a line for each"
