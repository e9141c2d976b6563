#!/usr/bin/env bash
# Latency under a fixed request rate, Debian redis-server and Lacewing (each engine) side by side
# in the same run, and Lacewing's GC pauses and safepoints from its JVM logs over the same window.
#
# Each server is filled with 1,000,000 keys of 256 bytes (P:P, pipeline 30); then each in turn
# (redis, then each engine, then again PAUSES_ROUNDS times, so drift hits all of them) takes a SET/GET
# 1:1 load over random keys at pipeline 1 and a fixed total rate well below what any of them
# sustains on two cores, so that latency measures waiting (on the event loop, on a GC pause), not
# saturation. Prints p50, p99, p99.9 and max per server with the ratio to redis's, and for Lacewing
# the collector's pauses and all safepoints during its timed windows: how many, how many over 1 ms,
# the longest. Issue 4's target: p99.9 within 2x redis's, no pause over 1 ms.
#
# Usage: benchmarks/pauses.sh
#   PAUSES_JAVA_HOME  the JDK that runs Lacewing (default: JAVA_HOME, else java on the PATH); the
#                     launcher picks the collector for it (G1 on 17, generational ZGC on 21+)
#   PAUSES_JAVA_OPTS  more JVM options for Lacewing, e.g. -Xmx1g to make its collector work harder
#   PAUSES_SECONDS    seconds per server per round (default 20)
#   PAUSES_ROUNDS     rounds (default 1)
#   PAUSES_RATE       total requests per second (default 10000: 10 connections x 1000)
#   PAUSES_KEYS       keys filled (default 1000000)
#   PAUSES_THREADS    Lacewing threads (default: nproc)
#   PAUSES_KEEP_LOGS  a folder to copy Lacewing's GC logs to
# Needs: redis-server, redis-cli, and the distribution built by `mvn -B package`.
set -euo pipefail

seconds=${PAUSES_SECONDS:-20}
rounds=${PAUSES_ROUNDS:-1}
rate=${PAUSES_RATE:-10000}
keys=${PAUSES_KEYS:-1000000}
threads=${PAUSES_THREADS:-$(nproc)}
connections=10
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli

server_java_home=${PAUSES_JAVA_HOME:-${JAVA_HOME:-}}

# totals FILE FIELD: a number from the "Totals" object of the tool's JSON.
totals() {
  awk -v field="\"$2\": " '
    /^"Totals": \{/ { inside = 1 }
    inside && index($0, field) {
      rest = substr($0, index($0, field) + length(field)); sub(/[,}].*/, "", rest); print rest; exit
    }' "$1"
}

load() { # port json-file tool-options...
  local port=$1 json=$2
  shift 2
  "$tool" -s 127.0.0.1 -p "$port" -d 256 --hide-histogram --print-percentiles=50,99,99.9 \
    --json-out-file="$json" "$@" >"$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; return 1; }
  local errors
  errors=$(totals "$json" Errors)
  [ "$errors" = 0 ] || { echo "$errors error replies:" >&2; cat "$work/last.txt" >&2; return 1; }
}

declare -A port pid gclog
port[redis]=$(free_port)
redis-server --port "${port[redis]}" --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
pid[redis]=$!; pids+=("${pid[redis]}")
wait_ready "${port[redis]}"

servers=(redis)
for engine in shared-nothing multithread; do
  name="lacewing-$engine"
  port[$name]=$(free_port)
  gclog[$name]="$work/$name.gc.log"
  # gc* for the collector's own pause lines, safepoint for every stop of the Java threads.
  JAVA_HOME="$server_java_home" LACEWING_JAVA_OPTS="${PAUSES_JAVA_OPTS:-} -Xlog:gc*,safepoint:file=${gclog[$name]}:uptime,level,tags" \
    "$dist/bin/lacewing-server" --save "" --dir "$work" --port "${port[$name]}" --engine "$engine" --threads "$threads" \
    >"$work/$name.log" 2>&1 &
  pid[$name]=$!; pids+=("${pid[$name]}")
  wait_ready "${port[$name]}"
  servers+=("$name")
done
flags=$(redis-cli -p "${port[lacewing-shared-nothing]}" info server | tr -d '\r' | awk -F: '
  { name = $1; sub(/^[^:]*:/, "") } name == "java_version" { java = $0 } name == "lacewing_jvm_flags" { flags = $0 }
  END { print "JDK " java ", " flags }')
echo "Lacewing: $flags; --threads $threads" >&2

echo "filling $keys keys of 256 bytes into each server" >&2
for server in "${servers[@]}"; do
  load "${port[$server]}" "$work/fill.json" -t 2 -c 25 --ratio=1:0 --key-pattern=P:P --requests=allkeys \
    --key-minimum=1 --key-maximum="$keys" --pipeline=30
done

per_connection=$((rate / connections))
echo "SET/GET 1:1, pipeline 1, $connections connections x $per_connection/s, ${seconds}s per server, $rounds round(s)" >&2

# pauses FILE FROM-LINE: over the log lines after FROM-LINE, "count over1ms max_ms" of the
# collector's pauses (lines naming a Pause or an Allocation Stall, ending in a time in ms) and of
# safepoints (their Total, in ns).
gc_pauses() {
  tail -n +"$(($2 + 1))" "$1" | awk '
    /Pause|Allocation Stall/ && match($0, /[0-9.]+ms$/) {
      ms = substr($0, RSTART, RLENGTH - 2) + 0; n++; if (ms > 1) over++; if (ms > max) max = ms
    }
    END { printf "%d %d %.3f\n", n, over, max }'
}
safepoints() {
  tail -n +"$(($2 + 1))" "$1" | awk '
    /\[safepoint/ && match($0, /Total: [0-9]+ ns/) {
      ms = substr($0, RSTART + 7, RLENGTH - 10) / 1e6; n++; if (ms > 1) over++; if (ms > max) max = ms
    }
    END { printf "%d %d %.3f\n", n, over, max }'
}

declare -A p50 p99 p999 max ops gc sp
for ((round = 1; round <= rounds; round++)); do
  for server in "${servers[@]}"; do
    json="$work/run-$server-$round.json"
    lines=0
    [ -n "${gclog[$server]:-}" ] && lines=$(wc -l <"${gclog[$server]}")
    load "${port[$server]}" "$json" -t 1 -c "$connections" --rate-limiting="$per_connection" \
      --ratio=1:1 --key-pattern=R:R --key-minimum=1 --key-maximum="$keys" --pipeline=1 --test-time="$seconds"
    # the worst of the rounds: a pause is what this measures
    for field in p50.00:p50 p99.00:p99 p99.90:p999 "Max Latency:max" Ops/sec:ops; do
      value=$(totals "$json" "${field%%:*}")
      declare -n column=${field##*:}
      column[$server]=$(awk -v a="${column[$server]:-0}" -v b="$value" 'BEGIN { print (b > a ? b : a) }')
      unset -n column
    done
    if [ -n "${gclog[$server]:-}" ]; then
      read -r n over longest < <(gc_pauses "${gclog[$server]}" "$lines")
      read -r pn pover plongest < <(safepoints "${gclog[$server]}" "$lines")
      read -r n0 over0 longest0 <<<"${gc[$server]:-0 0 0}"
      read -r pn0 pover0 plongest0 <<<"${sp[$server]:-0 0 0}"
      gc[$server]="$((n0 + n)) $((over0 + over)) $(awk -v a="$longest0" -v b="$longest" 'BEGIN { print (b > a ? b : a) }')"
      sp[$server]="$((pn0 + pn)) $((pover0 + pover)) $(awk -v a="$plongest0" -v b="$plongest" 'BEGIN { print (b > a ? b : a) }')"
    fi
  done
done

printf '%-24s %8s %8s %8s %8s %8s %10s %8s %18s %18s\n' server "ops/s" "p50 ms" "p99 ms" "p99.9 ms" "max ms" \
  "p99.9 x" "max x" "gc n/>1ms/max ms" "safept n/>1ms/max"
for server in "${servers[@]}"; do
  printf '%-24s %8.0f %8.3f %8.3f %8.3f %8.3f %10s %8s %18s %18s\n' "$server" "${ops[$server]}" "${p50[$server]}" \
    "${p99[$server]}" "${p999[$server]}" "${max[$server]}" \
    "$(awk -v a="${p999[$server]}" -v b="${p999[redis]}" 'BEGIN { printf "%.2f", a / b }')" \
    "$(awk -v a="${max[$server]}" -v b="${max[redis]}" 'BEGIN { printf "%.2f", a / b }')" \
    "$(tr ' ' / <<<"${gc[$server]:--}")" "$(tr ' ' / <<<"${sp[$server]:--}")"
done
echo "(latencies: the worst of $rounds round(s); ops/s the best; Lacewing: $flags)"
if [ -n "${PAUSES_KEEP_LOGS:-}" ]; then
  mkdir -p "$PAUSES_KEEP_LOGS" && cp "$work"/*.gc.log "$PAUSES_KEEP_LOGS"/
fi
