#!/usr/bin/env bash
# Prints the lines of a plan's job list whose cube has no record yet: what a
# resumed campaign submits, so no finished cube is solved twice.
#   recipes/pending.sh plan.json.jobs > plan.json.pending
#   sbatch --array=0-$(( $(wc -l < plan.json.pending) - 1 )) recipes/slurm-array.sh plan.json.pending
# The plan, the results directory and hexcert are read from the job list's
# first line (`HEXCERT cubes run PLAN --results DIR ... --index I`), and
# `hexcert cubes status` says which cubes are missing. Exits 1 when a record
# is rejected or holds a counterexample (`cubes status` tells which): those
# need a person, not a rerun. Unfinished cubes are not rerun: refine them.
set -euo pipefail
jobs_file=${1:?usage: pending.sh PLAN.jobs}
read -r -a first < "$jobs_file"
[[ ${first[1]:-} == cubes && ${first[2]:-} == run ]] || { echo "pending.sh: $jobs_file is not a cube plan's job list" >&2; exit 2; }
hexcert=${first[0]} plan=${first[3]}
results=$(dirname "$plan")/results  # the default of `cubes run`
for (( i = 4; i + 1 < ${#first[@]}; i++ )); do
  [[ ${first[i]} == --results ]] && results=${first[i + 1]}
done
set +e
status=$("$hexcert" cubes status "$plan" --results "$results" --json -q)
code=$?
set -e
case $code in
  0) exit 0 ;;  # every cube refuted: nothing to submit
  4) ;;
  *) "$hexcert" cubes status "$plan" --results "$results" -q >&2 || true; exit 1 ;;
esac
missing=$(grep -o '"missing":\[[0-9,]*\]' <<< "$status" | tr -dc '0-9,')
# Every line names its cube with `--index I`; keep those whose I is missing.
awk -v missing="$missing" '
  BEGIN { n = split(missing, m, ","); for (k = 1; k <= n; k++) want[m[k]] = 1 }
  { for (f = 1; f < NF; f++) if ($f == "--index" && ($(f + 1) in want)) { print; next } }
' "$jobs_file"
