#!/usr/bin/env bash
# Drill (issue #25): SIGKILL a vyre process while its kernel runs on the GPU, then check that a
# fresh process boots a kernel on the device and runs work there correctly. Run by
# scripts/gpu-check.sh (step kill-gpu-process); alone:
#   scripts/kill-gpu-process.sh OUT_DIR VYRE_COMMAND...   e.g. scripts/kill-gpu-process.sh /tmp/k java -jar vyre-cli/target/vyre.jar
# KILL_TRIALS trials (default 3). Each starts `vyre bench dispatch`, which keeps its kernel busy,
# waits until nvidia-smi lists the process (it holds a CUDA context), waits a random 0-2 s more and
# SIGKILLs it; once the process has left nvidia-smi's list, `vyre run examples/hello.vslot` must
# exit 0 and `vyre scan -c` must count a file's matches right, both on the device.
# KILL_BACKEND=reference tries the script where there is no GPU (nothing is then checked on a device).
# Prints one summary line; exits non-zero when a process after a kill failed, or no kill landed mid-run.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/kill-gpu-process.sh OUT_DIR VYRE_COMMAND...}
shift
[ $# -gt 0 ] || { echo "kill-gpu-process: no vyre command given" >&2; exit 2; }
vyre=("$@")
backend=${KILL_BACKEND:-cuda}
trials=${KILL_TRIALS:-3}
# vyre scan would hand its work to a running `vyre serve`: this drill wants processes of its own.
export VYRE_SERVICE=off
mkdir -p "$out"
sample="$out/kill-sample.txt"
printf 'ab cd ab\nxx ab\n' > "$sample"

# Whether nvidia-smi lists the process as one with a CUDA context.
on_gpu() {
  nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | grep -qx "$1"
}
has_smi=$(command -v nvidia-smi >/dev/null && echo 1 || echo 0)

killed=0
for t in $(seq "$trials"); do
  "${vyre[@]}" bench dispatch --backend "$backend" --json "$out/kill-$t.json" >"$out/kill-$t.log" 2>&1 &
  pid=$!
  # Up to 120 s for the JVM to start and the kernel to launch; without nvidia-smi, 2 s.
  for _ in $(seq $((has_smi ? 1200 : 20))); do
    kill -0 "$pid" 2>/dev/null || break
    [ "$has_smi" = 1 ] && on_gpu "$pid" && break
    sleep 0.1
  done
  sleep "$(awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.2f", rand() * 2 }')"
  if kill -KILL "$pid" 2>/dev/null; then
    killed=$((killed + 1))
    state="killed"
  else
    state="ended before the kill"
  fi
  wait "$pid" 2>/dev/null
  # The driver tears the dead process's context down; give it up to 30 s to leave the list.
  if [ "$has_smi" = 1 ]; then
    for _ in $(seq 300); do on_gpu "$pid" || break; sleep 0.1; done
    on_gpu "$pid" && { echo "kill-gpu-process: trial $t: process $pid still listed by nvidia-smi 30 s after SIGKILL"; exit 1; }
  fi
  if ! "${vyre[@]}" run --backend "$backend" examples/hello.vslot >"$out/kill-$t-run.log" 2>&1; then
    echo "kill-gpu-process: trial $t ($state): vyre run after it failed:"; tail -20 "$out/kill-$t-run.log"; exit 1
  fi
  count=$("${vyre[@]}" scan --backend "$backend" -h -c ab "$sample" 2>"$out/kill-$t-scan.log")
  if [ "$count" != 3 ]; then
    echo "kill-gpu-process: trial $t ($state): vyre scan -c after it printed '$count', not 3:"; tail -20 "$out/kill-$t-scan.log"; exit 1
  fi
  echo "trial $t: $state; then vyre run and vyre scan on $backend were right"
done
echo "kill-gpu-process: $trials trials on $backend, $killed SIGKILLed mid-run; after each a fresh process booted a kernel" \
  "and ran vyre run and vyre scan -c right"
[ "$killed" -gt 0 ]
