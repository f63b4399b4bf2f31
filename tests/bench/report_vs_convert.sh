#!/bin/bash
# `apcgate report` against `apcgate convert`, end to end as a user runs them: the issue asks that
# a report of the capture take no longer than converting the log did, and that its memory be
# bounded by the number of distinct names, not the capture's size.
#   1. ROUNDS times, alternating: `convert LOG --binary BINARY` (wall time, peak RSS) and
#      `report` of that capture (wall time, peak RSS); prints the medians, the ranges and the
#      ratio of the medians report/convert.
#   2. The same log four times over (four copies, converted into one capture four times the
#      size, with the same names): the peak RSS of `report` on it next to that on the first.
#
# Usage: report_vs_convert.sh LOG BINARY [APCGATE] [ROUNDS]
#   LOG: an XRay log (docs/performance.md makes the 64.7 MB one with the tests' workload);
#   BINARY: its instrumented program; APCGATE: default build/ci/daemon/apcgate; ROUNDS: 9.
# Needs GNU time (/usr/bin/time) and about 1 GB in /tmp. Run it on an idle machine.
set -euo pipefail

log=${1:?usage: report_vs_convert.sh LOG BINARY [APCGATE] [ROUNDS]}
binary=${2:?usage: report_vs_convert.sh LOG BINARY [APCGATE] [ROUNDS]}
apcgate=${3:-build/ci/daemon/apcgate}
rounds=${4:-9}
work=$(mktemp -d /tmp/report_vs_convert.XXXXXX)
trap 'rm -rf "$work"' EXIT

[ -x "$apcgate" ] || { echo "no apcgate binary at $apcgate" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

# Runs a command with its output discarded; prints "WALL_SECONDS PEAK_RSS_KB".
measure() {
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" ||
        { cat "$work/stderr" >&2; exit 1; }
    cat "$work/time"
}

# The median and the range of the numbers on stdin.
summary() {
    sort -g | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%g (%g .. %g)\n", m, v[1], v[NR] }'
}
median() { summary | awk '{ print $1 }'; }

: >"$work/convert" && : >"$work/report"
for _ in $(seq 1 "$rounds"); do
    measure "$apcgate" convert "$log" --binary "$binary" -o "$work/run.apc" --force >>"$work/convert"
    measure "$apcgate" report "$work/run.apc" >>"$work/report"
done
convert_s=$(cut -d' ' -f1 "$work/convert" | median)
report_s=$(cut -d' ' -f1 "$work/report" | median)
echo "convert:   $(cut -d' ' -f1 "$work/convert" | summary) s, peak RSS $(cut -d' ' -f2 "$work/convert" | median) KB"
echo "report:    $(cut -d' ' -f1 "$work/report" | summary) s, peak RSS $(cut -d' ' -f2 "$work/report" | median) KB"
awk -v r="$report_s" -v c="$convert_s" 'BEGIN { printf "report/convert: %.2f (medians of '"$rounds"')\n", r / c }'

# Four copies of the log, named as the runtime names logs, so --binary names all four.
base=$(basename "$log")
for i in 1 2 3 4; do ln -s "$(realpath "$log")" "$work/${base%.*}.copy$i"; done
"$apcgate" convert "$work/${base%.*}".copy? --binary "$binary" -o "$work/four.apc" --force >/dev/null 2>&1
one_mb=$(du -sm "$work/run.apc" | cut -f1)
four_mb=$(du -sm "$work/four.apc" | cut -f1)
one_rss=$(measure "$apcgate" report "$work/run.apc" | cut -d' ' -f2)
four_rss=$(measure "$apcgate" report "$work/four.apc" | cut -d' ' -f2)
echo "report peak RSS: ${one_rss} KB on the ${one_mb} MB capture, ${four_rss} KB on the ${four_mb} MB one"
