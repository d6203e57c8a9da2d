#!/usr/bin/env bash
# Time `python -m benchmark run` from two source trees side by side, taking turns (A B A B ...),
# and print each run and the medians with their ratio (after / before).
#
#   bash docs/measurements/run_pairs.sh BEFORE_TREE AFTER_TREE [WORKLOAD ...]
#
# Workloads (default: default quick rerun):
#   default    README command 1's run, nothing cached (`run --output DIR`; with NO_PLOTS=1, --no-plots)
#   quick      `run --quick`, nothing cached
#   rerun      the default run again in the cache of a default run just made, nothing changed
#   tokeval    the same work as TokEval: the six production tokenizers TokEval is given, nothing cached
#   all-production  `--languages all` with the 12 production tokenizers, nothing cached (minutes)
#   all        `--languages all` with every tokenizer, nothing cached (a quarter of an hour)
# Each run gets its own empty XDG_CACHE_HOME (the rerun: its default run's) and output folder
# under $WORK (default: a new temporary folder); PAIRS (default 3) pairs per workload. Both trees
# run with the python on PATH (the venv that has the dependencies) and PYTHONPATH set to the tree.
# Per run: wall seconds and peak memory (/usr/bin/time, the largest process), the 1-minute load
# average before it, and the run record's phase seconds (counting, timing).
set -u
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd); shift 2
workloads=${*:-default quick rerun}
pairs=${PAIRS:-3}
work=${WORK:-$(mktemp -d)}
plots=${NO_PLOTS:+--no-plots}
production='tiktoken/*,bpe_openai/*,llama/*,mistral/*,qwen/*,deepseek/*,google/*,xai/*,anthropic/*'
tokeval='tiktoken/cl100k_base,tiktoken/o200k_base,llama/llama4,mistral/tekken,deepseek/v4,google/gemma4'
log=$work/runs.tsv
: > "$log"

one() {  # one run: tree, workload, pair number, cache folder, output folder, options...
  local tree=$1 workload=$2 pair=$3 cache=$4 out=$5; shift 5
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  local timing=$work/time.$$
  (cd "$work" && PYTHONPATH=$tree XDG_CACHE_HOME=$cache /usr/bin/time -f "%e %M" -o "$timing" \
     python -m benchmark run "$@" --output "$out" > "$out.log" 2>&1)
  local rc=$?
  local phases; phases=$(python - "$out/results.json" <<'PY'
import json, sys
try:
    seconds = json.load(open(sys.argv[1]))["record"]["phase_seconds"]
except (OSError, ValueError, KeyError):
    seconds = {}
print(f"{seconds.get('counting', float('nan')):.1f}\t{seconds.get('timing', float('nan')):.1f}")
PY
)
  local side=before; [ "$tree" = "$after" ] && side=after
  read -r wall kb < "$timing"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$side" "$pair" "$wall" "$((kb / 1024))" "$load" "$phases" "$rc" | tee -a "$log"
}

printf 'workload\tside\tpair\twall_s\tpeak_MiB\tload\tcounting_s\ttiming_s\trc\n'
for workload in $workloads; do
  for pair in $(seq "$pairs"); do
    for tree in "$before" "$after"; do
      side=$([ "$tree" = "$after" ] && echo after || echo before)
      cache=$work/cache-$workload-$side-$pair; out=$work/out-$workload-$side-$pair
      mkdir -p "$cache"
      case $workload in
        default) one "$tree" default "$pair" "$cache" "$out" $plots ;;
        quick) one "$tree" quick "$pair" "$cache" "$out" --quick $plots ;;
        rerun) one "$tree" rerun-first "$pair" "$cache" "$out-first" $plots > /dev/null
               one "$tree" rerun "$pair" "$cache" "$out" $plots ;;
        tokeval) one "$tree" tokeval "$pair" "$cache" "$out" --tokenizers "$tokeval" $plots ;;
        all-production) one "$tree" all-production "$pair" "$cache" "$out" --languages all --tokenizers "$production" $plots ;;
        all) one "$tree" all "$pair" "$cache" "$out" --languages all $plots ;;
        *) echo "unknown workload $workload" >&2; exit 2 ;;
      esac
    done
  done
done

python - "$log" <<'PY'
import statistics, sys
runs = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
print("\n| workload | before: median wall, peak | after: median wall, peak | after / before | load (min-max) |")
print("|---|---:|---:|---:|---|")
for workload in dict.fromkeys(r[0] for r in runs):
    side = {s: [r for r in runs if r[0] == workload and r[1] == s] for s in ("before", "after")}
    if not side["before"] or not side["after"]:
        continue
    wall = {s: statistics.median(float(r[3]) for r in rs) for s, rs in side.items()}
    peak = {s: max(int(r[4]) for r in rs) for s, rs in side.items()}
    loads = [float(r[5]) for rs in side.values() for r in rs]
    print(f"| {workload} | {wall['before']:.1f} s, {peak['before']:,} MiB | {wall['after']:.1f} s, {peak['after']:,} MiB "
          f"| **{wall['after'] / wall['before']:.2f}x** | {min(loads):.1f}-{max(loads):.1f} |")
PY
echo "runs and outputs in $work"
