#!/usr/bin/env bash
# Time from launch to the first PING answered (issue 20, item 5: within 1 s on this machine, both
# engines), for the distribution's start script and, beside it, redis-server.
# Usage: benchmarks/first-ping.sh [runs] [java-home...]
#   runs        starts per engine and JVM (default 5); the first start of each writes the start
#               script's caches (JVM options, and the class archive: JDK 17-18's AppCDS, JDK 25's AOT cache) and
#               is reported apart as "cold"; the median is over the later, warm starts
#   java-home   JDKs to run it on (default: the java on the PATH)
# The distribution is assembly/target/lacewing (build it with `mvn -B -q package -DskipTests`).
# Prints one line per engine and JVM: cold ms, warm median/min/max ms, and redis-server's median.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=servers.sh
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build the distribution first: mvn -B -q package -DskipTests" >&2; exit 1; }
runs=${1:-5}
shift || true
homes=("$@")
[ "${#homes[@]}" -gt 0 ] || homes=("")

now_ms() { date +%s%3N; }

# Starts COMMAND..., polls PING every 10 ms until answered (at most 60 s), prints the elapsed
# milliseconds, then stops the server.
first_ping() { # port command...
  local port=$1 started pid elapsed=
  shift
  started=$(now_ms)
  "$@" >"$work/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 6000); do
    if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; then
      elapsed=$(( $(now_ms) - started ))
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -n "$elapsed" ] || { echo "no PONG; log:" >&2; tail -5 "$work/server.log" >&2; exit 1; }
  echo "$elapsed"
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

redis_times=()
for _ in $(seq 1 "$runs"); do
  port=$(free_port)
  redis_times+=("$(first_ping "$port" redis-server --port "$port" --save '' --appendonly no)")
done
redis_median=$(printf '%s\n' "${redis_times[@]}" | median)

printf '%-16s %-28s %8s %12s %8s %8s %10s\n' engine java cold_ms warm_median min max redis_ms
for home in "${homes[@]}"; do
  java_bin=${home:+$home/bin/java}
  java_bin=${java_bin:-$(command -v java)}
  version=$("$java_bin" -version 2>&1 | head -1 | sed 's/.*version "\([^"]*\)".*/\1/')
  for engine in shared-nothing multithread; do
    # A cache of this distribution's own: the first start below is a real first start.
    rm -rf "$dist/cache"
    times=()
    # One port for the series: the start script's options cache is keyed on the arguments, so a
    # new port each start would make every start a first one for it (two JVMs).
    port=$(free_port)
    for run in $(seq 0 "$runs"); do
      t=$(JAVA_HOME="$home" first_ping "$port" "$dist/bin/lacewing-server" --port "$port" --engine "$engine" --save '')
      if [ "$run" -eq 0 ]; then cold=$t; else times+=("$t"); fi
    done
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    printf '%-16s %-28s %8s %12s %8s %8s %10s\n' "$engine" "$version" "$cold" \
      "$(printf '%s\n' "${times[@]}" | median)" "$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")" "$redis_median"
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
