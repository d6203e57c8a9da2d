"""The package as docs/cluster.md tells a worker machine to get it: a wheel built from the
checkout with `pip wheel --no-deps --wheel-dir dist .`, installed with `pip install` where the
checkout is not.

The wheel is built from a copy of the package (pip builds in the source folder, and a test must
not write into the checkout), with `--no-build-isolation`: the documented command fetches
setuptools into a fresh build environment, which a test cannot do offline; the build itself is
the same. Then a process that sees only the wheel's files counts what this one counts, from the
same tasks a Dask worker receives (a model travels as its file's bytes, a vendor's vocabulary by
name).
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.paths import REPO

PACKAGE = REPO / "benchmark"

WORKER = """
import pickle, sys
from pathlib import Path
import benchmark
assert Path(benchmark.__file__).is_relative_to(sys.argv[1]), benchmark.__file__  # the wheel's, not the checkout's
from benchmark.measure.executors import run_count_task
tasks = pickle.loads(Path("tasks.pickle").read_bytes())
Path("results.pickle").write_bytes(pickle.dumps([run_count_task(task) for task in tasks]))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    shutil.copytree(PACKAGE, source / "benchmark", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    dist = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "--wheel-dir", str(dist), str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (built,) = dist.glob("tokencost_benchmark-*.whl")
    return built


def test_the_wheel_holds_every_file_of_the_package(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = [path.relative_to(REPO).as_posix() for path in PACKAGE.rglob("*")
             if path.is_file() and "__pycache__" not in path.parts]
    missing = [name for name in files if name not in names]
    assert not missing, f"pip wheel leaves out {missing}: add their pattern to [tool.setuptools.package-data]"
    assert "benchmark/speed/baseline.json" in names  # a data file, not only modules


def test_a_worker_with_only_the_wheel_counts_what_this_process_counts(wheel, tmp_path):
    from benchmark.adapters import PRETRAINED, load_tokenizer_file
    from benchmark.bpe import ByteLevelBPE
    from benchmark.corpora import load_flores
    from benchmark.measure.executors import count_tasks, run_count_task

    site = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(site),
                                str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr[-2000:]  # the dependencies are this environment's
    flores = load_flores(languages=["eng_Latn", "kor_Hang"])
    texts = {code: flores.lines("devtest", code)[:40] for code in flores.languages}
    model = tmp_path / "model.json"
    ByteLevelBPE.train(flores.lines("dev", "kor_Hang")[:200], vocab_size=400).save(model)
    tasks = [task for adapter in (PRETRAINED["tiktoken/o200k_base"](), load_tokenizer_file(model))
             for task in count_tasks(adapter.id, adapter.recipe, texts)]
    (tmp_path / "tasks.pickle").write_bytes(pickle.dumps(tasks))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", WORKER, str(site)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    counted = pickle.loads((tmp_path / "results.pickle").read_bytes())
    assert counted == [run_count_task(task) for task in tasks]
    assert len(counted) == 2 and all(result.counts for result in counted)
