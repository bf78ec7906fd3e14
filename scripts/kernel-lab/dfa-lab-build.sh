#!/usr/bin/env bash
# Builds dfa_lab (dfa_lab.cu against this build's kernel, with line info for compute-sanitizer) and its input
# writer into vyre-cli/target/dfalab/ (ignored by git), which scripts/gpu-check.sh's dfa-lab steps run when it is
# carried to the GPU machine:
#   ./mvnw -q -DskipTests package && scripts/kernel-lab/dfa-lab-build.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel)
out=$root/vyre-cli/target/dfalab
java_home=${JAVA_HOME:-}
for home in "$java_home" /usr/lib/jvm/*/; do
  home=${home%/}
  if [ -n "$home" ] && [ -x "$home/bin/javac" ] && "$home/bin/javac" -version 2>&1 | grep -qE 'javac (2[5-9]|[3-9][0-9])'; then
    javac=$home/bin/javac
    break
  fi
done
[ -n "${javac:-}" ] || { echo "dfa-lab-build: no javac 25 or later. Fix: set JAVA_HOME to a JDK 25" >&2; exit 2; }
command -v nvcc >/dev/null || { echo "dfa-lab-build: no nvcc. Fix: install the CUDA toolkit's compiler" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
"$root/scripts/kernel-source.sh" "$out/megakernel.cu"
nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -DMEGAKERNEL_SOURCE="\"$out/megakernel.cu\"" -o "$out/dfa_lab" \
  "$root/scripts/kernel-lab/dfa_lab.cu"
"$javac" -d "$out" -cp "$root/vyre-cli/target/vyre.jar" "$root/scripts/kernel-lab/DfaLabInput.java"
echo "dfa-lab-build: $out"
