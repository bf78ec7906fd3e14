#!/usr/bin/env bash
# Builds rt_lab against every variant of variants.py, for the working tree's kernel and (base
# only) the last commit's, into scripts/kernel-lab/target/ (sm_90). The kernels are assembled by
# scripts/kernel-source.sh: build the Java classes first (./mvnw -q -DskipTests package).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$here/target"
mkdir -p "$here/target/src"
"$here/../kernel-source.sh" "$here/target/src/working.cu.txt"
names=$(python3 "$here/variants.py" "$here/target/src" "$here/target/src/working.cu.txt")
# The last commit's kernel parts, assembled with this build's constants.
mkdir -p "$here/target/head"
git -C "$here" archive HEAD vyre-cuda/src/main/resources/dev/vyre/cuda | tar -x -C "$here/target/head"
"$here/../kernel-source.sh" --parts "$here/target/head/vyre-cuda/src/main/resources/dev/vyre/cuda" "$here/target/src/head.cu.txt"
names="$names $(python3 "$here/variants.py" "$here/target/src" "$here/target/src/head.cu.txt" head_ base)"
for name in $names; do
  nvcc -O3 -arch=sm_90 -std=c++17 -Xcompiler -mclflushopt,-mclwb,-mcldemote -DMEGAKERNEL_SOURCE="\"$here/target/src/$name.cu\"" -o "$here/target/rt_lab_$name" "$here/rt_lab.cu" &
  while [ "$(jobs -r | wc -l)" -ge 3 ]; do sleep 0.2; done
done
# The base kernel as a cubin, for `cuobjdump -sass` on the GPU machine (there is none here).
nvcc -O3 -arch=sm_90 -cubin -o "$here/target/base.cubin" -x cu "$here/target/src/base.cu" &
# The poll-latency lab (poll_lab.cu: no kernel source of ours).
nvcc -O3 -arch=sm_90 -std=c++17 -o "$here/target/poll_lab" "$here/poll_lab.cu" &
# The floor taken apart (floor_lab.cu: several pollers, answer widths; no kernel source of ours).
nvcc -O3 -arch=sm_90 -std=c++17 -o "$here/target/floor_lab" "$here/floor_lab.cu" &
wait
ls "$here/target" | grep rt_lab | tr '\n' ' '; echo
