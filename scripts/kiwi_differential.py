#!/usr/bin/env python3
"""Differential test: layoutd's Cassowary solver against kiwisolver (PyPI, pinned in
integration/requirements.txt as kiwisolver==1.5.1).

  python3 scripts/kiwi_differential.py [--bench .build/release/layoutd-bench]
                                       [--count 500] [--seed 20261130] [--keep DIR]

Generates --count seeded random systems in layout-lp/1 form (../shared/bench/FORMAT.md)
plus the "x-remove" extension: 2-7 variables, required equalities and inequalities
(all satisfied by a hidden point, so the required part is feasible), optional
equalities and inequalities at three levels (strong 1e6, medium 1e3, weak 1) with
generic (random real) scale factors so that the optimum is unique, add-then-remove
sequences (x-remove) and edit/suggest sequences (1-2 edit variables, 2-6 steps).
Every variable has a weak anchor `k·(v - t) == 0` with generic k, so nothing is free.

kiwi runs in this process; layoutd runs once for all systems (`layoutd-bench
solver-batch DIR`). Values after the build (adds, then removes) and after the last
edit step must agree within 1e-6 (relative to max(1, |value|)).

Strict priorities vs kiwi's weights: the systems are small with integer or O(1)
coefficients and levels 1000x apart, so kiwi's weighted optimum is almost always the
strict (lexicographic) one too. When the two solvers disagree, the test evaluates
both solutions: if layoutd's per-level error vector is lexicographically smaller and
kiwi's weighted objective is no larger than layoutd's, the system is one where the
semantics legitimately differ; it is counted as "semantics differ" and not compared
(the generator is meant to avoid them; more than 2% of them fails the run). When
kiwi's answer breaks a required constraint that layoutd's keeps, there is nothing to
compare against: kiwi loses a required equality that a redundant copy still imposes
once one copy is removed (`2·v1 + 69.15 == 0` added twice, the first removed; or
`-2·v2 - 105 == 0` beside `-3·v2 - 157.5 == 0`). Such systems are printed and counted
as "kiwi broke a required constraint" (more than 2% of them fails the run too). Any
other disagreement is a failure.

Prints "N passed, M failed" and exits non-zero if M > 0.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import kiwisolver as kiwi

LEVELS = {"strong": 1e6, "medium": 1e3, "weak": 1.0}
REQUIRED = 1001001000.0
TOL = 1e-6


def strength_value(s):
    if isinstance(s, str):
        return REQUIRED if s == "required" else LEVELS[s]
    return min(float(s), REQUIRED)


def generate(rnd, index):
    n = rnd.randint(2, 7)
    names = ["v%d" % i for i in range(n)]
    point = [rnd.uniform(-100, 100) for _ in range(n)]
    cons = []

    def terms(k):
        chosen = rnd.sample(range(n), k)
        return [[float(rnd.choice([-3, -2, -1, 1, 2, 3])), i] for i in chosen]

    def value_at(ts):
        return sum(c * point[i] for c, i in ts)

    # required equalities and inequalities through the hidden point
    for _ in range(rnd.randint(0, min(2, n - 1))):
        ts = terms(rnd.randint(1, min(3, n)))
        cons.append((ts, -value_at(ts), "==", "required"))
    for _ in range(rnd.randint(0, 3)):
        ts = terms(rnd.randint(1, min(3, n)))
        slack = rnd.uniform(0, 20)
        if rnd.random() < 0.5:
            cons.append((ts, -value_at(ts) - slack, "<=", "required"))   # a.p - (a.p + s) <= 0
        else:
            cons.append((ts, -value_at(ts) + slack, ">=", "required"))
    first_optional = len(cons)
    # optional constraints at three levels, generic scale factors
    for _ in range(rnd.randint(1, 6)):
        ts = terms(rnd.randint(1, min(3, n)))
        scale = rnd.uniform(0.5, 2.0)
        target = rnd.uniform(-150, 150)
        ts = [[c * scale, i] for c, i in ts]
        op = rnd.choice(["==", "<=", ">="])
        cons.append((ts, -target * scale, op, rnd.choice(["strong", "medium", "weak"])))
    # weak anchors with generic weights: every variable is pinned at the weakest level
    anchors = []
    for i in range(n):
        k = rnd.uniform(0.05, 0.5)
        anchors.append(len(cons))
        cons.append(([[k, i]], -k * rnd.uniform(-100, 100), "==", "weak"))
    rnd.shuffle(cons)
    removable = [j for j, c in enumerate(cons) if c[3] != "required" and not (len(c[0]) == 1 and c[3] == "weak" and abs(c[0][0][0]) <= 0.5)]
    removals = []
    if rnd.random() < 0.35 and removable:
        removals = rnd.sample(removable, rnd.randint(1, min(3, len(removable))))
        # sometimes also remove a required constraint
    if rnd.random() < 0.2:
        req = [j for j, c in enumerate(cons) if c[3] == "required" and j not in removals]
        if req:
            removals.append(rnd.choice(req))
    edits = []
    if rnd.random() < 0.4:
        steps = rnd.randint(2, 6)
        for i in rnd.sample(range(n), rnd.randint(1, min(2, n))):
            edits.append({"variable": names[i], "strength": rnd.choice(["strong", "medium"]),
                          "values": [round(rnd.uniform(-120, 120), 3) for _ in range(steps)]})
    system = {
        "format": "layout-lp/1",
        "meta": {"name": "diff-%04d" % index, "family": "differential", "seed": index},
        "variables": names,
        "constraints": [{"terms": [[c, names[i]] for c, i in ts], "constant": const, "op": op,
                         "strength": st} for ts, const, op, st in cons],
    }
    if removals:
        system["x-remove"] = removals
    if edits:
        system["edits"] = edits
    return system


def run_kiwi(system):
    vars_ = {name: kiwi.Variable(name) for name in system["variables"]}
    solver = kiwi.Solver()
    cons = []
    for c in system["constraints"]:
        e = kiwi.Expression([kiwi.Term(vars_[v], coef) for coef, v in c["terms"]], c["constant"])
        con = kiwi.Constraint(e, c["op"], strength_value(c["strength"]))
        solver.addConstraint(con)
        cons.append(con)
    for j in system.get("x-remove", []):
        solver.removeConstraint(cons[j])
    solver.updateVariables()
    build = [vars_[n].value() for n in system["variables"]]
    edit = None
    if system.get("edits"):
        for e in system["edits"]:
            solver.addEditVariable(vars_[e["variable"]], strength_value(e["strength"]))
        for k in range(len(system["edits"][0]["values"])):
            for e in system["edits"]:
                solver.suggestValue(vars_[e["variable"]], e["values"][k])
        solver.updateVariables()
        edit = [vars_[n].value() for n in system["variables"]]
    return build, edit


def active_constraints(system, with_edits):
    """(terms as (coef, index), constant, op, strength value) of the constraints in force."""
    index = {n: i for i, n in enumerate(system["variables"])}
    removed = set(system.get("x-remove", []))
    out = [([(coef, index[v]) for coef, v in c["terms"]], c["constant"], c["op"], strength_value(c["strength"]))
           for j, c in enumerate(system["constraints"]) if j not in removed]
    if with_edits:
        for e in system["edits"]:
            out.append(([(1.0, index[e["variable"]])], -e["values"][-1], "==", strength_value(e["strength"])))
    return out


def errors(cons, values):
    """Per-level error sums (strongest first), weighted objective, max required violation."""
    levels = {}
    weighted = 0.0
    worst = 0.0
    for ts, const, op, s in cons:
        r = const + sum(c * values[i] for c, i in ts)
        v = abs(r) if op == "==" else (max(0.0, r) if op == "<=" else max(0.0, -r))
        if s >= REQUIRED:
            worst = max(worst, v)
        else:
            levels[s] = levels.get(s, 0.0) + v
            weighted += s * v
    return [levels[s] for s in sorted(levels, reverse=True)], weighted, worst


def close(a, b):
    return all(abs(x - y) <= TOL * max(1.0, abs(x), abs(y)) for x, y in zip(a, b))


def semantics_differ(cons, ours, theirs):
    lo, wo, ro = errors(cons, ours)
    lt, wt, rt = errors(cons, theirs)
    if ro > 1e-6:
        return False
    for a, b in zip(lo, lt):
        if a < b - 1e-7 * max(1.0, b):
            return wt <= wo * (1 + 1e-9) + 1e-9
        if a > b + 1e-7 * max(1.0, b):
            return False
    return False


def kiwi_breaks_required(cons, ours, theirs):
    """Whether kiwi's values break a required constraint (by more than 1e-6) that ours keep."""
    return errors(cons, ours)[2] <= 1e-6 and errors(cons, theirs)[2] > 1e-6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=".build/release/layoutd-bench")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--keep", help="write the systems to this folder and keep them")
    a = ap.parse_args()

    folder = a.keep or tempfile.mkdtemp(prefix="kiwi-diff-")
    os.makedirs(folder, exist_ok=True)
    rnd = random.Random(a.seed)
    systems = {}
    for i in range(a.count):
        s = generate(rnd, i)
        name = s["meta"]["name"] + ".json"
        systems[name] = s
        with open(os.path.join(folder, name), "w") as f:
            json.dump(s, f)
    try:
        p = subprocess.run([a.bench, "solver-batch", folder], capture_output=True, text=True, timeout=300)
    finally:
        if not a.keep:
            shutil.rmtree(folder, ignore_errors=True)
    if p.returncode != 0:
        print(p.stderr.strip())
        print("0 passed, %d failed" % a.count)
        return 1
    ours = {}
    for line in p.stdout.splitlines():
        d = json.loads(line)
        ours[d["file"]] = d

    passed = failed = differ = broken = 0
    for name in sorted(systems):
        s = systems[name]
        mine = ours.get(name)
        try:
            kb, ke = run_kiwi(s)
        except Exception as exc:   # kiwi rejects the system: nothing to compare against
            if mine is None or "error" in mine:
                passed += 1
            else:
                failed += 1
                print("FAIL %s: kiwi raised %r, layoutd solved it" % (name, exc))
            continue
        if mine is None or "error" in mine:
            failed += 1
            print("FAIL %s: layoutd: %s" % (name, mine and mine.get("error")))
            continue
        ok = True
        legit = False
        kiwi_broken = False
        for phase, theirs, values, with_edits in (("build", kb, mine["build"], False),
                                                   ("edit", ke, mine["edit"], True)):
            if theirs is None:
                continue
            if values is None or not close(values, theirs):
                cons = active_constraints(s, with_edits)
                if values is not None and semantics_differ(cons, values, theirs):
                    legit = True
                    continue
                if values is not None and kiwi_breaks_required(cons, values, theirs):
                    kiwi_broken = True
                    print("KIWI BROKE A REQUIRED CONSTRAINT %s %s (by %.3g; layoutd keeps it):\n  layoutd %s\n  kiwi    %s"
                          % (name, phase, errors(cons, theirs)[2], values, theirs))
                    continue
                ok = False
                print("FAIL %s %s:\n  layoutd %s\n  kiwi    %s" % (name, phase, values, theirs))
        if not ok:
            failed += 1
        elif kiwi_broken:
            broken += 1
        elif legit:
            differ += 1
        else:
            passed += 1
    if differ > a.count * 0.02:
        print("too many systems where strict and weighted semantics differ: %d" % differ)
        failed += differ
    if broken > a.count * 0.02:
        print("too many systems where kiwi broke a required constraint: %d" % broken)
        failed += broken
    print("semantics differ (strict better, kiwi's weights better; not compared): %d" % differ)
    print("kiwi broke a required constraint layoutd keeps (not compared): %d" % broken)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
