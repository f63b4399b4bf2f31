#!/bin/bash
# Two builds' benchmarks against each other (a change that must not make them slower):
#   bench_ab.sh BUILD_A BUILD_B [ROUNDS]
# runs every converter, encoder and perf benchmark of A and of B alternately ROUNDS times (3)
# and prints, per benchmark, the best (lowest) real time of each and the ratio B/A, then their
# geometric mean. The best, not the median: on a shared VM a run can land in a state twice as
# slow (seen on both builds alike), and the best of a few runs filters that out.
# BUILD_A and BUILD_B are build directories with the benchmarks and daemon/apcgate (the CTF
# benchmarks run it as their worker).
set -euo pipefail
a=${1:?usage: bench_ab.sh BUILD_A BUILD_B [ROUNDS]}
b=${2:?usage: bench_ab.sh BUILD_A BUILD_B [ROUNDS]}
rounds=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for bench in encoder_bench xray_bench fxt_bench ctf_bench barman_bench perf_decode_bench \
             perf_forward_bench; do
  for r in $(seq 1 "$rounds"); do
    for side in A B; do
      dir=$a; [ "$side" = B ] && dir=$b
      "$dir/tests/bench/$bench" --benchmark_min_time=0.1 --benchmark_format=json \
        > "$out/$bench.$side.$r.json" 2>/dev/null || echo "$bench ($side) failed" >&2
    done
  done
done
python3 - "$out" <<'PY'
import collections, glob, json, os, statistics, sys
times = collections.defaultdict(lambda: collections.defaultdict(list))
for path in glob.glob(sys.argv[1] + "/*.json"):
    bench, side, _, _ = os.path.basename(path).split(".")
    for b in json.load(open(path)).get("benchmarks", []):
        times[bench + ":" + b["name"]][side].append(b["real_time"])
ratios = []
for name in sorted(times):
    a, b = times[name]["A"], times[name]["B"]
    if a and b:
        ratios.append(min(b) / min(a))
        print(f"{name:66s} A {min(a):12.1f}  B {min(b):12.1f}  B/A {ratios[-1]:.3f}")
print(f"geometric mean B/A: {statistics.geometric_mean(ratios):.3f} over {len(ratios)} benchmarks")
PY
