#!/usr/bin/env bash
# Writes the megakernel as NVRTC compiles it (the wire constants generated from the Java
# descriptors, then vyre-cuda's megakernel/*.cu in KernelSource's order) to OUT, for nvcc and
# scripts/kernel-lab. Uses the classes of a build here: ./mvnw -q -DskipTests package first.
#   scripts/kernel-source.sh [--parts DIR] [--sample-user-opcode] OUT
# --parts DIR reads the .cu parts from DIR (another revision's) instead of this build's resources;
# the constants are always this build's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
java=${JAVA:-}
if [ -z "$java" ]; then
  for home in "${JAVA_HOME:-}" /usr/lib/jvm/*/; do
    home=${home%/}
    if [ -n "$home" ] && [ -x "$home/bin/java" ] && "$home/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])'; then
      java=$home/bin/java
      break
    fi
  done
fi
[ -n "$java" ] || { echo "kernel-source: no Java 25 or later (set JAVA or JAVA_HOME)" >&2; exit 2; }
classpath=""
for module in vyre-cuda vyre-runtime vyre-driver; do
  [ -d "$root/$module/target/classes" ] || { echo "kernel-source: no $module/target/classes; run ./mvnw -q -DskipTests package" >&2; exit 2; }
  classpath="$classpath${classpath:+:}$root/$module/target/classes"
done
exec "$java" -cp "$classpath" dev.vyre.cuda.KernelSource "$@"
