#!/usr/bin/env bash
# Memory per key, as Redis users measure it, in one run: Debian's redis-server and Lacewing (each
# keyspace layout) are each filled with N keys of 16 bytes ("key:%012d") over redis-cli --pipe,
# for three data sets: 8-byte values, 256-byte values, 8-byte values with a TTL (EX 3600).
# Redis: growth of INFO used_memory (and of RSS). Lacewing: growth of the process RSS after a
# full GC (jcmd GC.run) before and after filling, and of INFO used_memory (what the keyspace
# counts it holds; the heap in use for the objects layout).
#
# Lacewing runs with one thread: bytes per key do not depend on the shard count, and a mass
# insert over redis-cli --pipe into two shared-nothing shards is bound by cross-shard hops
# (about 50 us each on the 2-vCPU VM) until issue 4's hop batching.
#
# Usage: benchmarks/memory-vs-redis.sh [keys] [extra JVM options, e.g. -XX:+UseSerialGC]
# Needs: redis-server, redis-cli, jcmd, and the distribution built by `mvn -B package`.
set -euo pipefail

keys=${1:-1000000}
java_opts=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }

source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli jcmd
pid=

rss() { awk '/^VmRSS/ {print $2 * 1024}' "/proc/$1/status"; }
used_memory() { redis-cli -p "$1" info memory | tr -d '\r' | awk -F: '$1 == "used_memory" {print $2}'; }

# The RESP for N SETs, made once per data set.
make_load() { # value-bytes ttl(yes|no) file
  awk -v n="$keys" -v size="$1" -v ttl="$2" 'BEGIN {
    value = sprintf("%0" size "d", 0)
    for (i = 0; i < n; i++) {
      key = sprintf("key:%012d", i)
      if (ttl == "yes") printf "*5\r\n$3\r\nSET\r\n$16\r\n%s\r\n$%d\r\n%s\r\n$2\r\nEX\r\n$4\r\n3600\r\n", key, size, value
      else printf "*3\r\n$3\r\nSET\r\n$16\r\n%s\r\n$%d\r\n%s\r\n", key, size, value
    }
  }' >"$3"
}

measure() { # name port full-gc(yes|no) load-file
  local before_rss before_used after_rss after_used
  [ "$3" = yes ] && jcmd "$pid" GC.run >/dev/null
  before_rss=$(rss "$pid"); before_used=$(used_memory "$2")
  redis-cli -p "$2" --pipe <"$4" >/dev/null
  [ "$3" = yes ] && jcmd "$pid" GC.run >/dev/null
  after_rss=$(rss "$pid"); after_used=$(used_memory "$2")
  local size; size=$(redis-cli -p "$2" dbsize)
  [ "$size" = "$keys" ] || echo "warning: $1 holds $size keys" >&2
  awk -v name="$1" -v n="$keys" -v r0="$before_rss" -v r1="$after_rss" -v u0="$before_used" -v u1="$after_used" \
    'BEGIN { printf "%-18s used_memory %7.1f B/key   RSS %7.1f B/key\n", name, (u1 - u0) / n, (r1 - r0) / n }'
}

for set in "8 no" "256 no" "8 yes"; do
  read -r size ttl <<<"$set"
  make_load "$size" "$ttl" "$work/load"
  echo "== $keys keys, 16-byte keys, ${size}-byte values, ttl=$ttl"
  redis-server --port 7390 --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready 7390
  measure redis 7390 no "$work/load"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  for layout in compact objects; do
    LACEWING_JAVA_OPTS="$java_opts" "$dist/bin/lacewing-server" --port 7391 --threads 1 --keyspace-layout "$layout" \
      >"$work/lacewing.log" 2>&1 &
    pid=$!; pids+=("$pid")
    wait_ready 7391
    measure "lacewing $layout" 7391 yes "$work/load"
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  done
done
