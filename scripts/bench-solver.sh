#!/usr/bin/env bash
# Solver benchmark: layoutd's Cassowary vs kiwisolver on the same generated systems,
# in one run, with summarize.py's table of ratios and the solver's targets (bench/solver/targets.py).
#
#   scripts/bench-solver.sh                      # sizes 100,1000,10000
#   SIZES=100,1000 scripts/bench-solver.sh       # quicker
#   SKIP_AFTER_S=30 TIMEOUT_S=240 scripts/bench-solver.sh
#   BENCH=/path/to/layoutd-bench scripts/bench-solver.sh   # use a built binary
#   SCRATCH=/tmp/build-x scripts/bench-solver.sh            # build outside .build
#   ONLY=layoutd scripts/bench-solver.sh   # re-run one side, keep the other's results
#   PASSES=9 scripts/bench-solver.sh       # more passes of layoutd's side (default 5)
#
# Systems go to bench-out/systems (git-ignored), results to bench-out/results.
# The kit lives in ../shared/bench beside the clone (as in CI).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kit="$repo/../shared/bench"
out="$repo/bench-out"
sizes="${SIZES:-100,1000,10000}"
skip_after="${SKIP_AFTER_S:-30}"
timeout_s="${TIMEOUT_S:-240}"
budget="${BUDGET_S:-10}"
# layoutd's side runs each system at least 7 times and then until a second has passed
# (at most 51 runs), and takes the median of those runs. It does that in PASSES passes
# over all the systems (default 5, interleaved: chain-100, chain-1000, ..., mixed-10000-edit,
# then again) and reports, per system, the pass with the median figure. On a shared machine
# a neighbour's load comes in bursts of seconds that slowed every system by up to 2x (the
# same binary's grid-1000 took 4.5 ms and 8.4 ms a few seconds apart), so one pass let a
# burst land on a 10,000-view system and not on its 1,000-view one, and a growth ratio
# crossed 12x in either direction between runs. kiwi's runs take seconds each and run once.
our_repeats="${OUR_REPEATS:-51}"
passes="${PASSES:-5}"

cd "$repo"
# kiwisolver (pinned in integration/requirements.txt) is the anchor: without it every kiwi row
# would read "timeout or failure". install-deps.sh exits at once when it is there.
if [[ "${ONLY:-}" != "layoutd" ]]; then
    scripts/install-deps.sh
fi
if [[ -n "${BENCH:-}" ]]; then
    bench="$BENCH"
else
    scratch=(--scratch-path "${SCRATCH:-$repo/.build}")
    swift build -c release --product layoutd-bench "${scratch[@]}" >&2
    bench="$(swift build -c release "${scratch[@]}" --show-bin-path)/layoutd-bench"
fi

mkdir -p "$out/systems" "$out/results"
python3 "$kit/gen_systems.py" --out "$out/systems" --sizes "$sizes" >/dev/null
kiwi_out="$out/results/kiwi.jsonl"
ours_out="$out/results/layoutd.jsonl"
only="${ONLY:-}"
[[ "$only" == "layoutd" ]] || : > "$kiwi_out"
[[ "$only" == "kiwi" ]] || : > "$ours_out"

# The kit's systems that were generated, in run_all.py's order: smallest first within
# each family and variant.
systems_in_order() {
    for family in chain grid mixed; do
        for variant in "" "-edit"; do
            for n in ${sizes//,/ }; do
                [[ -f "$out/systems/$family-$n$variant.json" ]] && echo "$family-$n$variant"
            done
        done
    done
    return 0
}

# The skip rule's state: once a family/variant exceeds the skip limit its larger sizes
# are skipped (`stop` says why); entering the next family/variant clears it.
stop=""
last_group=""
enter_group() {
    local group="${1//[0-9]/}"
    [[ "$group" == "$last_group" ]] || stop=""
    last_group="$group"
}

# kiwi: once each, with the skip rule.
if [[ "$only" != "layoutd" ]]; then
    for name in $(systems_in_order); do
        file="$out/systems/$name.json"
        enter_group "$name"
        if [[ -n "$stop" ]]; then
            echo "{\"system\": \"$name\", \"solver\": \"kiwi\", \"skipped\": \"$stop\"}" >> "$kiwi_out"
            continue
        fi
        start=$SECONDS
        if ! timeout "$timeout_s" python3 "$kit/kiwi_bench.py" "$file" --min-repeats 1 --budget-s "$budget" >> "$kiwi_out"; then
            echo "{\"system\": \"$name\", \"solver\": \"kiwi\", \"error\": \"timeout or failure\"}" >> "$kiwi_out"
            stop="after $name"
        fi
        (( SECONDS - start > skip_after )) && stop="after $name took $((SECONDS - start)) s"
        echo "done kiwi $name" >&2
    done
fi

# layoutd: the same skip rule, decided in the first pass; every pass's lines go to one
# file, and the median pass per system goes to $ours_out.
if [[ "$only" != "kiwi" ]]; then
    all_passes="$out/results/layoutd-passes.jsonl"
    : > "$all_passes"
    declare -A skipped=()
    for pass in $(seq 1 "$passes"); do
        last_group=""
        for name in $(systems_in_order); do
            file="$out/systems/$name.json"
            enter_group "$name"
            if (( pass == 1 )) && [[ -n "$stop" ]]; then
                skipped[$name]="$stop"
                echo "{\"system\": \"$name\", \"solver\": \"layoutd\", \"skipped\": \"$stop\"}" >> "$all_passes"
                continue
            fi
            [[ -z "${skipped[$name]:-}" ]] || continue
            start=$SECONDS
            if ! timeout "$timeout_s" "$bench" solver "$file" --repeats "$our_repeats" --min-repeats 7 --budget-s 1 >> "$all_passes"; then
                echo "{\"system\": \"$name\", \"solver\": \"layoutd\", \"error\": \"timeout or failure\"}" >> "$all_passes"
                skipped[$name]="failed"
                stop="after $name"
            fi
            (( SECONDS - start > skip_after )) && stop="after $name took $((SECONDS - start)) s"
        done
        echo "done layoutd pass $pass of $passes" >&2
    done
    python3 "$repo/bench/solver/median_pass.py" "$all_passes" > "$ours_out"
fi

python3 "$kit/summarize.py" "$kiwi_out" "$ours_out" --baseline kiwisolver
echo
echo "The solver's targets (same run; peak memory: /usr/bin/time -v layoutd-bench solver bench-out/systems/chain-10000.json):"
python3 "$repo/bench/solver/targets.py" "$kiwi_out" "$ours_out"
