#!/usr/bin/env bash
# Spark's GPU discovery script for vyre-spark (spark.executor.resource.gpu.discoveryScript, or
# spark.worker.resource.gpu.discoveryScript on a standalone worker): prints the GPUs nvidia-smi sees
# as Spark's resource JSON, {"name":"gpu","addresses":["0","1"]}; none where nvidia-smi is missing.
set -euo pipefail
addresses=""
if command -v nvidia-smi >/dev/null 2>&1; then
  addresses=$(nvidia-smi --query-gpu=index --format=csv,noheader | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' \
    | awk 'NF { printf "%s\"%s\"", (n++ ? "," : ""), $0 }')
fi
echo "{\"name\":\"gpu\",\"addresses\":[${addresses}]}"
