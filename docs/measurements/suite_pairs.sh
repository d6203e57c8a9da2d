#!/usr/bin/env bash
# Time the README's test command in two fresh clones, taking turns (A B A B ...), each with its own
# venv (.venv in the clone, made by `pip install -e '.[test]'`) and an empty XDG_CACHE_HOME, the
# 1-, 5- and 15-minute load averages beside each run.
#
#   bash docs/measurements/suite_pairs.sh BEFORE_CLONE AFTER_CLONE [PAIRS]   (default 2 pairs)
set -u
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd); pairs=${3:-2}
for pair in $(seq "$pairs"); do
  for tree in "$before" "$after"; do
    load=$(cut -d' ' -f1-3 /proc/loadavg); cache=$(mktemp -d); start=$(date +%s.%N)
    (cd "$tree" && . .venv/bin/activate && XDG_CACHE_HOME=$cache python -m pytest -q -p no:cacheprovider \
       > "$tree/suite.$pair.log" 2>&1)
    end=$(date +%s.%N)
    echo "$pair $(basename "$tree") $(python3 -c "print(round($end - $start, 1))") s" \
         "load before [$load] after [$(cut -d' ' -f1-3 /proc/loadavg)] | $(tail -1 "$tree/suite.$pair.log")"
    rm -rf "$cache"
  done
done
