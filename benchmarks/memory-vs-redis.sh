#!/usr/bin/env bash
# Memory, as Redis users measure it, in one run: Debian's redis-server and Lacewing are each filled
# over redis-cli --pipe, one fresh server per data set, and the growth is divided by the elements.
# Redis: growth of INFO used_memory (and of RSS). Lacewing: growth of the process RSS after a full
# GC (jcmd GC.run) before and after filling, and of INFO used_memory (what the keyspace counts it
# holds).
#
# Strings (bytes per key): N keys of 16 bytes ("key:%012d")
# with 8-byte values, 256-byte values, 8-byte values with a TTL (EX 3600).
# Aggregates (issue 5 item 11, bytes per element), each
# against its target for Lacewing's RSS growth over Redis's used_memory growth:
#   large-hash    one hash of 1,000,000 fields field:N -> value:N (HSET per field)   <= 0.7x
#   sorted-set    one sorted set of 1,000,000 members member:N, score N*1.5 (ZADD)   <= 0.7x
#   small-hashes  100,000 hashes of 10 fields field:0..9 -> value:0..9 (one HSET)    <= 1.0x
#   small-sets    100,000 sets of 10 integers i*1000 + k%1000 (one SADD)             <= 1.0x
#   geo-set       one geo set of 1,000,000 members member:N spread over the globe     <= 0.8x
#                 (GEOADD per member; a sorted set scored with 52-bit geohashes)
#
# Lacewing runs with one thread: bytes per key do not depend on the shard count, and a mass
# insert over redis-cli --pipe into two shared-nothing shards is bound by cross-shard hops.
#
# Usage: benchmarks/memory-vs-redis.sh [--smoke] [--only strings|aggregates|geo] [keys] [JVM options]
#   --smoke   a hundredth of every size (10,000 string keys, 10,000-element aggregates): a check
#             that the script works, in seconds; its ratios carry fixed costs and mean little
#   keys      string keys (default 1,000,000); JVM options e.g. "-XX:+UseSerialGC"
# Needs: redis-server, redis-cli, jcmd, and the distribution built by
# `mvn -B -o package -DskipTests -pl assembly -am`.
set -euo pipefail

scale=1
only=all
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) scale=100; shift ;;
    --only) only=$2; shift 2 ;;
    *) break ;;
  esac
done
case "$only" in all | strings | aggregates | geo) ;; *) echo "--only strings, aggregates or geo" >&2; exit 1 ;; esac
keys=${1:-$((1000000 / scale))}
java_opts=${2:-}
elements=$((1000000 / scale))   # elements of each aggregate data set
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }

source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli jcmd
pid=

rss() { awk '/^VmRSS/ {print $2 * 1024}' "/proc/$1/status"; }
# A full GC and then the RSS once it has settled: on JDK 17 G1 gives the regions a full GC emptied
# back to the OS in the background (concurrent uncommit), a second or so after GC.run returns.
rss_after_full_gc() { # pid
  local previous current steady=0
  jcmd "$1" GC.run >/dev/null
  # What the launcher's TrimNativeHeapInterval does every 10 s: glibc keeps the memory the JIT
  # compilers' arenas freed unless asked to give it back. HotSpot first keeps freed arena chunks
  # in a pool it empties every 5 s, so the trim waits for that: trimmed at once, the growth read
  # up to 15 MB high whenever a compilation had just ended (NMT "Arena Chunk"). A second trim
  # 10 s later, as the launcher's interval makes one: after only the first, the native heap of a
  # small load still read 1-5 MB high in some runs (100,000 small sets: growth 9.6-15.3 MB after
  # one trim, 9.9-11.9 MB after the second, 10.5-11.4 MB after a third, same three runs).
  sleep 6
  jcmd "$1" System.trim_native_heap >/dev/null 2>&1 || true
  sleep 10
  jcmd "$1" System.trim_native_heap >/dev/null 2>&1 || true
  current=$(rss "$1")
  for _ in $(seq 1 40); do   # steady for 1.5 s (three reads within 256 KiB), at most 20 s
    sleep 0.5
    previous=$current; current=$(rss "$1")
    if [ $((previous - current)) -lt 262144 ] && [ $((current - previous)) -lt 262144 ]; then
      steady=$((steady + 1)); [ "$steady" -ge 3 ] && break
    else
      steady=0
    fi
  done
  echo "$current"
}
used_memory() { redis-cli -p "$1" info memory | tr -d '\r' | awk -F: '$1 == "used_memory" {print $2}'; }

# The RESP for N SETs, made once per data set.
make_strings() { # value-bytes ttl(yes|no) file
  awk -v n="$keys" -v size="$1" -v ttl="$2" 'BEGIN {
    value = sprintf("%0" size "d", 0)
    for (i = 0; i < n; i++) {
      key = sprintf("key:%012d", i)
      if (ttl == "yes") printf "*5\r\n$3\r\nSET\r\n$16\r\n%s\r\n$%d\r\n%s\r\n$2\r\nEX\r\n$4\r\n3600\r\n", key, size, value
      else printf "*3\r\n$3\r\nSET\r\n$16\r\n%s\r\n$%d\r\n%s\r\n", key, size, value
    }
  }' >"$3"
}

# The RESP for one aggregate data set of $elements elements (a small one: $elements / 10 keys).
make_aggregate() { # data-set file
  awk -v n="$elements" -v set="$1" '
    function bulk(s) { return sprintf("$%d\r\n%s\r\n", length(s), s) }
    BEGIN {
      if (set == "large-hash")
        for (i = 0; i < n; i++) printf "*4\r\n%s%s%s%s", bulk("HSET"), bulk("bighash"), bulk("field:" i), bulk("value:" i)
      else if (set == "sorted-set")
        for (i = 0; i < n; i++) printf "*4\r\n%s%s%s%s", bulk("ZADD"), bulk("bigzset"), bulk(sprintf("%.1f", i * 1.5)), bulk("member:" i)
      else if (set == "geo-set")
        for (i = 0; i < n; i++) printf "*5\r\n%s%s%s%s%s", bulk("GEOADD"), bulk("biggeo"),
          bulk(sprintf("%.6f", -180 + (i * 7919 % 3600000) / 10000)),
          bulk(sprintf("%.6f", -85 + (i * 104729 % 1700000) / 10000)), bulk("member:" i)
      else if (set == "small-hashes")
        for (k = 0; k < n / 10; k++) {
          printf "*22\r\n%s%s", bulk("HSET"), bulk(sprintf("key:%012d", k))
          for (i = 0; i < 10; i++) printf "%s%s", bulk("field:" i), bulk("value:" i)
        }
      else
        for (k = 0; k < n / 10; k++) {
          printf "*12\r\n%s%s", bulk("SADD"), bulk(sprintf("key:%012d", k))
          for (i = 0; i < 10; i++) printf "%s", bulk(i * 1000 + k % 1000)
        }
    }' >"$2"
}

# How many elements a data set left in the server, to check the load.
loaded() { # port data-set
  case "$2" in
    large-hash) redis-cli -p "$1" hlen bighash ;;
    sorted-set) redis-cli -p "$1" zcard bigzset ;;
    geo-set) redis-cli -p "$1" zcard biggeo ;;
    small-*) echo $(($(redis-cli -p "$1" dbsize) * 10)) ;;
    *) redis-cli -p "$1" dbsize ;;
  esac
}

# Fills the server on a port and sets growth_used and growth_rss (bytes per unit).
measure() { # name port full-gc(yes|no) load-file units data-set unit-name
  local before_rss before_used after_rss after_used count
  if [ "$3" = yes ]; then before_rss=$(rss_after_full_gc "$pid"); else before_rss=$(rss "$pid"); fi
  before_used=$(used_memory "$2")
  redis-cli -p "$2" --pipe <"$4" >/dev/null
  if [ "$3" = yes ]; then after_rss=$(rss_after_full_gc "$pid"); else after_rss=$(rss "$pid"); fi
  after_used=$(used_memory "$2")
  count=$(loaded "$2" "$6")
  [ "$count" = "$5" ] || echo "warning: $1 holds $count of $5" >&2
  growth_used=$(awk -v n="$5" -v u0="$before_used" -v u1="$after_used" 'BEGIN { printf "%.1f", (u1 - u0) / n }')
  growth_rss=$(awk -v n="$5" -v r0="$before_rss" -v r1="$after_rss" 'BEGIN { printf "%.1f", (r1 - r0) / n }')
  printf "%-18s used_memory %7.1f B/%s   RSS %7.1f B/%s\n" "$1" "$growth_used" "$7" "$growth_rss" "$7"
}

start_redis() {
  port=$(free_port)
  redis-server --port "$port" --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$port"
}

start_lacewing() {
  port=$(free_port)
  LACEWING_JAVA_OPTS="$java_opts" "$dist/bin/lacewing-server" --save "" --dir "$work" --port "$port" --threads 1 \
    >"$work/lacewing.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_ready "$port"
}

stop() {
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

if [ "$only" = all ] || [ "$only" = strings ]; then
  for set in "8 no" "256 no" "8 yes"; do
    read -r size ttl <<<"$set"
    make_strings "$size" "$ttl" "$work/load"
    echo "== $keys keys, 16-byte keys, ${size}-byte values, ttl=$ttl"
    start_redis
    measure redis "$port" no "$work/load" "$keys" strings key
    stop
    start_lacewing
    measure lacewing "$port" yes "$work/load" "$keys" strings key
    stop
  done
fi

if [ "$only" != strings ]; then
  sets=("large-hash 0.7" "sorted-set 0.7" "small-hashes 1.0" "small-sets 1.0" "geo-set 0.8")
  [ "$only" = geo ] && sets=("geo-set 0.8")
  for set in "${sets[@]}"; do
    read -r name target <<<"$set"
    make_aggregate "$name" "$work/load"
    echo "== $name, $elements elements"
    start_redis
    measure redis "$port" no "$work/load" "$elements" "$name" element
    redis_used=$growth_used
    stop
    start_lacewing
    measure lacewing "$port" yes "$work/load" "$elements" "$name" element
    stop
    awk -v smoke=$((scale > 1)) -v target="$target" -v redis="$redis_used" -v rss="$growth_rss" -v used="$growth_used" 'BEGIN {
      verdict = smoke ? "smoke run, no verdict" : rss / redis <= target ? "met" : "not met"
      printf "ratio to redis used_memory: lacewing RSS %.2fx (target <= %.1fx: %s), lacewing used_memory %.2fx\n",
        rss / redis, target, verdict, used / redis
    }'
  done
fi
