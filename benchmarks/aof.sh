#!/usr/bin/env bash
# Write throughput with the AOF (issue 17 item 8): SET with appendonly yes under appendfsync always
# and everysec, at pipeline 1 and 30, on Debian's redis-server and on Lacewing (launcher defaults)
# in the same run, each server fresh per row, with an empty AOF directory of its own.
# redis-benchmark, 50 connections, random keys over 100,000, 3-byte values: a warm-up of the same
# load, then the measured run. Prints each server's ops/s, its CPU per SET (utime+stime of the
# server process from /proc/PID/stat over the measured run, divided by the requests: Redis's forked
# rewrite child is not in it, Lacewing's rewrite thread is) and the ratios Lacewing/Redis.
#
# The warm-up matters for Lacewing, not for Redis: after one run of a few hundred thousand requests
# the JVM's C2 compiler is still compiling the SET path, and the first automatic AOF rewrite (at
# auto-aof-rewrite-min-size, about 1.5 million SETs) makes it recompile the hot methods once; both
# fall into a short measured run as server CPU, the more so on a loaded machine, where the
# compiler thread gets less CPU. So each server is warmed up with runs of the measured size until
# its compiler threads took under 5% of its CPU over one run (redis-server: after the first), for at
# most AOF_WARMUP_SECONDS; the jit column shows what they still took in the measured run, and
# warm-up how many requests the warm-up sent. AOF_WARMUP_SECONDS=0 gives the cold figure (one
# warm-up run).
#
# Usage: benchmarks/aof.sh [requests-per-run]   (default 200000)
#   AOF_WARMUP_SECONDS  the longest warm-up per server and row (default 120)
#   AOF_BASELINE        another distribution (e.g. main's, packaged in a worktree of its own) run in
#                       each row beside this one, under the same load: to measure a change
#   AOF_ROWS            which rows, as fsync/pipeline words (default "always/1 always/30 everysec/1 everysec/30")
#   SERVER_CPU          hold each server to this many cores (servers.sh says why and how)
# Needs: redis-server, redis-benchmark, redis-cli, and the distribution built by
#        `mvn -B -o -q package -DskipTests`.
set -euo pipefail

requests=${1:-200000}
warmup_seconds=${AOF_WARMUP_SECONDS:-120}
rows=${AOF_ROWS:-"always/1 always/30 everysec/1 everysec/30"}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
baseline=${AOF_BASELINE:-}
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }
[ -z "$baseline" ] || [ -x "$baseline/bin/lacewing-server" ] || { echo "no distribution at $baseline" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-benchmark redis-cli
hz=$(getconf CLK_TCK)

set_load() { # port pipeline requests
  redis-benchmark -p "$1" -t set -n "$3" -c 50 -r 100000 -d 3 -P "$2" -q 2>/dev/null
}

# The CPU ticks of the JVM's compiler threads (C1, C2) of a process; none for redis-server.
jit_ticks() { # pid
  local task total=0
  for task in /proc/"$1"/task/*; do
    case "$(cat "$task/comm" 2>/dev/null)" in
      C1\ Compiler*|C2\ Compiler*) total=$((total + $(awk '{print $14 + $15}' "$task/stat" 2>/dev/null || echo 0))) ;;
    esac
  done
  echo "$total"
}

# Runs of the measured load on a port until the server's ($pid) compiler threads took under 5% of
# its CPU over one, for at most warmup_seconds; prints the requests sent.
warm_up() { # port pipeline
  local started=$SECONDS sent=0 before jit_before
  while true; do
    before=$(cpu_ticks "$pid"); jit_before=$(jit_ticks "$pid")
    set_load "$1" "$2" "$requests" >/dev/null
    sent=$((sent + requests))
    if [ $(( ($(jit_ticks "$pid") - jit_before) * 20 )) -le $(( $(cpu_ticks "$pid") - before )) ] \
      || [ $((SECONDS - started)) -ge "$warmup_seconds" ]; then
      echo "$sent"
      return
    fi
  done
}

# "ops/s cpu-us/SET jit-us/SET warm-up-requests" of SET on a port at a pipeline depth, after the
# warm-up; the CPU is the server's ($pid), the JIT's that part of it spent compiling.
set_rate() { # port pipeline
  local sent before after jit_before jit_after rate
  sent=$(warm_up "$1" "$2")
  before=$(cpu_ticks "$pid"); jit_before=$(jit_ticks "$pid")
  rate=$({ TIMEFORMAT='%U %S'; time set_load "$1" "$2" "$requests"; } 2>"$work/client.time" | tr '\r' '\n' \
    | awk '/^SET: [0-9.]+ requests per second/ && !done {print $2; done = 1}')
  after=$(cpu_ticks "$pid"); jit_after=$(jit_ticks "$pid")
  awk -v r="$rate" -v t=$((after - before)) -v j=$((jit_after - jit_before)) -v hz="$hz" -v n="$requests" -v w="$sent" \
    -v c="$(awk '{print $1 + $2}' "$work/client.time")" \
    'BEGIN {printf "%s %.3f %.3f %d %.3f\n", r, t / hz / n * 1e6, j / hz / n * 1e6, w, c / n * 1e6}'
}

start_redis() { # fsync
  rm -rf "$work/redis-$1"; mkdir -p "$work/redis-$1"
  port=$(free_port)
  budgeted redis-server --port "$port" --save '' --appendonly yes --appendfsync "$1" --dir "$work/redis-$1" \
    --daemonize no >"$work/redis-$1.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$port"
}

start_lacewing() { # distribution fsync
  rm -rf "$work/lacewing-$2"; mkdir -p "$work/lacewing-$2"
  port=$(free_port)
  budgeted "$1/bin/lacewing-server" --port "$port" --save '' --appendonly yes --appendfsync "$2" \
    --dir "$work/lacewing-$2" >"$work/lacewing-$2.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$port"
}

stop() {
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

echo "== SET, appendonly yes, $requests requests per measured run after a warm-up (at most ${warmup_seconds}s)," \
  "50 connections ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)${SERVER_CPU:+, each server held to $SERVER_CPU cores})"
echo "   us/SET: server CPU (user+system) per SET over the measured run; jit: the part the JVM's compiler threads took"
echo "   client: redis-benchmark's own CPU (user+system) per SET: at P1 on 2 cores it takes most of a core, and its rate bounds ops/s"
printf "%-9s %-3s %-9s %10s %8s %8s %8s %8s %9s %8s\n" fsync P server ops/s us/SET jit "x ops" "x cpu" warm-up client
for row in $rows; do
  fsync=${row%/*} pipeline=${row#*/}
  start_redis "$fsync"; read -r redis_rate redis_cpu _ sent client < <(set_rate "$port" "$pipeline"); stop
  printf "%-9s %-3s %-9s %10.0f %8.3f %8s %8s %8s %9d %8.3f\n" "$fsync" "$pipeline" redis "$redis_rate" "$redis_cpu" - - - "$sent" "$client"
  named=(lacewing="$dist")
  [ -z "$baseline" ] || named=(baseline="$baseline" "${named[@]}")
  for entry in "${named[@]}"; do
    start_lacewing "${entry#*=}" "$fsync"; read -r rate cpu jit sent client < <(set_rate "$port" "$pipeline"); stop
    awk -v f="$fsync" -v p="$pipeline" -v s="${entry%%=*}" -v r="$rate" -v c="$cpu" -v j="$jit" -v rr="$redis_rate" \
      -v rc="$redis_cpu" -v w="$sent" -v cl="$client" 'BEGIN { printf "%-9s %-3s %-9s %10.0f %8.3f %8.3f %7.2fx %7.2fx %9d %8.3f\n",
        f, p, s, r, c, j, (rr > 0 ? r / rr : 0), (rc > 0 ? c / rc : 0), w, cl }'
  done
done
