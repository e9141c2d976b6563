#!/usr/bin/env bash
# BGSAVE under a write load: Debian's redis-server (fork, copy-on-write pages) against Lacewing's
# distribution on both engines (no fork, copy-on-write per entry), one fresh server each, on a
# free loopback port, in one run.
#
#   fill    KEYS string keys key:%012d (redis-benchmark's __rand_int__ names) of 100-byte values,
#           through redis-cli --pipe
#   load    redis-benchmark SETs 100-byte values to random existing keys, 20 clients, pipeline 16,
#           running before, during and after the save (bounded by its -n and by the script)
#   before  for 3 s under the load: the peak memory without a save (the baseline)
#   save    BGSAVE, then sampled every 0.1 s until INFO says it ended
# Memory is PSS (proportional set size, /proc/PID/smaps_rollup) summed over the server and its
# children, so a page redis-server's fork shares with its parent counts once and a page it copied
# counts twice, as it costs. "extra" is the peak during the save minus the peak before it, both
# under the same load. Also reported: the save's wall time, the file's size, and INFO's
# rdb_last_cow_size (redis: bytes its child copied; Lacewing: bytes of entries written early
# because they were about to change).
#
# Usage: benchmarks/bgsave.sh [KEYS]   (default 1000000)
# Each file must hold every key, as redis-check-rdb counts them.
# Needs: redis-server, redis-cli, redis-benchmark, redis-check-rdb, and the distribution built by
# `mvn -B -o -q package -DskipTests`.
set -euo pipefail

keys=${1:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }

source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli redis-benchmark redis-check-rdb
pid=

pss_kib() { # pid -> PSS of the process and its children, KiB
  local total=0 p
  for p in "$1" $(ps -o pid= --ppid "$1" 2>/dev/null); do
    total=$((total + $(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
info_field() { redis-cli -p "$port" info "$1" | tr -d '\r' | awk -F: -v f="$2" '$1 == f {print $2}'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

start_server() { # name dir
  port=$(free_port)
  if [ "$1" = redis ]; then
    redis-server --port "$port" --save '' --appendonly no --dir "$2" >"$2/server.log" 2>&1 &
  else
    "$dist/bin/lacewing-server" --save "" --dir "$2" --port "$port" --engine "$1" >"$2/server.log" 2>&1 &
  fi
  pid=$!; pids+=("$pid")
  wait_ready "$port"
}

stop_server() {
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

fill() {
  awk -v n="$keys" 'BEGIN {
    value = sprintf("%100s", ""); gsub(/ /, "v", value)
    for (i = 0; i < n; i++) {
      key = sprintf("key:%012d", i)
      printf "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$100\r\n%s\r\n", length(key), key, value
    }
  }' | redis-cli -p "$port" --pipe >/dev/null
}

run() { # label name
  local dir="$work/$2" before=0 peak=0 current started ended
  mkdir -p "$dir"
  start_server "$2" "$dir"
  fill
  redis-benchmark -p "$port" -t set -d 100 -r "$keys" -n $((keys * 20)) -c 20 -P 16 -q >"$dir/load.log" 2>&1 &
  local load=$!
  for _ in $(seq 1 30); do
    current=$(pss_kib "$pid"); [ "$current" -gt "$before" ] && before=$current
    sleep 0.1
  done
  started=$(date +%s.%N)
  redis-cli -p "$port" bgsave >/dev/null
  while [ "$(info_field persistence rdb_bgsave_in_progress)" = 1 ]; do
    current=$(pss_kib "$pid"); [ "$current" -gt "$peak" ] && peak=$current
    sleep 0.1
  done
  ended=$(date +%s.%N)
  kill "$load" 2>/dev/null || true; wait "$load" 2>/dev/null || true
  [ "$(info_field persistence rdb_last_bgsave_status)" = ok ] || echo "warning: $1's save failed" >&2
  local check
  check=$(redis-check-rdb "$dir/dump.rdb" 2>&1 || true)
  [[ "$check" == *"[info] $keys keys read"* ]] || echo "warning: redis-check-rdb does not read $keys keys in $1's file" >&2
  printf "%-28s %9s %9s %9s %9s %9.2f %10s %10s\n" "$1" "$(redis-cli -p "$port" dbsize)" "$(mib "$before")" \
    "$(mib "$peak")" "$(mib $((peak > before ? peak - before : 0)))" "$(awk -v a="$started" -v b="$ended" 'BEGIN {print b - a}')" \
    "$(mib $(($(stat -c %s "$dir/dump.rdb") / 1024)))" "$(mib $(($(info_field persistence rdb_last_cow_size) / 1024)))"
  stop_server
}

echo "BGSAVE of $keys keys (100-byte values) under SETs to random existing keys (-c 20 -P 16)"
echo "MiB of PSS (server + children): peak before the save, peak during it, extra; seconds; file MiB; rdb_last_cow_size MiB"
printf "%-28s %9s %9s %9s %9s %9s %10s %10s\n" server keys before during extra seconds file cow
run "redis-server $(redis-server --version | awk '{print $3}' | tr -d v=)" redis
for engine in shared-nothing multithread; do
  run "lacewing $engine" "$engine"
done
