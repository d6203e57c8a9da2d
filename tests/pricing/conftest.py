"""Fixtures the pricing tests share."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory):
    """The listings cache in a scratch folder for a whole module, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield
