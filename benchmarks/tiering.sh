#!/usr/bin/env bash
# Storage past RAM (issue 21): the tiered storage holding a dataset several times maxmemory, against
# the compact storage holding the part that fits in memory, on the same machine in the same run.
#
#   fill     KEYS keys of 1 KB values (P:P, each key once, pipeline 16) into the tiered storage under
#            maxmemory with noeviction: keys/s, error replies (must be 0: offloading makes room, no
#            key is refused or evicted), DBSIZE afterwards, used_memory, the bytes and values on disk
#   GET      then, TIERING_SECONDS each: GET at pipeline 1 and 30, with keys drawn uniformly over the
#            whole range and with a 90/10 pattern (gaussian around the middle key, stddev 3.04% of the
#            range: 90% of the GETs fall on 10% of the keys); ops/s, p99 latency, server CPU per GET
#            and the share of GETs that read the disk (INFO tiered_reads)
#   compact  the compact storage without maxmemory, filled with the keys that fit in maxmemory
#            (maxmemory / 1,100 bytes), then the same GET loads over its range
# Peak RSS is sampled every half second through each server's life and compared with the bound
# issue 15 set: 1.5x maxmemory plus the server's idle RSS.
#
# Usage: benchmarks/tiering.sh [--smoke] [keys] [maxmemory]
#   keys       default 20000000 (about 20 GB of values: needs that much free disk under TMPDIR)
#   maxmemory  default 2gb
#   --smoke    200,000 keys under 64mb and 3-second loads: a check that the script works
#   TIERING_SECONDS  seconds per GET load (default 30); TIERING_ENGINE (default shared-nothing);
#   TIERING_THREADS  server threads (default nproc); LACEWING_JAVA_OPTS reaches the launcher
# Needs: redis-cli and the distribution built by `mvn -B -o -q package -DskipTests`.
set -euo pipefail

keys=20000000
maxmemory=2gb
seconds=${TIERING_SECONDS:-30}
if [ "${1:-}" = --smoke ]; then
  keys=200000; maxmemory=64mb; seconds=${TIERING_SECONDS:-3}; shift
fi
keys=${1:-$keys}
maxmemory=${2:-$maxmemory}
engine=${TIERING_ENGINE:-shared-nothing}
threads=${TIERING_THREADS:-$(nproc)}
value_size=1024
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-cli

limit_bytes=$(awk -v m="$maxmemory" 'BEGIN {
    n = m + 0; u = tolower(m); sub(/^[0-9]+/, "", u)
    f = u == "kb" ? 1024 : u == "mb" ? 1048576 : u == "gb" ? 1073741824 : u == "k" ? 1000 : u == "m" ? 1000000 : u == "g" ? 1000000000 : 1
    printf "%d", n * f }')
fit=$((limit_bytes / 1100))
hz=$(getconf CLK_TCK)

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
mib() { awk -v b="${1:-0}" 'BEGIN { printf "%.1f", b / 1048576 }'; }
info_field() { # port field (awk reads to the end: an early exit would fail the pipeline with SIGPIPE)
  redis-cli -p "$1" info everything | tr -d '\r' | awk -F: -v f="$2" '$1 == f && !found {print $2; found = 1}'
}

port=; pid=; sampler=
start_server() { # storage option...
  local storage=$1
  shift
  port=$(free_port)
  "$dist/bin/lacewing-server" --port "$port" --engine "$engine" --threads "$threads" --storage "$storage" \
    --dir "$work" --save '' --appendonly no "$@" >"$work/$storage.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$port"
  sleep 5
  idle=$(rss_kib "$pid")
  echo 0 >"$work/peak"
  ( peak=0
    while kill -0 "$pid" 2>/dev/null; do
      current=$(rss_kib "$pid" 2>/dev/null || echo 0)
      [ "$current" -gt "$peak" ] && { peak=$current; echo "$peak" >"$work/peak"; }
      sleep 0.5
    done ) &
  sampler=$!
}

stop_server() {
  kill "$pid"; wait "$pid" 2>/dev/null || true
  kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
  pid=
}

load() { # json-file tool-options... (error replies are counted, not fatal)
  local json=$1
  shift
  "$tool" -s 127.0.0.1 -p "$port" -t 2 -c 4 -d "$value_size" --distinct-client-seed --hide-histogram --print-percentiles=50,99 \
    --json-out-file="$json" "$@" >"$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; return 1; }
}

fill() { # label count
  local started ended ticks errors
  ticks=$(cpu_ticks "$pid")
  started=$(date +%s.%N)
  load "$work/fill.json" --ratio=1:0 --key-pattern=P:P --requests=allkeys --key-minimum=1 \
    --key-maximum="$2" --pipeline=16
  ended=$(date +%s.%N)
  ticks=$(($(cpu_ticks "$pid") - ticks))
  errors=$(totals "$work/fill.json" Errors)
  printf "%-8s fill %'d keys: %.0f keys/s, %s error replies, server CPU %.2f us/SET; DBSIZE %s, used_memory %s MiB" \
    "$1" "$2" "$(awk -v n="$2" -v a="$started" -v b="$ended" 'BEGIN {print n / (b - a)}')" "$errors" \
    "$(awk -v t="$ticks" -v hz="$hz" -v n="$2" 'BEGIN {print t * 1e6 / hz / n}')" \
    "$(redis-cli -p "$port" dbsize)" "$(mib "$(info_field "$port" used_memory)")"
  if [ "$1" = tiered ]; then
    printf ", on disk %s MiB in %s values" "$(mib "$(info_field "$port" tiered_disk_bytes)")" \
      "$(info_field "$port" tiered_offloaded_values)"
  fi
  printf "\n"
}

gets() { # label count
  local range=$2 stddev pipeline pattern options before after reads_before reads_after count
  stddev=$(awk -v r="$range" 'BEGIN {printf "%d", r * 0.0304 + 1}')
  for pipeline in 1 30; do
    for pattern in uniform 90/10; do
      options=(--ratio=0:1 --key-minimum=1 --key-maximum="$range" --pipeline="$pipeline" --test-time="$seconds")
      if [ "$pattern" = uniform ]; then
        options+=(--key-pattern=R:R)
      else
        options+=(--key-pattern=R:G --key-stddev="$stddev")
      fi
      reads_before=$(info_field "$port" tiered_reads); reads_before=${reads_before:-0}
      before=$(cpu_ticks "$pid")
      load "$work/get.json" "${options[@]}"
      after=$(cpu_ticks "$pid")
      reads_after=$(info_field "$port" tiered_reads); reads_after=${reads_after:-0}
      count=$(totals "$work/get.json" Count)
      printf "%-8s %-8s P%-3s %12.0f %10.3f %12.2f %10.3f %8s\n" "$1" "$pattern" "$pipeline" \
        "$(totals "$work/get.json" Ops/sec)" "$(totals "$work/get.json" p99.00)" \
        "$(awk -v t=$((after - before)) -v hz="$hz" -v n="$count" 'BEGIN {print t * 1e6 / hz / n}')" \
        "$(awk -v r=$((reads_after - reads_before)) -v n="$count" 'BEGIN {print r / n}')" \
        "$(totals "$work/get.json" Errors)"
    done
  done
}

rss_line() { # label [bounded]
  local peak bound
  peak=$(cat "$work/peak")
  if [ -z "${2:-}" ]; then
    printf "%-8s RSS: idle %s MiB, peak %s MiB (no maxmemory)\n" "$1" "$(mib $((idle * 1024)))" "$(mib $((peak * 1024)))"
    return
  fi
  bound=$(awk -v l="$limit_bytes" -v i="$idle" 'BEGIN {printf "%d", l * 1.5 / 1024 + i}')
  printf "%-8s RSS: idle %s MiB, peak %s MiB, bound (1.5x maxmemory + idle) %s MiB: %s\n" "$1" \
    "$(mib $((idle * 1024)))" "$(mib $((peak * 1024)))" "$(mib $((bound * 1024)))" \
    "$([ "$peak" -le "$bound" ] && echo within || echo OVER)"
}

echo "$(date -u +%FT%TZ) $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); engine $engine, $threads threads;"
echo "values of $value_size bytes; tiered: $keys keys under maxmemory $maxmemory (noeviction);" \
  "compact: $fit keys, no maxmemory; ${seconds}s per GET load, 2 threads x 4 connections"
start_server tiered --maxmemory "$maxmemory" --maxmemory-policy noeviction
fill tiered "$keys"
printf "%-8s %-8s %-4s %12s %10s %12s %10s %8s\n" storage keys pipe "GET/s" "p99 ms" "cpu us/GET" "disk/GET" errors
gets tiered "$keys"
rss_line tiered bounded
stop_server
start_server compact
fill compact "$fit"
gets compact "$fit"
rss_line compact
stop_server
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
