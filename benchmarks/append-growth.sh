#!/usr/bin/env bash
# APPEND growth, in one run: one string built by APPENDs of one chunk each (default 50 of 10 MiB,
# a 500 MiB string) on Debian's redis-server and on Lacewing, one fresh
# server each. Reported per server: the time of the first, middle and last APPEND and of the
# slowest, the total, the halves' totals (equal when the cost is linear in the bytes appended;
# the second three times the first when each APPEND copies the whole string), the peak RSS of
# the process (VmHWM) and MEMORY USAGE of the key at the end.
#
# Each APPEND is one redis-cli -x call (the chunk on stdin). Two times are taken of each: "wall",
# around the call (a few milliseconds of process start and the 10 MiB transfer are in every
# figure, for both servers), and "server", the growth of INFO commandstats' APPEND usec (the
# command's own execution: where copying the whole string on each APPEND would show).
# Lacewing runs with the launcher's defaults (no maxmemory: the heap may grow to half the memory).
#
# Usage: benchmarks/append-growth.sh [--smoke] [appends] [chunk-bytes] [JVM options]
#   --smoke   10 APPENDs of 1 MiB: a check that the script works
# Needs: redis-server, redis-cli, and the distribution built by `mvn -B -o -q package -DskipTests`.
set -euo pipefail

smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
appends=${1:-$([ "$smoke" = yes ] && echo 10 || echo 50)}
chunk=${2:-$([ "$smoke" = yes ] && echo 1048576 || echo 10485760)}
java_opts=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }

source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli
pid=

head -c "$chunk" /dev/zero | tr '\0' 'a' >"$work/chunk"
now_ns() { date +%s%N; }
peak_rss() { awk '/^VmHWM/ {print $2 * 1024}' "/proc/$1/status"; }

# Microseconds the server has spent in APPEND (INFO commandstats).
append_usec() { # port
  redis-cli -p "$1" info commandstats | tr -d '\r' | awk -F'[=,]' '/^cmdstat_append:/ {print $4; exit}'
}

# One line of figures from microsecond times, one per APPEND.
summary() { # label time...
  local label=$1 total=0 first_half=0 second_half=0 slowest=0 i
  shift
  local times=("$@")
  for i in "${!times[@]}"; do
    total=$((total + times[i]))
    if [ "$i" -lt $((appends / 2)) ]; then first_half=$((first_half + times[i])); else second_half=$((second_half + times[i])); fi
    [ "${times[i]}" -gt "$slowest" ] && slowest=${times[i]}
  done
  awk -v label="$label" -v first="${times[0]}" -v middle="${times[$((appends / 2))]}" -v last="${times[$((appends - 1))]}" \
    -v slowest="$slowest" -v total="$total" -v h1="$first_half" -v h2="$second_half" 'BEGIN {
      printf "  %-6s first %6.1f ms  middle %6.1f ms  last %6.1f ms  slowest %6.1f ms  total %6.2f s  (halves %5.2f s, %5.2f s)\n",
        label, first / 1000, middle / 1000, last / 1000, slowest / 1000, total / 1e6, h1 / 1e6, h2 / 1e6
    }'
}

# Builds the string on the server on a port and prints its figures.
run() { # name port
  local wall=() server=() start end before after i length
  redis-cli -p "$2" del growing >/dev/null
  for i in $(seq 1 "$appends"); do
    before=$(append_usec "$2")
    start=$(now_ns)
    length=$(redis-cli -p "$2" -x append growing <"$work/chunk")
    end=$(now_ns)
    after=$(append_usec "$2")
    wall+=($(((end - start) / 1000)))
    server+=($((after - ${before:-0})))
  done
  [ "$length" = $((appends * chunk)) ] || echo "warning: $1 holds $length bytes, not $((appends * chunk))" >&2
  awk -v name="$1" -v rss="$(peak_rss "$pid")" -v usage="$(redis-cli -p "$2" memory usage growing)" 'BEGIN {
    printf "%-17s peak RSS %6.0f MB  MEMORY USAGE %6.1f MB\n", name, rss / 1e6, usage / 1e6
  }'
  summary wall "${wall[@]}"
  summary server "${server[@]}"
}

stop() {
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

echo "== $appends APPENDs of $chunk bytes: a string of $((appends * chunk)) bytes"
port=$(free_port)
redis-server --port "$port" --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
pid=$!; pids+=("$pid")
wait_ready "$port"
run redis "$port"
redis_rss=$(peak_rss "$pid")
stop
port=$(free_port)
LACEWING_JAVA_OPTS="$java_opts" "$dist/bin/lacewing-server" --save "" --dir "$work" --port "$port" \
  >"$work/lacewing.log" 2>&1 &
pid=$!; pids+=("$pid")
wait_ready "$port"
run lacewing "$port"
awk -v ours="$(peak_rss "$pid")" -v redis="$redis_rss" -v smoke="$smoke" 'BEGIN {
  verdict = smoke == "yes" ? "smoke run, no verdict" : ours / redis <= 1.5 ? "met" : "not met"
  printf "  peak RSS %.2fx redis-server'"'"'s (target <= 1.5x: %s)\n", ours / redis, verdict
}'
stop
