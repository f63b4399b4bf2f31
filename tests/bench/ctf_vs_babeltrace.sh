#!/bin/bash
# `apcgate convert` of a CTF trace against libbabeltrace2 decoding it alone (docs/performance.md,
# "CTF"):
#   ctf_vs_babeltrace.sh APCGATE TRACE [ROUNDS]
# runs, one after the other and ROUNDS times (5):
#   bt       babeltrace2 TRACE -c sink.utils.dummy
#   convert  APCGATE convert TRACE -o $TMPDIR/... --force
#   worker   the decoding worker alone (APCGATE __ctf-worker decode ...), its frames to /dev/null:
#            libbabeltrace2, the mapping and the frame encoding, the convert's critical process
# and prints the median and range of each one's wall and CPU (user + sys, children included)
# seconds, and the medians' ratios to babeltrace2's. The worker gets 0 as the capture's zero and
# time origin (its timestamps are then the trace's own ns; the work is the same).
set -euo pipefail
apcgate=${1:?usage: ctf_vs_babeltrace.sh APCGATE TRACE [ROUNDS]}
trace=${2:?usage: ctf_vs_babeltrace.sh APCGATE TRACE [ROUNDS]}
rounds=${3:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mapfile -t dirs < <(find "$trace" -name metadata -printf '%h\n' | sort)
for r in $(seq 1 "$rounds"); do
  /usr/bin/time -f '%e %U %S' -o "$out/bt.$r" babeltrace2 "$trace" -c sink.utils.dummy
  /usr/bin/time -f '%e %U %S' -o "$out/convert.$r" \
    "$apcgate" convert "$trace" -o "$out/capture.apc" --force > /dev/null 2>&1
  /usr/bin/time -f '%e %U %S' -o "$out/worker.$r" \
    "$apcgate" __ctf-worker decode 0 0 2 CTF_discarded_events CTF_discarded_packets \
    "${dirs[@]}" 3> /dev/null
done
python3 - "$out" "$rounds" <<'PY'
import statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def runs(name):
    rows = []
    for r in range(1, rounds + 1):
        e, u, s = open(f"{out}/{name}.{r}").read().split()[-3:]
        rows.append((float(e), float(u) + float(s)))
    return rows
median = {}
for name in ("bt", "convert", "worker"):
    rows = runs(name)
    wall, cpu = [w for w, _ in rows], [c for _, c in rows]
    median[name] = (statistics.median(wall), statistics.median(cpu))
    print(f"{name:8s} wall {median[name][0]:6.2f} s ({min(wall):.2f}-{max(wall):.2f})"
          f"  cpu {median[name][1]:6.2f} s ({min(cpu):.2f}-{max(cpu):.2f})  [{rounds} runs]")
for name in ("convert", "worker"):
    print(f"{name}/bt  wall {median[name][0] / median['bt'][0]:.2f}x"
          f"  cpu {median[name][1] / median['bt'][1]:.2f}x")
PY
