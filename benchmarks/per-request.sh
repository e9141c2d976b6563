#!/usr/bin/env bash
# What one request at pipeline 1 (or PER_REQUEST_PIPELINE) costs each server in system calls and
# context switches: counts, which a shared machine does not blur as it blurs CPU time. Debian's
# redis-server and Lacewing (each engine x transport given) are filled with PER_REQUEST_KEYS keys
# of 256 bytes, warmed up, then for each workload of PER_REQUEST_WORKLOADS (GET and SET over random
# keys; XADD: `XADD s * f v` to one stream; EVALSHA: a loaded `return 1`) at pipeline 1 (the load
# tool's 2 threads x 25 connections, as compare.sh):
#   - a counted run of PER_REQUEST_COUNT requests: context switches (voluntary and involuntary,
#     summed over the server's threads from /proc/PID/task/*/status) and CPU microseconds
#     (/proc/PID/stat) per request;
#   - a traced run of PER_REQUEST_TRACED requests under `strace -c -f`: system calls per request
#     by name (strace slows the server; the counts per request stay valid);
#   - another traced run of the event loops alone (Lacewing's lacewing-worker threads, redis-server's
#     main thread): what the request path itself calls, without the JIT compiler's and the acceptor's
#     calls that the whole process's count includes (gettid, futex, sysinfo while C1/C2 compile).
# Under perf, io_uring_enter calls are also counted apart from those that wait (min_complete > 0):
# a pass that sleeps enters once to submit and wait, and again for what its completions queued.
#
# Usage: benchmarks/per-request.sh [engine/transport ...]   (default: every engine x io_uring, epoll)
#   PER_REQUEST_KEYS (100000), PER_REQUEST_COUNT (200000), PER_REQUEST_TRACED (50000; 0: no strace),
#   PER_REQUEST_THREADS (Lacewing --threads, default nproc), PER_REQUEST_PIPELINE (1: requests each
#   connection sends before it waits for their replies), PER_REQUEST_WORKLOADS ("GET SET"; also XADD,
#   EVALSHA), PER_REQUEST_WARMUP (requests before each workload is measured, default 100000; the JIT
#   still compiled XADD's path after 300000, at 0.8 us of compiler CPU per request in the next 200000
#   on 2 cores: the counts hold, CPU per request wants a longer warm-up),
#   PER_REQUEST_DIST (the distribution to run, default assembly/target/lacewing: to compare builds)
# Needs: redis-server, redis-cli, strace, and the distribution built by `mvn -B package`.
set -euo pipefail

keys=${PER_REQUEST_KEYS:-100000}
counted=${PER_REQUEST_COUNT:-200000}
traced=${PER_REQUEST_TRACED:-50000}
threads=${PER_REQUEST_THREADS:-$(nproc)}
pipeline=${PER_REQUEST_PIPELINE:-1}
read -r -a workloads <<<"${PER_REQUEST_WORKLOADS:-GET SET}"
warmup=${PER_REQUEST_WARMUP:-100000}
root=$(cd "$(dirname "$0")/.." && pwd)
dist=${PER_REQUEST_DIST:-$root/assembly/target/lacewing}
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli strace

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(shared-nothing/io_uring shared-nothing/epoll multithread/io_uring
  multithread/epoll)
clients=50
# Kernel tracepoints counted over the measured run when perf can read them: every system call,
# context switch and thread wake-up, and io_uring's submissions, completions and poll arms (work
# that io_uring does without a system call of its own, which strace cannot see).
perf_events=""
if command -v perf >/dev/null && perf stat -e raw_syscalls:sys_enter true >/dev/null 2>&1; then
  perf_events=raw_syscalls:sys_enter,sched:sched_switch,sched:sched_wakeup
  perf stat -e io_uring:io_uring_submit_req true >/dev/null 2>&1 \
    && perf_events+=,io_uring:io_uring_submit_req,io_uring:io_uring_complete,io_uring:io_uring_poll_arm
fi
# io_uring_enter calls, all and (the same event again, filtered) those that wait for a completion.
enter_events=()
if [ -n "$perf_events" ] && perf stat -e syscalls:sys_enter_io_uring_enter true >/dev/null 2>&1; then
  enter_events=(-e syscalls:sys_enter_io_uring_enter -e syscalls:sys_enter_io_uring_enter --filter 'min_complete > 0')
fi

load() { # port requests-per-client tool-options...
  local port=$1 requests=$2
  shift 2
  "$tool" -s 127.0.0.1 -p "$port" -t 2 -c $((clients / 2)) -d 256 --hide-histogram -n "$requests" "$@" \
    >"$work/last.txt" 2>&1 || { cat "$work/last.txt" >&2; return 1; }
}

thread_ticks() { # pid -> one line per thread: name (digits dropped) user-ticks system-ticks
  local task
  for task in /proc/"$1"/task/*; do
    awk '{ sub(/^[^(]*\(/, ""); name = $0; sub(/\).*$/, "", name); gsub(/[0-9]+/, "", name); gsub(/ /, "_", name)
           rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " "); print name, f[12], f[13] }' "$task/stat" 2>/dev/null
  done
}

context_switches() { # pid -> voluntary involuntary, summed over the live threads
  cat /proc/"$1"/task/*/status 2>/dev/null | awk '
    /^voluntary_ctxt_switches/ { v += $2 } /^nonvoluntary_ctxt_switches/ { n += $2 } END { print v + 0, n + 0 }'
}

measure() { # name pid port workload-options...
  local name=$1 server=$2 port=$3 workload=$4
  shift 4
  local per_client=$((counted / clients)) before_cs after_cs
  load "$port" $((warmup / clients)) "$@"   # warm-up: the JIT, the connections' buffers
  before_cs=$(context_switches "$server"); thread_ticks "$server" >"$work/before.txt"
  local counter=""
  if [ -n "$perf_events" ]; then
    perf stat -x, -e "$perf_events" "${enter_events[@]}" -p "$server" -o "$work/perf.txt" 2>/dev/null &
    counter=$!
    sleep 0.5
  fi
  load "$port" "$per_client" "$@"
  after_cs=$(context_switches "$server"); thread_ticks "$server" >"$work/after.txt"
  if [ -n "$counter" ]; then
    kill -INT "$counter"; wait "$counter" 2>/dev/null || true
    awk -F, -v n=$((per_client * clients)) -v name="$name" -v workload="$workload" '
      $3 == "syscalls:sys_enter_io_uring_enter" { $3 = entered++ ? "io_uring_enter(waiting)" : "io_uring_enter" }
      $1 ~ /^[0-9]+$/ && $1 > 0 { line = line sprintf(" %s %.3f", $3, $1 / n) }
      END { printf "%-34s %-4s kernel events/req:%s\n", name, workload, line }' "$work/perf.txt"
  fi
  local requests=$((per_client * clients)) hz
  hz=$(getconf CLK_TCK)
  read -r bv bn <<<"$before_cs"; read -r av an <<<"$after_cs"
  awk -v n="$requests" -v v=$((av - bv)) -v i=$((an - bn)) -v name="$name" -v workload="$workload" 'BEGIN {
      printf "%-34s %-4s context switches/req: voluntary %.3f involuntary %.3f\n", name, workload, v / n, i / n }'
  # CPU per request (user+system) by thread kind; threads that ended in between are not counted.
  awk -v n="$requests" -v hz="$hz" -v name="$name" -v workload="$workload" '
    FNR == NR { u[$1] -= $2; s[$1] -= $3; next }
    { u[$1] += $2; s[$1] += $3; seen[$1] = 1 }
    END {
      for (t in seen) { user += u[t]; sys += s[t]; if (u[t] + s[t] > 0) line = line sprintf(" %s %.2f+%.2f", t, u[t] * 1e6 / hz / n, s[t] * 1e6 / hz / n) }
      printf "%-34s %-4s cpu us/req user+system: %.2f+%.2f =%.2f;%s\n", name, workload, user * 1e6 / hz / n,
        sys * 1e6 / hz / n, (user + sys) * 1e6 / hz / n, line }' "$work/before.txt" "$work/after.txt"
  [ "$traced" -gt 0 ] || return 0
  per_client=$((traced / clients))
  traced_run "$name" "$workload" "syscalls/req" "$port" "$per_client" -f -p "$server" -- "$@"
  local loops=() task
  for task in /proc/"$server"/task/*; do
    case $(cat "$task/comm" 2>/dev/null) in lacewing-worker*) loops+=(-p "${task##*/}") ;; esac
  done
  [ ${#loops[@]} -gt 0 ] || loops=(-p "$server")   # redis-server: its main thread runs the event loop
  traced_run "$name" "$workload" "event-loop syscalls/req" "$port" "$per_client" "${loops[@]}" -- "$@"
}

traced_run() { # name workload label port requests-per-client strace-targets... -- workload-options...
  local name=$1 workload=$2 label=$3 port=$4 per_client=$5 targets=()
  shift 5
  while [ "$1" != "--" ]; do targets+=("$1"); shift; done
  shift
  local trace="$work/strace.txt"
  strace -c -q "${targets[@]}" -o "$trace" &
  local tracer=$!
  sleep 1   # strace attaches to every thread before the run starts
  load "$port" "$per_client" "$@"
  kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
  awk -v n=$((per_client * clients)) -v name="$name" -v workload="$workload" -v label="$label" '
    $1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" {
      calls = $4; sys = $NF; errors = (NF == 6 ? $5 : 0)
      if (calls / n >= 0.001) { line = line sprintf(" %s %.3f", sys, calls / n); if (errors > 0) line = line sprintf(" (%.3f failed)", errors / n) }
      total += calls }
    END { printf "%-34s %-4s %s %.3f:%s\n", name, workload, label, total / n, line }' "$trace"
}

run_server() { # name pid port
  local name=$1 server=$2 port=$3 workload sha
  load "$port" allkeys --ratio=1:0 --key-pattern=P:P --key-minimum=1 --key-maximum="$keys" \
    --pipeline=30
  for workload in "${workloads[@]}"; do
    case $workload in
      GET) measure "$name" "$server" "$port" GET --ratio=0:1 --key-pattern=R:R --key-minimum=1 \
        --key-maximum="$keys" --pipeline="$pipeline" ;;
      SET) measure "$name" "$server" "$port" SET --ratio=1:0 --key-pattern=R:R --key-minimum=1 \
        --key-maximum="$keys" --pipeline="$pipeline" ;;
      XADD) measure "$name" "$server" "$port" XADD --command="XADD s * f v" --pipeline="$pipeline" ;;
      EVALSHA)
        sha=$(redis-cli -p "$port" script load "return 1")
        measure "$name" "$server" "$port" EVAL --command="EVALSHA $sha 0" --pipeline="$pipeline" ;;
      *) echo "unknown workload $workload (GET, SET, XADD, EVALSHA)" >&2; exit 1 ;;
    esac
  done
}

mkdir -p "$work/redis"
port=$(free_port)
redis-server --port "$port" --dir "$work/redis" --save '' --appendonly no --daemonize no \
  >"$work/redis.log" 2>&1 &
redis=$!; pids+=("$redis")
wait_ready "$port"
run_server redis "$redis" "$port"
kill "$redis"; wait "$redis" 2>/dev/null || true

for variant in "${variants[@]}"; do
  engine=${variant%/*} transport=${variant#*/}
  port=$(free_port)
  "$dist/bin/lacewing-server" --save "" --dir "$work" --port "$port" --engine "$engine" --transport "$transport" \
    --threads "$threads" >"$work/lacewing.log" 2>&1 &
  server=$!; pids+=("$server")
  wait_ready "$port"
  run_server "lacewing-$engine/$transport" "$server" "$port"
  kill "$server"; wait "$server" 2>/dev/null || true
done
