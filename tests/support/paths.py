"""Where the tests find the repository, its bundled corpora and their own data, whichever folder
of tests/ a test module sits in."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"  # small real results files, tiny corpora, and the scripts that made them
FLORES = REPO / "corpora" / "flores200"
