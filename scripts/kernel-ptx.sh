#!/usr/bin/env bash
# Compiles the megakernel to PTX with nvcc as NVRTC compiles it for sm_90 (C++17, one express
# helper; NVRTC's -default-device has no nvcc counterpart and changes nothing here, every function
# being annotated), plain and with -DVYRE_TRACE, so that two revisions' code can be compared:
#   scripts/kernel-ptx.sh OUT [SOURCE.cu]
# OUT receives megakernel.cu (assembled by scripts/kernel-source.sh with KernelSourceTest's sample
# user opcode, or SOURCE.cu as given: an older revision's kernel), megakernel.ptx and
# megakernel_trace.ptx. Without -lineinfo the PTX carries no source lines, so a change that moves
# code without changing it leaves the files equal:
#   diff before/megakernel.ptx after/megakernel.ptx && diff before/megakernel_trace.ptx after/megakernel_trace.ptx
# The output is scratch: never commit it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: scripts/kernel-ptx.sh OUT [SOURCE.cu]}
mkdir -p "$out"
if [ $# -ge 2 ]; then
  cp "$2" "$out/megakernel.cu"
else
  "$here/kernel-source.sh" --sample-user-opcode "$out/megakernel.cu"
fi
flags=(-ptx -arch=sm_90 -std=c++17 -DVYRE_EXPRESS_HELPERS=1u)
nvcc "${flags[@]}" -o "$out/megakernel.ptx" "$out/megakernel.cu" &
plain=$!
nvcc "${flags[@]}" -DVYRE_TRACE -o "$out/megakernel_trace.ptx" "$out/megakernel.cu" &
traced=$!
wait "$plain"
wait "$traced"
ls -l "$out"
