#!/bin/bash
# What a system-wide capture costs the work it watches, apcgate's two framings against
# `perf record`: `perf bench sched messaging -g 8 -l 700` (many short-lived processes passing
# messages: switches, wake-ups and forks, the scheduler-heavy case) is timed by its own
# "Total time" line alone, under `apcgate record` (gator framing: every record decoded and
# re-encoded), under `apcgate record --framing perf` (the ring-buffer records forwarded as they
# are) and under `perf record -a -g -e cpu-clock/freq=1000/ -e sched:sched_switch`. The four run
# interleaved, ROUNDS times, so a change in the machine's load spreads over all of them. A
# slowdown is a run's time over the same round's run alone. Then the start-to-exit time of
# `record -- true` for both framings and of `perf record -- true`.
#
# Usage: capture_overhead.sh [APCGATE] [ROUNDS]   (defaults: build/ci/daemon/apcgate, 7). Needs root
# (system-wide perf events) and perf. Run it on an otherwise idle machine, without nice: a
# build beside it measures the build.
set -euo pipefail

apcgate=${1:-build/ci/daemon/apcgate}
rounds=${2:-7}
workload=(perf bench sched messaging -g 8 -l 700)
work=$(mktemp -d /tmp/capture_overhead.XXXXXX)
trap 'rm -rf "$work"' EXIT

[ -x "$apcgate" ] || { echo "no apcgate binary at $apcgate" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root: system-wide perf events" >&2; exit 2; }

# The workload's own "Total time: S [sec]".
run_workload() {
    "${workload[@]}" 2>&1 | awk '/Total time:/ { print $3 }'
}

# Starts a recorder in the background, waits until it records, runs the workload, stops the
# recorder with SIGINT and waits for it to finish writing. Prints the workload's time.
under() {
    local ready=$1; shift
    local log=$work/recorder.log
    "$@" >"$log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 400); do
        if [ "$ready" = perf ]; then
            # perf record writes its header once its events are open and the system synthesised.
            [ -s "$work/perf.data" ] && break
        else
            grep -q "recording into" "$log" && break
        fi
        sleep 0.025
    done
    [ "$ready" = perf ] && sleep 0.5  # past perf's synthesis of the existing processes
    local t
    t=$(run_workload)
    kill -INT "$pid"
    wait "$pid" || true
    rm -rf "$work/gator.apc" "$work/perf.apc" "$work/perf.data"
    echo "$t"
}

# Seconds (3 decimals) a command takes from start to exit.
elapsed() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l | xargs printf '%.3f\n'
}

declare -a alone gator perff perfrec
echo "# $rounds interleaved rounds of: ${workload[*]}"
for r in $(seq 1 "$rounds"); do
    a=$(run_workload)
    g=$(under apcgate "$apcgate" record -o "$work/gator.apc" --log-level info)
    p=$(under apcgate "$apcgate" record --framing perf -o "$work/perf.apc" --log-level info)
    q=$(under perf perf record -a -g -e cpu-clock/freq=1000/ -e sched:sched_switch --no-bpf-event \
        -o "$work/perf.data")
    alone+=("$a"); gator+=("$g"); perff+=("$p"); perfrec+=("$q")
    printf 'round %d: alone %s s, apcgate gator %s s, apcgate perf-framing %s s, perf record %s s\n' \
        "$r" "$a" "$g" "$p" "$q"
done

# "median min max" of the numbers on stdin.
stats() {
    sort -g | awk '{ v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
              printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}
# The per-round slowdowns (time under the recorder / time alone in the same round) of the
# times given.
slowdowns() {
    local -a under=("$@")
    local i
    for i in "${!under[@]}"; do echo "${under[$i]} / ${alone[$i]}" | bc -l; done
}
ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }
overhead() { echo "($1 - 1) * 100" | bc -l | xargs printf '%.1f'; }

echo
echo "# slowdown = the workload's time under the recorder / alone in the same round"
read -r g_med g_min g_max < <(slowdowns "${gator[@]}" | stats)
read -r p_med p_min p_max < <(slowdowns "${perff[@]}" | stats)
read -r q_med q_min q_max < <(slowdowns "${perfrec[@]}" | stats)
read -r a_med a_min a_max < <(printf '%s\n' "${alone[@]}" | stats)
printf 'alone                      %s s median (range %s to %s)\n' "$a_med" "$a_min" "$a_max"
printf 'apcgate record (gator)     slowdown %s (range %s to %s): +%s%%\n' \
    "$g_med" "$g_min" "$g_max" "$(overhead "$g_med")"
printf 'apcgate record (perf)      slowdown %s (range %s to %s): +%s%%\n' \
    "$p_med" "$p_min" "$p_max" "$(overhead "$p_med")"
printf 'perf record                slowdown %s (range %s to %s): +%s%%\n' \
    "$q_med" "$q_min" "$q_max" "$(overhead "$q_med")"
echo
echo "# ratios of the median slowdowns (and of the median extra time, slowdown - 1)"
extra() { echo "$1 - 1" | bc -l; }
ratios() {  # name, median A, median B
    local ea eb
    ea=$(extra "$2"); eb=$(extra "$3")
    if [ "$(echo "$eb > 0" | bc -l)" = 1 ]; then
        printf '%-40s %s (extra time %s)\n' "$1" "$(ratio "$2" "$3")" "$(ratio "$ea" "$eb")"
    else
        printf '%-40s %s (extra time: the second has none)\n' "$1" "$(ratio "$2" "$3")"
    fi
}
ratios "apcgate gator / perf record" "$g_med" "$q_med"
ratios "apcgate perf-framing / perf record" "$p_med" "$q_med"
ratios "perf-framing / gator framing" "$p_med" "$g_med"
echo "(forwarding raw records should cost less than decoding them: the last ratio below 1)"

echo
echo "# start to exit of a capture of \`true\` ($rounds runs each, interleaved)"
declare -a tg tp tq
for _ in $(seq 1 "$rounds"); do
    tg+=("$(elapsed "$apcgate" record -o "$work/gator.apc" -- true)"); rm -rf "$work/gator.apc"
    tp+=("$(elapsed "$apcgate" record --framing perf -o "$work/perf.apc" -- true)")
    rm -rf "$work/perf.apc"
    tq+=("$(elapsed perf record -g -e cpu-clock/freq=1000/ -e sched:sched_switch --no-bpf-event \
        -o "$work/perf.data" -- true)"); rm -f "$work/perf.data"
done
for pair in "apcgate record -- true:tg" "apcgate record --framing perf -- true:tp" \
            "perf record -- true:tq"; do
    name=${pair%%:*}; var=${pair##*:}
    declare -n arr=$var
    read -r m lo hi < <(printf '%s\n' "${arr[@]}" | stats)
    printf '%-40s %s s median (range %s to %s)\n' "$name" "$m" "$lo" "$hi"
done
