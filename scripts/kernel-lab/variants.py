#!/usr/bin/env python3
"""Writes experimental variants of megakernel.cu for rt_lab (never shipped): each is the production
source with one named edit (or several, joined by '+'), so the lab measures one difference at a time.
Edits marked "attribution" are unsafe: they only show what a piece of the path costs."""
import pathlib, sys

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "vyre-cuda/src/main/resources/dev/vyre/cuda/megakernel.cu"


def replace(text, old, new):
    if old not in text:
        sys.exit(f"variants.py: the source no longer contains: {old[:60]!r}")
    return text.replace(old, new, 1)


def cut(text, start, end):
    return text[:text.index(start)] + text[text.index(end):]


def no_cas(t):  # attribution: the express claim as a plain store
    t = replace(t, "if (lane == 0) previous = atomicCAS(&a.state->claim[level], ticket, ticket + 1ull);",
                "if (lane == 0) { *(volatile unsigned long long*)&a.state->claim[level] = ticket + 1ull; previous = ticket; }")
    return t


def no_counters(t):  # attribution
    return cut(t, "  bool metered = mine && fault", "#ifdef VYRE_TRACE\n  unsigned long long t_counted")


def no_claim_mirror(t):  # attribution: no claim cursor mirror store to the host
    return replace(t, "      *(volatile unsigned long long*)(control + VYRE_CTL_CLAIM_SEQ_BASE + 2 * lane) = claims;", "")


# Lab-only timestamps (rt_lab.cu defines LAB_MARK): the mean time from the previous mark to each.
MARKS = [
    ("  while (true) {\n    for (unsigned g = 0; g < 2u; g++) {\n      unsigned level", "  while (true) {\n    LAB_MARK(0);\n    for (unsigned g = 0; g < 2u; g++) {\n      unsigned level"),
    ("    unsigned aborted = vyre_load_gpu(&s->abort);", "    LAB_MARK(1);\n    unsigned aborted = vyre_load_gpu(&s->abort);"),
    ("    // While the reads travel", "    LAB_MARK(2);\n    // While the reads travel"),
    ("    bool changed = false;\n", "    LAB_MARK(15);\n    bool changed = false;\n"),
    ("    if (aborted) __trap();", "    LAB_MARK(3);\n    if (aborted) __trap();"),
    ("    unsigned long long now = vyre_globaltimer();", "    LAB_MARK(4);\n    unsigned long long now = vyre_globaltimer();"),
    ("  unsigned words[VYRE_SLOT_WORDS];\n#pragma unroll\n  for (unsigned i = 0; i < VYRE_EXPRESS_LINES; i++) {", "  LAB_MARK(5);\n  unsigned words[VYRE_SLOT_WORDS];\n#pragma unroll\n  for (unsigned i = 0; i < VYRE_EXPRESS_LINES; i++) {"),
    ("  int authorized = vyre_poll_authorized(a, head, words[2]);", "  LAB_MARK(6);\n  int authorized = vyre_poll_authorized(a, head, words[2]);"),
    ("  vyre_finish(a, lane, 1u, (int)level, slot, words, authorized);", "  LAB_MARK(7);\n  vyre_finish(a, lane, 1u, (int)level, slot, words, authorized);"),
    ("  bool metered = mine && fault", "  LAB_MARK(8);\n  bool metered = mine && fault"),
    ("#ifdef VYRE_TRACE\n  unsigned long long t_counted", "  LAB_MARK(9);\n#ifdef VYRE_TRACE\n  unsigned long long t_counted"),
    ("        ran_express = true;", "        LAB_MARK(10);\n        ran_express = true;"),
    ("    bool waiting = __any_sync(", "    LAB_MARK(11);\n    bool waiting = __any_sync("),
    ("    if (any || ran_express) {\n      last_activity", "    LAB_MARK(12);\n    if (any || ran_express) {\n      last_activity"),
    ("    if (lane < VYRE_PRIORITY_LEVELS) cursor = known;", "    LAB_MARK(13);\n    if (lane < VYRE_PRIORITY_LEVELS) cursor = known;"),
]


def marks(t):
    for old, new in MARKS:
        t = replace(t, old, new)
    t = replace(t, "  unsigned sleep_ns = 0;\n  bool synced = true;\n", "  unsigned sleep_ns = 0;\n  bool synced = true;\n  LAB_INIT();\n")
    return replace(t, "      if (lane == 0) atomicExch(&s->shutdown, 1u);\n      return;", "      if (lane == 0) atomicExch(&s->shutdown, 1u);\n      LAB_FLUSH();\n      return;")


EDITS = {f.__name__: f for f in (no_cas, no_counters, no_claim_mirror, marks)}
NAMES = ["base"] + list(EDITS) + ["no_cas+no_counters+no_claim_mirror"]


def variant(text, name):
    if name != "base":
        for edit in name.split("+"):
            text = EDITS[edit](text)
    return text


if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    # Optional: another source (such as the last commit's), its variants' name prefix, and which.
    base = pathlib.Path(sys.argv[2]).read_text() if len(sys.argv) > 2 else SOURCE.read_text()
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    names = sys.argv[4].split(",") if len(sys.argv) > 4 else NAMES
    built = []
    for name in names:
        file = prefix + name.replace("+", "_")
        text = variant(base, name)
        (out / f"{file}.cu").write_text(text)
        built.append(file)
        if name == "base":
            (out / f"{file}_trace.cu").write_text("#define VYRE_TRACE\n" + text)
            built.append(file + "_trace")
    print(" ".join(built))
