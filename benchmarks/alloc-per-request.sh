#!/usr/bin/env bash
# Bytes the server allocates per request at pipeline 1 (issues 16, 17): for each engine, Lacewing
# (and LACEWING_BASELINE beside it) runs each workload once to warm up, then again measured; the
# allocated bytes of every thread come from `jcmd PID Thread.print -e` (allocated=, per thread,
# since it started) before and after the measured run, and the worker threads' delta is divided by
# the run's requests. "other" is every other thread's delta per request (accept thread, crons).
#   GET, SET        redis-benchmark -c 50 -P 1, random keys over 100,000, 3-byte values
#   SET everysec    the same with --appendonly yes --appendfsync everysec (a server of its own)
#   EVALSHA         atomic.sh's script: redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1])
#   MULTI           MULTI / SET / GET / EXEC, the load tool, 2 threads x 25 connections; per
#                   transaction (four requests)
# jcmd prints a count in K below 100 MiB and in M above: the resolution is stated in each row
# (res B/req), so keep ALLOC_REQUESTS large enough that it is well under the figure.
#
# Usage: benchmarks/alloc-per-request.sh   (ALLOC_REQUESTS per run, default 200000; ALLOC_THREADS
#        server threads, default 2; ALLOC_ENGINES default "shared-nothing multithread";
#        ALLOC_TRANSPORT, default the server's own pick; LACEWING_DIST, LACEWING_BASELINE as atomic.sh)
# Needs: redis-benchmark, redis-cli, jcmd of the JDK the server runs on.
set -euo pipefail

requests=${ALLOC_REQUESTS:-200000}
threads=${ALLOC_THREADS:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
dist=${LACEWING_DIST:-"$root/assembly/target/lacewing"}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
script="redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1])"
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# allocated PID: "thread-name bytes" per line, from jcmd's extended thread dump.
allocated() {
  jcmd "$1" Thread.print -e | sed -n 's/^"\([^"]*\)".* allocated=\([0-9]*\)\([BKMG]\).*/\1 \2 \3/p' |
    awk '{m = $3 == "K" ? 1024 : $3 == "M" ? 1048576 : $3 == "G" ? 1073741824 : 1; print $1, $2 * m, m}'
}

# start NAME DIST ENGINE OPTIONS...: one server, waited for until it answers PING.
start() {
  local dir=$work/$1
  mkdir -p "$dir"
  "$2/bin/lacewing-server" --port "$port" --engine "$3" --threads "$threads" --dir "$dir" --save '' \
    ${ALLOC_TRANSPORT:+--transport "$ALLOC_TRANSPORT"} "${@:4}" >"$dir/log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    redis-cli -p "$port" PING >/dev/null 2>&1 && break
    sleep 0.2
  done
  java_pid=$(pgrep -P "$server_pid" java || echo "$server_pid")
}

stop() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# run WORKLOAD COUNT: sends the workload; COUNT is redis-benchmark's -n, or the load tool's requests
# per client.
run() {
  case $1 in
    GET | SET | "SET everysec")
      local command=${1%% *}
      if [ "$command" = SET ]; then
        redis-benchmark -p "$port" -c 50 -P 1 -n "$2" -r 100000 -q SET key:__rand_int__ abc >/dev/null
      else
        redis-benchmark -p "$port" -c 50 -P 1 -n "$2" -r 100000 -q GET key:__rand_int__ >/dev/null
      fi ;;
    EVALSHA)
      local sha
      sha=$(redis-cli -p "$port" SCRIPT LOAD "$script")
      redis-benchmark -p "$port" -c 50 -P 1 -n "$2" -r 100000 -q EVALSHA "$sha" 1 key:__rand_int__ abc >/dev/null ;;
    MULTI)
      "$dist/bin/lacewing-benchmark" -s 127.0.0.1 -p "$port" -t 2 -c 25 -n "$2" -d 3 --hide-histogram \
        --command=MULTI --command="SET __key__ __data__" --command="GET __key__" --command=EXEC \
        --key-maximum=100000 >/dev/null 2>&1 ;;
  esac
}

# measure NAME WORKLOAD: warm-up, then the measured run between two thread dumps; prints the row.
measure() {
  local name=$1 workload=$2 count per
  if [ "$workload" = MULTI ]; then
    per=$((requests / 50)); count=$((50 * per / 4))
  else
    per=$requests; count=$requests
  fi
  run "$workload" "$per"
  allocated "$java_pid" >"$work/before"
  run "$workload" "$per"
  allocated "$java_pid" >"$work/after"
  join <(sort "$work/before") <(sort "$work/after") | awk -v n="$count" -v name="$name" -v w="$workload" '
    { d = $4 - $2; res = $5 > res ? $5 : res
      if ($1 ~ /^lacewing-worker/) worker += d; else other += d }
    END { printf "%-14s %-30s %12.1f %10.1f %10.1f %10d\n", w, name, worker / n, other / n, res / n, n }'
}

printf '%-14s %-30s %12s %10s %10s %10s\n' workload server "worker B/req" "other B/req" "res B/req" requests
for engine in ${ALLOC_ENGINES:-shared-nothing multithread}; do
  for named in ${LACEWING_BASELINE:+baseline="$LACEWING_BASELINE"} lacewing="$dist"; do
    name="${named%%=*}-$engine"
    start "$name" "${named#*=}" "$engine" --appendonly no
    for workload in GET SET EVALSHA MULTI; do
      measure "$name" "$workload"
    done
    stop
    start "$name-aof" "${named#*=}" "$engine" --appendonly yes --appendfsync everysec
    measure "$name" "SET everysec"
    stop
  done
done
