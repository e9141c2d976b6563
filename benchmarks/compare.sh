#!/usr/bin/env bash
# Side-by-side Debian redis-server and Lacewing (each engine), loaded with bin/lacewing-benchmark
# in the same run. Each server is first filled with 1,000,000 keys of 256 bytes (P:P, each key
# once); then, alternating servers per workload so that drift hits all of them: GET and SET over
# random keys at pipeline 1 and 30, and memtier's mixed 1:1 workload (--data-size-pattern=S
# --random-data --key-minimum=200 --key-maximum=100000 --key-pattern=G:G). Prints ops/s, p99
# latency (ms), server CPU seconds per million operations (from /proc/PID/stat) and each
# Lacewing/Redis ratio.
#
# Usage: benchmarks/compare.sh [--short]
#   --short (or COMPARE_SHORT=1): 100,000 keys and 2-second workloads, about a minute in all
#   COMPARE_SECONDS  seconds per workload (default 15; 2 when short)
#   COMPARE_KEYS     keys filled (default 1000000; 100000 when short)
#   COMPARE_THREADS  server threads (default: nproc); the tool runs 2 threads x 25 connections
#   COMPARE_BASELINE another distribution (e.g. main's, packaged in a worktree of its own) run beside
#                    this one under the same load, its servers named baseline-ENGINE: to measure a change
# Needs: redis-server, redis-cli, and the distribution built by `mvn -B package`.
set -euo pipefail

short=${COMPARE_SHORT:-0}
[ "${1:-}" = "--short" ] && short=1
if [ "$short" = 1 ]; then
  seconds=${COMPARE_SECONDS:-2}
  keys=${COMPARE_KEYS:-100000}
else
  seconds=${COMPARE_SECONDS:-15}
  keys=${COMPARE_KEYS:-1000000}
fi
threads=${COMPARE_THREADS:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli

load() { # port json-file tool-options...
  local port=$1 json=$2
  shift 2
  "$tool" -s 127.0.0.1 -p "$port" -t 2 -c 25 -d 256 --hide-histogram --print-percentiles=50,99 \
    --json-out-file="$json" "$@" >"$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; return 1; }
  local errors
  errors=$(totals "$json" Errors)
  [ "$errors" = 0 ] || { echo "$errors error replies:" >&2; cat "$work/last.txt" >&2; return 1; }
}

declare -A port pid
port[redis]=$(free_port)
redis-server --port "${port[redis]}" --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
pid[redis]=$!; pids+=("${pid[redis]}")
wait_ready "${port[redis]}"

servers=(redis)
distributions=("lacewing=$dist")
if [ -n "${COMPARE_BASELINE:-}" ]; then
  [ -x "$COMPARE_BASELINE/bin/lacewing-server" ] || { echo "no distribution at $COMPARE_BASELINE" >&2; exit 1; }
  distributions+=("baseline=$COMPARE_BASELINE")
fi
for engine in shared-nothing multithread; do
  for named in "${distributions[@]}"; do
    name="${named%%=*}-$engine"
    port[$name]=$(free_port)
    "${named#*=}/bin/lacewing-server" --save "" --dir "$work" --port "${port[$name]}" --engine "$engine" \
      --threads "$threads" >"$work/$name.log" 2>&1 &
    pid[$name]=$!; pids+=("${pid[$name]}")
    wait_ready "${port[$name]}"
    servers+=("$name")
  done
done

echo "filling $keys keys of 256 bytes into each server; then ${seconds}s per workload" >&2
for server in "${servers[@]}"; do
  load "${port[$server]}" "$work/fill.json" --ratio=1:0 --key-pattern=P:P --requests=allkeys \
    --key-minimum=1 --key-maximum="$keys" --pipeline=30
done

workloads=(
  "GET P1|--ratio=0:1 --key-pattern=R:R --key-minimum=1 --key-maximum=$keys --pipeline=1"
  "SET P1|--ratio=1:0 --key-pattern=R:R --key-minimum=1 --key-maximum=$keys --pipeline=1"
  "GET P30|--ratio=0:1 --key-pattern=R:R --key-minimum=1 --key-maximum=$keys --pipeline=30"
  "SET P30|--ratio=1:0 --key-pattern=R:R --key-minimum=1 --key-maximum=$keys --pipeline=30"
  "MIXED 1:1|--ratio=1:1 --data-size-pattern=S --random-data --key-minimum=200 --key-maximum=100000 --key-pattern=G:G --pipeline=1"
)

hz=$(getconf CLK_TCK)
# Results as tab-separated rows (workload, server, ops/s, p99 ms, cpu s/M ops), drawn as a PNG at
# the end: COMPARE_OUT names the folder (default benchmarks/target), which receives compare.tsv
# and compare.png.
out_dir=${COMPARE_OUT:-$root/benchmarks/target}
mkdir -p "$out_dir"
results="$out_dir/compare.tsv"
: >"$results"

printf '%-10s %-24s %12s %10s %14s %8s %8s\n' workload server "ops/s" "p99 ms" "cpu s/M ops" "x redis" "cpu x"
for workload in "${workloads[@]}"; do
  label=${workload%%|*}
  read -r -a options <<<"${workload#*|}"
  declare -A ops cpu p99
  for server in "${servers[@]}"; do
    before=$(cpu_ticks "${pid[$server]}")
    load "${port[$server]}" "$work/run.json" --test-time="$seconds" "${options[@]}"
    after=$(cpu_ticks "${pid[$server]}")
    ops[$server]=$(totals "$work/run.json" Ops/sec)
    p99[$server]=$(totals "$work/run.json" p99.00)
    count=$(totals "$work/run.json" Count)
    cpu[$server]=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$count" 'BEGIN {printf "%.3f", t / hz / n * 1e6}')
  done
  for server in "${servers[@]}"; do
    ratio=$(awk -v a="${ops[$server]}" -v b="${ops[redis]}" 'BEGIN {printf "%.2f", a / b}')
    cpuratio=$(awk -v a="${cpu[$server]}" -v b="${cpu[redis]}" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')
    printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$server" "${ops[$server]}" "${p99[$server]}" "${cpu[$server]}" \
      >>"$results"
    printf '%-10s %-24s %12.0f %10.3f %14s %8s %8s\n' "$label" "$server" "${ops[$server]}" "${p99[$server]}" \
      "${cpu[$server]}" "$ratio" "$cpuratio"
  done
  unset ops cpu p99
done

java "$root/benchmarks/chart/CompareChart.java" "$results" "$out_dir/compare.png" \
  "compare.sh: $keys keys, ${seconds}s per workload, Lacewing --threads $threads, $(date -u +%Y-%m-%d)"
echo "results: $results, chart: $out_dir/compare.png"
