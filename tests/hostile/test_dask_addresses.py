"""A Dask address that is refused or cannot exist is said at once, as what it is (issue 53): each
waited Dask's whole connect timeout (30 s) and was reported as a handshake timeout. A real process
of `run --executor dask`, with Dask's default timeout; the time limit guards against that wait."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from tests.support.paths import DATA, REPO

pytest.importorskip("distributed")


def free_port() -> int:
    """A port of this machine nothing listens on (bound, then closed: connections to it are refused)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        return held.getsockname()[1]


@pytest.mark.parametrize("address, why", [
    ("tcp://127.0.0.1:{free}", "connection refused at 127.0.0.1:{free}: nothing listens on that port"),
    ("tcp://127.0.0.1:99999", "port 99999 cannot exist: a port is 1 to 65535"),
    ("tcp://256.1.1.1:8786", "host '256.1.1.1' is no address this machine can resolve: "),
])
def test_a_refused_or_impossible_address_is_one_line_at_once(tmp_path, address, why):
    free = free_port()
    address, why = address.format(free=free), why.format(free=free)
    done = subprocess.run(
        [sys.executable, "-m", "benchmark", "run", "--corpus", str(DATA / "tiny_corpus"), "--tokenizers",
         "tiktoken/cl100k_base", "--repeats", "1", "--no-plots", "--executor", "dask", "--scheduler", address,
         "--output", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=20, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [line for line in done.stderr.splitlines() if "error" in line.lower()], done.stderr
    assert len(errors) == 1 and errors[0].startswith(
        f"error: --scheduler {address}: cannot reach a Dask scheduler ({why}"), done.stderr
    assert not (tmp_path / "out").exists()
