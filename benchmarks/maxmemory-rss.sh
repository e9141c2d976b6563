#!/usr/bin/env bash
# What maxmemory bounds, as an operator sees it: the process's RSS and INFO used_memory under a
# fill and an eviction load, for Debian's redis-server and for Lacewing's distribution on both
# engines, side by side on free loopback ports, one fresh server per load.
#
#   idle      RSS of the server just started, empty, 5 s after it answers (the fixed base)
#   evict     maxmemory-policy allkeys-lru; redis-benchmark SETs 256-byte values to random keys of
#             a range holding about 8x maxmemory (key:__rand_int__, -r), 50 clients, pipeline 16
#   fill      maxmemory-policy noeviction; the same SETs until the first OOM error stops
#             redis-benchmark (it stops at an error reply)
#   base      no load measured: the idle RSS, then again after a warm-up (the same SETs over 1,000
#             keys, so the data stays a few hundred KB) and 25 s of rest (past a native heap trim
#             and ZGC's 20 s collection interval, so the warm-up's garbage is not counted): the
#             warmed base, with the JIT's code and the load's threads and buffers in it
# Each load reports peak RSS (sampled every 0.1 s while it runs), final RSS (3 s after it ends),
# used_memory and maxmemory, and Lacewing's lacewing_used_memory_allocated (the keyspace's pages
# with the space awaiting compaction) and heap committed, and the server's CPU per SET (user and
# system time over the load's requests: steadier than SETs a second on a shared machine).
#
# Usage: [MAXMEMORY_LOADS="evict"] [ENGINES=multithread] [SKIP_REDIS=1] benchmarks/maxmemory-rss.sh [--smoke] [maxmemory] [java-home ...]
#   MAXMEMORY_LOADS  the loads to run, default "evict fill base"; LACEWING_JAVA_OPTS reaches the launcher
#   ENGINES    Lacewing's engines, default "shared-nothing multithread"; SKIP_REDIS=1 leaves out redis-server
#   MAXMEMORY_THREADS  Lacewing's --threads (default: the launcher's, three quarters of the cores)
#   MAXMEMORY_BASELINE another distribution (e.g. main's, packaged in a worktree of its own) run
#              right after each Lacewing row with the same settings, so the two alternate
#   --smoke    10mb and a tenth of the requests: a check that the script works
#   maxmemory  default 100mb (Redis's memory syntax: 100mb, 1gb)
#   java-home  one Lacewing run per JDK (default: JAVA_HOME, or java on the PATH), e.g.
#              /usr/lib/jvm/temurin-25-jdk-amd64; the launcher picks its options per JVM
# Needs: redis-server, redis-cli, redis-benchmark, and the distribution built by
# `mvn -B -o -q package -DskipTests`.
set -euo pipefail

maxmemory=100mb
requests=3000000
if [ "${1:-}" = --smoke ]; then
  maxmemory=10mb; requests=300000; shift
fi
maxmemory=${1:-$maxmemory}
[ $# -gt 0 ] && shift
jdks=("$@")
[ ${#jdks[@]} -gt 0 ] || jdks=("${JAVA_HOME:-}")
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }
[ -z "${MAXMEMORY_BASELINE:-}" ] || [ -x "$MAXMEMORY_BASELINE/bin/lacewing-server" ] \
  || { echo "no distribution at $MAXMEMORY_BASELINE" >&2; exit 1; }

source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli redis-benchmark
pid=

limit_bytes=$(awk -v m="$maxmemory" 'BEGIN {
    n = m + 0; u = tolower(m); sub(/^[0-9]+/, "", u)
    f = u == "kb" ? 1024 : u == "mb" ? 1048576 : u == "gb" ? 1073741824 : u == "k" ? 1000 : u == "m" ? 1000000 : u == "g" ? 1000000000 : 1
    printf "%d", n * f }')
# 256-byte values take about 300 bytes a key in either server: a range of 8x what fits.
key_range=$((limit_bytes / 300 * 8))

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
info_field() { redis-cli -p "$port" info "$1" | tr -d '\r' | awk -F: -v f="$2" '$1 == f {print $2}'; }
mib() { awk -v b="${1:-}" 'BEGIN { if (b == "") print "-"; else printf "%.1f", b / 1048576 }'; }

start_server() { # name java-home policy [distribution]
  port=$(free_port)
  if [ "$1" = redis ]; then
    redis-server --port "$port" --save '' --appendonly no --maxmemory "$maxmemory" \
      --maxmemory-policy "$3" >"$work/server.log" 2>&1 &
  else
    JAVA_HOME="$2" "${4:-$dist}/bin/lacewing-server" --save "" --dir "$work" --port "$port" --engine "$1" --maxmemory "$maxmemory" \
      --maxmemory-policy "$3" ${MAXMEMORY_THREADS:+--threads "$MAXMEMORY_THREADS"} >"$work/server.log" 2>&1 &
  fi
  pid=$!; pids+=("$pid")
  wait_ready "$port"
  # The launcher execs java: the pid is the server's.
}

stop_server() {
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

# Runs the load, sampling RSS; prints one row.
run_load() { # label load
  local peak=0 current final used allocated heap keys ticks
  if [ "$2" = base ]; then
    redis-benchmark -p "$port" -t set -d 256 -r 1000 -n $((requests / 10)) -c 50 -P 16 -q >"$work/load.log" 2>&1
    sleep 25
    printf "%-34s %-6s %9.1f %9s %9.1f\n" "$1" "$2" "$(mib $((idle * 1024)))" "" "$(mib $(($(rss_kib "$pid") * 1024)))"
    return
  fi
  ticks=$(cpu_ticks "$pid")
  redis-benchmark -p "$port" -t set -d 256 -r "$key_range" -n "$requests" -c 50 -P 16 -q \
    >"$work/load.log" 2>&1 &
  local load=$!
  while kill -0 "$load" 2>/dev/null; do
    current=$(rss_kib "$pid"); [ "$current" -gt "$peak" ] && peak=$current
    sleep 0.1
  done
  wait "$load" || true
  current=$(rss_kib "$pid"); [ "$current" -gt "$peak" ] && peak=$current
  ticks=$(($(cpu_ticks "$pid") - ticks))
  sleep 3
  final=$(rss_kib "$pid")
  used=$(info_field memory used_memory)
  allocated=$(info_field memory lacewing_used_memory_allocated)
  heap=$(info_field memory used_memory_heap_committed)
  keys=$(redis-cli -p "$port" dbsize)
  rate=$(tr '\r' '\n' <"$work/load.log" | awk '/requests per second/ {v = $2} END {printf "%.0f", v}')
  # The fill stops at its first OOM error: count the keys it stored, not the requests asked for.
  local sets=$requests; [ "$2" = fill ] && sets=$keys
  cpu=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$sets" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }')
  printf "%-34s %-6s %9.1f %9.1f %9s %9s %9s %9s %9s %8s %8s %7s\n" "$1" "$2" "$(mib $((idle * 1024)))" \
    "$(mib $((peak * 1024)))" "$(mib $((final * 1024)))" "$(mib "$used")" "$(mib "$limit_bytes")" \
    "$(mib "$allocated")" "$(mib "$heap")" "$keys" "$rate" "$cpu"
  grep -q "OOM" "$work/load.log" || [ "$2" != fill ] || echo "warning: $1's fill ended without an OOM error" >&2
}

echo "maxmemory $maxmemory ($limit_bytes bytes); SETs of 256-byte values over $key_range keys, -n $requests -c 50 -P 16"
echo "MiB: idle RSS, peak and final RSS under the load, used_memory, maxmemory, lacewing's allocated keyspace, heap committed;"
echo "SETs a second; server CPU microseconds a SET. base: idle RSS, and under final the RSS after a warm-up"
printf "%-34s %-6s %9s %9s %9s %9s %9s %9s %9s %8s %8s %7s\n" server load idle peak final used max allocated heap keys SET/s cpu-us
for load in ${MAXMEMORY_LOADS:-evict fill base}; do
  policy=allkeys-lru; [ "$load" = fill ] && policy=noeviction
  if [ -z "${SKIP_REDIS:-}" ]; then
    start_server redis "" "$policy"
    sleep 5; idle=$(rss_kib "$pid")
    run_load "redis-server $(redis-server --version | awk '{print $3}' | tr -d v=)" "$load"
    stop_server
  fi
  for jdk in "${jdks[@]}"; do
    java="${jdk:+$jdk/bin/}java"
    version=$("$java" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}')
    for engine in ${ENGINES:-shared-nothing multithread}; do
      for build in this ${MAXMEMORY_BASELINE:+baseline}; do
        distribution=$dist; label="lacewing $engine jdk $version"
        [ "$build" = baseline ] && distribution=$MAXMEMORY_BASELINE && label="baseline $engine jdk $version"
        start_server "$engine" "$jdk" "$policy" "$distribution"
        sleep 5; idle=$(rss_kib "$pid")
        run_load "$label" "$load"
        stop_server
      done
    done
  done
done
