#!/usr/bin/env python3
"""Pick, per system, the pass of `layoutd-bench solver` with the median build + solve time.

scripts/bench-solver.sh runs layoutd's side in several interleaved passes over all the
systems and appends every pass's JSON line to one file. This prints one line per system, in
first-seen order: the line of the pass whose `solve_ms` is the median of that system's passes
(the lower median for an even count, so the figure is one that was measured). A system with
no timed line (skipped or failed) keeps its first line, which says why.

Usage: median_pass.py PASSES.jsonl > layoutd.jsonl
"""
import json
import sys


def main():
    lines = {}
    with open(sys.argv[1]) as f:
        for raw in f:
            raw = raw.strip()
            if raw:
                d = json.loads(raw)
                lines.setdefault(d["system"], []).append(d)
    for system, runs in lines.items():
        timed = sorted((d for d in runs if "solve_ms" in d), key=lambda d: d["solve_ms"])
        chosen = timed[(len(timed) - 1) // 2] if timed else runs[0]
        if timed:
            chosen = dict(chosen, passes=len(timed))
        print(json.dumps(chosen))


if __name__ == "__main__":
    main()
