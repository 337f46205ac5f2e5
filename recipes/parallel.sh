#!/usr/bin/env bash
# Runs a cube plan's job list with GNU parallel (Debian package `parallel`).
#   recipes/parallel.sh plan.json.jobs [JOBS]           # this machine, JOBS at once (default: cores)
#   SSHLOGIN=8/alice@host1,8/host2 recipes/parallel.sh plan.json.jobs
#                                                      # several machines: the plan, hexcert and the
#                                                      # results directory at the same path on each
#                                                      # (a shared file system), commands run there
# Each line of the job list is one `hexcert cubes run PLAN --results DIR --index I`;
# a rerun skips cubes whose record exists, so stopping and restarting is safe.
set -euo pipefail
jobs_file=${1:?usage: parallel.sh PLAN.jobs [JOBS]}
jobs=${2:-100%}
if [[ -n "${SSHLOGIN:-}" ]]; then
  exec parallel --jobs "$jobs" --sshlogin "$SSHLOGIN" --workdir "$PWD" --halt soon,fail=1 < "$jobs_file"
fi
exec parallel --jobs "$jobs" --halt soon,fail=1 < "$jobs_file"
