#!/usr/bin/env bash
# Atomic work side by side (issue 16 item 5): Debian's redis-server and Lacewing (each engine) in
# the same run, servers alternated per workload so that drift hits all of them.
#   EVAL, EVALSHA   redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1]),
#                   redis-benchmark, 50 connections, random keys over 100,000
#   MSET10, MGET10  10 random keys per command (over 1,000,000, so spread over every shard),
#                   redis-benchmark, 50 connections
#   MULTI           MULTI / SET / GET / EXEC, the load tool, 2 threads x 25 connections
#   GET alone       GET p99 at pipeline 1 (load tool, 2 x 10 connections), then again while
#   GET +MSET       redis-benchmark runs MSET10 beside it (20 connections)
#   GET +RENAME     the same beside RENAME r:__rand_int__ r:__rand_int__ (keys over 100,000, filled
#                   first; a source already renamed away answers "no such key", which runs the
#                   same multi-shard path)
#   GET +SUNIONSTORE the same beside SUNIONSTORE u:__rand_int__ over four 10-member sets
#   EXEC2           MULTI / SET __key__ / SET __key__ / EXEC (two random keys over 100,000, on
#                   different shards for about half the transactions), the load tool, 2 threads x 25
#                   connections, each with its own seed (--distinct-client-seed: with memtier's
#                   default of one seed, every connection of a thread sends the same keys in step, so
#                   the transactions of the other connections wait for each other on those keys)
#   EXEC2 hot       the same on two fixed keys, x:__key__ and y:__key__ (the load tool, as memtier,
#                   replaces only a whole __key__ argument, so these are names), on different shards
#                   of two: every transaction waits for the one before on both shards. Until
#                   2026-12-06 this was the EXEC2 row.
#   GET +EXEC       GET p99 beside that transaction load (the load tool, 1 thread x 20 connections)
# Prints ops/s, p99 ms (load-tool rows), server CPU seconds per million operations (from
# /proc/PID/stat: for "GET +MSET" it includes the MSET load), each Lacewing/Redis ratio, and on
# the redis-benchmark rows the load generator's own CPU seconds per million operations (client
# s/M, user + system of redis-benchmark). On a 2-core machine redis-benchmark takes 0.85-0.95 of a
# core at pipeline 1 and costs 10-13 us a request whatever the server, so there its rate, not the
# server's, bounds ops/s, and the ops ratio varies with it run to run; server CPU per op is the
# server's own cost.
#
# Before the rows every server runs each redis-benchmark workload once unmeasured (ATOMIC_WARMUP
# requests, default the rows' own count; 0 skips it), so that the rows compare steady states: without
# it the first row also measures the JVM compiling its hot paths, which redis-server never does, and
# the heap growing to its working size. A warm-up of 50,000 left G1 still expanding the heap during
# the EVAL and EVALSHA rows, and where the heap has transparent huge pages each fresh 2 MiB page is a
# fault that zeroes it: on a VM whose balloon reports free 2 MiB blocks to the host (free page
# reporting, page_reporting_order 9) such a fault cost 2-4 ms, 14-18% of the server's CPU in those
# rows (clear_page_erms), against under 1% for the same growth in 4 KiB pages. The transaction
# rows (MULTI, EXEC2, GET +EXEC) warm up the same way, with the load tool for ATOMIC_WARMUP_SECONDS
# (default 10) per server: their paths (MULTI's queue, the cross-shard gather) are on no
# redis-benchmark row's, and right after start a JVM on 2 busy cores spent half its CPU in the C2
# compiler during an EXEC2 run, which the row charged to EXEC2.
#
# Usage: benchmarks/atomic.sh [requests-per-run]   (default 200000; ATOMIC_SECONDS for the
#        load-tool rows, default 10; ATOMIC_THREADS server threads, default nproc; ATOMIC_WARMUP;
#        ATOMIC_WARMUP_SECONDS;
#        ATOMIC_ONLY a comma-separated list of the workloads to run, default all; LACEWING_DIST another
#        distribution to measure, e.g. a build of an earlier commit; LACEWING_BASELINE a second
#        distribution measured beside it in the same run, its rows named baseline-ENGINE, for a
#        before/after; ATOMIC_ENGINES the engines to run, default "shared-nothing multithread";
#        SERVER_CPU to hold each server to that many cores, see servers.sh)
# Needs: redis-server, redis-benchmark, redis-cli, and the distribution built by `mvn -B package`.
set -euo pipefail

requests=${1:-200000}
seconds=${ATOMIC_SECONDS:-10}
threads=${ATOMIC_THREADS:-$(nproc)}
warmup=${ATOMIC_WARMUP:-$requests}
warmup_seconds=${ATOMIC_WARMUP_SECONDS:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
dist=${LACEWING_DIST:-"$root/assembly/target/lacewing"}
only=${ATOMIC_ONLY:-}
# wanted WORKLOAD: whether ATOMIC_ONLY leaves it in.
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-benchmark redis-cli

script="redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1])"

declare -A port pid
start_servers "$threads" "${ATOMIC_ENGINES:-shared-nothing multithread}" \
  ${LACEWING_BASELINE:+baseline="$LACEWING_BASELINE"} lacewing="$dist"

mset10="MSET"
mget10="MGET"
for i in 0 1 2 3 4 5 6 7 8 9; do
  mset10+=" k:__rand_int__ value-$i"
  mget10+=" k:__rand_int__"
done

# bench PORT ARGS...: redis-benchmark's requests/s for one custom command ("-" when it errs);
# BENCH_REQUESTS overrides the request count.
bench() {
  local port=$1
  shift
  local line
  # The load generator's own CPU (user + system seconds) goes to bench.client: on a small machine
  # it saturates a core of its own, and then it, not the server, sets the rate (see report).
  line=$({ TIMEFORMAT='%U %S'; time redis-benchmark -p "$port" -n "${BENCH_REQUESTS:-$requests}" -c 50 \
    -r 1000000 --csv "$@" 2>"$work/bench.err" | tail -n 1; } 2>"$work/bench.time")
  awk '{print $1 + $2}' "$work/bench.time" >"$work/bench.client"
  if grep -q -i "err" "$work/bench.err" || [ -z "$line" ]; then
    echo "-"
  else
    echo "$line" | awk -F'","' '{print $2}'
  fi
}

# load PORT JSON OPTIONS...: the load tool, its JSON in JSON; fails on error replies.
load() {
  local port=$1 json=$2
  shift 2
  "$tool" -s 127.0.0.1 -p "$port" -d 256 --hide-histogram --print-percentiles=50,99 \
    --json-out-file="$json" "$@" >"$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; return 1; }
  local errors
  errors=$(totals "$json" Errors)
  [ "$errors" = 0 ] || { echo "$errors error replies:" >&2; cat "$work/last.txt" >&2; return 1; }
}

hz=$(getconf CLK_TCK)
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)${SERVER_CPU:+, each server held to $SERVER_CPU cores}"
printf '%-10s %-24s %12s %10s %14s %8s %8s %14s\n' workload server "ops/s" "p99 ms" "cpu s/M ops" "x redis" "cpu x" \
  "client s/M"

report() { # label: prints the rows of ops/p99/cpu filled in for every server
  local label=$1 server ratio cpuratio
  for server in "${servers[@]}"; do
    ratio=$(awk -v a="${ops[$server]}" -v b="${ops[redis]}" 'BEGIN {if (a != "-" && b > 0) printf "%.2f", a / b; else print "-"}')
    cpuratio=$(awk -v a="${cpu[$server]}" -v b="${cpu[redis]}" 'BEGIN {if (a != "-" && b > 0) printf "%.2f", a / b; else print "-"}')
    printf '%-10s %-24s %12s %10s %14s %8s %8s %14s\n' "$label" "$server" "${ops[$server]}" "${p99[$server]}" \
      "${cpu[$server]}" "$ratio" "$cpuratio" "${client[$server]:--}"
  done
}

# args_for WORKLOAD PORT: sets args to the workload's redis-benchmark command.
args_for() {
  case $1 in
    EVAL) args=(EVAL "$script" 1 key:__rand_int__ value) ;;
    EVALSHA)
      sha=$(redis-cli -p "$2" SCRIPT LOAD "$script" 2>/dev/null || true)
      args=(EVALSHA "$sha" 1 key:__rand_int__ value) ;;
    MSET10) read -r -a args <<<"$mset10" ;;
    MGET10) read -r -a args <<<"$mget10" ;;
  esac
}

if [ "$warmup" -gt 0 ]; then
  for workload in EVAL EVALSHA MSET10 MGET10; do
    for server in "${servers[@]}"; do
      args_for "$workload" "${port[$server]}"
      BENCH_REQUESTS=$warmup bench "${port[$server]}" "${args[@]}" >/dev/null
    done
  done
fi

# redis-benchmark rows
for workload in EVAL EVALSHA MSET10 MGET10; do
  wanted "$workload" || continue
  declare -A ops cpu p99 client
  for server in "${servers[@]}"; do
    p=${port[$server]}
    args_for "$workload" "$p"
    before=$(cpu_ticks "${pid[$server]}")
    ops[$server]=$(bench "$p" "${args[@]}")
    after=$(cpu_ticks "${pid[$server]}")
    client[$server]=$(awk -v c="$(cat "$work/bench.client")" -v n="$requests" 'BEGIN {printf "%.3f", c / n * 1e6}')
    p99[$server]="-"
    cpu[$server]=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" -v o="${ops[$server]}" \
      'BEGIN {if (o == "-") print "-"; else printf "%.3f", t / hz / n * 1e6}')
  done
  report "$workload"
  unset ops cpu p99 client
done

# load-tool rows: MULTI/SET/GET/EXEC, then GET p99 alone and beside an MSET10 load
exec2=(--command=MULTI --command="SET __key__ __data__" --command="SET __key__ __data__" --command=EXEC
  --key-maximum=100000 --distinct-client-seed)
exec2hot=(--command=MULTI --command="SET x:__key__ __data__" --command="SET y:__key__ __data__" --command=EXEC)
multi=(--command=MULTI --command="SET __key__ __data__" --command="GET __key__" --command=EXEC --key-maximum=100000)
if [ "$warmup" -gt 0 ] && [ "$warmup_seconds" -gt 0 ] && { wanted MULTI || wanted EXEC2 || wanted "EXEC2 hot" || wanted "GET +EXEC"; }; then
  for server in "${servers[@]}"; do
    load "${port[$server]}" "$work/warmup.json" --test-time="$warmup_seconds" -t 2 -c 25 "${multi[@]}"
    load "${port[$server]}" "$work/warmup.json" --test-time="$warmup_seconds" -t 2 -c 25 "${exec2[@]}"
  done
fi
for workload in MULTI "GET alone" "GET +MSET" "GET +RENAME" "GET +SUNIONSTORE" EXEC2 "EXEC2 hot" "GET +EXEC"; do
  wanted "$workload" || continue
  declare -A ops cpu p99 client
  for server in "${servers[@]}"; do
    p=${port[$server]}
    beside=""
    case $workload in
      MULTI) options=(-t 2 -c 25 "${multi[@]}") ;;
      EXEC2) options=(-t 2 -c 25 "${exec2[@]}") ;;
      "EXEC2 hot") options=(-t 2 -c 25 "${exec2hot[@]}") ;;
      GET*) options=(-t 2 -c 10 --ratio=0:1 --key-pattern=R:R --key-maximum=100000) ;;
    esac
    case $workload in
      "GET +MSET") read -r -a margs <<<"$mset10"; range=1000000 ;;
      "GET +RENAME")
        redis-benchmark -p "$p" -n 300000 -c 20 -r 100000 -q SET r:__rand_int__ v >/dev/null 2>&1
        margs=(RENAME r:__rand_int__ r:__rand_int__); range=100000 ;;
      "GET +SUNIONSTORE")
        for s in 1 2 3 4; do
          redis-cli -p "$p" SADD "set:$s" "$s-0" "$s-1" "$s-2" "$s-3" "$s-4" "$s-5" "$s-6" "$s-7" "$s-8" "$s-9" >/dev/null
        done
        margs=(SUNIONSTORE u:__rand_int__ set:1 set:2 set:3 set:4); range=1000 ;;
      *) margs=() ;;
    esac
    if [ ${#margs[@]} -gt 0 ]; then
      redis-benchmark -p "$p" -n 100000000 -c 20 -r "$range" -q "${margs[@]}" >/dev/null 2>&1 &
      beside=$!
      sleep 1
    elif [ "$workload" = "GET +EXEC" ]; then
      "$tool" -s 127.0.0.1 -p "$p" -d 256 --hide-histogram -t 1 -c 20 --test-time=$((seconds + 5)) "${exec2[@]}" \
        >/dev/null 2>&1 &
      beside=$!
      sleep 1
    fi
    before=$(cpu_ticks "${pid[$server]}")
    load "$p" "$work/run.json" --test-time="$seconds" "${options[@]}"
    after=$(cpu_ticks "${pid[$server]}")
    if [ -n "$beside" ]; then
      kill "$beside" 2>/dev/null || true
      wait "$beside" 2>/dev/null || true
    fi
    ops[$server]=$(totals "$work/run.json" Ops/sec)
    p99[$server]=$(totals "$work/run.json" p99.00)
    count=$(totals "$work/run.json" Count)
    cpu[$server]=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$count" 'BEGIN {printf "%.3f", t / hz / n * 1e6}')
  done
  report "$workload"
  unset ops cpu p99 client
done
