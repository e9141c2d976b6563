#!/usr/bin/env bash
# SET latency while the keyspace grows (issue 17 item 7): Debian's redis-server and Lacewing (each
# engine) each take a fill of FILL_KEYS distinct keys, one after the other, each on a fresh server
# that is stopped before the next starts (one server's memory at a time).
#
#   fill  the load tool, SET only, --key-pattern=P:P --requests=allkeys: each connection walks its
#         own slice of key numbers 0 .. FILL_KEYS-1 in order, so every SET adds a new key and the
#         index grows through every size up to FILL_KEYS; pipeline 1 at a fixed rate per
#         connection (FILL_RATE in all), so latency measures waiting (a growth step, a GC pause,
#         a rehash) rather than saturation; per-request latency in HdrHistograms.
#
# The rate is a closed loop per connection: a request is timed from its own send, and a connection
# that falls behind does not burst to catch up, so a stall of S ms shows as about one request per
# connection waiting up to S ms (the max), not as the S x rate requests an open loop would have
# queued; the p99.9 here is therefore the uncorrected one, the same way for every server.
# Prints per server: the rate reached, p50, p99, p99.9 and max in ms, each with its ratio to
# redis-server's; the server's CPU seconds per million SETs (/proc utime+stime); its RSS at the end;
# and for Lacewing its collector's pauses and safepoints during the fill (count, over 2 ms, longest).
# Issue 17's target: p99.9 within 1.5x redis-server's.
#
# Usage: benchmarks/fill-latency.sh
#   FILL_KEYS         distinct keys (default 10000000)
#   FILL_RATE         SETs per second in all (default 40000)
#   FILL_CONNECTIONS  connections of the load tool's one thread (default 20)
#   FILL_DATA_SIZE    value bytes (default 32)
#   FILL_THREADS      Lacewing --threads (default nproc)
#   FILL_ROUNDS       rounds, each server once per round in the same order (default 1)
#   FILL_ENGINES      Lacewing engines (default "shared-nothing multithread")
#   FILL_JAVA_OPTS    more JVM options for Lacewing
# Needs: redis-server, redis-cli, and the distribution built by `mvn -B -o -q package -DskipTests`.
set -euo pipefail

keys=${FILL_KEYS:-10000000}
rate=${FILL_RATE:-40000}
connections=${FILL_CONNECTIONS:-20}
data_size=${FILL_DATA_SIZE:-32}
threads=${FILL_THREADS:-$(nproc)}
rounds=${FILL_ROUNDS:-1}
engines=${FILL_ENGINES:-shared-nothing multithread}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli

per_connection=$(((rate + connections - 1) / connections))
pid=
port=

start_server() { # name
  port=$(free_port)
  if [ "$1" = redis ]; then
    redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --appendonly no --daemonize no \
      >"$work/redis.log" 2>&1 &
  else
    rm -f "$work/$1.gc.log"
    LACEWING_JAVA_OPTS="${FILL_JAVA_OPTS:-} -Xlog:gc*,safepoint:file=$work/$1.gc.log:uptime,level,tags" \
      "$dist/bin/lacewing-server" --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --engine "${1#lacewing-}" \
      --threads "$threads" >"$work/$1.log" 2>&1 &
  fi
  pid=$!; pids+=("$pid")
  wait_ready "$port"
}

stop_server() {
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

# FILE: "count over2ms longest_ms" of the collector's pauses (lines naming a Pause or an Allocation
# Stall, ending in a time in ms), then the same of every safepoint (its Total, in ns).
pauses() {
  awk '
    /Pause|Allocation Stall/ && match($0, /[0-9.]+ms$/) {
      ms = substr($0, RSTART, RLENGTH - 2) + 0; n++; if (ms > 2) over++; if (ms > max) max = ms
    }
    /\[safepoint/ && match($0, /Total: [0-9]+ ns/) {
      ms = substr($0, RSTART + 7, RLENGTH - 10) / 1e6; sn++; if (ms > 2) sover++; if (ms > smax) smax = ms
    }
    END { printf "%d/%d/%.1f %d/%d/%.1f\n", n, over, max, sn, sover, smax }' "$1"
}

servers=(redis)
for engine in $engines; do servers+=("lacewing-$engine"); done
echo "== $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $keys distinct keys of $data_size bytes," \
  "SET at pipeline 1, $connections connections x $per_connection/s; Lacewing --threads $threads, $(java -version 2>&1 | head -1)"
printf '%-26s %5s %8s %7s %7s %8s %8s %7s %7s %9s %7s %14s %14s\n' server round "SET/s" "p50" "p99" "p99.9" "max" \
  "p99.9x" "maxx" "cpu s/M" "RSS MB" "gc n/>2ms/max" "safept n/>2/max"
declare -A redis_p999 redis_max
for ((round = 1; round <= rounds; round++)); do
  for server in "${servers[@]}"; do
    start_server "$server"
    json="$work/$server-$round.json"
    cpu_before=$(cpu_ticks "$pid")
    "$tool" -s 127.0.0.1 -p "$port" -t 1 -c "$connections" --pipeline=1 --rate-limiting="$per_connection" \
      --ratio=1:0 --key-pattern=P:P --requests=allkeys --key-minimum=0 --key-maximum=$((keys - 1)) \
      -d "$data_size" --key-prefix=key: --hide-histogram --print-percentiles=50,99,99.9 --json-out-file="$json" \
      >"$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; exit 1; }
    cpu=$(( $(cpu_ticks "$pid") - cpu_before ))
    errors=$(totals "$json" Errors)
    [ "$errors" = 0 ] || { echo "$server: $errors error replies" >&2; cat "$work/last.txt" >&2; }
    count=$(totals "$json" Count)
    dbsize=$(redis-cli -p "$port" dbsize)
    [ "$dbsize" = "$keys" ] || echo "warning: $server holds $dbsize keys, not $keys" >&2
    rss=$(awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
    for field in p50.00:p50 p99.00:p99 p99.90:p999 "Max Latency:max" Ops/sec:ops; do
      printf -v "${field##*:}" '%s' "$(totals "$json" "${field%%:*}")"
    done
    if [ "$server" = redis ]; then redis_p999[$round]=$p999; redis_max[$round]=$max; gc="- -"; else gc=$(pauses "$work/$server.gc.log"); fi
    printf '%-26s %5s %8.0f %7.3f %7.3f %8.3f %8.3f %7.2f %7.2f %9.2f %7s %14s %14s\n' "$server" "$round" "$ops" \
      "$p50" "$p99" "$p999" "$max" \
      "$(awk -v a="$p999" -v b="${redis_p999[$round]}" 'BEGIN { print a / b }')" \
      "$(awk -v a="$max" -v b="${redis_max[$round]}" 'BEGIN { print a / b }')" \
      "$(awk -v t="$cpu" -v hz="$(getconf CLK_TCK)" -v n="$count" 'BEGIN { print t / hz / n * 1e6 }')" \
      "$rss" $gc
    stop_server
  done
done
echo "== load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
