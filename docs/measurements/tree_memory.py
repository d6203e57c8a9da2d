"""Run a command and sample the memory of its whole process tree (Linux: /proc/PID/smaps_rollup).

    python docs/measurements/tree_memory.py --every 1 OUT.json -- python -m benchmark run --languages all

`/usr/bin/time`'s peak is the largest process's resident size, and a forked child's resident size
counts every page it shares with its parent. This tells them apart: per process, its peak resident
(Rss), proportional (Pss: shared pages split between their users) and private memory; and the
tree's summed Pss at each sample, whose peak is what the run took from the machine. Reading
smaps_rollup walks a process's page tables, which costs CPU: a sampled run's time is not a time
figure. OUT.json keeps every sample; the summary is printed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def tree(root: int) -> list[int]:
    todo, found = [root], []
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children(pid)
    return found


def rollup(pid: int) -> dict[str, int] | None:
    """kB of Rss, Pss and private memory of one process; None once it is gone."""
    fields = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                fields[parts[0][:-1]] = int(parts[1])
    except OSError:
        return None
    return {"rss": fields.get("Rss", 0), "pss": fields.get("Pss", 0),
            "private": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)}


def sample(command: list[str], every_seconds: float) -> dict:
    started = time.monotonic()
    process = subprocess.Popen(command)
    peaks: dict[int, dict] = {}
    samples = []
    while process.poll() is None:
        at = round(time.monotonic() - started, 2)
        total_pss, now = 0, {}
        for pid in tree(process.pid):
            memory = rollup(pid)
            if memory is None:
                continue
            now[pid] = memory
            total_pss += memory["pss"]
            peak = peaks.setdefault(pid, {"rss": 0, "pss": 0, "private": 0, "first": at})
            peak.update({key: max(peak[key], memory[key]) for key in ("rss", "pss", "private")}, last=at)
        samples.append({"at": at, "tree_pss": total_pss, "processes": now})
        time.sleep(every_seconds)
    return {"command": command, "returncode": process.returncode, "seconds": round(time.monotonic() - started, 1),
            "main_pid": process.pid, "peaks_kb": peaks, "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=1.0, help="seconds between samples (default 1)")
    parser.add_argument("out", type=Path, help="where the samples go (JSON)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("give the command after --")
    found = sample(command, options.every)
    options.out.write_text(json.dumps(found), encoding="utf-8")
    top = max(found["samples"], key=lambda s: s["tree_pss"], default=None)
    print(f"exit {found['returncode']} after {found['seconds']} s; peak of the tree's summed Pss: "
          f"{top['tree_pss'] / 1024:,.0f} MiB at {top['at']} s" if top else "no samples")
    for pid, peak in sorted(found["peaks_kb"].items(), key=lambda item: item[1]["first"]):
        role = "main" if pid == found["main_pid"] else "child"
        print(f"  {role:5} {pid:>7} {peak['first']:7.1f}-{peak['last']:7.1f} s  peak Rss {peak['rss'] / 1024:6,.0f}  "
              f"Pss {peak['pss'] / 1024:6,.0f}  private {peak['private'] / 1024:6,.0f} MiB")


if __name__ == "__main__":
    main()
