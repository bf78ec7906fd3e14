#!/usr/bin/env python3
"""Where a JFR recording's threads spent their time, from its execution samples (no GUI on the GPU machine).

    scripts/jfr-top.py RECORDING.jfr [THREAD_SUBSTRING] [JFR_TOOL]

Prints the sampled threads by sample count, then, for the threads whose name contains THREAD_SUBSTRING (default:
each of the three busiest threads), the top frames (self) and the methods on the stack (inclusive), by share of
those samples.
JFR_TOOL is the `jfr` launcher (default: the one beside the running `java`, else .jre/bin/jfr).
"""
import collections
import os
import re
import shutil
import subprocess
import sys


def samples(recording, tool):
    text = subprocess.run([tool, "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", recording],
                          check=True, capture_output=True, text=True).stdout
    thread, frames, in_stack = None, [], False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("sampledThread"):
            match = re.search(r'"(.*)"', line)
            thread = match.group(1) if match else line
        elif line.startswith("stackTrace = ["):
            frames, in_stack = [], True
        elif in_stack and line == "]":
            in_stack = False
        elif in_stack and line and line != "...":
            frames.append(re.sub(r"\s+line:.*$", "", line))
        elif line == "}" and thread is not None:
            yield thread, frames
            thread, frames = None, []


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    recording = sys.argv[1]
    wanted = sys.argv[2] if len(sys.argv) > 2 else None
    tool = sys.argv[3] if len(sys.argv) > 3 else (shutil.which("jfr") or os.path.join(".jre", "bin", "jfr"))
    events = list(samples(recording, tool))
    by_thread = collections.Counter(thread for thread, _ in events)
    print(f"{len(events)} execution samples")
    for thread, count in by_thread.most_common(12):
        print(f"  {count:6d}  {thread}")
    if not events:
        return
    for name in [wanted] if wanted else [thread for thread, _ in by_thread.most_common(3)]:
        report(name, [frames for thread, frames in events if name in thread])


def report(name, chosen):
    total = len(chosen)
    print(f"\nthreads matching '{name}': {total} samples")
    top = collections.Counter(frames[0] for frames in chosen if frames)
    print("top frames (self):")
    for frame, count in top.most_common(20):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    inclusive = collections.Counter()
    for frames in chosen:
        inclusive.update(set(frames))
    print("on the stack (inclusive), vyre's methods:")
    for frame, count in [(f, c) for f, c in inclusive.most_common() if f.startswith("dev.vyre")][:30]:
        print(f"  {100 * count / total:5.1f}%  {frame}")

if __name__ == "__main__":
    main()
