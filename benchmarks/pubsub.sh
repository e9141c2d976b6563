#!/usr/bin/env bash
# Pub/sub speed of Debian's redis-server and Lacewing (each engine), in the same run, servers
# alternated per workload so drift hits all of them.
#
# 1. Fan-out: P publishers and S subscribers, each on its own connection, all on one channel,
#    64-byte messages (dev.lacewing.benchmarks.PubSubFanout). Deliveries are counted by the
#    subscribers: every message frame parsed counts one, over a timed window that starts after 2 s
#    of warm-up (the JIT's); the server's CPU (utime+stime from /proc/PID/stat) is read at the same two instants.
#    Prints deliveries/s, server CPU seconds per million deliveries, each Lacewing/Redis ratio,
#    and the order check (messages of one publisher out of sequence, or lost; both must be 0).
# 2. Keyspace notifications: redis-benchmark -t set -P 30 (50 connections, random keys) with
#    notify-keyspace-events "" (off) and "KEA", no subscriber, after an untimed warm-up pass; runs
#    ordered off, KEA, KEA, off and averaged. Prints requests/s, CPU seconds per million SETs, and
#    KEA's ratio to off (requests/s: 0.95 is 5% slower).
#
# Usage: benchmarks/pubsub.sh [seconds-per-fanout-run] [set-requests] [threads] [shapes]
#   seconds-per-fanout-run  timed window of each fan-out run, after 2 s of warm-up (default 10)
#   set-requests            SETs per notification run (default 2000000)
#   threads                 Lacewing's --threads (default: nproc)
#   shapes                  fan-out shapes PxS, space separated (default "1x100 10x10")
# Needs: redis-server, redis-benchmark, and `mvn -B package -DskipTests` (the distribution and
# benchmarks/target/classes). The load generator runs on the same machine: on a small machine it
# competes with the server for cores, so quote the machine and its load with the figures.
set -euo pipefail

seconds=${1:-10}
set_requests=${2:-2000000}
threads=${3:-$(nproc)}
shapes=${4:-"1x100 10x10"}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
classes="$root/benchmarks/target/classes"
[ -x "$dist/bin/lacewing-server" ] && [ -f "$classes/dev/lacewing/benchmarks/PubSubFanout.class" ] \
  || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-benchmark redis-cli java

declare -A port pid
start_servers "$threads" "shared-nothing multithread" lacewing="$dist"

hz=$(getconf CLK_TCK)
declare -A off_rps off_cpu
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}'; }
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k {print $2}'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-8s %-24s %14s %12s %8s %8s %7s %5s\n' shape server "deliveries/s" "cpu s/M" "x redis" "cpu x" order lost
for shape in $shapes; do
  publishers=${shape%x*}; subscribers=${shape#*x}
  declare -A rate cpu order lost
  for server in "${servers[@]}"; do
    line=$(CLK_TCK=$hz java -cp "$classes" dev.lacewing.benchmarks.PubSubFanout "${port[$server]}" "${pid[$server]}" \
      "$publishers" "$subscribers" "$seconds" 2)
    rate[$server]=$(field "$line" deliveries_per_s)
    cpu[$server]=$(field "$line" cpu_s_per_M)
    order[$server]=$(field "$line" order_errors)
    lost[$server]=$(field "$line" lost)
  done
  for server in "${servers[@]}"; do
    printf '%-8s %-24s %14s %12s %8s %8s %7s %5s\n' "$shape" "$server" "${rate[$server]}" "${cpu[$server]}" \
      "$(ratio "${rate[$server]}" "${rate[redis]}")" "$(ratio "${cpu[$server]}" "${cpu[redis]}")" \
      "${order[$server]}" "${lost[$server]}"
  done
  unset rate cpu order lost
done

echo
# Runs go off, on, on, off (ABBA), every server in turn each time, so a drift in the machine's load
# that is linear over the runs weighs the same on both settings; each figure is the mean of two.
declare -A sum_rps sum_ticks
# An untimed pass first, so the JIT has compiled SET's path before either measured run.
for server in "${servers[@]}"; do
  redis-benchmark -p "${port[$server]}" -t set -n "$set_requests" -c 50 -P 30 -r 1000000 -q >/dev/null 2>&1
done
for events in off KEA KEA off; do
  for server in "${servers[@]}"; do
    redis-cli -p "${port[$server]}" config set notify-keyspace-events "${events#off}" >/dev/null
    redis-cli -p "${port[$server]}" flushall >/dev/null
    before=$(cpu_ticks "${pid[$server]}")
    line=$(redis-benchmark -p "${port[$server]}" -t set -n "$set_requests" -c 50 -P 30 -r 1000000 --csv \
      2>/dev/null | tail -n 1)
    after=$(cpu_ticks "${pid[$server]}")
    key="$server/$events"
    sum_rps[$key]=$(awk -v a="${sum_rps[$key]:-0}" -v b="$(echo "$line" | awk -F'","' '{print $2}')" \
      'BEGIN {printf "%.2f", a + b}')
    sum_ticks[$key]=$(( ${sum_ticks[$key]:-0} + after - before ))
  done
done
printf '%-18s %-24s %12s %12s %8s %8s\n' workload server "requests/s" "cpu s/M" "x off" "cpu x"
for events in off KEA; do
  for server in "${servers[@]}"; do
    key="$server/$events"
    rps=$(awk -v s="${sum_rps[$key]}" 'BEGIN {printf "%.0f", s / 2}')
    cpu=$(awk -v t="${sum_ticks[$key]}" -v hz="$hz" -v n="$set_requests" 'BEGIN {printf "%.3f", t / hz / (2 * n) * 1e6}')
    if [ "$events" = off ]; then off_rps[$server]=$rps; off_cpu[$server]=$cpu; fi
    printf '%-18s %-24s %12s %12s %8s %8s\n' "SET P30 $events" "$server" "$rps" "$cpu" \
      "$(ratio "$rps" "${off_rps[$server]}")" "$(ratio "$cpu" "${off_cpu[$server]}")"
  done
done
redis-cli -p "${port[redis]}" config set notify-keyspace-events "" >/dev/null
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
