#!/usr/bin/env bash
# Side-by-side throughput of Debian's redis-server and Lacewing (each engine), measured with
# redis-benchmark in the same run: GET and SET, 256-byte values, random keys over 1,000,000,
# 50 connections, pipeline 1 and 30. Servers alternate per workload so drift hits all of them.
# Prints requests/s, p50 latency (ms), server CPU seconds per million requests (from
# /proc/PID/stat) and each Lacewing/Redis ratio.
#
# Usage: benchmarks/compare-redis-benchmark.sh [requests-per-run] [threads]
# Needs: redis-server, redis-benchmark, and the distribution built by `mvn -B package`.
set -euo pipefail

requests=${1:-200000}
threads=${2:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-benchmark redis-cli

declare -A port pid
port[redis]=$(free_port)
redis-server --port "${port[redis]}" --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
pid[redis]=$!; pids+=("${pid[redis]}")
wait_ready "${port[redis]}"

servers=(redis)
for engine in shared-nothing multithread; do
  name="lacewing-$engine"
  port[$name]=$(free_port)
  "$dist/bin/lacewing-server" --save "" --dir "$work" --port "${port[$name]}" --engine "$engine" --threads "$threads" \
    >"$work/$name.log" 2>&1 &
  pid[$name]=$!; pids+=("${pid[$name]}")
  wait_ready "${port[$name]}"
  servers+=("$name")
done

hz=$(getconf CLK_TCK)
printf '%-10s %-24s %12s %10s %14s %8s %8s\n' workload server "requests/s" "p50 ms" "cpu s/M req" "x redis" "cpu x"
for pipeline in 1 30; do
  for test in set get; do
    declare -A rps cpu p50
    for server in "${servers[@]}"; do
      before=$(cpu_ticks "${pid[$server]}")
      line=$(redis-benchmark -p "${port[$server]}" -t "$test" -n "$requests" -c 50 -P "$pipeline" -d 256 \
        -r 1000000 --csv 2>/dev/null | tail -n 1)
      after=$(cpu_ticks "${pid[$server]}")
      # CSV: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",...
      rps[$server]=$(echo "$line" | awk -F'","' '{print $2}')
      p50[$server]=$(echo "$line" | awk -F'","' '{print $5}')
      cpu[$server]=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN {printf "%.3f", t / hz / n * 1e6}')
    done
    for server in "${servers[@]}"; do
      ratio=$(awk -v a="${rps[$server]}" -v b="${rps[redis]}" 'BEGIN {printf "%.2f", a / b}')
      cpuratio=$(awk -v a="${cpu[$server]}" -v b="${cpu[redis]}" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')
      printf '%-10s %-24s %12s %10s %14s %8s %8s\n' "${test^^} P$pipeline" "$server" "${rps[$server]}" \
        "${p50[$server]}" "${cpu[$server]}" "$ratio" "$cpuratio"
    done
    unset rps cpu p50
  done
done
