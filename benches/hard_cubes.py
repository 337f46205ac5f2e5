#!/usr/bin/env python3
"""Runs the fixed hard cubes of benches/hard-cubes.json with one hexcert binary
and prints, per cube, the CPU seconds of `cubes run --index I` (solver and
online LRAT checker, user + system) and the record's solve_seconds.

    benches/hard_cubes.py --hexcert BIN [--tie-break next-ring] [--cheap]
                          [--only TEXT] [--repeat R] [--nice 15]
                          [--split prefix|pivots|cardinality --tree-depth D
                           --prefix-conflicts C]

A before/after pair is two runs of this script, one binary (or option) each,
one after the other on the same machine; docs/CAMPAIGN.md has the recipe.
--tie-break runs each cube on its plan with that tie-break added (the plan's
cubes unchanged, its formula hash taken from a fresh `cubes plan` of the same
claim, split and counter). Nothing is written outside a temporary directory;
no proof is kept (--store-limit 0). Cubes are run one at a time.
--split measures a splitting strategy instead of the cube whole: `cubes
refine --cube I --strategy S` grows its tree (CPU timed), then every leaf
runs as its own cube; it prints the tree's CPU, the leaves' sum and the
slowest leaf, which a run without --split (the cube whole) is the baseline for.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_plan(path):
    with open(os.path.join(ROOT, path)) as f:
        record = json.load(f)
    return record["plan"] if "plan" in record else record


def with_tie_break(hexcert, plan, tie_break, scratch):
    """The plan with `tie_break`, its formula hash from a fresh plan of the same formula."""
    fresh = os.path.join(scratch, "fresh.json")
    subprocess.run(
        [hexcert, "cubes", "plan", "--n", str(plan["n"]), "--level", str(plan["level"]), "--below", str(plan["below"]),
         "--radius", str(plan["radius"]), "--depth", str(plan["depth"]), "--cardinality", plan["cardinality"],
         "--budget-split", "0", "--tie-break", tie_break, "-o", fresh, "-q"],
        check=True, stdout=subprocess.DEVNULL)
    with open(fresh) as f:
        digest = json.load(f)["formula_sha256"]
    return dict(plan, tie_break=tie_break, formula_sha256=digest)


def cpu_of(command):
    """User + system CPU seconds of `command` (which must succeed)."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def run_cube(hexcert, plan_path, index, scratch, niceness):
    results = tempfile.mkdtemp(dir=scratch, prefix="results-")
    cpu = cpu_of(["nice", "-n", str(niceness), hexcert, "cubes", "run", plan_path, "--index", str(index),
                  "--results", results, "--store-limit", "0", "-q"])
    records = [n for n in os.listdir(results) if n.endswith(".json")]
    with open(os.path.join(results, records[0])) as f:
        record = json.load(f)
    shutil.rmtree(results)
    return cpu, record.get("solve_seconds"), record["verdict"]


def run_split(args, plan_path, index, scratch):
    """CPU of growing the tree below cube `index` and of each of its leaves."""
    refined = os.path.join(scratch, "refined.json")
    grow = cpu_of(["nice", "-n", str(args.nice), args.hexcert, "cubes", "refine", plan_path, "--cube", str(index),
                   "-o", refined, "--strategy", args.split, "--tree-depth", str(args.tree_depth),
                   "--prefix-conflicts", str(args.prefix_conflicts), "-q"])
    with open(plan_path) as f:
        before = [json.dumps(dict({"literals": []}, **c), sort_keys=True) for c in json.load(f)["cubes"]]
    with open(refined) as f:
        after = [json.dumps(dict({"literals": []}, **c), sort_keys=True) for c in json.load(f)["cubes"]]
    leaves = [j for j, key in enumerate(after) if key not in before]
    return grow, [run_cube(args.hexcert, refined, j, scratch, args.nice)[0] for j in leaves]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hexcert", required=True, help="the binary to measure")
    parser.add_argument("--tie-break", help="add this tie-break to every cube's plan (e.g. next-ring)")
    parser.add_argument("--cheap", action="store_true", help="only the cubes marked cheap (minutes in all)")
    parser.add_argument("--only", help="only the cubes whose name contains this text")
    parser.add_argument("--repeat", type=int, default=1, help="runs per cube; the median is printed")
    parser.add_argument("--nice", type=int, default=15, help="niceness of each run")
    parser.add_argument("--split", choices=["prefix", "pivots", "cardinality"], help="split each cube by this strategy and run its leaves")
    parser.add_argument("--tree-depth", type=int, default=3, help="with --split: the tree's depth")
    parser.add_argument("--prefix-conflicts", type=int, default=5000, help="with --split: conflicts of each prefix run")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "benches", "hard-cubes.json")) as f:
        bench = json.load(f)
    if shutil.which("cake_lpr"):
        print("note: cake_lpr is on PATH, so each cube's proof is also streamed into it (12 GB heap)", file=sys.stderr)
    scratch = tempfile.mkdtemp(prefix="hard-cubes-")
    try:
        for cube in bench["cubes"]:
            if (args.cheap and not cube["cheap"]) or (args.only and args.only not in cube["name"]):
                continue
            plan = load_plan(cube["plan"])
            if args.tie_break:
                plan = with_tie_break(args.hexcert, plan, args.tie_break, scratch)
            wanted = {"depth": cube["depth"], "values": cube["values"], "literals": cube["literals"]}
            index = next(i for i, c in enumerate(plan["cubes"]) if dict({"literals": []}, **c) == wanted)
            plan_path = os.path.join(scratch, "plan.json")
            with open(plan_path, "w") as f:
                json.dump(plan, f)
            if args.split:
                grow, leaves = run_split(args, plan_path, index, scratch)
                print(f"{cube['name']}: index {index}, {args.split} depth {args.tree_depth}: tree {grow:.1f} s, "
                      f"{len(leaves)} leaves {sum(leaves):.1f} s (slowest {max(leaves):.1f}), total {grow + sum(leaves):.1f} s cpu; "
                      f"recorded {cube['recorded_seconds']} s", flush=True)
                continue
            runs = [run_cube(args.hexcert, plan_path, index, scratch, args.nice) for _ in range(args.repeat)]
            cpus = [cpu for cpu, _, _ in runs]
            solves = ", ".join(f"{s:.1f}" for _, s, _ in runs)
            print(f"{cube['name']}: index {index}, cpu {', '.join(f'{c:.1f}' for c in cpus)} s (median {statistics.median(cpus):.1f}), "
                  f"solve {solves} s, {runs[0][2]}; recorded {cube['recorded_seconds']} s", flush=True)
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
