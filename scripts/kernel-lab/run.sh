#!/usr/bin/env bash
# Runs rt_lab configurations on the GPU machine, interleaved ROUNDS times so that drift shows;
# each line: binary suffix, opcode, grid (0 = one block per SM), worker idle ns, host delay ns.
# Usage: scripts/kernel-lab/run.sh "base 0 0 1000" "status_first 0 0 1000" ...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
samples=${SAMPLES:-20000}
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
configs=("$@")
for round in $(seq 1 "${ROUNDS:-2}"); do
  for config in "${configs[@]}"; do
    read -r name opcode grid idle delay <<< "$config"
    timeout 60 "$here/target/rt_lab_$name" "$name" "$samples" "$opcode" "$grid" "$idle" "${delay:-0}" || echo "$name: exit $?"
  done
done
