"""What README.md and docs/usage.md promise besides their snippets (tests/docs/test_docs.py runs
and parses those): the README fits a newcomer's first two minutes, its set-up commands are the
ones CI runs, and the usage page names every verb and every option, so a new option cannot go
unexplained. Its `cost hin` excerpt is checked against the answer by tests/pricing/test_pricing.py.
"""

from __future__ import annotations

import argparse
import re

from benchmark.cli.parser import build_parser
from tests.support.paths import REPO

README = REPO / "README.md"
USAGE = REPO / "docs" / "usage.md"
MAX_README_LINES = 150


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_readme_is_at_most_150_lines():
    n_lines = len(readme().splitlines())
    assert n_lines <= MAX_README_LINES, (
        f"README.md has {n_lines} lines: keep it to {MAX_README_LINES}, and move detail to docs/usage.md")


def test_the_readme_tries_quick_before_the_full_run():
    text = readme()
    assert text.index("python -m benchmark run --quick") < text.index("pip install -e . && python -m benchmark run\n")


def test_the_readme_set_up_commands_are_what_ci_runs():
    text, ci = readme(), (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && python -m benchmark run\n"
            in text)
    assert ("python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest\n"
            in text)
    assert "pip install --quiet -e '.[test]'" in ci and ci.rstrip().endswith("python -m pytest")


def verb_parsers() -> dict[str, argparse.ArgumentParser]:
    (verbs,) = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return dict(verbs.choices)


def options_of(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions if action.help != argparse.SUPPRESS
            for option in action.option_strings if option.startswith("--") and option != "--help"}


def usage_sections() -> dict[str, str]:
    """docs/usage.md's `## \\`verb\\`: ...` sections by verb."""
    text = USAGE.read_text(encoding="utf-8")
    parts = re.split(r"^## `(\w+)`.*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_usage_page_has_a_section_for_every_verb():
    assert set(usage_sections()) == set(verb_parsers())


def test_the_usage_page_names_every_option_of_every_verb():
    # An option a verb shares with `run` (train's --languages) may be explained once, under run.
    sections = usage_sections()
    named = {verb: set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", body)) for verb, body in sections.items()}
    missing = {verb: sorted(options_of(parser) - named.get(verb, set()) - named["run"])
               for verb, parser in verb_parsers().items()}
    missing = {verb: options for verb, options in missing.items() if options}
    assert not missing, f"docs/usage.md does not name these options in their verb's section: {missing}"


def test_run_help_groups_the_options_for_your_own_text():
    (group,) = [group for group in verb_parsers()["run"]._action_groups if group.title.startswith("your ")]
    assert {"--languages", "--corpus", "--train-corpus", "--reference", "--tokenizer-file", "--models"} <= {
        option for action in group._group_actions for option in action.option_strings}
