# Shared by the benchmark scripts (sourced, not run): the tools they need, a work folder and the
# servers they start, both cleaned up on exit, the two probes they take of a server, and reading
# the load tool's JSON.

require_tools() { # tool...
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install redis-server redis-tools python3)" >&2; exit 1; }
  done
}
require_tools python3 # free_port

work=$(mktemp -d)
pids=()   # every server started; add each one's pid
cleanup() {
  local started
  for started in "${pids[@]}"; do kill "$started" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
  rmdir /sys/fs/cgroup/lacewing-bench-$$-* /sys/fs/cgroup/cpu/lacewing-bench-$$-* 2>/dev/null || true
}
trap cleanup EXIT

# Ports the OS has just found free (default one, one a line, distinct), for servers about to bind
# them: never fixed numbers, since other runs and other people's servers share the machine. Take
# them right before starting the servers, so that the window in which something else may take a
# port stays short.
free_port() { # [count]
  python3 -c '
import socket, sys
held = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in held:
    s.bind(("", 0))
print("\n".join(str(s.getsockname()[1]) for s in held))' "${1:-1}"
}

wait_ready() { # port
  for _ in $(seq 1 200); do
    redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server on port $1 did not start" >&2
  return 1
}

# start_servers THREADS ENGINES NAME=DIST...: redis-server 7.0.15 (Debian's), then for each engine
# of ENGINES (space separated) each Lacewing distribution DIST in turn, named NAME-ENGINE, with
# THREADS threads, no persistence, each on a port the OS has just found free and answering PING
# before the next starts. Fills the caller's associative arrays port and pid (declare -A port pid
# first) and the array servers, redis first, in start order.
start_servers() {
  local threads=$1 engines=$2 engine named name
  shift 2
  port[redis]=$(free_port)
  budgeted redis-server --port "${port[redis]}" --dir "$work" --save '' --appendonly no --daemonize no \
    >"$work/redis.log" 2>&1 &
  pid[redis]=$!; pids+=("${pid[redis]}")
  wait_ready "${port[redis]}"
  servers=(redis)
  for engine in $engines; do
    for named in "$@"; do
      name="${named%%=*}-$engine"
      port[$name]=$(free_port)
      budgeted "${named#*=}/bin/lacewing-server" --port "${port[$name]}" --engine "$engine" --threads "$threads" \
        --dir "$work" --save '' >"$work/$name.log" 2>&1 &
      pid[$name]=$!; pids+=("${pid[$name]}")
      wait_ready "${port[$name]}"
      servers+=("$name")
    done
  done
}

# SERVER_CPU=CORES (e.g. 0.5): each server a script starts through `budgeted` runs in a CPU cgroup
# of its own, limited to CORES (a CFS quota over a 10 ms period). At pipeline 1 on a small machine
# the load generator saturates a core before either server does (redis-benchmark costs 10-13 us a
# request, the servers 8-11), so without a budget ops/s is the load generator's rate and the ratio
# between servers is 1.0 within its run-to-run noise; with every server held to the same budget the
# server is the bottleneck and ops/s is what it serves from that much CPU. Needs root and the cpu
# controller (cgroup v2, or v1 at /sys/fs/cgroup/cpu). Unset, servers run as they are.
# Run it in the background (`budgeted server ... &`): it execs the command, so that $! is its pid.
budgeted() { # command... : execs it in a fresh cgroup held to SERVER_CPU cores, or as it is
  if [ -z "${SERVER_CPU:-}" ]; then
    exec "$@"
  fi
  local group quota
  quota=$(awk -v c="$SERVER_CPU" 'BEGIN {printf "%d", c * 10000}')
  if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    group=/sys/fs/cgroup/lacewing-bench-$$-$BASHPID
    mkdir "$group" && echo "$quota 10000" >"$group/cpu.max"
  elif [ -d /sys/fs/cgroup/cpu ]; then
    group=/sys/fs/cgroup/cpu/lacewing-bench-$$-$BASHPID
    mkdir "$group" && echo 10000 >"$group/cpu.cfs_period_us" && echo "$quota" >"$group/cpu.cfs_quota_us"
  else
    echo "SERVER_CPU needs the cgroup cpu controller" >&2
    return 1
  fi
  # shellcheck disable=SC2016
  exec sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$group" "$@"
}

cpu_ticks() { # pid -> utime+stime in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}

# totals FILE FIELD: a number from the "Totals" object of the tool's JSON (Count, Ops/sec, p99.00).
totals() {
  awk -v field="\"$2\": " '
    /^"Totals": \{/ { inside = 1 }
    inside && index($0, field) {
      rest = substr($0, index($0, field) + length(field)); sub(/[,}].*/, "", rest); print rest; exit
    }' "$1"
}
