#!/usr/bin/env bash
# Write throughput with the AOF (issue 17 item 8): SET with appendonly yes under appendfsync always
# and everysec, at pipeline 1 and 30, on Debian's redis-server and on Lacewing (launcher defaults)
# in the same run, each server fresh per row, with an empty AOF directory of its own.
# redis-benchmark, 50 connections, random keys over 100,000, 3-byte values, one warm-up run then the
# measured one. Prints each server's ops/s and the ratio Lacewing/Redis per row.
#
# Usage: benchmarks/aof.sh [requests-per-run]   (default 200000)
# Needs: redis-server, redis-benchmark, redis-cli, and the distribution built by
#        `mvn -B -o -q package -DskipTests`.
set -euo pipefail

requests=${1:-200000}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-benchmark redis-cli

# ops/s of SET on a port at a pipeline depth, after a warm-up run of the same load (the JVM's JIT).
set_rate() { # port pipeline
  redis-benchmark -p "$1" -t set -n "$requests" -c 50 -r 100000 -d 3 -P "$2" -q >/dev/null 2>&1
  redis-benchmark -p "$1" -t set -n "$requests" -c 50 -r 100000 -d 3 -P "$2" -q 2>/dev/null \
    | tr '\r' '\n' | awk '/^SET: [0-9.]+ requests per second/ && !done {print $2; done = 1}'
}

start_redis() { # fsync
  rm -rf "$work/redis-$1"; mkdir -p "$work/redis-$1"
  redis_port=$(free_port)
  redis-server --port "$redis_port" --save '' --appendonly yes --appendfsync "$1" --dir "$work/redis-$1" \
    --daemonize no >"$work/redis-$1.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$redis_port"
}

start_lacewing() { # fsync
  rm -rf "$work/lacewing-$1"; mkdir -p "$work/lacewing-$1"
  lacewing_port=$(free_port)
  "$dist/bin/lacewing-server" --port "$lacewing_port" --save '' --appendonly yes --appendfsync "$1" \
    --dir "$work/lacewing-$1" >"$work/lacewing-$1.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$lacewing_port"
}

stop() {
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

echo "== SET, appendonly yes, $requests requests per run, 50 connections ($(nproc) CPUs)"
printf "%-10s %-9s %14s %14s %8s\n" fsync pipeline redis-ops/s lacewing-ops/s ratio
for fsync in always everysec; do
  for pipeline in 1 30; do
    start_redis "$fsync"; redis_rate=$(set_rate "$redis_port" "$pipeline"); stop
    start_lacewing "$fsync"; lacewing_rate=$(set_rate "$lacewing_port" "$pipeline"); stop
    awk -v f="$fsync" -v p="$pipeline" -v r="$redis_rate" -v l="$lacewing_rate" \
      'BEGIN { printf "%-10s %-9s %14.0f %14.0f %7.2fx\n", f, p, r, l, (r > 0 ? l / r : 0) }'
  done
done
