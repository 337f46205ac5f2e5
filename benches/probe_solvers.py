#!/usr/bin/env python3
"""Pairs today's road on a hard cube (`hexcert cubes run`, as
benches/hard_cubes.py runs it) with two other roads on the same cube, one
after the other on the same machine, and prints the CPU of each:

- a CDCL solver writing a DRAT proof (Kissat: `kissat CNF PROOF`), then
  drat-trim carrying the proof to LRAT (`drat-trim CNF PROOF -L LRAT`), each
  timed on its own;
- a pseudo-Boolean solver with VeriPB proof logging (RoundingSat:
  `roundingsat --proof-log=BASE OPB`) on `hexcert statement`'s OPB with the
  cube's projection added as unit constraints.

    benches/probe_solvers.py --hexcert BIN [--kissat BIN --drat-trim BIN]
                             [--roundingsat BIN] (--only TEXT | --validate PLAN)
                             [--nice 10] [--limit-factor 3] [--keep DIR]

The cube's CNF is the plan's plain formula (`hexcert encode`, checked against
the plan's formula_sha256) with the cube's units after it, as
`cubes::cube_formula` writes it; when the plan's results directory holds the
cube's record, the CNF is checked against its cnf_sha256 too. The OPB cannot
say the cube's tree path (a literal of the CNF's penalty counter, which the
statement does not have), so the PB road solves the whole projection: every
leaf of the plan with the cube's values, which today's road is then run on,
leaf after leaf, for the pair. With --validate PLAN (a small plan) every cube
is solved by every road and the verdicts are compared, SAT or UNSAT: the
check that the CNF and the OPB state the same cube.

Each probe runs under a CPU limit (RLIMIT_CPU) of --limit-factor times the
cube's recorded CPU (the PB road: times today's CPU on the projection's
leaves; --validate: times 100 s; 0.5 is enough to tell whether a road pays
2x) and a 4 GiB address-space limit; a probe the limit stops is
printed as `stopped`. CPU is user + system of the finished child (wait4, the
accounting /usr/bin/time -v prints). The tools are not hexcert's: build them
from their sources outside the repository.
"""

import argparse
import glob
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hard_cubes  # noqa: E402

MEMORY_LIMIT = 4 << 30


def timed(command, cpu_limit, log):
    """(exit code, CPU seconds, wall seconds) of `command`, its output to `log`; no limit when
    `cpu_limit` is None (today's road)."""
    def limits():
        if cpu_limit is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit), int(cpu_limit) + 5))
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    start = time.monotonic()
    with open(log, "w") as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=limits)
        _, status, usage = os.wait4(child.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, time.monotonic() - start


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def plain_formula(hexcert, plan, scratch):
    """The plan's plain formula, written by `hexcert encode` and checked against the plan's hash."""
    if plan.get("tie_break"):
        sys.exit("plans with a tie-break are not probed (their lex-leader clauses are not written here)")
    path = os.path.join(scratch, "plain.cnf")
    subprocess.run([hexcert, "encode", "--n", str(plan["n"]), "--level", str(plan["level"]),
                    "--max-penalty", str(plan["below"] - 1), "--cardinality", plan["cardinality"],
                    "--symmetry", "none", "-q", "-o", path], check=True)
    if sha256(path) != plan["formula_sha256"]:
        sys.exit(f"{path} does not hash to the plan's formula_sha256")
    with open(path) as f:
        return f.read().splitlines()


def projection_units(plan, values, depth):
    """The ge literals a projection fixes: cell c's ge(c, j) is variable level * c + j - 1."""
    level, units = plan["level"], []
    for cell, value in zip(plan["cells"], values):
        for j in range(2, level + 2):
            var = level * cell + j - 1
            if j <= value:
                units.append(var)
            elif value < depth + 1:
                units.append(-var)
    return units


def cube_cnf(plain, plan, cube, path):
    """Writes the cube's formula: the plain one, a comment naming the cube, its units."""
    comments = [line for line in plain if line.startswith("c")]
    header = next(line for line in plain if line.startswith("p "))
    clauses = [line for line in plain if not line.startswith(("c", "p "))]
    literals = cube.get("literals", [])
    units = projection_units(plan, cube["values"], cube["depth"]) + literals
    path_text = f", path {literals}" if literals else ""
    comments.append(f"c cube: cells {plan['cells']} projected at depth {cube['depth']} to {cube['values']}{path_text}")
    _, _, variables, count = header.split()
    with open(path, "w") as f:
        f.write("\n".join(comments + [f"p cnf {variables} {int(count) + len(units)}"] + clauses))
        f.write("\n" + "".join(f"{u} 0\n" for u in units))


def recorded_cnf_hash(plan_file, cube):
    """The cnf_sha256 of the cube's record in the results directory beside the plan, if any."""
    wanted = dict({"literals": []}, **cube)
    for name in glob.glob(os.path.join(os.path.dirname(plan_file), "results", "*.json")):
        with open(name) as f:
            record = json.load(f)
        if dict({"literals": []}, **record.get("cube", {})) == wanted:
            return record.get("cnf_sha256")
    return None


def projection_opb(hexcert, plan, values, depth, path):
    """The statement's OPB with the projection as unit constraints: value v <= depth is `x_cC_vv`,
    the top value (depth + 1, "more") is "none of 1..=depth"."""
    statement = os.path.join(os.path.dirname(path), "statement.opb")
    subprocess.run([hexcert, "statement", "--n", str(plan["n"]), "--level", str(plan["level"]),
                    "--below", str(plan["below"]), "-q", "-o", statement], check=True)
    units = []
    for cell, value in zip(plan["cells"], values):
        if value <= depth:
            units.append(f"+1 x_c{cell}_v{value} >= 1 ;")
        else:
            units.extend(f"+1 ~x_c{cell}_v{v} >= 1 ;" for v in range(1, depth + 1))
    with open(statement) as f:
        lines = f.read().splitlines()
    head = lines[0].split()
    if head[:2] != ["*", "#variable="] or head[3] != "#constraint=":
        sys.exit(f"{statement}: no OPB header on its first line")
    lines[0] = " ".join(head[:4] + [str(int(head[4]) + len(units))] + head[5:])
    with open(path, "w") as f:
        f.write("\n".join(numbered(lines + units)) + "\n")


def numbered(lines):
    """The OPB with its named variables renamed x1, x2, ... in order of appearance and `<=`
    written as `>=` (RoundingSat reads only numbered names and `>=` or `=`); comment lines are
    dropped but the header."""
    names, out = {}, [lines[0]]
    for line in lines[1:]:
        if line.startswith("*"):
            continue
        if " <= " in line:
            terms = line.split()
            line = " ".join(f"{-int(w):+d}" if i % 2 == 0 and i < len(terms) - 3 else w for i, w in enumerate(terms))
            line = line.replace(" <= ", " >= ").replace(f">= {terms[-2]} ;", f">= {-int(terms[-2])} ;")
        words = []
        for word in line.split():
            negated = word.startswith("~")
            name = word[1:] if negated else word
            if name[:1].isalpha():
                word = ("~" if negated else "") + "x" + str(names.setdefault(name, len(names) + 1))
            words.append(word)
        out.append(" ".join(words))
    return out


def kissat_road(args, cnf, limit, scratch):
    """Kissat with a DRAT proof, then drat-trim to LRAT: (verdict, solver CPU, conversion CPU, proof bytes)."""
    proof, lrat = os.path.join(scratch, "proof.drat"), os.path.join(scratch, "proof.lrat")
    code, solve, _ = timed(["nice", "-n", str(args.nice), args.kissat, cnf, proof], limit,
                           os.path.join(scratch, "kissat.log"))
    verdict = {10: "SAT", 20: "UNSAT"}.get(code, f"stopped (exit {code})")
    convert = None
    if verdict == "UNSAT":
        log = os.path.join(scratch, "drat-trim.log")
        # drat-trim's own -t is wall time, which a loaded machine stretches: the CPU limit rules.
        code, convert, _ = timed(["nice", "-n", str(args.nice), args.drat_trim, cnf, proof, "-L", lrat, "-w",
                                  "-t", "1000000"], limit, log)
        with open(log) as f:
            if "s VERIFIED" not in f.read():
                verdict = f"UNSAT, drat-trim did not verify (exit {code})"
    size = os.path.getsize(proof) if os.path.exists(proof) else 0
    for name in (proof, lrat):
        if os.path.exists(name):
            os.remove(name)
    return verdict, solve, convert, size


def roundingsat_road(args, opb, limit, scratch):
    """RoundingSat with VeriPB proof logging: (verdict, CPU, proof bytes)."""
    base, log = os.path.join(scratch, "pb"), os.path.join(scratch, "roundingsat.log")
    code, cpu, _ = timed(["nice", "-n", str(args.nice), args.roundingsat, f"--proof-log={base}", opb], limit, log)
    with open(log) as f:
        answers = [line.split()[1] for line in f if line.startswith("s ")]
    verdict = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT"}.get(answers[-1] if answers else "", f"stopped (exit {code})")
    size = sum(os.path.getsize(p) for p in glob.glob(base + ".*"))
    for name in glob.glob(base + ".*"):
        os.remove(name)
    return verdict, cpu, size


def hexcert_road(args, plan, index, scratch):
    """Today's road on one cube, as benches/hard_cubes.py runs it: (CPU, verdict)."""
    plan_path = os.path.join(scratch, "plan.json")
    with open(plan_path, "w") as f:
        json.dump(plan, f)
    results = tempfile.mkdtemp(dir=scratch, prefix="results-")
    _, cpu, _ = timed(["nice", "-n", str(args.nice), args.hexcert, "cubes", "run", plan_path, "--index", str(index),
                       "--results", results, "--store-limit", "0", "-q"], None, os.path.join(scratch, "hexcert.log"))
    records = glob.glob(os.path.join(results, "*.json"))
    if not records:
        sys.exit(f"cube {index}: `cubes run` wrote no record")
    with open(records[0]) as f:
        verdict = json.load(f)["verdict"]
    shutil.rmtree(results)
    return cpu, {"refuted": "UNSAT", "counterexample": "SAT"}.get(verdict, verdict)


def leaves_of(plan, cube):
    return [i for i, c in enumerate(plan["cubes"]) if c["values"] == cube["values"] and c["depth"] == cube["depth"]]


def probe_cube(args, name, plan_file, plan, index, recorded, scratch):
    cube = plan["cubes"][index]
    limit = args.limit_factor * recorded
    print(f"{name}: index {index}, recorded {recorded} s, probe CPU limit {limit:.0f} s", flush=True)
    if args.kissat:
        plain = plain_formula(args.hexcert, plan, scratch)
        cnf = os.path.join(scratch, "cube.cnf")
        cube_cnf(plain, plan, cube, cnf)
        expected = recorded_cnf_hash(plan_file, cube)
        agrees = "no record" if expected is None else ("the record's" if sha256(cnf) == expected else "NOT the record's")
        if expected is not None and agrees != "the record's":
            sys.exit(f"{name}: the cube's CNF does not hash to its record's cnf_sha256")
        cpu, verdict = hexcert_road(args, plan, index, scratch)
        print(f"  hexcert cubes run: {verdict}, cpu {cpu:.1f} s (CNF sha256 {agrees})", flush=True)
        verdict, solve, convert, size = kissat_road(args, cnf, limit, scratch)
        conversion = "-" if convert is None else f"{convert:.1f}"
        print(f"  kissat + DRAT: {verdict}, solver cpu {solve:.1f} s, drat-trim -L cpu {conversion} s, "
              f"DRAT {size} bytes; solver/hexcert {solve / cpu:.2f}", flush=True)
        if args.keep:
            shutil.copy(cnf, os.path.join(args.keep, f"cube-{index}.cnf"))
    if args.roundingsat:
        opb = os.path.join(scratch, "projection.opb")
        projection_opb(args.hexcert, plan, cube["values"], cube["depth"], opb)
        leaves = leaves_of(plan, cube)
        runs = [hexcert_road(args, plan, i, scratch) for i in leaves]
        total = sum(cpu for cpu, _ in runs)
        verdicts = sorted({v for _, v in runs})
        print(f"  hexcert cubes run, the projection's {len(leaves)} leaves {leaves}: {'/'.join(verdicts)}, "
              f"cpu {' + '.join(f'{c:.1f}' for c, _ in runs)} = {total:.1f} s", flush=True)
        verdict, cpu, size = roundingsat_road(args, opb, args.limit_factor * total, scratch)
        print(f"  roundingsat --proof-log on the projection: {verdict}, cpu {cpu:.1f} s, proof {size} bytes; "
              f"roundingsat/hexcert {cpu / total:.2f}", flush=True)
        if args.keep:
            shutil.copy(opb, os.path.join(args.keep, f"projection-{index}.opb"))


def validate(args, scratch):
    """Every cube of a small plan by every road: the verdicts must agree (the PB road's, per
    projection, with its leaves': SAT when one of them is)."""
    plan = hard_cubes.load_plan(os.path.abspath(args.validate))
    plain = plain_formula(args.hexcert, plan, scratch) if args.kissat else None
    disagreements, projections = 0, {}
    for index, cube in enumerate(plan["cubes"]):
        cpu, verdict = hexcert_road(args, plan, index, scratch)
        projections.setdefault(tuple(cube["values"]), []).append((verdict, cpu))
        row = [f"hexcert {verdict}"]
        if args.kissat:
            cnf = os.path.join(scratch, "cube.cnf")
            cube_cnf(plain, plan, cube, cnf)
            answer = kissat_road(args, cnf, 600, scratch)[0]
            row.append(f"kissat {answer}")
            disagreements += answer != verdict
        print(f"cube {index} {cube['values']} {cube.get('literals', [])}: {', '.join(row)}", flush=True)
    if args.roundingsat:
        for values, verdicts in projections.items():
            opb = os.path.join(scratch, "projection.opb")
            projection_opb(args.hexcert, plan, list(values), plan["cubes"][0]["depth"], opb)
            answer, cpu, _ = roundingsat_road(args, opb, args.limit_factor * 100, scratch)
            leaves = "SAT" if any(v == "SAT" for v, _ in verdicts) else "UNSAT"
            disagreements += answer != leaves
            print(f"projection {list(values)}: hexcert's leaves {leaves} ({sum(c for _, c in verdicts):.2f} s cpu), "
                  f"roundingsat {answer} ({cpu:.2f} s cpu)", flush=True)
    print(f"{len(plan['cubes'])} cubes, {len(projections)} projections, {disagreements} disagreements")
    return disagreements


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hexcert", required=True, help="the hexcert binary (today's road, and the CNF and OPB writer)")
    parser.add_argument("--kissat", help="a Kissat binary: the CDCL road")
    parser.add_argument("--drat-trim", help="a drat-trim binary: carries Kissat's DRAT proof to LRAT")
    parser.add_argument("--roundingsat", help="a RoundingSat binary: the PB road")
    parser.add_argument("--only", help="probe the benchmark cubes whose name contains this text")
    parser.add_argument("--validate", help="a small plan: solve every cube by every road and compare verdicts")
    parser.add_argument("--nice", type=int, default=10, help="niceness of each run")
    parser.add_argument("--limit-factor", type=float, default=3.0, help="a probe's CPU limit, in recorded CPUs of the cube")
    parser.add_argument("--keep", help="a directory to copy each cube's CNF and OPB into")
    args = parser.parse_args()
    if bool(args.kissat) != bool(args.drat_trim):
        sys.exit("--kissat and --drat-trim go together")
    scratch = tempfile.mkdtemp(prefix="probe-solvers-")
    try:
        if args.validate:
            sys.exit(1 if validate(args, scratch) else 0)
        with open(os.path.join(hard_cubes.ROOT, "benches", "hard-cubes.json")) as f:
            bench = json.load(f)
        for entry in bench["cubes"]:
            if args.only and args.only in entry["name"]:
                plan = hard_cubes.load_plan(entry["plan"])
                wanted = {"depth": entry["depth"], "values": entry["values"], "literals": entry["literals"]}
                index = next(i for i, c in enumerate(plan["cubes"]) if dict({"literals": []}, **c) == wanted)
                plan_file = os.path.join(hard_cubes.ROOT, entry["plan"])
                probe_cube(args, entry["name"], plan_file, plan, index, entry["recorded_seconds"], scratch)
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
