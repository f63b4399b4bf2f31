#!/bin/bash
# Peak RSS of `apcgate convert` on the Barman bench store at two sizes: memory is bounded by the
# source's reorder window and per-poll chunk, not by the input, so both peaks should be about
# the same. The stores are made by barman_floor_bench (BARMAN_BENCH_STORE keeps the file it
# generates; the generator writes it a piece at a time, so any size that fits the disk can be
# made: `convert_memory.sh 400 4096` compares a 400 MiB store with a 4 GiB one).
#
# Usage: convert_memory.sh [SMALL_MB] [LARGE_MB] [BUILD]
#   SMALL_MB: default 64; LARGE_MB: default 1024; BUILD: default build.
# Needs GNU time (/usr/bin/time) and about LARGE_MB * 1.4 of space in /tmp (store and capture).
set -euo pipefail

small=${1:-64}
large=${2:-1024}
build=${3:-build}
apcgate=$build/daemon/apcgate
floor=$build/tests/bench/barman_floor_bench
work=$(mktemp -d /tmp/convert_memory.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$apcgate" ] || [ ! -x "$floor" ]; then
    echo "build $apcgate and $floor first" >&2
    exit 2
fi
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

for mb in "$small" "$large"; do
    store=$work/store_$mb.raw
    BARMAN_BENCH_STORE=$store BARMAN_BENCH_MB=$mb "$floor" --benchmark_min_time=0 >/dev/null 2>&1
    /usr/bin/time -f "%e %U %M" -o "$work/time" \
        "$apcgate" convert "$store" -o "$work/out.apc" --force >/dev/null 2>"$work/stderr" ||
        { cat "$work/stderr" >&2; exit 1; }
    read -r wall user rss <"$work/time"
    printf '%6s MiB store (%s bytes): %s s wall, %s s user, peak RSS %s KB\n' \
        "$mb" "$(stat -c %s "$store")" "$wall" "$user" "$rss"
    rm -rf "$store" "$work/out.apc"
done
