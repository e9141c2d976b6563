# Shared by the benchmark scripts (sourced, not run): the tools they need, a work folder and the
# servers they start, both cleaned up on exit, the two probes they take of a server, and reading
# the load tool's JSON.

require_tools() { # tool...
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install redis-server redis-tools)" >&2; exit 1; }
  done
}

work=$(mktemp -d)
pids=()   # every server started; add each one's pid
cleanup() {
  local started
  for started in "${pids[@]}"; do kill "$started" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Stops the script when something already answers on the port: a server left over from another
# run would otherwise be measured in place of the one about to start.
require_free_port() { # port
  if redis-cli -p "$1" ping >/dev/null 2>&1; then
    echo "port $1 is in use by another server; stop it first" >&2
    exit 1
  fi
}

# A port the OS hands out as free now (bound to port 0 and let go): other servers on this machine
# take theirs the same way, so none is hard-coded.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_ready() { # port
  for _ in $(seq 1 200); do
    redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server on port $1 did not start" >&2
  return 1
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
