#!/usr/bin/env bash
# Settings sweeps on the GPU machine, for the tables in docs/BENCHMARKS.md: `vyre bench scan` over
# staging, read mode, task and chunk size; `vyre bench dispatch` over grid size and worker backoff;
# `throughput`: dispatch throughput over ring size and batch size, each setting twice.
# Usage (repository root, after building and making .jre):  scripts/gpu-sweep.sh [scan|dispatch|throughput]...
# Logs and JSON go to $OUT (or /tmp/vyre-sweep); prints one line per setting.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/vyre-sweep}
mkdir -p "$out"
java=${JAVA:-.jre/bin/java}
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
jvm=("$java" --enable-native-access=ALL-UNNAMED -Dvyre.cache.dir="$out/pipeline-cache")
corpus=${CORPUS_DIR:-/tmp/vyre-sweep-corpus}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt" 2>&1
echo "device: $(cat "$out/device.txt")  date: $(date -u +%FT%TZ)"

scan() { # label, extra flags...
  local label=$1; shift
  timeout 240 "${jvm[@]}" -jar vyre-cli/target/vyre.jar bench scan --backend cuda --runs 2 --no-grep --dir "$corpus" \
    --json "$out/scan-$label.json" "$@" > "$out/scan-$label.log" 2>&1
  printf 'scan %-22s %s | %s\n' "$label" "$(grep -E '^cuda_gb_per_s' "$out/scan-$label.log" | awk '{print $2" GB/s"}')" \
    "$(grep -E 'ingest alone' "$out/scan-$label.log" | sed 's/.*: //') ingest ($*)"
}

dispatch() { # label, then -D properties and/or bench flags
  local label=$1; shift
  local props=() flags=()
  for a in "$@"; do if [[ $a == -D* ]]; then props+=("$a"); else flags+=("$a"); fi; done
  [[ " ${flags[*]} " == *" --tasks "* ]] || flags+=(--tasks 10000000)
  timeout 240 "${jvm[@]}" "${props[@]}" -jar vyre-cli/target/vyre.jar bench dispatch --backend cuda \
    --json "$out/dispatch-$label.json" "${flags[@]}" > "$out/dispatch-$label.log" 2>&1
  printf 'dispatch %-18s %s %s\n' "$label" "$(grep -E '^(round_trip_p50_us|round_trip_p99_us|throughput_mtasks_per_s|pingpong_floor_p50_us|device_[a-z_]*) ' "$out/dispatch-$label.log" | awk '{printf "%s=%s ", $1, $2}')" \
    "$(grep -E 'throughput run' "$out/dispatch-$label.log" | awk '{printf "%s ", $4}')" "($*)"
}

[ $# -eq 0 ] && set -- scan dispatch
for what in "$@"; do
  case $what in
    scan)
      scan default
      scan in-place-inline --stage in-place --parallel-reads off
      scan in-place-parallel --stage in-place --parallel-reads on
      scan device-inline --stage device --parallel-reads off
      scan task1k --task-size 1024
      scan task8k --task-size 8192
      scan task16k --task-size 16384
      scan chunk2m --chunk-size 2097152
      scan chunk8m --chunk-size 8388608
      scan buffers8 --buffers 8
      scan buffers32 --buffers 32
      ;;
    dispatch)
      dispatch default
      dispatch publishers4-batch256 --publishers 4 --batch 256
      dispatch publishers2 --publishers 2
      dispatch publishers4 --publishers 4
      dispatch publishers12 --publishers 12
      dispatch batch512 --batch 512
      dispatch blocks16 -Dvyre.cuda.blocks=16
      dispatch trace -Dvyre.cuda.trace=true
      ;;
    throughput)
      for repeat in 1 2; do
        for slots in 65536 262144 1048576; do
          dispatch "slots$slots-$repeat" --slots "$slots" --tasks 20000000 --round-trips 2000 --idle-seconds 1
        done
        dispatch "slots1048576-batch8192-$repeat" --slots 1048576 --batch 8192 --tasks 20000000 --round-trips 2000 --idle-seconds 1
      done
      ;;
  esac
done
