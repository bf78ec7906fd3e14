#!/usr/bin/env bash
# Makes .jre/ at the repository root: a small JDK 25 runtime image (about 45 MB) made with jlink,
# so the project's jars run on a machine without Java of its own, such as the GPU machine
# (scripts/gpu-check.sh runs .jre/bin/java when it is there). Run it from anywhere in the
# repository after building; then carry .jre/ along with the working tree.
#
#   scripts/make-jre.sh
#   JRE_MODULES=java.base,...,jdk.zipfs scripts/make-jre.sh   # another module list
#
# The JDK is $JAVA_HOME when that is a JDK 25 or later, else the first /usr/lib/jvm/temurin-25*.
# .jre/ is ignored by git (.gitignore).
set -euo pipefail

default_modules=java.base,jdk.unsupported,java.logging,java.management,jdk.management,jdk.jfr,java.net.http,jdk.net
modules=${JRE_MODULES:-$default_modules}
root=$(git rev-parse --show-toplevel)
image=$root/.jre

is_jdk25() { # JDK home -> true when its java reports version 25 or later
  [ -n "$1" ] && [ -x "$1/bin/java" ] && "$1/bin/java" -version 2>&1 | grep -q '"2[5-9]'
}

jdk=${JAVA_HOME:-}
if ! is_jdk25 "$jdk"; then
  jdk=$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1 || true)
fi
if [ -z "$jdk" ] || [ ! -x "$jdk/bin/jlink" ]; then
  echo "make-jre: no JDK 25 with jlink found. Fix: set JAVA_HOME to a JDK 25." >&2
  exit 1
fi

rm -rf "$image"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-9 --output "$image"
du -sh "$image"
"$image/bin/java" -version
