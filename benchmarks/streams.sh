#!/usr/bin/env bash
# Consumer-group speed of Debian's redis-server and Lacewing (each engine), in the same run,
# servers alternated (each round runs them all, even rounds in reverse order) so drift hits all.
#
# Workloads, each at pipeline depth 1 and 30:
# - XADD: redis-benchmark `XADD s * f v` (50 connections), after an untimed warm-up pass at each
#   depth; the stream is deleted before each run.
# - XREADGROUP+XACK: dev.lacewing.benchmarks.StreamGroupLoad pre-fills stream s (two small fields
#   an entry), creates group g, then C connections each do XREADGROUP GROUP g c<i> COUNT 1
#   STREAMS s > and XACK s g <id>; at depth 30 a connection sends 30 XREADGROUPs, reads them,
#   then sends their 30 XACKs (a batching worker). Timed window after 2 s of warm-up; one op is
#   one XREADGROUP+XACK pair.
# Server CPU (utime+stime from /proc/PID/stat) is read around each timed window. Prints ops/s,
# server CPU seconds per million ops and each Lacewing/Redis ratio, one line per round.
#
# Usage: benchmarks/streams.sh [rounds] [seconds] [connections] [prefill] [xadd-requests] [threads]
#   rounds         times every workload runs on every server (default 2)
#   seconds        timed window of each XREADGROUP+XACK run (default 5)
#   connections    connections for both workloads (default 50)
#   prefill        entries pre-filled before each XREADGROUP+XACK run at depth 30, a quarter of it at
#                  depth 1 (default 3000000); a run that drains the stream stops early and is
#                  marked "drained"
#   xadd-requests  XADDs per redis-benchmark run at depth 30, a fifth of it at depth 1 (default 1000000)
#   threads        Lacewing's --threads (default: nproc)
# Environment: LACEWING_BASELINE another distribution (e.g. a build of an earlier commit) measured in
# the same run, its servers named baseline-<engine>; STREAMS_WORKLOADS the workloads to run (default
# "xadd group").
# Builds the distribution and benchmark classes if they are missing (mvn -o package, no install).
# The load generators run on the same machine: on a small machine they compete with the server
# for cores, so quote the machine and its load with the figures.
set -euo pipefail

rounds=${1:-2}
seconds=${2:-5}
connections=${3:-50}
prefill=${4:-3000000}
xadd_requests=${5:-1000000}
threads=${6:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
classes="$root/benchmarks/target/classes"
if [ ! -x "$dist/bin/lacewing-server" ] || [ ! -f "$classes/dev/lacewing/benchmarks/StreamGroupLoad.class" ]; then
  (cd "$root" && mvn -B -o -q package -DskipTests -pl assembly,benchmarks -am) >&2
fi
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-benchmark redis-cli java

declare -A port pid
baseline=${LACEWING_BASELINE:-}
workloads=${STREAMS_WORKLOADS:-"xadd group"}
start_servers "$threads" "shared-nothing multithread" lacewing="$dist" ${baseline:+baseline="$baseline"}

hz=$(getconf CLK_TCK)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}'; }
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k {print $2}'; }

xadd() { # server pipeline -> "ops/s cpu-s-per-M"
  local server=$1 depth=$2 before after line n=$xadd_requests
  [ "$depth" -gt 1 ] || n=$((xadd_requests / 5))
  redis-cli -p "${port[$server]}" del s >/dev/null
  before=$(cpu_ticks "${pid[$server]}")
  line=$(redis-benchmark -p "${port[$server]}" -n "$n" -c "$connections" -P "$depth" --csv \
    xadd s '*' f v 2>/dev/null | tail -n 1)
  after=$(cpu_ticks "${pid[$server]}")
  redis-cli -p "${port[$server]}" del s >/dev/null
  awk -v rps="$(echo "$line" | awk -F'","' '{print $2}')" -v t=$((after - before)) -v hz="$hz" \
    -v n="$n" 'BEGIN {printf "%.0f %.3f", rps, t / hz / n * 1e6}'
}

group() { # server pipeline -> "ops/s cpu-s-per-M note"
  local server=$1 depth=$2 line note="" entries=$prefill
  [ "$depth" -gt 1 ] || entries=$((prefill / 4))
  line=$(CLK_TCK=$hz java -cp "$classes" dev.lacewing.benchmarks.StreamGroupLoad "${port[$server]}" \
    "${pid[$server]}" "$connections" "$depth" "$seconds" 2 "$entries")
  [ "$(field "$line" drained)" = 0 ] || note=drained
  [ "$(field "$line" ack_errors)" = 0 ] || note="$note ack_errors=$(field "$line" ack_errors)"
  echo "$(field "$line" pairs_per_s) $(field "$line" cpu_s_per_M) $note"
}

# An untimed pass first at each depth measured, so the JIT has compiled XADD's path before the
# measured runs. Depth 1 takes its own pass: a depth-30 pass makes a thirtieth of the reads and
# sends, too few for C2 to compile the per-request transport path, which the first depth-1 round
# then compiles while it is timed (C2's CPU alone added half the server's CPU per request).
for server in "${servers[@]}"; do
  for depth in 30 1; do
    redis-benchmark -p "${port[$server]}" -n $((depth > 1 ? 200000 : 100000)) -c "$connections" -P "$depth" \
      xadd s '*' f v >/dev/null 2>&1
    redis-cli -p "${port[$server]}" del s >/dev/null
  done
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $connections connections"
printf '%-22s %5s %-24s %12s %10s %8s %8s %s\n' workload round server "ops/s" "cpu s/M" "x redis" "cpu x" note
for workload in $workloads; do
  for depth in 1 30; do
    for round in $(seq 1 "$rounds"); do
      declare -A rate cpu note
      order=("${servers[@]}")
      if [ $((round % 2)) = 0 ]; then
        order=()
        for ((i = ${#servers[@]} - 1; i >= 0; i--)); do order+=("${servers[i]}"); done
      fi
      for server in "${order[@]}"; do
        read -r rate[$server] cpu[$server] note[$server] <<<"$($workload "$server" "$depth")"
      done
      label="XADD P$depth"; [ "$workload" = group ] && label="XREADGROUP+XACK P$depth"
      for server in "${servers[@]}"; do
        printf '%-22s %5s %-24s %12s %10s %8s %8s %s\n' "$label" "$round" "$server" "${rate[$server]}" \
          "${cpu[$server]}" "$(ratio "${rate[$server]}" "${rate[redis]}")" \
          "$(ratio "${cpu[$server]}" "${cpu[redis]}")" "${note[$server]}"
      done
      unset rate cpu note
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
