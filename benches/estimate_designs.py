#!/usr/bin/env python3
"""Back-tests `cubes estimate` on every finished campaign in proofs/: for each
plan whose cubes all have records, the census (`cubes estimate PLAN`, every
record: the claim's true cost) against the estimates two sample designs
would have given, over many seeds, all computed by one hexcert binary from
the committed records (nothing is solved).

    benches/estimate_designs.py --hexcert BIN [--seeds 40]
                                [--random 3] [--graded 4]

Per campaign and design it prints the estimate's ratio to the truth (10th
percentile, median, 90th percentile over the seeds), how often the 95 %
interval held the truth, the interval's median width (high / low), and
what the sample itself cost as a share of the claim.
"""

import argparse
import glob
import json
import os
import statistics
import subprocess


def estimate(hexcert, plan, *extra):
    out = subprocess.run([hexcert, "cubes", "estimate", plan, "--json", *extra], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{plan}: cubes estimate {' '.join(extra)} exited {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)["estimate"]


def quantiles(xs):
    xs = sorted(xs)
    return xs[len(xs) // 10], statistics.median(xs), xs[(9 * len(xs)) // 10]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hexcert", required=True, help="the hexcert binary")
    parser.add_argument("--seeds", type=int, default=40, help="seeds per design (1..N)")
    parser.add_argument("--random", type=int, default=3, help="size of the random sample")
    parser.add_argument("--graded", type=int, default=4, help="size of the graded sample")
    args = parser.parse_args()
    plans = sorted(p for p in glob.glob("proofs/n*/level*/wedge/plan.json")
                   if len(json.load(open(p))["cubes"]) == len(glob.glob(os.path.join(os.path.dirname(p), "results", "*.json"))))
    print("| campaign | truth (s) | design | ratio p10 / median / p90 | interval held | median high/low | sample's share |")
    print("|---|---|---|---|---|---|---|")
    for plan in plans:
        truth = estimate(args.hexcert, plan)["total"]
        name = plan.split("/")[1] + " " + plan.split("/")[2]
        for design, extra in (("random %d" % args.random, ["--sample", str(args.random)]),
                              ("graded %d" % args.graded, ["--sample", str(args.graded), "--graded"])):
            ratios, held, widths, shares = [], 0, [], []
            for seed in range(1, args.seeds + 1):
                e = estimate(args.hexcert, plan, *extra, "--seed", str(seed))
                ratios.append(e["total"] / truth)
                held += e["low"] <= truth <= e["high"]
                widths.append(e["high"] / e["low"])
                shares.append(e["measured"] / truth)
            p10, med, p90 = quantiles(ratios)
            print(f"| {name} | {truth:,.0f} | {design} | {p10:.2f} / {med:.2f} / {p90:.2f} | {held}/{args.seeds} "
                  f"| {statistics.median(widths):.1f} | {statistics.median(shares):.0%} |")


if __name__ == "__main__":
    main()
