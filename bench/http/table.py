#!/usr/bin/env python3
"""Print the tables of scripts/bench-http.sh from bench-out/{results,memory,big}.tsv,
with each issue-9 target and by how much it is met or missed.

Usage: table.py OUT_DIR CORES
"""
import statistics
import sys


def parse(line: str) -> dict:
    fields = {}
    for part in line.split()[1:]:
        key, _, value = part.partition("=")
        fields[key] = float(value)
    return fields


def ms(us: float) -> str:
    return f"{us / 1000:.2f} ms"


def main() -> int:
    out, cores = sys.argv[1], sys.argv[2]
    rows = []
    with open(f"{out}/results.tsv") as f:
        for line in f:
            label, conns, result = line.rstrip("\n").split("\t")
            rows.append((label, int(conns), parse(result)))
    nginx = {c: r["rps"] for label, c, r in rows if label.startswith("nginx")}

    def verdict(label: str, c: int, r: dict) -> tuple[str, str]:
        checks = []   # (target text, met?, how far)
        if label == "POST /solve cached" and c == 64:
            ratio = r["rps"] / nginx.get(64, float("nan"))
            checks.append(("≥0.5× nginx", ratio >= 0.5, f"{ratio / 0.5 - 1:+.0%}"))
            checks.append(("p99<5ms", r["p99_us"] < 5000, f"{r['p99_us'] / 5000 - 1:+.0%}"))
        if label == "POST /solve uncached" and c == 64:
            checks.append(("≥10,000/s", r["rps"] >= 10000, f"{r['rps'] / 10000 - 1:+.0%}"))
        if label == "POST /solve uncached" and c == 1:
            checks.append(("p50<2ms", r["p50_us"] < 2000, f"{r['p50_us'] / 2000 - 1:+.0%}"))
        if label == "POST /solve cached" and c == 1:
            checks.append(("p50<0.5ms", r["p50_us"] < 500, f"{r['p50_us'] / 500 - 1:+.0%}"))
        if r.get("errors", 0) != 0 or r.get("non2xx", 0) != 0:
            checks.append(("no errors", False, f"{int(r['errors'])} socket errors, {int(r['non2xx'])} non-2xx"))
        if not checks:
            return "-", "-"
        target = ", ".join(t for t, _, _ in checks)
        parts = [("ok" if ok else "MISS") + f" ({how})" for _, ok, how in checks]
        return target, "; ".join(parts)

    print(f"\nHTTP on loopback, wrk and server on the same {cores} cores "
          f"(-t1 at 1 connection, -t2 at 64; deltas are relative to the target)\n")
    # CPU time per request (user + system) of the server and of wrk, µs: what a request
    # costs the shared cores, and how much of that is the load generator's.
    head = ["scenario", "conns", "req/s", "p50", "p99", "× nginx", "server CPU/req", "wrk CPU/req", "target", "verdict"]
    table = []
    for label, c, r in rows:
        if label.startswith("memory"):
            continue
        ratio = r["rps"] / nginx[c] if nginx.get(c) else float("nan")
        target, verd = verdict(label, c, r)
        cpu = lambda key: f"{r[key]:.0f} µs" if key in r else "-"
        table.append([label, str(c), f"{r['rps']:,.0f}", ms(r["p50_us"]), ms(r["p99_us"]),
                      f"{ratio:.2f}", cpu("server_cpu_us"), cpu("wrk_cpu_us"), target, verd])
    widths = [max(len(x[i]) for x in table + [head]) for i in range(len(head))]
    fmt = "| " + " | ".join("{:<%d}" % w for w in widths) + " |"
    print(fmt.format(*head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in table:
        print(fmt.format(*row))

    try:
        mem = [line.rstrip("\n").split("\t") for line in open(f"{out}/memory.tsv") if line.strip()]
    except FileNotFoundError:
        mem = []
    if mem:
        v = {m[0]: (int(m[1]), int(m[2])) for m in mem}
        idle, conns = v["idle"], v["1000 idle connections"]
        r1, r2 = v["after round 1"], v["after round 2"]
        print("\nMemory (VmRSS now / VmHWM peak), MiB\n")
        print("| point | RSS | peak RSS | target | verdict |")
        print("|---|---|---|---|---|")
        def row(name, kb, target, ok, how):
            print(f"| {name} | {kb[0] / 1024:.1f} | {kb[1] / 1024:.1f} | {target} | "
                  f"{'ok' if ok else 'MISS'} ({how}) |")
        row("idle", idle, "peak < 30 MiB", idle[1] < 30 * 1024, f"{idle[1] / (30 * 1024) - 1:+.0%}")
        added = conns[1] - idle[1]
        row("1,000 idle keep-alive connections", conns, f"adds < 50 MiB (adds {added / 1024:.1f})",
            added < 50 * 1024, f"{added / (50 * 1024) - 1:+.0%}")
        row("after 1st round of requests", r1, "-", True, "reference")
        growth = r2[1] - r1[1]
        row("after 2nd round of requests", r2, f"no growth (peak {growth / 1024:+.1f} MiB)",
            growth <= 1024, f"RSS {(r2[0] - r1[0]) / 1024:+.1f} MiB")
        for label, c, r in rows:
            if label.startswith("memory"):
                print(f"\n  {label}: {r['requests']:,.0f} requests, {r['rps']:,.0f}/s, "
                      f"p99 {ms(r['p99_us'])}, errors {int(r['errors'])}, non-2xx {int(r['non2xx'])}", end="")
        print()

    big = [line.rstrip("\n").split("\t") for line in open(f"{out}/big.tsv") if line.strip()]
    if big:
        print("\nBig scenes, POST /solve end to end (curl, 3 scenes of different structure each: no result or compiled scene reused)\n")
        print("| views | request bytes | response bytes | status | times | median | target | verdict |")
        print("|---|---|---|---|---|---|---|---|")
        for n, runs in big:
            parts = runs.split()
            runs4 = [parts[i:i + 4] for i in range(0, len(parts), 4)]
            times = [float(r[1]) for r in runs4]
            med = statistics.median(times)
            statuses = ",".join(sorted({r[0] for r in runs4}))
            target, verd = "-", "-"
            if n == "10000":
                target = "< 3 s"
                verd = ("ok" if med < 3 and statuses == "200" else "MISS") + f" ({med / 3 - 1:+.0%})"
            print(f"| {int(n):,} | {int(float(runs4[0][2])):,} | {int(float(runs4[0][3])):,} | {statuses} | "
                  f"{' '.join(f'{t * 1000:.0f}' for t in times)} ms | {med * 1000:.0f} ms | {target} | {verd} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
