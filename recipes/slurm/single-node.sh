#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from slurm.conf.in beside this
# script: what CI runs the array recipe on, and a way to try it by hand.
#   recipes/slurm/single-node.sh start   # prints the SLURM_CONF=... to export
#   recipes/slurm/single-node.sh stop    # stops what start started
# Needs root (re-runs itself with sudo) and Debian's `slurm-wlm` and `munge`.
# State, logs and the filled slurm.conf go to $HEXCERT_SLURM_STATE
# (default /tmp/hexcert-slurm). A munged already answering is used as it is.
set -euo pipefail
if [[ $(id -u) != 0 ]]; then
  exec sudo --preserve-env=HEXCERT_SLURM_STATE "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
state=${HEXCERT_SLURM_STATE:-/tmp/hexcert-slurm}
conf=$state/slurm.conf
node=$(hostname -s)

# A daemon removes its pid file as it exits, so the file may vanish between
# the test and the read: that is "not alive", not an error.
alive() { local pid; pid=$(cat "$1" 2>/dev/null) && [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; }

stop_pidfile() {
  local pidfile=$1
  local pid
  pid=$(cat "$pidfile" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do alive "$pidfile" || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

start_munge() {
  if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
  install -d -o munge -g munge -m 0755 /run/munge
  [[ -s /etc/munge/munge.key ]] || runuser -u munge -- mungekey --create
  runuser -u munge -- /usr/sbin/munged
  echo /run/munge/munged.pid > "$state/munged.ours"
  for _ in $(seq 50); do
    if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
    sleep 0.2
  done
  echo "munged did not answer" >&2
  exit 1
}

wait_idle() {
  local said=""
  for _ in $(seq 150); do
    said=$(SLURM_CONF=$conf sinfo -h -n "$node" -o %T 2>/dev/null || true)
    case $said in
      idle*) return ;;
      drain*|down*|inval*) break ;;
    esac
    sleep 0.2
  done
  echo "the node $node is not idle (sinfo: ${said:-no answer}); logs:" >&2
  tail -n 20 "$state"/slurmctld.log "$state"/slurmd.log >&2 || true
  exit 1
}

start() {
  if alive "$state/slurmctld.pid" || alive "$state/slurmd.pid"; then
    echo "a cluster from $state is running: stop it first" >&2
    exit 1
  fi
  rm -rf "$state"
  mkdir -p "$state/ctld" "$state/d"
  local cpus memory
  cpus=$(nproc)
  memory=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
  sed -e "s|@NODE@|$node|g" -e "s|@CPUS@|$cpus|" -e "s|@MEMORY@|$memory|" -e "s|@STATE@|$state|g" \
      -e "s|@CTLD_PORT@|${HEXCERT_SLURMCTLD_PORT:-6817}|" -e "s|@D_PORT@|${HEXCERT_SLURMD_PORT:-6818}|" \
      "$here/slurm.conf.in" > "$conf.tmp"
  mv "$conf.tmp" "$conf"
  start_munge
  slurmctld -f "$conf"
  slurmd -f "$conf"
  wait_idle
  echo "SLURM_CONF=$conf"
}

stop() {
  stop_pidfile "$state/slurmd.pid"
  stop_pidfile "$state/slurmctld.pid"
  if [[ -s $state/munged.ours ]]; then
    stop_pidfile "$(cat "$state/munged.ours")"
    rm -f "$state/munged.ours"
  fi
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: single-node.sh start|stop" >&2; exit 2 ;;
esac
