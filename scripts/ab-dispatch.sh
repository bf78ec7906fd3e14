#!/usr/bin/env bash
# A/B of `vyre bench dispatch --backend cuda` on one GPU machine: runs each given vyre.jar ROUNDS
# times (default 6) in rotating order, so that the machine's drift falls on every jar alike, and
# prints one line per run (round trip, throughput, idle). Runs of one build differ by a third
# between runs and instances (docs/BENCHMARKS.md): compare medians, never single runs.
# Usage, from the repository root on the GPU machine:  scripts/ab-dispatch.sh old.jar vyre-cli/target/vyre.jar
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 JAR [JAR...]" >&2; exit 2; }
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
java=${JAVA:-.jre/bin/java}
jars=("$@")
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
for round in $(seq 1 "${ROUNDS:-6}"); do
  for k in "${!jars[@]}"; do
    jar=${jars[$(( (k + round) % ${#jars[@]} ))]}
    line=$(timeout 200 "$java" --enable-native-access=ALL-UNNAMED -Dvyre.cache.dir=/tmp/vyre-cache -jar "$jar" \
        bench dispatch --backend cuda --round-trips 20000 --idle-seconds 1 2>&1 \
      | grep -E "^(round_trip_p50_us|round_trip_p99_us|throughput_mtasks_per_s|throughput_best_mtasks_per_s|idle_host_cpu_percent_of_one_core)" \
      | awk '{printf "%s=%s ", $1, $2}')
    echo "round $round $jar: ${line:-FAILED}"
  done
done
