#!/usr/bin/env bash
# Durability figures (issue 17): on Debian's redis-server and on Lacewing, each fresh, in the same run.
# 1. The everysec loss bound: a client writes INCRs in pipelines of 32 while the server runs with
#    appendonly yes, appendfsync everysec; the server is killed with SIGKILL after a few seconds and
#    restarted from its AOF; lost = acknowledged INCRs - the counter after the restart. A SIGKILL
#    leaves the OS's page cache, so this measures a process crash, not a power loss.
# 2. Restart time with N keys (SET key:i, 16-byte values), from an RDB file (SAVE) and from an AOF
#    (the keys written with appendonly yes, everysec, auto-aof-rewrite-percentage 0: an incr file of
#    N SETs; without it both servers rewrite past 64 MB, at different moments, and the restart loads
#    an RDB preamble plus a tail of unknown length): wall time from the process start until DBSIZE
#    answers N, and the server's own "loaded" log line. Lacewing runs each engine of
#    DURABILITY_ENGINES in turn (default: shared-nothing multithread); the loss test runs its default.
# Ports come from the OS. Machine load is printed with each run.
#
# Usage: [DURABILITY_ENGINES=...] benchmarks/durability.sh [keys] [kill-after-seconds]   (defaults 1000000, 3)
# Needs: redis-server, redis-cli, python3, and the distribution built by
#        `mvn -B -o -q package -DskipTests`.
set -euo pipefail

keys=${1:-1000000}
kill_after=${2:-3}
engines=${DURABILITY_ENGINES:-shared-nothing multithread}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli python3

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() { # kind (redis, lacewing or lacewing-ENGINE) dir port extra-args...
  local kind=$1 dir=$2 port=$3; shift 3
  mkdir -p "$dir"
  if [ "$kind" = redis ]; then
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --daemonize no "$@" >>"$dir/server.log" 2>&1 &
  else
    [ "$kind" = lacewing ] || set -- --engine "${kind#lacewing-}" "$@"
    "$dist/bin/lacewing-server" --port "$port" --bind 127.0.0.1 --dir "$dir" "$@" >>"$dir/server.log" 2>&1 &
  fi
  pid=$!; pids+=("$pid")
}

# Seconds from the start time until DBSIZE on the port answers the count (polled every 10 ms).
ready_after() { # port count start-epoch-seconds
  python3 - "$1" "$2" "$3" <<'PY'
import socket, sys, time
port, want, start = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
while time.time() - start < 600:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"DBSIZE\r\n")
            reply = s.recv(100).decode()
            if reply == ":" + want + "\r\n":
                print("%.2f" % (time.time() - start)); sys.exit(0)
    except OSError:
        pass
    time.sleep(0.01)
print("timeout"); sys.exit(1)
PY
}

# Writes INCR counter in pipelines of 32 until the connection drops; prints the INCRs acknowledged.
incr_until_killed() { # port
  python3 - "$1" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
batch = b"*2\r\n$4\r\nINCR\r\n$7\r\ncounter\r\n" * 32
acked, buffer = 0, b""
try:
    while True:
        s.sendall(batch)
        seen = 0
        while seen < 32:
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError
            buffer += chunk
            lines = buffer.split(b"\r\n")
            buffer = lines.pop()
            for line in lines:
                if line.startswith(b":"):
                    acked = max(acked, int(line[1:]))
                    seen += 1
except (ConnectionError, OSError):
    pass
print(acked)
PY
}

load_line() { # kind dir
  if [ "$1" = redis ]; then grep -hoE 'DB loaded from (disk|append only file): [0-9.]+ seconds' "$2/server.log" | tail -1
  else grep -hoE '(DB loaded from (disk|append only file)|Done loading)[^"]*' "$2/server.log" | tail -1; fi
}

echo "== $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== everysec: INCR pipelines of 32, SIGKILL after ${kill_after}s, restart from the AOF"
printf "%-9s %12s %12s %6s\n" server acknowledged restored lost
for kind in redis lacewing; do
  dir="$work/$kind-loss"; port=$(free_port)
  start "$kind" "$dir" "$port" --save '' --appendonly yes --appendfsync everysec
  wait_ready "$port"
  incr_until_killed "$port" >"$work/acked" &
  writer=$!
  sleep "$kill_after"
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  wait "$writer"; acked=$(cat "$work/acked")
  start "$kind" "$dir" "$port" --save '' --appendonly yes --appendfsync everysec
  restored=
  for _ in $(seq 1 1000); do # until the AOF is loaded (a LOADING reply is not a number)
    restored=$(redis-cli -p "$port" get counter 2>/dev/null || true)
    [[ "$restored" =~ ^[0-9]+$ ]] && break
    sleep 0.05
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  printf "%-9s %12s %12s %6s\n" "$kind" "$acked" "$restored" $((acked - ${restored:-0}))
done

echo "== restart with $keys keys (load average $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$keys" >"$work/keys.resp" <<'PY'
import sys
out = sys.stdout.buffer
for i in range(int(sys.argv[1])):
    key = b"key:%d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$16\r\nvalue-0123456789\r\n" % (len(key), key))
PY
printf "%-24s %-4s %10s %12s  %s\n" server from seconds file-bytes "server's log"
kinds=(redis)
for engine in $engines; do kinds+=("lacewing-$engine"); done
for kind in "${kinds[@]}"; do
  for from in rdb aof; do
    dir="$work/$kind-$from"; port=$(free_port)
    if [ "$from" = rdb ]; then
      start "$kind" "$dir" "$port" --save '' --appendonly no
    else
      start "$kind" "$dir" "$port" --save '' --appendonly yes --appendfsync everysec --auto-aof-rewrite-percentage 0
    fi
    wait_ready "$port"
    redis-cli -p "$port" --pipe <"$work/keys.resp" >/dev/null
    [ "$from" = rdb ] && redis-cli -p "$port" save >/dev/null
    redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
    wait "$pid" 2>/dev/null || true
    bytes=$(du -sb "$( [ "$from" = rdb ] && echo "$dir/dump.rdb" || echo "$dir/appendonlydir")" | cut -f1)
    began=$(date +%s.%N)
    if [ "$from" = rdb ]; then
      start "$kind" "$dir" "$port" --save '' --appendonly no
    else
      start "$kind" "$dir" "$port" --save '' --appendonly yes --appendfsync everysec --auto-aof-rewrite-percentage 0
    fi
    seconds=$(ready_after "$port" "$keys" "$began")
    printf "%-24s %-4s %10s %12s  %s\n" "$kind" "$from" "$seconds" "$bytes" "$(load_line "$kind" "$dir")"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
  done
done
