#!/bin/bash
# What a system-wide capture costs the work it watches, apcgate's two framings against
# `perf record`, on two workloads:
#  - `perf bench sched messaging -g 8 -l 700` (many short-lived processes passing messages:
#    switches, wake-ups and forks, the scheduler-heavy case), timed by its own "Total time" line;
#  - busy_threads (tests/bench/busy_threads.cpp): one busy thread per CPU, the CPU-bound case.
# Each runs alone, under `apcgate record` (gator framing: every record decoded and re-encoded),
# under `apcgate record --framing perf` (the ring-buffer records forwarded as they are), under
# `perf record -a -g -e cpu-clock/freq=1000/ -e sched:sched_switch`, and under sampling_floor
# (tests/bench/sampling_floor.cpp: apcgate's 1 kHz cpu-clock sampler with call stacks on every
# CPU and nothing else, its records thrown away unread: the kernel's share of any such capture),
# interleaved, ROUNDS times, so a change in the machine's load spreads over all of them. A
# slowdown is a run's time over the same round's run alone. Each recorder's peak resident memory
# (GNU time's %M) and apcgate's lost records are reported too. Then the highest switch rate
# this machine makes (`perf bench sched pipe`, two tasks passing a token) under `apcgate record`:
# switches per second, records lost, peak memory; and the start-to-exit time of `record -- true`
# for both framings and of `perf record -- true`.
#
# Usage: capture_overhead.sh [APCGATE] [ROUNDS]   (defaults: build/ci/daemon/apcgate, 7). Needs
# root (system-wide perf events) and perf; busy_threads is looked for in the same build
# (BUILD/tests/bench/busy_threads), and sampling_floor beside it. Run it on an otherwise idle
# machine, without nice: a build beside it measures the build.
set -euo pipefail

apcgate=${1:-build/ci/daemon/apcgate}
rounds=${2:-7}
busy=$(dirname "$apcgate")/../tests/bench/busy_threads
floor=$(dirname "$apcgate")/../tests/bench/sampling_floor
messaging=(perf bench sched messaging -g 8 -l 700)
# About as long as the messaging run on this 2-CPU VM (several seconds).
cpu_bound=("$busy" 2000000000)
work=$(mktemp -d /tmp/capture_overhead.XXXXXX)
trap 'rm -rf "$work"' EXIT

[ -x "$apcgate" ] || { echo "no apcgate binary at $apcgate" >&2; exit 2; }
[ -x "$busy" ] || { echo "no busy_threads at $busy (a build with APCGATE_BENCH=ON)" >&2; exit 2; }
[ -x "$floor" ] || { echo "no sampling_floor at $floor (APCGATE_BENCH=ON)" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is not installed (apt install time)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root: system-wide perf events" >&2; exit 2; }

# A workload's own "Total time: S [sec]".
run_workload() {
    "$@" 2>&1 | awk '/Total time:/ { print $3 }'
}

# Starts a recorder in the background, waits until it records, runs the workload, stops the
# recorder with SIGINT and waits for it to finish writing. Prints "time peak_rss_kb lost": the
# workload's time, the recorder's peak resident memory, and the records apcgate says the kernel
# lost (perf_records_lost; "-" for perf record).
# The peak memory is the kernel's (GNU time's %M: ru_maxrss, the high-water mark of the whole
# run, start and stop included), not sampled: a shell loop reading /proc every 0.1 s forks twice
# a sample, and on this VM that alone slowed the CPU-bound workload by 14 %, in every run under
# a recorder and in none alone.
# Usage: under READY -- RECORDER... -- WORKLOAD...
under() {
    local ready=$1; shift 2
    local -a recorder=()
    while [ "$1" != -- ]; do recorder+=("$1"); shift; done
    shift
    local log=$work/recorder.log
    rm -f "$work/rss"
    /usr/bin/time -f %M -o "$work/rss" "${recorder[@]}" >"$log" 2>&1 &
    local timer=$! pid=
    for _ in $(seq 1 400); do
        pid=$(pgrep -P "$timer" || true)
        [ -n "$pid" ] && break
        sleep 0.005
    done
    for _ in $(seq 1 400); do
        case $ready in
            # perf record writes its header once its events are open and the system synthesised.
            perf) [ -s "$work/perf.data" ] && break ;;
            floor) grep -q "sampling_floor: recording" "$log" && break ;;
            *) grep -q "recording into" "$log" && break ;;
        esac
        sleep 0.025
    done
    [ "$ready" = perf ] && sleep 0.5  # past perf's synthesis of the existing processes
    local t
    t=$(run_workload "$@")
    kill -INT "$pid"
    wait "$timer" || true
    local lost=-
    if [ "$ready" = floor ]; then
        lost=$(awk '/^sampling_floor: .* lost$/ { print $(NF - 1) }' "$log")
    elif [ "$ready" != perf ]; then
        lost=$(awk '/perf_records_lost = / { for (i = 1; i < NF; ++i) if ($i == "=") print $(i + 1) }' \
            "$log" | tail -n1)
        lost=${lost:-0}
    fi
    rm -rf "$work/gator.apc" "$work/perf.apc" "$work/perf.data"
    echo "$t $(tail -n1 "$work/rss") $lost"
}

# Seconds (3 decimals) a command takes from start to exit.
elapsed() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l | xargs printf '%.3f\n'
}

# "median min max" of the numbers on stdin.
stats() {
    sort -g | awk '{ v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
              printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}
ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }
overhead() { echo "($1 - 1) * 100" | bc -l | xargs printf '%.1f'; }
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

# One workload, ROUNDS interleaved rounds of the five runs, then its summary.
compare() {
    local name=$1; shift
    local -a alone=() gator=() perff=() perfrec=() floored=() g_rss=() p_rss=() q_rss=() g_lost=()
    local -a p_lost=()
    local r a g p q f
    echo "# $name: $rounds interleaved rounds of: $*"
    for r in $(seq 1 "$rounds"); do
        a=$(run_workload "$@")
        read -r g gr gl < <(under apcgate -- "$apcgate" record -o "$work/gator.apc" --log-level info -- "$@")
        read -r p pr pl < <(under apcgate -- "$apcgate" record --framing perf -o "$work/perf.apc" \
            --log-level info -- "$@")
        read -r q qr _ < <(under perf -- perf record -a -g -e cpu-clock/freq=1000/ \
            -e sched:sched_switch --no-bpf-event -o "$work/perf.data" -- "$@")
        read -r f _ fl < <(under floor -- "$floor" -- "$@")
        alone+=("$a"); gator+=("$g"); perff+=("$p"); perfrec+=("$q"); floored+=("$f")
        g_rss+=("$gr"); p_rss+=("$pr"); q_rss+=("$qr"); g_lost+=("$gl"); p_lost+=("$pl")
        printf 'round %d: alone %s s, apcgate gator %s s (%s KB, %s lost), apcgate perf-framing %s s (%s KB, %s lost), perf record %s s (%s KB), floor %s s (%s lost)\n' \
            "$r" "$a" "$g" "$gr" "$gl" "$p" "$pr" "$pl" "$q" "$qr" "$f" "$fl"
    done
    # The per-round slowdowns (time under the recorder / time alone in the same round).
    slowdowns() {
        local -a under=("$@")
        local i
        for i in "${!under[@]}"; do echo "${under[$i]} / ${alone[$i]}" | bc -l; done
    }
    local g_med g_min g_max p_med p_min p_max q_med q_min q_max f_med f_min f_max a_med a_min a_max
    read -r g_med g_min g_max < <(slowdowns "${gator[@]}" | stats)
    read -r p_med p_min p_max < <(slowdowns "${perff[@]}" | stats)
    read -r q_med q_min q_max < <(slowdowns "${perfrec[@]}" | stats)
    read -r f_med f_min f_max < <(slowdowns "${floored[@]}" | stats)
    read -r a_med a_min a_max < <(printf '%s\n' "${alone[@]}" | stats)
    echo
    echo "# $name: slowdown = the workload's time under the recorder / alone in the same round"
    printf 'alone                      %s s median (range %s to %s)\n' "$a_med" "$a_min" "$a_max"
    printf 'apcgate record (gator)     slowdown %s (range %s to %s): +%s%%\n' \
        "$g_med" "$g_min" "$g_max" "$(overhead "$g_med")"
    printf 'apcgate record (perf)      slowdown %s (range %s to %s): +%s%%\n' \
        "$p_med" "$p_min" "$p_max" "$(overhead "$p_med")"
    printf 'perf record                slowdown %s (range %s to %s): +%s%%\n' \
        "$q_med" "$q_min" "$q_max" "$(overhead "$q_med")"
    printf 'sampling floor             slowdown %s (range %s to %s): +%s%%\n' \
        "$f_med" "$f_min" "$f_max" "$(overhead "$f_med")"
    echo "# $name: ratios of the median slowdowns (and of the median extra time, slowdown - 1)"
    ratios "apcgate gator / perf record" "$g_med" "$q_med"
    ratios "apcgate perf-framing / perf record" "$p_med" "$q_med"
    ratios "perf-framing / gator framing" "$p_med" "$g_med"
    ratios "sampling floor / perf record" "$f_med" "$q_med"
    ratios "apcgate gator / sampling floor" "$g_med" "$f_med"
    echo "# $name: peak resident memory (MB, median and range) and records lost (most in a run)"
    local who arr
    for who in "apcgate record (gator):g_rss" "apcgate record (perf):p_rss" "perf record:q_rss"; do
        declare -n arr=${who##*:}
        read -r m lo hi < <(printf '%s\n' "${arr[@]}" | awk '{ print $1 / 1024 }' | stats)
        printf '%-26s %s MB (range %s to %s)\n' "${who%%:*}" "$m" "$lo" "$hi"
    done
    printf 'records lost: gator framing %s, perf framing %s\n' \
        "$(printf '%s\n' "${g_lost[@]}" | sort -g | tail -n1)" \
        "$(printf '%s\n' "${p_lost[@]}" | sort -g | tail -n1)"
    echo
}

compare "scheduler-heavy" "${messaging[@]}"
compare "CPU-bound" "${cpu_bound[@]}"

echo "# the highest switch rate: perf bench sched pipe under apcgate record (gator framing)"
pipe=(perf bench sched pipe -l 1000000)
c0=$(awk '/^ctxt/ { print $2 }' /proc/stat)
t0=$(date +%s.%N)
read -r _ pr pl < <(under apcgate -- "$apcgate" record -o "$work/gator.apc" --log-level info -- \
    "${pipe[@]}")
t1=$(date +%s.%N)
c1=$(awk '/^ctxt/ { print $2 }' /proc/stat)
# The pipe benchmark prints no "Total time" line the way messaging does: the switch rate comes
# from /proc/stat over the whole run (recorder start and stop included, so a little low).
printf 'switches per second %s, records lost %s, peak resident memory %s MB\n' \
    "$(echo "($c1 - $c0) / ($t1 - $t0)" | bc -l | xargs printf '%.0f')" "$pl" \
    "$(echo "$pr / 1024" | bc -l | xargs printf '%.1f')"

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

echo
echo "# resident memory of an idle daemon (apcgate serve on a spare port, 2 s after start)"
"$apcgate" serve --listen 127.0.0.1 -p 18089 --annotate-tcp-port 0 \
    --annotate-socket-name capture-overhead-idle --annotate-fifo none >"$work/serve.log" 2>&1 &
serve=$!
sleep 2
printf 'apcgate serve idle: %s MB\n' \
    "$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$serve/status")"
kill -INT "$serve"
wait "$serve" || true
