#!/usr/bin/env bash
# One cube per Slurm array task: line SLURM_ARRAY_TASK_ID + 1 of the job list.
#   sbatch --array=0-$(( $(wc -l < plan.json.jobs) - 1 )) recipes/slurm-array.sh plan.json.jobs
# Submit from a directory on the shared file system that holds the plan and
# the results directory; add %N to --array to cap the tasks running at once.
#SBATCH --job-name=hexcert-cubes
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
set -euo pipefail
jobs_file=${1:?usage: sbatch --array=0-N slurm-array.sh PLAN.jobs}
line=$(sed -n "$(( SLURM_ARRAY_TASK_ID + 1 ))p" "$jobs_file")
[[ -n "$line" ]] || { echo "no job $SLURM_ARRAY_TASK_ID in $jobs_file" >&2; exit 2; }
exec bash -c "$line"
