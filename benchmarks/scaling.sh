#!/usr/bin/env bash
# Many cores (issue 4, item 6): for each server thread count T, Debian's redis-server (one thread
# of commands, whatever T), a Redis Cluster of T masters on loopback (T >= 2; slots split evenly,
# the load tool in --cluster-mode), and Lacewing's shared-nothing and multithread engines with
# --threads T. Each is filled with the keys (256-byte values), then loaded with GET and SET over
# random keys at pipeline 1 and 30. Prints and writes (tab-separated) ops/s, p99 and server CPU
# seconds per million operations (all of a cluster's processes together), with the ratio to the
# single redis-server of the same T.
#
# When the machine has at least 2T cores, the servers of a step are pinned to cores 0..T-1 and the
# load tool to cores T..2T-1 (taskset), so that the client does not take the servers' cores; on
# smaller machines nothing is pinned and the client competes with the servers, which makes the
# CPU-per-operation column the figure to compare.
#
# Usage: benchmarks/scaling.sh
#   SCALING_THREADS         server thread counts (default "1 2 4 8 16", those above nproc dropped)
#   SCALING_SECONDS         seconds per workload (default 10)
#   SCALING_KEYS            keys filled (default 1000000)
#   SCALING_CLIENT_THREADS  load-tool threads (default: T, at least 2); 25 connections each
#   SCALING_OUT             folder for scaling.tsv (default benchmarks/target)
# Needs: redis-server, redis-cli, taskset, and the distribution built by `mvn -B package`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/assembly/target/lacewing"
tool="$dist/bin/lacewing-benchmark"
[ -x "$tool" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
source "$root/benchmarks/servers.sh"
require_tools redis-server redis-cli taskset

seconds=${SCALING_SECONDS:-10}
keys=${SCALING_KEYS:-1000000}
cores=$(nproc)
thread_counts=()
for t in ${SCALING_THREADS:-1 2 4 8 16}; do
  if [ "$t" -le "$cores" ]; then thread_counts+=("$t"); else echo "skipping --threads $t: only $cores cores" >&2; fi
done
out_dir=${SCALING_OUT:-$root/benchmarks/target}
mkdir -p "$out_dir"
results="$out_dir/scaling.tsv"
printf 'threads\tworkload\tserver\tops_per_s\tp99_ms\tcpu_s_per_M_ops\n' >"$results"
hz=$(getconf CLK_TCK)

stop_all() {
  local started
  for started in "${pids[@]}"; do kill "$started" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
}

# start_redis_cluster T PIN: T masters with cluster-enabled, slots split with ADDSLOTSRANGE, joined
# with MEET; sets cluster_ports and cluster_pids. Each node's cluster bus takes a free port of its
# own too (by default it is the port + 10000, which need not be free, nor even a port), so MEET names
# node 0's.
start_redis_cluster() {
  local t=$1 pin=$2 i port dir
  local -a free
  cluster_ports=(); cluster_pids=()
  mapfile -t free < <(free_port $((2 * t)))
  for ((i = 0; i < t; i++)); do
    port=${free[$((2 * i))]}; dir="$work/cluster-$port"; mkdir -p "$dir"
    $pin redis-server --port "$port" --cluster-port "${free[$((2 * i + 1))]}" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file nodes.conf --dir "$dir" --save '' --appendonly no >"$dir/log" 2>&1 &
    cluster_pids+=($!); pids+=($!); cluster_ports+=("$port")
  done
  for ((i = 0; i < t; i++)); do
    wait_ready "${cluster_ports[$i]}"
    redis-cli -p "${cluster_ports[$i]}" cluster addslotsrange $((16384 * i / t)) $((16384 * (i + 1) / t - 1)) >/dev/null
    [ "$i" = 0 ] || redis-cli -p "${cluster_ports[$i]}" cluster meet 127.0.0.1 "${cluster_ports[0]}" "${free[1]}" >/dev/null
  done
  for ((i = 0; i < t; i++)); do
    for _ in $(seq 1 200); do
      redis-cli -p "${cluster_ports[$i]}" cluster info | grep -q 'cluster_state:ok' && break
      sleep 0.1
    done
    redis-cli -p "${cluster_ports[$i]}" cluster info | grep -q 'cluster_state:ok' \
      || { echo "redis cluster of $t did not become ready" >&2; exit 1; }
  done
}

for t in "${thread_counts[@]}"; do
  client_threads=${SCALING_CLIENT_THREADS:-$((t < 2 ? 2 : t))}
  server_pin=""; client_pin=""
  if [ "$cores" -ge $((2 * t)) ]; then
    server_pin="taskset -c 0-$((t - 1))"
    client_pin="taskset -c $t-$((2 * t - 1))"
  fi
  declare -A port pid_list cluster_flag
  servers=()

  port[redis]=$(free_port)
  $server_pin redis-server --port "${port[redis]}" --save '' --appendonly no >"$work/redis-$t.log" 2>&1 &
  pids+=($!); pid_list[redis]=$!
  wait_ready "${port[redis]}"
  servers+=(redis); cluster_flag[redis]=""

  if [ "$t" -ge 2 ]; then
    start_redis_cluster "$t" "$server_pin"
    name="redis-cluster-$t"
    port[$name]=${cluster_ports[0]}; pid_list[$name]="${cluster_pids[*]}"; cluster_flag[$name]="--cluster-mode"
    servers+=("$name")
  fi

  for engine in shared-nothing multithread; do
    name="lacewing-$engine"
    port[$name]=$(free_port)
    $server_pin "$dist/bin/lacewing-server" --save "" --dir "$work" --port "${port[$name]}" --engine "$engine" --threads "$t" \
      >"$work/$name-$t.log" 2>&1 &
    pids+=($!); pid_list[$name]=$!
    wait_ready "${port[$name]}"
    servers+=("$name"); cluster_flag[$name]=""
  done

  load() { # server json-file tool-options...
    local server=$1 json=$2 errors
    shift 2
    # shellcheck disable=SC2086
    $client_pin "$tool" -s 127.0.0.1 -p "${port[$server]}" ${cluster_flag[$server]} -t "$client_threads" -c 25 \
      -d 256 --hide-histogram --print-percentiles=50,99 --json-out-file="$json" "$@" >"$work/last.txt" 2>&1 \
      || { cat "$work/last.txt" >&2; return 1; }
    errors=$(totals "$json" Errors)
    [ "$errors" = 0 ] || { echo "$errors error replies from $server:" >&2; cat "$work/last.txt" >&2; return 1; }
  }

  server_ticks() { # server -> CPU ticks of all its processes
    local sum=0 p
    for p in ${pid_list[$1]}; do sum=$((sum + $(cpu_ticks "$p"))); done
    echo "$sum"
  }

  echo "threads $t: filling $keys keys into ${servers[*]}; then ${seconds}s per workload" >&2
  for server in "${servers[@]}"; do
    load "$server" "$work/fill.json" --ratio=1:0 --key-pattern=P:P --requests=allkeys \
      --key-minimum=1 --key-maximum="$keys" --pipeline=30
  done

  printf '\n%-8s %-10s %-24s %12s %10s %14s %8s %8s\n' threads workload server "ops/s" "p99 ms" "cpu s/M ops" \
    "x redis" "cpu x"
  for workload in "GET P1|0:1|1" "SET P1|1:0|1" "GET P30|0:1|30" "SET P30|1:0|30"; do
    IFS='|' read -r label ratio pipeline <<<"$workload"
    declare -A ops cpu p99
    for server in "${servers[@]}"; do
      before=$(server_ticks "$server")
      load "$server" "$work/run.json" --test-time="$seconds" --ratio="$ratio" --key-pattern=R:R \
        --key-minimum=1 --key-maximum="$keys" --pipeline="$pipeline"
      after=$(server_ticks "$server")
      ops[$server]=$(totals "$work/run.json" Ops/sec)
      p99[$server]=$(totals "$work/run.json" p99.00)
      count=$(totals "$work/run.json" Count)
      cpu[$server]=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$count" 'BEGIN {printf "%.3f", t / hz / n * 1e6}')
    done
    for server in "${servers[@]}"; do
      ratio_ops=$(awk -v a="${ops[$server]}" -v b="${ops[redis]}" 'BEGIN {printf "%.2f", a / b}')
      ratio_cpu=$(awk -v a="${cpu[$server]}" -v b="${cpu[redis]}" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$label" "$server" "${ops[$server]}" "${p99[$server]}" "${cpu[$server]}" \
        >>"$results"
      printf '%-8s %-10s %-24s %12.0f %10.3f %14s %8s %8s\n' "$t" "$label" "$server" "${ops[$server]}" \
        "${p99[$server]}" "${cpu[$server]}" "$ratio_ops" "$ratio_cpu"
    done
    unset ops cpu p99
  done
  stop_all
  unset port pid_list cluster_flag
done
echo "results: $results"
