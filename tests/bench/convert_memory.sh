#!/bin/bash
# Peak RSS of `apcgate convert` on a generated input at two sizes: memory is bounded by the
# source's reorder window and per-poll chunk, not by the input, so both peaks should be about
# the same. The inputs are the benchmarks' own, made by their floor benchmarks, which write them
# a piece at a time, so any size that fits the disk can be made: `convert_memory.sh 400 4096`
# compares a 400 MiB input with a 4 GiB one.
#   barman  the Barman bench store (barman_floor_bench; BARMAN_BENCH_STORE keeps the file)
#   fxt     the FXT bench archive (fxt_floor_bench; FXT_BENCH_FILE keeps the file)
#   ctf     an LTTng-UST trace of the CTF tests' program (tests/ctf/ctf_ust_app), recorded as
#           docs/performance.md's CTF section does (needs lttng and a session daemon; root)
#
# Usage: convert_memory.sh [SMALL_MB] [LARGE_MB] [BUILD] [FORMAT]
#   SMALL_MB: default 64; LARGE_MB: default 1024; BUILD: default build; FORMAT: barman (default),
#   fxt or ctf (a trace of about that size: 6,100 iterations of the program per MiB).
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
    ctf) floor=$build/tests/ctf/ctf_ust_app ;;
    *) echo "FORMAT is barman, fxt or ctf, not $format" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/convert_memory.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$apcgate" ] || [ ! -x "$floor" ]; then
    echo "build $apcgate and $floor first" >&2
    exit 2
fi
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

# An LTTng-UST trace of ITERATIONS of the CTF tests' program in DIR, recorded with one channel
# of 8 x 4 MiB blocking sub-buffers and the vpid, vtid and procname contexts.
record_ctf() {  # DIR ITERATIONS
    local session
    session=apcgate-mem-$$-$RANDOM
    {
        lttng create "$session" --output="$1"
        lttng enable-channel -u -s "$session" --subbuf-size=4M --num-subbuf=8 \
            --blocking-timeout=inf ch
        for e in 'apcgate_ctf_test:*' 'lttng_ust_tracef:*' 'lttng_ust_tracelog:*'; do
            lttng enable-event -u -s "$session" -c ch "$e"
        done
        lttng add-context -u -s "$session" -c ch -t vpid -t vtid -t procname
        lttng start "$session"
        LTTNG_UST_ALLOW_BLOCKING=1 "$floor" "$2"
        lttng stop "$session"
        lttng destroy "$session"
    } >/dev/null
}

for mb in "$small" "$large"; do
    input=$work/input_$mb.$format
    case "$format" in
        barman) BARMAN_BENCH_STORE=$input BARMAN_BENCH_MB=$mb "$floor" --benchmark_min_time=0 \
                    >/dev/null 2>&1 ;;
        fxt) FXT_BENCH_FILE=$input FXT_BENCH_MB=$mb "$floor" --benchmark_min_time=0 >/dev/null 2>&1 ;;
        ctf) record_ctf "$input" "$((mb * 6100))" ;;
    esac
    /usr/bin/time -f "%e %U %M" -o "$work/time" \
        "$apcgate" convert "$input" -o "$work/out.apc" --force >/dev/null 2>"$work/stderr" ||
        { cat "$work/stderr" >&2; exit 1; }
    read -r wall user rss <"$work/time"
    printf '%6s MiB %s input (%s bytes): %s s wall, %s s user, peak RSS %s KB\n' \
        "$mb" "$format" "$(du -sb "$input" | cut -f1)" "$wall" "$user" "$rss"
    rm -rf "$input" "$work/out.apc"
done
