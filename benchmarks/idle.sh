#!/usr/bin/env bash
# What an idle server costs: wake-ups per second of each event-loop thread and CPU per second of the
# whole process, Debian redis-server and Lacewing (each engine, this build and an optional baseline)
# side by side, all idle over the same window.
#
# Each round starts every server afresh (the phase between a build's timers is set at start), lets
# them settle (the JIT finishes compiling start-up code), then reads each thread's
# voluntary_ctxt_switches from /proc (each is one sleep that a wake-up ended; no tracer slows the
# process) and the process's utime+stime over the window. Prints, per server and round, the wake-ups
# per second of its busiest worker (Lacewing's lacewing-worker threads, redis-server's main thread),
# of all its workers, of Lacewing's acceptor, of all its threads (the JVM's own included), and its CPU
# in ms per second.
#
# Usage: benchmarks/idle.sh
#   IDLE_BASELINE  another distribution to compare, e.g. /work/wt-base/assembly/target/lacewing
#   IDLE_ENGINES   engines (default "shared-nothing multithread")
#   IDLE_THREADS   Lacewing threads (default: nproc)
#   IDLE_SETTLE    seconds before the window (default 20)
#   IDLE_SECONDS   the window (default 30)
#   IDLE_ROUNDS    rounds (default 3)
# Needs: redis-server, redis-cli, and the distribution built by `mvn -B package`.
set -euo pipefail

settle=${IDLE_SETTLE:-20}
seconds=${IDLE_SECONDS:-30}
rounds=${IDLE_ROUNDS:-3}
engines=${IDLE_ENGINES:-shared-nothing multithread}
threads=${IDLE_THREADS:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli
builds=("new=$dist")
[ -n "${IDLE_BASELINE:-}" ] && builds+=("base=$IDLE_BASELINE")

# thread_switches PID: "tid name voluntary_ctxt_switches" for each of the process's threads.
thread_switches() {
  local task
  for task in /proc/"$1"/task/*; do
    printf '%s %s %s\n' "${task##*/}" "$(tr ' ' _ < "$task/comm")" \
      "$(awk '/^voluntary_ctxt_switches/ {print $2}' "$task/status")"
  done
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $threads Lacewing threads; window ${seconds}s"
for round in $(seq 1 "$rounds"); do
  declare -A port=() pid=() before=() ticks=()
  servers=()
  start_servers "$threads" "$engines" "${builds[@]}"
  sleep "$settle"
  for name in "${servers[@]}"; do
    before[$name]=$(thread_switches "${pid[$name]}" | sort)
    ticks[$name]=$(cpu_ticks "${pid[$name]}")
  done
  sleep "$seconds"
  for name in "${servers[@]}"; do
    after=$(thread_switches "${pid[$name]}" | sort)
    cpu=$(( $(cpu_ticks "${pid[$name]}") - ticks[$name] ))
    join <(echo "${before[$name]}") <(echo "$after") | awk -v name="$name" -v round="$round" \
      -v seconds="$seconds" -v cpu="$cpu" -v hz="$(getconf CLK_TCK)" '
      { rate = ($5 - $3) / seconds; all += rate }
      $2 ~ /^lacewing-worker/ || $2 == "redis-server" { workers += rate; if (rate > busiest) busiest = rate }
      $2 ~ /^lacewing-accept/ { accept = rate }
      END { printf "round %d %-22s busiest worker %5.1f/s  all workers %5.1f/s  acceptor %4.1f/s  all threads %5.1f/s  cpu %5.2f ms/s\n",
              round, name, busiest, workers, accept, all, cpu * 1000 / hz / seconds }'
  done
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  for name in "${servers[@]}"; do kill "${pid[$name]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
done
