#!/usr/bin/env bash
# Memory goes back (issue 15 item 3): after a burst, Lacewing's RSS returns to within 1.2x of its
# level before the burst plus the data still stored, within 70 s, with nothing forced (no jcmd
# GC.run: what the launcher's JVM options do by themselves).
#
# For each engine: start the distribution with its defaults (2 threads), store 200,000 keys of
# 100 bytes (the data that stays), let the server idle 65 s (its idle collection), read the RSS,
# then run three bursts back to back (bursts.py: a client pipelining 100,000 GETs of a 100 KB
# value without reading, a 200 MB value SET, read and deleted, 20 clients each sending 20 MB of a
# bulk that never completes) and read the RSS every 5 s for 70 s. The keyspace holds the same
# data before and after, so the target is 1.2x the RSS before.
#
# Usage: benchmarks/burst-recovery.sh [JAVA_HOME]   (default: the java on the PATH)
# Needs: redis-cli, python3, and the distribution (mvn -B package -DskipTests).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-cli redis-benchmark python3
[ $# -gt 0 ] && export JAVA_HOME=$1

rss_mb() { awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }

printf '%-15s %9s %9s %9s %9s %8s %s\n' engine before peak after70s ratio target "rss every 5 s (MB)"
for engine in shared-nothing multithread; do
  port=$(free_port)
  "$dist/bin/lacewing-server" --save "" --dir "$work" --port $port --engine "$engine" >"$work/$engine.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready $port
  redis-benchmark -p $port -t set -n 200000 -r 200000 -d 100 -P 30 -q >/dev/null 2>&1
  sleep 65
  before=$(rss_mb "$pid")
  python3 "$root/benchmarks/bursts.py" $port pipeline
  python3 "$root/benchmarks/bursts.py" $port huge
  python3 "$root/benchmarks/bursts.py" $port fat
  peak=$(awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
  samples=()
  for _ in $(seq 1 14); do
    sleep 5
    samples+=("$(rss_mb "$pid")")
  done
  after=${samples[-1]}
  ratio=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a / b }')
  met=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.2) ? "met" : "NOT met" }')
  printf '%-15s %9s %9s %9s %9s %8s %s\n' "$engine" "$before" "$peak" "$after" "${ratio}x" "$met" "${samples[*]}"
  redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true
  wait "$pid" 2>/dev/null || true
done
