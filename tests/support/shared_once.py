"""A folder made once for a whole pytest run, even when pytest-xdist runs it on several workers.

`made_once(tmp_path_factory, name, make)` calls `make(folder)` (which writes into
folder and returns the paths it wrote) in the first worker that asks, under the run's common
temporary folder (the parent of every worker's own); the other workers wait for it to finish and
get the same folder and paths. The first to ask takes a lock file made with O_CREAT | O_EXCL, so
exactly one worker makes it; the paths are published (written, then renamed into place) only once
the folder is complete. If making it fails, the others fail at once with the error."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

WAIT_SECONDS = 600


def made_once(tmp_path_factory, name: str, make: Callable[[Path], list[Path]]) -> tuple[Path, list[Path]]:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # no xdist (-n 0): this process alone
        out = tmp_path_factory.mktemp(name)
        return out, make(out)
    root = tmp_path_factory.getbasetemp().parent / name
    root.mkdir(exist_ok=True)
    out, done, failed = root / "made", root / "paths.json", root / "failed.txt"
    try:
        os.close(os.open(root / "lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        deadline = time.monotonic() + WAIT_SECONDS
        while not done.exists():
            if failed.exists():
                raise RuntimeError(f"another worker failed to make {name}: {failed.read_text(encoding='utf-8')}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"another worker did not make {name} in {WAIT_SECONDS} s")
            time.sleep(0.1)
        return out, [out / relative for relative in json.loads(done.read_text(encoding="utf-8"))]
    try:
        out.mkdir()  # an empty folder, as tmp_path_factory.mktemp gives
        written = make(out)
    except BaseException as error:
        failed.write_text(repr(error), encoding="utf-8")
        raise
    partial = root / "paths.json.partial"
    partial.write_text(json.dumps([path.relative_to(out).as_posix() for path in written]), encoding="utf-8")
    partial.rename(done)
    return out, written
