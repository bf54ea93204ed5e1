#!/usr/bin/env python3
"""The solver's targets, checked against one run of scripts/bench-solver.sh.

Reads the JSON lines kiwi_bench.py and `layoutd-bench solver` wrote (the same run) and
prints one line per target with the figure, the limit and a verdict; where a target is
missed it says by how much. "Time" is build + solve (`solve_ms`: the medians of the add
and update phases), as summarize.py's table.

Usage: targets.py KIWI.jsonl LAYOUTD.jsonl
"""
import json
import sys


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                d = json.loads(line)
                out[d["system"]] = d
    return out


def ran(d):
    return d is not None and "solve_ms" in d


def main():
    kiwi, ours = load(sys.argv[1]), load(sys.argv[2])
    rows = []

    def check(name, figure, limit, ok, unit=""):
        verdict = "met" if ok else "MISSED"
        if not ok and isinstance(figure, float) and isinstance(limit, float) and limit > 0:
            verdict += " (%.0f%% over)" % ((figure / limit - 1) * 100)
        rows.append((name, figure, limit, unit, verdict))

    families = ["chain", "grid", "mixed"]
    for fam in families:
        for variant in ("", "-edit"):
            for n, limit in ((100, 1.0), (1000, 0.25)):
                name = "%s-%d%s" % (fam, n, variant)
                k, o = kiwi.get(name), ours.get(name)
                if ran(k) and ran(o):
                    check("%s build+solve / kiwi" % name, o["solve_ms"] / k["solve_ms"], limit,
                          o["solve_ms"] <= limit * k["solve_ms"], "x")
                    if variant and n == 100 and k.get("edit_step_median_us"):
                        r = o["edit_step_median_us"] / k["edit_step_median_us"]
                        check("%s resize step median / kiwi" % name, r, 0.7, r <= 0.7, "x")
                elif ran(o):
                    rows.append(("%s build+solve / kiwi" % name, o["solve_ms"], None, "ms",
                                 "kiwi did not finish: %s" % (k or {}).get("skipped", (k or {}).get("error", "no result"))))
            small, big = ours.get("%s-1000%s" % (fam, variant)), ours.get("%s-10000%s" % (fam, variant))
            name = "%s-10000%s" % (fam, variant)
            if ran(small) and ran(big):
                g = big["solve_ms"] / small["solve_ms"]
                check("%s growth from 1,000 views" % name, g, 12.0, g <= 12.0, "x")
            if ran(big):
                check("%s build+solve" % name, big["solve_ms"], 2000.0, big["solve_ms"] < 2000.0, "ms")
                if variant:
                    check("%s 100-step resize" % name, big["edit_loop_ms"], 2000.0, big["edit_loop_ms"] < 2000.0, "ms")
            else:
                rows.append(("%s build+solve" % name, "-", 2000.0, "ms", "MISSED: did not finish"))
    for name, o in sorted(ours.items()):
        k = kiwi.get(name)
        if ran(o) and ran(k):
            same = abs(o["checksum"] - k["checksum"]) <= 1e-6 * max(1.0, abs(k["checksum"]))
            if k.get("checksum_edit") is not None:
                same = same and abs(o["checksum_edit"] - k["checksum_edit"]) <= 1e-6 * max(1.0, abs(k["checksum_edit"]))
            rows.append(("%s checksums = kiwi's" % name, "", "", "", "met" if same else "MISSED"))
    print("| target | figure | limit | verdict |")
    print("| --- | --- | --- | --- |")
    for name, figure, limit, unit, verdict in rows:
        f = ("%.3g%s" % (figure, unit)) if isinstance(figure, float) else str(figure)
        l = ("%.3g%s" % (limit, unit)) if isinstance(limit, float) else ""
        print("| %s | %s | %s | %s |" % (name, f, l, verdict))


if __name__ == "__main__":
    main()
