#!/usr/bin/env bash
# Deoptimizations and C2 compilations of a fresh Lacewing after start-up (issue 17): counts that do
# not depend on the machine's load, for a change meant to keep the JIT's compiled hot paths stable.
# Each load runs on a fresh server (appendonly yes, its own directory) recording JFR's
# jdk.Deoptimization events and -XX:+PrintCompilation:
# - set:  redis-benchmark -t set -P 30 -n 3000000 -r 100000 -d 3, across the first automatic AOF
#         rewrite (auto-aof-rewrite-min-size 64mb, about 1.45M SETs)
# - xadd: XADD s * f v at pipeline 1 (200,000), then DEL s and the same in upper case (a new
#         connection's CONFIG GET, the first DEL, an upper-case name, a stream made again)
# Prints per load: C2 compilations after the server answered PING and how many C2 methods were made
# not entrant (all, and Lacewing's), then each deoptimization in Lacewing's code: seconds after the
# load began, count of JFR events, method:line, reason, its first callers.
#
# Usage: benchmarks/deopts.sh [set|xadd]...   (default: set xadd)
#   DEOPTS_BASELINE  another distribution (e.g. main's, packaged in a worktree of its own) run
#                    after this one on each load
# Needs: redis-server's redis-benchmark and redis-cli, jcmd and jfr of the JDK that runs the server,
#        and the distribution built by `mvn -B -o -q package -DskipTests -pl assembly -am`.
# The first start of a new build dumps its class-data archive, during which the JVM disables JFR:
# the script then runs that load once more.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
baseline=${DEOPTS_BASELINE:-}
loads=${*:-"set xadd"}
[ -x "$dist/bin/lacewing-server" ] || { echo "build first: mvn -B -o -q package -DskipTests -pl assembly -am" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-benchmark redis-cli jcmd jfr

run_load() { # dist name load -> files $work/name-load.*
  local log="$work/$2-$3" port server dir
  dir=$(mktemp -d "$work/aof.XXXX")
  port=$(free_port)
  LACEWING_JAVA_OPTS="-XX:+PrintCompilation -XX:StartFlightRecording=filename=$log.jfr,settings=profile" \
    "$1/bin/lacewing-server" --port "$port" --save '' --appendonly yes --dir "$dir" >"$log.out" 2>&1 &
  server=$!
  pids+=("$server")
  wait_ready "$port"
  date +%s.%N >"$log.mark"
  wc -l <"$log.out" >"$log.markline"
  if [ "$3" = set ]; then
    timeout 300 redis-benchmark -p "$port" -t set -P 30 -n 3000000 -r 100000 -d 3 -c 50 -q >/dev/null 2>&1
  else
    timeout 300 redis-benchmark -p "$port" -n 200000 -c 50 -P 1 -q xadd s '*' f v >/dev/null 2>&1
    redis-cli -p "$port" del s >/dev/null
    timeout 300 redis-benchmark -p "$port" -n 200000 -c 50 -P 1 -q XADD s '*' f v >/dev/null 2>&1
  fi
  jcmd "$server" JFR.dump name=1 filename="$log.jfr" >/dev/null 2>&1 || true
  kill "$server"
  wait "$server" 2>/dev/null || true
}

report() { # name load
  local log="$work/$1-$2"
  awk -v from="$(cat "$log.markline")" -v name="$1 $2" '
    NR <= from { next }
    { level = ""; for (i = 3; i <= 6; i++) if ($i == "4") { level = 4; break } }
    level != 4 { next }
    /made not entrant/ { gone++; if (/dev\.lacewing/) lgone++; next }
    /made zombie/ { next }
    { c2++; if (/dev\.lacewing/) lc2++ }
    END { printf "%s: C2 compilations after start %d (Lacewing %d), C2 code made not entrant %d (Lacewing %d)\n",
          name, c2, lc2, gone, lgone }' "$log.out"
  jfr print --json --stack-depth 4 --events jdk.Deoptimization "$log.jfr" | python3 -c '
import collections, datetime, json, sys
mark = float(open(sys.argv[1]).read())
rows = collections.Counter()
for event in json.load(sys.stdin)["recording"]["events"]:
    v = event["values"]
    at = datetime.datetime.fromisoformat(v["startTime"].replace("Z", "+00:00")).timestamp()
    frames = (v.get("stackTrace") or {}).get("frames", [])
    names = [f["method"]["type"]["name"].split("/")[-1] + "." + f["method"]["name"] + ":" + str(f["lineNumber"]) for f in frames]
    if at < mark or not any("lacewing" in f["method"]["type"]["name"] for f in frames):
        continue
    rows[(round(at - mark, 1), names[0] if names else "?", v["reason"], " < ".join(names[1:3]))] += 1
for (at, where, reason, callers), count in sorted(rows.items()):
    print(f"  {at:6.1f}s {count:3d} {where} {reason}  ({callers})")
' "$log.mark"
}

for load in $loads; do
  for named in "lacewing=$dist" ${baseline:+"baseline=$baseline"}; do
    name=${named%%=*}
    for try in 1 2; do
      run_load "${named#*=}" "$name" "$load"
      [ -s "$work/$name-$load.jfr" ] && break
    done
    report "$name" "$load"
  done
done
