#!/bin/bash
# Peak RSS of `apcgate convert` on a generated input at two sizes: memory is bounded by the
# source's reorder window and per-poll chunk, not by the input, so both peaks should be about
# the same. The inputs are the benchmarks' own, made by their floor benchmarks, which write them
# a piece at a time, so any size that fits the disk can be made: `convert_memory.sh 400 4096`
# compares a 400 MiB input with a 4 GiB one.
#   barman  the Barman bench store (barman_floor_bench; BARMAN_BENCH_STORE keeps the file)
#   fxt     the FXT bench archive (fxt_floor_bench; FXT_BENCH_FILE keeps the file)
#
# Usage: convert_memory.sh [SMALL_MB] [LARGE_MB] [BUILD] [FORMAT]
#   SMALL_MB: default 64; LARGE_MB: default 1024; BUILD: default build; FORMAT: barman (default)
#   or fxt.
# Needs GNU time (/usr/bin/time) and about LARGE_MB * 1.4 of space in /tmp (input and capture).
set -euo pipefail

small=${1:-64}
large=${2:-1024}
build=${3:-build}
format=${4:-barman}
apcgate=$build/daemon/apcgate
case "$format" in
    barman) floor=$build/tests/bench/barman_floor_bench ;;
    fxt) floor=$build/tests/bench/fxt_floor_bench ;;
    *) echo "FORMAT is barman or fxt, not $format" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/convert_memory.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$apcgate" ] || [ ! -x "$floor" ]; then
    echo "build $apcgate and $floor first" >&2
    exit 2
fi
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

for mb in "$small" "$large"; do
    input=$work/input_$mb.$format
    if [ "$format" = barman ]; then
        BARMAN_BENCH_STORE=$input BARMAN_BENCH_MB=$mb "$floor" --benchmark_min_time=0 >/dev/null 2>&1
    else
        FXT_BENCH_FILE=$input FXT_BENCH_MB=$mb "$floor" --benchmark_min_time=0 >/dev/null 2>&1
    fi
    /usr/bin/time -f "%e %U %M" -o "$work/time" \
        "$apcgate" convert "$input" -o "$work/out.apc" --force >/dev/null 2>"$work/stderr" ||
        { cat "$work/stderr" >&2; exit 1; }
    read -r wall user rss <"$work/time"
    printf '%6s MiB %s input (%s bytes): %s s wall, %s s user, peak RSS %s KB\n' \
        "$mb" "$format" "$(stat -c %s "$input")" "$wall" "$user" "$rss"
    rm -rf "$input" "$work/out.apc"
done
